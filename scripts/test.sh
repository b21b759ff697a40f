#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run them.
# Chromium comes from Debian (Playwright drives /usr/bin/chromium), and so does PostgreSQL (the tests start
# their own throw-away server with its initdb and pg_ctl); Python packages from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
# Chinese pages need a CJK font, else Chromium draws empty boxes (tests/test_i18n_e2e.py then fails):
# install it whenever it is missing, also on a machine that already has Chromium.
NEED=""
[ -x /usr/bin/chromium ] || NEED="chromium"
if ! dpkg -s fonts-wqy-microhei >/dev/null 2>&1; then
  NEED="$NEED fonts-wqy-microhei"
fi
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || NEED="$NEED postgresql"
# tests/test_i18n.py runs GNU msgfmt --check over every catalog.
command -v msgfmt >/dev/null || NEED="$NEED gettext"
if [ -n "$NEED" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086  # NEED is a list of package names
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $NEED >/dev/null
fi
python3 -m venv .venv
# The train extra pins torch==2.13.0: its CPU wheel lies in /opt/wheels on the project's machines (an
# unpinned torch from PyPI is a multi-GB CUDA build), so look there whatever pip's own settings say.
WHEELS=()
[ -d /opt/wheels ] && WHEELS=(--find-links /opt/wheels)
.venv/bin/pip install -q --disable-pip-version-check "${WHEELS[@]}" -e ".[test]"
# A fresh clone has no compiled simulator: Numba takes a minute or more (single-threaded) to build it,
# and the first test that needs it (tests/test_fast.py) would wait for all of it. Build it beside the
# test files before it; Numba writes its cache atomically, so a test that gets there first simply
# compiles too. Nothing here can fail the run: without Numba the fast tests skip.
.venv/bin/python -c 'from spots.fast import warm_up; warm_up()' >/dev/null 2>&1 &
warm=$!
# The suite runs in two processes (pytest-xdist), one a core on the project's 2-core machine; each test file
# stays in one process, so a file's browser and server start once. SPOTS_TEST_PROCESSES=0 runs it in this one.
status=0
.venv/bin/python -m pytest -n "${SPOTS_TEST_PROCESSES:-2}" --dist loadfile --durations=15 "$@" || status=$?
wait "$warm" || true
exit "$status"
