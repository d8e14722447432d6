#!/usr/bin/env bash
# The whole suite, as CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m pytest "$@"
