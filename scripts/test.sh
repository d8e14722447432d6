#!/usr/bin/env bash
# The whole suite, as CI runs it (`make test`); extra arguments go to pytest.
set -uo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest "$@"
status=$?
if [ "$status" -eq 5 ]; then
    # pytest's "no tests ran" is its own exit code; say so, since a run that tests nothing must never look green.
    echo "error: pytest collected no tests (exit code 5): check testpaths, -k/-m filters and collection errors." >&2
fi
exit "$status"
