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
if [ "${GLASSGRAD_NO_BROWSER:-}" != 1 ]; then
    need_debian_package /usr/bin/chromium chromium
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
# checkout) cost no pip run; any edit to them reinstalls. glassgrad with its user extras, and the developers'
# dependency group `dev` (pyproject.toml; `--group` needs pip >= 25.1); torch pinned in constraints.txt.
stamp=.venv/.installed
wanted=$(cat constraints.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if ! [ -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    if [ ! -x .venv/bin/python ]; then
        echo "==> creating .venv with $PYTHON"
        "$PYTHON" -m venv .venv
    fi
    echo "==> installing Python packages into .venv (torch from the local CPU wheel)"
    .venv/bin/python -m pip install --quiet --upgrade "pip>=25.1"
    .venv/bin/python -m pip install --quiet -c constraints.txt -e ".[torch,viz]" --group dev
    echo "$wanted" > "$stamp"
fi

# Files of docs/ that git does not hold: the npm packages' files and the playground's bundle of glassgrad.
.venv/bin/python scripts/site_assets.py
