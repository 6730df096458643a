#!/bin/sh
# Installs what the test suite needs beyond Python packages: each script in
# scripts/setup.d/ brings one outside tool (a Debian package, npm packages
# under the folder that uses them). Each checks first and does nothing when
# the tool is there; where it cannot install (no apt-get, not root) it says
# so, and the tests that need that tool are skipped with that reason (under
# CI=true they fail instead: CI must run everything).
set -eu
here="$(dirname "$0")"
. "$here/apt-install.sh"
for step in "$here"/setup.d/*.sh; do
    [ -e "$step" ] || continue
    ( . "$step" )
done
