#!/usr/bin/env bash
# The checks `make test` runs besides pytest (and `make lint` alone): lint, format, types, the GitHub files
# against their published schemas (vendored in check-jsonschema: no network), and the workflows through
# jactionlint (actionlint's checks, with shellcheck on their scripts) and zizmor (security), both offline.
# Runs every check and fails if any failed, so one run lists every problem.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
status=0
check() {
    echo "==> $*"
    "$@" || { status=1; echo "FAILED: $*" >&2; }
}
check "$bin/ruff" check .
check "$bin/ruff" format --check --output-format concise .
check "$bin/mypy"  # files and strictness: [tool.mypy] in pyproject.toml
check "$bin/lint-imports"  # the arrows between the packages: [tool.importlinter] in pyproject.toml
check "$bin/python" -m mypy.stubtest glassgrad.scratch  # scratch.pyi says what scratch.py does
# JavaScript (npm's devDependencies, installed by `npm ci`): ESLint's recommended rules (eslint.config.js),
# TypeScript's checker over the JSDoc types (jsconfig.json, no output), and node's unit tests of the pure parts.
check node_modules/.bin/eslint --max-warnings 0 .
check node_modules/.bin/tsc -p jsconfig.json
check node --test --test-reporter=spec tests/js/
check "$bin/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/*.yml
check "$bin/check-jsonschema" --builtin-schema vendor.dependabot .github/dependabot.yml
check "$bin/check-jsonschema" --builtin-schema vendor.citation-file-format CITATION.cff
# What each accepts, and why: .github/jactionlint.yaml and .github/zizmor.yml. Offline: no GitHub API lookups.
check "$bin/jactionlint" --no-online --shellcheck="$bin/shellcheck"
check "$bin/zizmor" --offline --quiet .github/
if [ "$status" -ne 0 ]; then
    echo "lint: FAILED (ruff: \`make format\` fixes import order and formatting; see CONTRIBUTING.md)" >&2
fi
exit "$status"
