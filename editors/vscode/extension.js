// The lcn language client: starts `lcn server` (from the user's environment, or
// the path the lcn.server.path setting gives) and lets it do the rest.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function serverOptions() {
  const config = vscode.workspace.getConfiguration("lcn");
  const command = config.get("server.path", "lcn");
  const args = config.get("server.args", ["server"]);
  return { command, args, transport: TransportKind.stdio };
}

async function start() {
  const config = vscode.workspace.getConfiguration("lcn");
  client = new LanguageClient("lcn", "Lost Cities Notation (lcn server)", serverOptions(), {
    documentSelector: [{ language: "lcn" }],
    initializationOptions: { inlayHints: config.get("inlayHints", true) },
    synchronize: { configurationSection: "lcn" },
  });
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `Could not start '${serverOptions().command} server' (${err.message || err}). ` +
      "Install it with pip install 'lcnotation[lsp]', or set lcn.server.path.");
  }
}

async function activate(context) {
  await start();
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (event) => {
    if (event.affectsConfiguration("lcn.server")) {
      if (client) {
        await client.stop();
      }
      await start();
    }
  }));
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
