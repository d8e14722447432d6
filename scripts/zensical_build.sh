#!/usr/bin/env bash
# Build the site with Zensical (Material for MkDocs' successor), which reads the same mkdocs.yml, in a virtual
# environment of its own (ZENSICAL_VENV, default .cache/zensical-venv: Zensical and MkDocs never share one),
# then check the result with scripts/check_site.py: Zensical exits 0 even when an executed block raised.
# Run `make setup` first (it puts the math font and the playground's runtime into docs/).
# What works on each builder: CONTRIBUTING.md, "Builders".
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${ZENSICAL_VENV:-.cache/zensical-venv}
if [ ! -x "$venv/bin/zensical" ]; then
    echo "==> creating $venv with Zensical and glassgrad's docs extra"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "torch==2.13.0" -e ".[zensical]"
fi
"$venv/bin/zensical" build  # not --clean: it would empty .cache/, where make setup keeps the npm packages
"$venv/bin/python" scripts/check_site.py site
