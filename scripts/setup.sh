#!/usr/bin/env bash
# Bootstrap everything `make` targets need on a fresh machine: system packages, .venv, Python packages.
# Re-running on a set-up machine only checks and returns (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."

need_debian_package() {  # $1 = command or file that proves it is there, $2 = Debian package
    local probe=$1 package=$2
    command -v "$probe" >/dev/null 2>&1 || [ -x "$probe" ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        # Not root (or not Debian): installing system packages is the user's call.
        echo "error: '$probe' is missing and this set-up installs system packages only as root on Debian." >&2
        echo "       Install the Debian package '$package' (sudo apt-get install $package) and run make again." >&2
        exit 1
    fi
    echo "==> installing Debian package $package (for $probe)"
    [ -n "${apt_updated:-}" ] || { apt-get update -qq; apt_updated=1; }  # one package-list refresh per run
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
    command -v "$probe" >/dev/null 2>&1 || [ -x "$probe" ] || { echo "error: installed '$package' but '$probe' is still missing." >&2; exit 1; }
}

need_debian_package dot graphviz
# Chromium only for the browser tests (`make test`): `make serve` and `make build` set GLASSGRAD_NO_BROWSER=1, and a
# browser named by GLASSGRAD_CHROMIUM is used as it is (tests/conftest.py finds it; CONTRIBUTING.md, "Environment").
if [ "${GLASSGRAD_NO_BROWSER:-}" != 1 ] && [ -z "${GLASSGRAD_CHROMIUM:-}" ]; then
    need_debian_package chromium chromium
fi

# npm packages the site serves (package.json: the math font, Pyodide, Graphviz in WebAssembly, DOMPurify), installed
# by `npm ci` from package-lock.json (exact versions, integrity hashes) into node_modules/ when the lock changed;
# scripts/site_assets.py (below) does it, and copies the files the pages load into docs/.
if [ ! -f package.json ] || ! python3 scripts/site_assets.py --installed; then
    need_debian_package npm npm
fi

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3.12 || command -v python3.13 || command -v python3 || true)}
[ -n "$PYTHON" ] || { echo "error: no python3 found (Python >= 3.11 is needed)" >&2; exit 1; }

# The stamp holds a hash of what decides the install: unchanged files (even with new mtimes after a
# checkout) cost no pip run; any edit to them reinstalls. Three steps: every tool from requirements/dev.lock (pinned
# with hashes: the dependency group `dev` and the extras, written by scripts/lock.sh), then torch alone (pinned in
# constraints.txt) from PyTorch's CPU wheels (GLASSGRAD_TORCH_INDEX_URL, empty for PyPI and local wheels only: an
# index of CPU wheels, never PyPI's CUDA build of several GB), then glassgrad itself, editable; pip check at the end.
torch_index=${GLASSGRAD_TORCH_INDEX_URL-https://download.pytorch.org/whl/cpu}
stamp=.venv/.installed
wanted=$(cat constraints.txt pyproject.toml requirements/dev.lock | sha256sum | cut -d' ' -f1)
if ! [ -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    if [ ! -x .venv/bin/python ]; then
        echo "==> creating .venv with $PYTHON"
        "$PYTHON" -m venv .venv
    fi
    echo "==> installing Python packages into .venv (requirements/dev.lock, hashed; torch from ${torch_index:-PyPI})"
    .venv/bin/python -m pip install --quiet --upgrade "pip>=25.1"
    .venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/dev.lock
    .venv/bin/python -m pip install --quiet --no-deps -c constraints.txt ${torch_index:+--extra-index-url "$torch_index"} torch
    .venv/bin/python -m pip install --quiet --no-deps -e .
    .venv/bin/python -m pip check
    echo "$wanted" > "$stamp"
fi

# Files of docs/ that git does not hold: the npm packages' files and the playground's bundle of glassgrad.
.venv/bin/python scripts/site_assets.py
