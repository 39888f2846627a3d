#!/usr/bin/env bash
# Idempotent setup shared by scripts/demo.sh and scripts/test.sh.
#   - system packages when missing (Debian/Ubuntu): python3-venv, chromium (and its headless
#     shell, which headless runs prefer, where the package lists have it), and with
#     PACTS_SETUP_POSTGRES=1 postgresql (the store tests start their own throwaway cluster)
#   - .venv with pytest-pacts installed editable with its dev, serve and vision extras (the suite runs
#     the pacts serve web server and the image-target tests); reinstalled only when
#     pyproject.toml changes
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
if [ -z "$PY" ] || ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup: Python 3.11 or newer is needed (apt-get install python3)" >&2
  exit 2
fi

have_chromium() {
  [ -n "${PACTS_BROWSER_PATH:-}" ] && [ -x "${PACTS_BROWSER_PATH}" ] && return 0
  ls -d "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1 && return 0
  for p in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    [ -x "$p" ] && return 0
  done
  return 1
}
# Chromium's headless shell: what Playwright launches for headless runs, about half the CPU of
# the full browser (docs/benchmarks.md); only where a system Chromium is used
want_headless_shell() {
  [ -z "${PACTS_BROWSER_PATH:-}" ] || return 1
  ls -d "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1 && return 1
  [ -x /usr/bin/chromium-headless-shell ] && return 1
  command -v apt-get >/dev/null 2>&1
}
have_postgres() {
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1
}

packages=()
if [ ! -x .venv/bin/python ] && ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
  packages+=(python3-venv)
fi
have_chromium || packages+=(chromium)
if [ "${PACTS_SETUP_POSTGRES:-0}" = "1" ] && ! have_postgres; then packages+=(postgresql); fi

if [ ${#packages[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: please install: ${packages[*]} (no apt-get on this machine)" >&2
    exit 2
  fi
  echo "setup: installing ${packages[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${packages[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $PY"
  "$PY" -m venv .venv
fi
# optional: Chromium's headless shell, where the package lists have it (older releases do
# not: the full browser serves, and the marker saves asking again on every run)
no_shell=".venv/.pacts-no-headless-shell"
if want_headless_shell && [ ! -f "$no_shell" ]; then
  if ! apt-cache show chromium-headless-shell >/dev/null 2>&1; then
    $SUDO apt-get update -qq || true
  fi
  if apt-cache show chromium-headless-shell >/dev/null 2>&1 \
    && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends chromium-headless-shell >/dev/null; then
    echo "setup: installed chromium-headless-shell"
  else
    echo "setup: chromium-headless-shell is not available; headless runs use chromium"
    touch "$no_shell"
  fi
fi
stamp=".venv/.pacts-setup-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "setup: installing pytest-pacts and its dev tools into .venv"
  # uv installs the project and its tools: in a fresh clone 30 s of CPU and 37 s wall with
  # pip, about 6 s and 8 s with uv, which downloads in parallel and compiles nothing until it
  # is imported (docs/testing.md). uv comes from PyPI into the venv itself; where it cannot be
  # had, the venv's own pip does the same install (no self-upgrade first: docs/testing.md).
  if .venv/bin/python -m pip install -q --disable-pip-version-check 'uv>=0.5,<1' \
    && .venv/bin/uv pip install -q --python .venv/bin/python -e '.[dev,serve,vision]'; then
    :
  else
    echo "setup: uv did not install the project; installing with pip"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev,serve,vision]'
  fi
  rm -f .venv/.pacts-setup-*
  touch "$stamp"
fi
echo "setup: ready. pacts and pytest are in .venv/bin (.venv/bin/pacts, .venv/bin/pytest);"
echo "       to type them bare (pacts heals list), first run: . .venv/bin/activate"
