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

# The playground's runtime (Pyodide, Graphviz in WebAssembly, the DOMPurify sanitizer): npm packages by exact version, packed into
# .cache/npm/ (ignored) and unpacked there; docs/hooks/package_assets.py publishes the files the page loads.
NPM_PACKAGES="pyodide:pyodide@314.0.8 viz:@viz-js/viz@3.24.0 dompurify:dompurify@3.5.0"
for entry in $NPM_PACKAGES; do
    folder=.cache/npm/${entry%%:*} spec=${entry#*:}
    mkdir -p .cache/npm
    if [ "$(cat "$folder/.version" 2>/dev/null)" = "$spec" ]; then continue; fi
    tarball=$(echo "${spec#@}" | tr '/@' '--').tgz  # npm pack's file name (a tarball already there is used as is)
    if [ ! -f ".cache/npm/$tarball" ]; then
        need_debian_package npm npm
        echo "==> fetching the npm package $spec (for the playground)"
        (cd .cache/npm && npm pack --silent "$spec" >/dev/null)
    fi
    rm -rf "$folder" && mkdir -p "$folder"
    tar -xzf ".cache/npm/$tarball" -C "$folder"
    echo "$spec" > "$folder/.version"
done

# The math font the formulas are typeset in (STIX Two Math, SIL Open Font Licence; an OpenType MATH table
# makes braces, fractions and parentheses stretch): an ordinary file of docs/, ignored by git, with its licence.
MATH_FONT=@fontsource/stix-two-math@5.3.0
if [ "$(cat docs/assets/fonts/.version 2>/dev/null)" != "$MATH_FONT" ]; then
    mkdir -p .cache/npm docs/assets/fonts
    tarball=$(echo "${MATH_FONT#@}" | tr '/@' '--').tgz
    if [ ! -f ".cache/npm/$tarball" ]; then
        need_debian_package npm npm
        echo "==> fetching the npm package $MATH_FONT (the math font)"
        (cd .cache/npm && npm pack --silent "$MATH_FONT" >/dev/null)
    fi
    tar -xzf ".cache/npm/$tarball" -C docs/assets/fonts --strip-components=2 package/files/stix-two-math-latin-400-normal.woff2
    tar -xzf ".cache/npm/$tarball" -O package/LICENSE > docs/assets/fonts/STIX-Two-Math-LICENSE.txt
    mv docs/assets/fonts/stix-two-math-latin-400-normal.woff2 docs/assets/fonts/stix-two-math.woff2
    echo "$MATH_FONT" > docs/assets/fonts/.version
fi

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3.12 || command -v python3.13 || command -v python3 || true)}
[ -n "$PYTHON" ] || { echo "error: no python3 found (Python >= 3.11 is needed)" >&2; exit 1; }

# The stamp holds a hash of what decides the install: unchanged files (even with new mtimes after a
# checkout) cost no pip run; any edit to them reinstalls.
stamp=.venv/.installed
wanted=$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    exit 0
fi
if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv with $PYTHON"
    "$PYTHON" -m venv .venv
fi
echo "==> installing Python packages into .venv (torch from the local CPU wheel)"
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install --quiet -r requirements.txt
echo "$wanted" > "$stamp"
