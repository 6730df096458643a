# The VS Code extension's npm packages (vscode-languageclient, and for its tests
# vscode-tmgrammar-test and @vscode/vsce), as editors/vscode/package-lock.json
# pins them.  ($here is scripts/, set by setup-tests.sh.)
dir="$here/../editors/vscode"
if [ ! -d "$dir/node_modules" ]; then
    if command -v npm >/dev/null 2>&1; then
        (cd "$dir" && npm ci --no-audit --no-fund)
    else
        echo "npm is not installed: the VS Code extension's tests will be skipped" >&2
    fi
fi
