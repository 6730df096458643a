# Loaded by setup-tests.sh for the steps in setup.d: apt_install PACKAGE COMMAND installs the Debian
# package PACKAGE unless COMMAND is already on the PATH.
apt_install() {
    if command -v "$2" >/dev/null 2>&1; then
        return 0
    fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: $2 is missing and cannot be installed here (needs root and apt-get);" \
             "the tests that use it will be skipped" >&2
        return 0
    fi
    if [ ! -e /tmp/.lcn-apt-updated ]; then
        apt-get update -qq && touch /tmp/.lcn-apt-updated
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
}
