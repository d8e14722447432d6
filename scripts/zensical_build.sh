#!/usr/bin/env bash
# Build the site with Zensical (Material for MkDocs' successor), which reads the same mkdocs.yml, in a virtual
# environment of its own (ZENSICAL_VENV, default .cache/zensical-venv: Zensical and MkDocs never share one),
# then check the result with scripts/check_site.py: Zensical exits 0 even when an executed block raised.
# Zensical runs no MkDocs plugin, so it builds no notebook page: that page alone is excluded by name
# (check_site.py --not-built), until Zensical has notebooks; any other page missing, or linked and absent, fails.
# Run `make setup` first (it puts the math font and the playground's runtime into docs/).
# What works on each builder: CONTRIBUTING.md, "Builders".
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${ZENSICAL_VENV:-.cache/zensical-venv}
stamp=$venv/.installed  # as in setup.sh: a new pin in pyproject.toml or constraints.txt reinstalls
wanted=$(cat constraints.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -x "$venv/bin/zensical" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "==> installing Zensical into $venv (dependency group zensical: its pinned version and the docs group)"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade "pip>=25.1"  # --group
    "$venv/bin/python" -m pip install --quiet -c constraints.txt -e ".[torch,viz]" --group zensical
    echo "$wanted" > "$stamp"
fi
"$venv/bin/zensical" build  # not --clean: it would empty the whole of .cache/ (the notebook's cache, this venv)
"$venv/bin/python" scripts/check_site.py --sources docs --not-built notebook/tutorial.ipynb site
