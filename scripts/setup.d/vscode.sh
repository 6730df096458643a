# The VS Code extension's npm packages (editors/vscode/package-lock.json):
# vscode-tmgrammar-test, vscode-textmate and vscode-oniguruma for the grammar
# tests, @vscode/vsce to build the .vsix, vscode-languageclient for the client
# (tests/test_vscode_extension.py). Installed when node_modules is missing.
here="$(cd "$(dirname "$0")/../.." && pwd)/editors/vscode"
if [ ! -d "$here/node_modules" ]; then
    if command -v npm >/dev/null 2>&1; then
        (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    else
        echo "setup: npm is missing: the VS Code extension's tests will be skipped" >&2
    fi
fi
