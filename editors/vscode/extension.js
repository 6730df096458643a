// The Lost Cities Notation extension: the `lcn` language (contributed in
// package.json with its TextMate grammar and language configuration) and a
// client that starts the language server, `lcn server`, from the user's
// environment and talks LSP to it over standard input and output.
"use strict";
const os = require("os");
const path = require("path");
const vscode = require("vscode");
const { LanguageClient, State } = require("vscode-languageclient/node");

const SECTION = "lcnotation";
let client;
let output;

// The command to run: `lcnotation.server.path` ("lcn" by default, looked up
// on the PATH), with "~" expanded and a relative path taken from the first
// workspace folder, and `lcnotation.server.args` ("server" by default).
function serverCommand(config) {
  let command = config.get("server.path", "lcn") || "lcn";
  if (command === "~" || command.startsWith("~/")) {
    command = path.join(os.homedir(), command.slice(1));
  }
  const folders = vscode.workspace.workspaceFolders;
  if (command.includes("/") && !path.isAbsolute(command) && folders && folders.length) {
    command = path.join(folders[0].uri.fsPath, command);
  }
  return { command, args: config.get("server.args", ["server"]) };
}

// What the server reads from the client (initialization options and the
// `lcn` section of workspace/didChangeConfiguration).
function serverSettings(config) {
  return { inlayHints: config.get("inlayHints", true) };
}

// The settings editor on lcnotation.server.path. The setting is
// machine-overridable: in a remote window (SSH, WSL, a container, code-server)
// it is listed under the Remote tab only, which openSettings does not open.
function openPathSetting() {
  const query = { query: `${SECTION}.server.path` };
  const local = () => vscode.commands.executeCommand("workbench.action.openSettings", query);
  if (!vscode.env.remoteName) {
    return local();
  }
  // A VS Code without the remote command (older, or a fork): the settings all the same.
  return vscode.commands.executeCommand("workbench.action.openRemoteSettings", query)
    .then(undefined, local);
}

async function start() {
  const config = vscode.workspace.getConfiguration(SECTION);
  if (!config.get("server.enable", true)) {
    return;
  }
  const { command, args } = serverCommand(config);
  const folders = vscode.workspace.workspaceFolders;
  const executable = {
    command,
    args,
    options: folders && folders.length ? { cwd: folders[0].uri.fsPath } : {},
  };
  client = new LanguageClient(
    SECTION, // also the prefix of the trace setting: lcnotation.trace.server
    "Lost Cities Notation",
    { run: executable, debug: executable },
    {
      documentSelector: [
        { scheme: "file", language: "lcn" },
        { scheme: "untitled", language: "lcn" },
        { scheme: "file", language: "sfn" },
        { scheme: "untitled", language: "sfn" },
      ],
      initializationOptions: serverSettings(config),
      outputChannel: output,
    },
  );
  try {
    await client.start();
  } catch (err) {
    const choice = await vscode.window.showErrorMessage(
      `Lost Cities Notation: could not start the language server with "${command} ${args.join(" ")}" ` +
        `(${err && err.message ? err.message : err}). Install it with pip install 'lcnotation[lsp]', ` +
        `or set ${SECTION}.server.path to the lcn command.`,
      "Open settings",
    );
    if (choice === "Open settings") {
      openPathSetting();
    }
    client = undefined;
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running && running.state !== State.Stopped) {
    await running.stop();
  }
}

async function restart() {
  await stop();
  await start();
}

async function activate(context) {
  output = vscode.window.createOutputChannel("Lost Cities Notation");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand(`${SECTION}.restartServer`, restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (["server.path", "server.args", "server.enable"].some(
        (key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
        restart();
      } else if (client && event.affectsConfiguration(`${SECTION}.inlayHints`)) {
        const settings = serverSettings(vscode.workspace.getConfiguration(SECTION));
        client.sendNotification("workspace/didChangeConfiguration", { settings: { lcn: settings } });
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate, serverCommand };
