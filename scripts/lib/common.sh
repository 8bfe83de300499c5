# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# Shared by scripts/run, scripts/test and scripts/bench: installs what a fresh Debian 12
# machine lacks, then configures and builds one build tree. Source it; do not run it.

DRA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$DRA_ROOT"

# Debian packages the build, the tests and the run need.
DRA_PACKAGES=(
    build-essential cmake ninja-build pkg-config ccache mold clang-format
    qt6-base-dev qt6-base-dev-tools qt6-websockets-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
    nlohmann-json3-dev libssl-dev openssl libsqlite3-dev libyaml-cpp-dev libre2-dev
    libgtest-dev libgmock-dev python3-kubernetes xvfb xauth zsh tzdata
    chromium
)

dra_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

dra_install_packages() {
    local missing=()
    for pkg in "${DRA_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    dra_log "installing ${missing[*]}"
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The web console is bundled at build time with Node.js and npm (esbuild and the browser tests'
# playwright-core come from npm, pinned by package-lock.json).
dra_check_node() {
    local version
    if ! version="$(node --version 2>/dev/null)" || ! command -v npm >/dev/null; then
        echo "error: Node.js 18 or newer and npm are needed to build the web console (apt-get install nodejs npm)" >&2
        return 1
    fi
    if [[ ! $version =~ ^v([0-9]+)\. ]] || ((BASH_REMATCH[1] < 18)); then
        echo "error: Node.js $version is too old to build the web console; 18 or newer is needed" >&2
        return 1
    fi
}

# The options of the test build (scripts/test, CI): sanitizers, warnings as errors for our own
# code (Qt and other libraries come in as system headers), and a light optimisation that
# keeps the sanitizers' run time down. Build with the same options by hand and the compiler cache
# serves scripts/test from what you built.
DRA_TEST_CMAKE_ARGS=(-DDRA_SANITIZE=ON -DDRA_WERROR=ON "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1")

# dra_build DIR BUILD_TYPE [extra cmake args...]
# Configures DIR (again, when it exists, so options given here always apply) and builds it.
dra_build() {
    local dir="$1" type="$2"
    shift 2
    dra_check_node || return 1
    dra_log "configuring $dir ($type)"
    cmake -S "$DRA_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
    dra_log "building $dir"
    cmake --build "$dir" -- -j"$(nproc)"
}
