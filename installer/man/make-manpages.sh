#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# make-manpages.sh OUTDIR DRACTL [DRACONSOLE]
# Writes dractl.1.gz (and draconsole.1.gz) into OUTDIR from the programs' own --help, so the
# manual says what the installed binaries do: dractl's page holds its overview and, per command,
# that command's help (`dractl completion commands` lists them).
set -euo pipefail

outdir="$1"
dractl="$2"
draconsole="${3:-}"
mkdir -p "$outdir"
# A sanitizer build reports leaks in Qt's plugins at exit; the help is what we want from it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export QT_QPA_PLATFORM=offscreen

version="$("$dractl" --version | awk '{ print $2 }')"

# Help text as roff: kept as written (its columns line up), with roff's special characters
# escaped: backslashes, hyphens (so options copy as ASCII), and a leading dot or quote.
roff_verbatim() {
    printf '.nf\n'
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"
    printf '.fi\n'
}

page() { # page NAME SUMMARY
    printf '.TH %s 1 "" "%s %s" "DRA Console"\n' "${1^^}" "$1" "$version"
    printf '.SH NAME\n%s \\- %s\n' "$1" "$2"
}

{
    page dractl "mirror, inspect and serve Kubernetes Dynamic Resource Allocation objects"
    printf '.SH SYNOPSIS\n.B dractl\n.I command\n.RI [ options ]\n'
    printf '.SH DESCRIPTION\n'
    "$dractl" --help | roff_verbatim
    printf '.SH COMMANDS\n'
    while read -r command; do
        printf '.SS "dractl %s"\n' "$command"
        # shellcheck disable=SC2086 # the command's words are separate arguments
        "$dractl" $command --help | roff_verbatim
    done < <("$dractl" completion commands)
    printf '.SH FILES\n'
    printf '.TP\n.I ~/.cache/draconsole/cache.db\nThe cache of mirrored objects (--cache).\n'
    printf '.TP\n.I ~/.local/share/draconsole/state.db\nRollouts and their audit log (--state).\n'
    printf '.TP\n.I ~/.config/draconsole/serve/\n'
    printf "dractl serve's TLS identity and bearer token.\n"
    printf '.TP\n.I /etc/draconsole/mirror.conf\n'
    printf 'The options of the draconsole\\-mirror service.\n'
    printf '.SH SEE ALSO\n.BR draconsole (1),\n.BR kubectl (1)\n'
} | gzip -9n > "$outdir/dractl.1.gz"

if [[ -n $draconsole ]]; then
    {
        page draconsole "desktop console for Kubernetes Dynamic Resource Allocation"
        printf '.SH SYNOPSIS\n.B draconsole\n.RI [ options ]\n'
        printf '.SH DESCRIPTION\n'
        "$draconsole" --help | roff_verbatim
        printf '.SH SEE ALSO\n.BR dractl (1)\n'
    } | gzip -9n > "$outdir/draconsole.1.gz"
fi
