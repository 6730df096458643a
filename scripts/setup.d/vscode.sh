# The VS Code extension's npm packages (editors/vscode/package-lock.json):
# vscode-tmgrammar-test, vscode-textmate and vscode-oniguruma for the grammar
# tests, @vscode/vsce to build the .vsix, vscode-languageclient for the client
# (tests/test_vscode_extension.py). Installed when node_modules is missing.
# setup-tests.sh sets $here to scripts/; run alone, this file is in scripts/setup.d/.
extension="$(cd "${here:-$(dirname "$0")/..}/.." && pwd)/editors/vscode"
if [ ! -d "$extension/node_modules" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "setup: npm is missing: the VS Code extension's tests will be skipped" >&2
    elif ! (cd "$extension" && npm ci --no-audit --no-fund --loglevel=error); then
        echo "setup: npm ci failed in editors/vscode: the VS Code extension's tests will be skipped" >&2
    fi
fi
