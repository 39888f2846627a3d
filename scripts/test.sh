#!/usr/bin/env bash
# The test command (README quick start): set up, then lint, type-check and run the suite.
# Exits non-zero when anything fails; "no tests collected" (pytest exit 5) is a failure too.
set -euo pipefail
cd "$(dirname "$0")/.."
PACTS_SETUP_POSTGRES=1 bash scripts/setup.sh
# setup installs PostgreSQL: its store tests must run here, not skip
export PACTS_REQUIRE_POSTGRES=1

# Bytecode written and kept (docs/testing.md): pytest keeps the modules it rewrites (the test
# modules, the plugins of other packages) in __pycache__ only when Python may write bytecode.
# With PYTHONDONTWRITEBYTECODE set, each of the suite's pytest processes (the two workers and
# a few hundred pytester and CLI runs) rewrote and compiled them again: 8.1 -> 3.2 s of CPU to
# collect the suite, 1.7 -> 1.15 s for a one-test pytest run (docs/benchmarks.md).
unset PYTHONDONTWRITEBYTECODE
# Node's compile cache for Playwright's driver: every Playwright start (each xdist worker, each
# pytest session and `pacts` command the tests run with a browser: a few hundred) compiled the
# driver's JavaScript again, about 0.4 s of CPU each; with the cache, the first start writes
# the compiled code and the others read it (docs/testing.md). Kept in .venv, like the bytecode.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/.venv/.node-compile-cache}"

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy runs beside pytest (about 17 s of CPU cold, on the cores pytest's workers leave idle
# while they wait for browsers and subprocess sessions); its output is printed after pytest
# only when it finds a problem, so that pytest's summary stays the last line (CI reads it)
echo "== mypy --strict (beside pytest; shown after it only if it fails)"
mypy_log="$(mktemp)"
trap 'rm -f "$mypy_log"' EXIT
.venv/bin/mypy >"$mypy_log" 2>&1 &
mypy_pid=$!
echo "== pytest"
set +e
# worksteal: a worker that runs out of tests takes some of the other's (the suite ends with
# long whole-run tests: neither worker sits idle at the end while the other runs them)
.venv/bin/pytest -n 4 --dist worksteal -p no:cacheprovider --durations=25 "$@"
status=$?
wait "$mypy_pid"
mypy_status=$?
set -e
if [ "$mypy_status" -ne 0 ]; then
  echo "== mypy --strict failed (exit $mypy_status):" >&2
  cat "$mypy_log" >&2
  exit 1
fi
if [ "$status" -eq 5 ]; then
  echo "test.sh: pytest collected no tests; that is a failure for this suite" >&2
  exit 1
fi
exit "$status"
