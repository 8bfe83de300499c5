#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# package_test.sh BUILD_DIR: packs BUILD_DIR as scripts/package packs the Release tree and
# checks what a user installs: the package's metadata, its files, its conffile, and that the
# dractl, manual page and completion inside it work.
set -uo pipefail

build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
contains() { # contains TEXT NEEDLE WHAT
    [[ $1 == *"$2"* ]] || fail "$3: no '$2' in:"$'\n'"$1"
}

# gzip rather than xz: the test build's sanitized binaries are large and only checked here.
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" \
    -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    echo "FAIL: cpack could not pack $build" >&2
    exit 1
fi
debs=("$work"/out/draconsole_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || { echo "FAIL: expected one package, got: ${debs[*]}" >&2; exit 1; }
deb="${debs[0]}"
version="$("$build/app/dractl/dractl" --version | awk '{ print $2 }')"
gui=0
[[ -x "$build/app/console/draconsole" ]] && gui=1

# Metadata: name, version, and dependencies found by shlibdeps from the binaries' libraries.
info="$(dpkg-deb --info "$deb")"
contains "$info" "Package: draconsole" "control"
contains "$info" "Version: $version" "control"
contains "$(dpkg-deb --field "$deb" Description)" "draws each node's GPU topology" "Description"
if grep -q '^ *;' <<<"$(dpkg-deb --field "$deb" Description)"; then
    fail "Description has lines that start with ';' (a CMake list, not text)"
fi
depends="$(dpkg-deb --field "$deb" Depends)"
for library in libqt6core6 libqt6network6 libssl3 libsqlite3-0 libyaml-cpp0.7 libre2-9 libc6; do
    contains "$depends" "$library" "Depends (from shlibdeps)"
done
[[ $gui == 0 ]] || contains "$depends" "libqt6widgets6" "Depends (from shlibdeps)"
contains "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" "/etc/draconsole/mirror.conf" "conffiles"
# Listed first: `grep -q` stopping the pipeline early would fail it under pipefail.
control_files="$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)"
for script in postinst prerm postrm; do
    grep -qx "./$script" <<<"$control_files" || fail "no $script in the control archive"
done

# Contents: the programs and everything that makes them feel installed.
contents="$(dpkg-deb --contents "$deb" | awk '{ print $NF }')"
expected=(
    ./usr/bin/dractl
    ./usr/share/man/man1/dractl.1.gz
    ./usr/share/bash-completion/completions/dractl
    ./usr/share/zsh/vendor-completions/_dractl
    ./usr/lib/systemd/system/draconsole-mirror.service
    ./etc/draconsole/mirror.conf
    ./usr/share/doc/draconsole/LICENSE
)
if [[ $gui == 1 ]]; then
    expected+=(
        ./usr/bin/draconsole
        ./usr/share/man/man1/draconsole.1.gz
        ./usr/share/applications/draconsole.desktop
        ./usr/share/icons/hicolor/scalable/apps/draconsole.svg
    )
fi
for path in "${expected[@]}"; do
    grep -qxF "$path" <<<"$contents" || fail "the package lacks $path"
done
if grep -E '^\./usr/(include|lib/[^s]|local)|^\./usr/bin/.*_tests?$|/bench' <<<"$contents"; then
    fail "the package holds files a user does not need (above)"
fi

# What is inside works.
root="$work/root"
dpkg-deb --extract "$deb" "$root"
[[ "$("$root/usr/bin/dractl" --version)" == "dractl $version" ]] || fail "the packaged dractl --version"
if grep -q '\.debug_info\|\.symtab' <<<"$(readelf -S "$root/usr/bin/dractl")"; then
    fail "the packaged dractl keeps its symbol table or debug information (not stripped)"
fi
manual="$(zcat "$root/usr/share/man/man1/dractl.1.gz")"
contains "$manual" '.TH DRACTL 1' "dractl.1"
contains "$manual" '.SS "dractl serve"' "dractl.1"
contains "$manual" '\-\-listen' "dractl.1 (the options of dractl serve)"
contains "$manual" '.SS "dractl rollout promote"' "dractl.1"
contains "$(cat "$root/usr/lib/systemd/system/draconsole-mirror.service")" \
    "ExecStart=/usr/bin/dractl serve" "draconsole-mirror.service"
if [[ $gui == 1 ]]; then
    desktop="$(cat "$root/usr/share/applications/draconsole.desktop")"
    contains "$desktop" "Exec=draconsole" "draconsole.desktop"
    contains "$desktop" "Icon=draconsole" "draconsole.desktop"
    contains "$(zcat "$root/usr/share/man/man1/draconsole.1.gz")" '\-\-demo' "draconsole.1"
fi
completion="$(bash -c '
    source "$1/usr/share/bash-completion/completions/dractl"
    COMP_WORDS=("$1/usr/bin/dractl" rollout pro); COMP_CWORD=2; _dractl
    echo "${COMPREPLY[*]}"' _ "$root")"
[[ $completion == "promote" ]] || fail "the packaged bash completion of 'dractl rollout pro' gave '$completion'"

if ((failures > 0)); then
    echo "$failures check(s) failed for $deb" >&2
    exit 1
fi
echo "ok: $(basename "$deb"), $(wc -l <<<"$contents") entries"
