#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run them.
# Chromium comes from Debian (Playwright drives /usr/bin/chromium); Python packages from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null
fi
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e ".[test]"
.venv/bin/python -m pytest "$@"
