#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests when it is missing and we may (root with apt-get): its headless
# shell (chromium-headless-shell) first, else the whole browser (chromium). Prints nothing; where neither is
# installed, the browser tests skip, saying why. A machine that has the whole browser and cannot get the shell (an
# older Debian, no network) keeps the whole browser: the package lists are read again only where there is no
# Chromium at all. `make test` runs this once, before the suite, so its workers never install side by side.
set -uo pipefail
. "$(dirname "$0")/apt.sh"
command -v chromium-headless-shell >/dev/null && exit 0
may_install || exit 0
apt_install chromium-headless-shell && exit 0
command -v chromium >/dev/null && exit 0
apt_update
apt_install chromium-headless-shell || apt_install chromium
exit 0
