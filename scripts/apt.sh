# Debian's packages for the test tools, sourced by scripts/test-browser.sh and scripts/test-postgres.sh.
# may_install: whether this process may install (root, with apt-get). apt_install PACKAGE: install it quietly, within
# a time limit, waiting for dpkg's lock (a fresh machine's unattended upgrades may hold it). apt_update: read the
# package lists again.
may_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
apt_install() {
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq -o DPkg::Lock::Timeout=300 "$1" \
        >/dev/null 2>&1
}
apt_update() { timeout 300 apt-get update -qq >/dev/null 2>&1; }
