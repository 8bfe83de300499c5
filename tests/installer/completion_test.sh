#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# completion_test.sh DRACTL: the bash completion `dractl completion bash` writes completes
# commands, subcommands and options as a user presses TAB, and leaves option values to files.
set -uo pipefail

dractl="$1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
script="$(mktemp)"
trap 'rm -f "$script"' EXIT
"$dractl" completion bash >"$script" || { echo "FAIL: dractl completion bash" >&2; exit 1; }
failures=0

# complete EXPECTED WORD...: the words typed so far, the last one being completed.
complete_words() {
    bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dractl
        echo "${COMPREPLY[*]}"' _ "$script" "$dractl" "$@"
}
expect() { # expect WANTED WORD...
    local wanted="$1"
    shift
    local got
    got="$(complete_words "$@")"
    if [[ $got != "$wanted" ]]; then
        echo "FAIL: dractl $* <TAB>: expected '$wanted', got '$got'" >&2
        failures=$((failures + 1))
    fi
}

expect "rollout" roll
expect "promote" rollout pro
expect "promote" --cache x.db rollout pro # options before a group's subcommand
expect "info" cache inf
expect "--demo --demo-service-account-dir" serve --dem
expect "--demo-service-account-dir" serve --demo-s
expect "--listen" serve --demo --lis
expect "--kubeconfig" sync --kubecon
expect "" get --cache "" # an option's value: file names, from readline
expect "rollout" help roll

# Every top-level command is offered on an empty word.
offered="$(complete_words "")"
for command in get sync serve rollout cel completion; do
    [[ " $offered " == *" $command "* ]] || {
        echo "FAIL: dractl <TAB> does not offer $command: $offered" >&2
        failures=$((failures + 1))
    }
done

"$dractl" completion fish >/dev/null 2>"$script.err"
status=$?
if [[ $status != 2 ]] || ! grep -q "unknown shell 'fish'" "$script.err"; then
    echo "FAIL: dractl completion fish: exit $status, $(cat "$script.err")" >&2
    failures=$((failures + 1))
fi
rm -f "$script.err"

# zsh: the completion system's functions stand in as stubs that print what would be offered.
if command -v zsh >/dev/null; then
    "$dractl" completion zsh >"$script"
    zsh_offers() { # zsh_offers WORD...: what zsh would offer for the last word
        zsh -f -c '
            compdef() { :; }
            compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }
            _describe() { print -r -- ${${(P)4}%%:*}; }
            _files() { print -r -- "<files>"; }
            source "$1"; shift
            words=("$@"); CURRENT=$#; _dractl' _ "$script" "$dractl" "$@"
    }
    expect_zsh() { # expect_zsh WANTED WORD...
        local wanted="$1" got
        shift
        got="$(zsh_offers "$@")"
        if [[ $got != "$wanted" ]]; then
            echo "FAIL: zsh: dractl $* <TAB>: expected '$wanted', got '$got'" >&2
            failures=$((failures + 1))
        fi
    }
    expect_zsh "plan start run promote pause resume abort finalise reject retry-gate status report audit" rollout ""
    expect_zsh "info check rebuild reset" --cache x.db cache ""
    expect_zsh "<files>" get --cache ""
    [[ " $(zsh_offers serve --) " == *" --demo "* ]] || {
        echo "FAIL: zsh: dractl serve --<TAB> does not offer --demo" >&2
        failures=$((failures + 1))
    }
else
    echo "note: zsh is not installed; its script was not tried"
fi

((failures == 0)) || exit 1
echo "ok"
