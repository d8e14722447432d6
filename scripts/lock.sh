#!/usr/bin/env bash
# Write requirements/dev.lock: every package `make setup` installs (the dependency group `dev`, the extras torch and
# viz), pinned with their hashes, for Python 3.11 on x86-64 Linux (the Python setup.sh prefers). torch is left out
# (setup.sh installs it from GLASSGRAD_TORCH_INDEX_URL, the CPU wheels), its own dependencies are in. Run it after
# changing pyproject.toml's groups or constraints.txt; scripts/setup.sh refuses a lock older than either.
set -euo pipefail
cd "$(dirname "$0")/.."
torch_index=${GLASSGRAD_TORCH_INDEX_URL-https://download.pytorch.org/whl/cpu}
.venv/bin/uv pip compile pyproject.toml --group dev --extra torch --extra viz -c constraints.txt \
    --generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 --no-emit-package torch \
    ${torch_index:+--extra-index-url "$torch_index" --index-strategy unsafe-best-match} \
    ${PIP_FIND_LINKS:+--find-links "$PIP_FIND_LINKS"} \
    --custom-compile-command "bash scripts/lock.sh" -o requirements/dev.lock --quiet
