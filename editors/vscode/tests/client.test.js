#!/usr/bin/env node
// Tests extension.js without VS Code: `vscode` and vscode-languageclient are
// replaced by stand-ins that record what the extension asks of them (which
// command it starts, with which options; what it does when settings change or
// the server cannot start). Run by tests/test_vscode_extension.py; prints
// "ok N" and exits 0 when every check passes.
"use strict";
const assert = require("assert");
const Module = require("module");
const os = require("os");
const path = require("path");

let settings;
const clients = [];
const errors = [];
const commands = {};
let onConfig;
let failStart = false;
let answer; // the button the user presses on an error message
const executed = [];
const known = new Set(["workbench.action.openSettings", "workbench.action.openRemoteSettings"]);

const vscode = {
  env: { remoteName: undefined },
  workspace: {
    workspaceFolders: [{ uri: { fsPath: "/work/records" } }],
    getConfiguration: (section) => {
      assert.strictEqual(section, "lcnotation");
      return { get: (key, fallback) => (key in settings ? settings[key] : fallback) };
    },
    onDidChangeConfiguration: (listener) => { onConfig = listener; return { dispose() {} }; },
  },
  window: {
    createOutputChannel: (name) => ({ name, dispose() {} }),
    showErrorMessage: async (message, ...items) => { errors.push({ message, items }); return answer; },
  },
  commands: {
    registerCommand: (name, fn) => { commands[name] = fn; return { dispose() {} }; },
    executeCommand: async (...call) => {
      executed.push(call);
      if (!known.has(call[0])) { throw new Error(`command '${call[0]}' not found`); }
      return undefined;
    },
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, state: 1, stopped: false, sent: [] });
    clients.push(this);
  }
  async start() {
    if (failStart) { throw new Error("spawn lcn ENOENT"); }
    this.state = 2;
  }
  async stop() { this.stopped = true; this.state = 1; }
  sendNotification(method, params) { this.sent.push({ method, params }); }
}

const realLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === "vscode") { return vscode; }
  if (request === "vscode-languageclient/node") { return { LanguageClient, State: { Stopped: 1, Running: 2 } }; }
  return realLoad.call(this, request, parent, isMain);
};
const extension = require(path.join(__dirname, "..", "extension.js"));

function changed(...keys) {
  return { affectsConfiguration: (name) => keys.some((k) => name === `lcnotation.${k}`) };
}

async function main() {
  let checks = 0;
  const check = (fn) => { fn(); checks += 1; };
  const context = { subscriptions: [] };

  // Defaults: `lcn server` from the PATH, over stdio, for lcn documents.
  settings = {};
  await extension.activate(context);
  check(() => assert.strictEqual(clients.length, 1));
  const first = clients[0];
  check(() => assert.strictEqual(first.id, "lcnotation")); // lcnotation.trace.server
  check(() => assert.deepStrictEqual(first.serverOptions.run, {
    command: "lcn", args: ["server"], options: { cwd: "/work/records" } }));
  check(() => assert.deepStrictEqual(first.serverOptions.debug, first.serverOptions.run));
  check(() => assert.deepStrictEqual(first.clientOptions.documentSelector.map((d) => d.language), ["lcn", "lcn", "sfn", "sfn"]));
  check(() => assert.deepStrictEqual(first.clientOptions.initializationOptions, { inlayHints: true }));
  check(() => assert.ok(commands["lcnotation.restartServer"]));

  // The path setting: "~" expanded, a relative path from the workspace folder.
  settings = { "server.path": "~/venvs/lcn/bin/lcn", "server.args": ["server", "--stdio"] };
  onConfig(changed("server.path"));
  await new Promise((resolve) => setImmediate(resolve));
  check(() => assert.ok(first.stopped));
  check(() => assert.strictEqual(clients.length, 2));
  check(() => assert.strictEqual(clients[1].serverOptions.run.command, path.join(os.homedir(), "venvs/lcn/bin/lcn")));
  check(() => assert.deepStrictEqual(clients[1].serverOptions.run.args, ["server", "--stdio"]));
  check(() => assert.strictEqual(extension.serverCommand({ get: (k, d) => (k === "server.path" ? ".venv/bin/lcn" : d) }).command,
    path.join("/work/records", ".venv/bin/lcn")));

  // Inlay hints switched off: told to the running server, no restart.
  settings = { inlayHints: false };
  onConfig(changed("inlayHints"));
  check(() => assert.strictEqual(clients.length, 2));
  check(() => assert.deepStrictEqual(clients[1].sent, [
    { method: "workspace/didChangeConfiguration", params: { settings: { lcn: { inlayHints: false } } } }]));

  // Disabled: stopped, and not started again.
  settings = { "server.enable": false };
  onConfig(changed("server.enable"));
  await new Promise((resolve) => setImmediate(resolve));
  check(() => assert.ok(clients[1].stopped));
  check(() => assert.strictEqual(clients.length, 2));

  // A server that cannot start: an error that says how to install it.
  settings = {};
  failStart = true;
  await commands["lcnotation.restartServer"]();
  check(() => assert.strictEqual(errors.length, 1));
  check(() => assert.match(errors[0].message, /pip install 'lcnotation\[lsp\]'/));
  check(() => assert.match(errors[0].message, /lcnotation\.server\.path/));
  check(() => assert.deepStrictEqual(errors[0].items, ["Open settings"]));
  check(() => assert.deepStrictEqual(executed, []));

  // "Open settings" opens the settings editor on the path setting: in a local
  // window the User tab, in a remote one (SSH, WSL, a container, code-server)
  // the Remote tab, the only one that lists a machine-overridable setting.
  answer = "Open settings";
  await commands["lcnotation.restartServer"]();
  check(() => assert.deepStrictEqual(executed.pop(),
    ["workbench.action.openSettings", { query: "lcnotation.server.path" }]));
  vscode.env.remoteName = "ssh-remote";
  await commands["lcnotation.restartServer"]();
  check(() => assert.deepStrictEqual(executed.pop(),
    ["workbench.action.openRemoteSettings", { query: "lcnotation.server.path" }]));
  check(() => assert.deepStrictEqual(executed, []));
  // A VS Code without the remote command: the settings editor all the same.
  known.delete("workbench.action.openRemoteSettings");
  await commands["lcnotation.restartServer"]();
  await new Promise((resolve) => setImmediate(resolve));
  check(() => assert.deepStrictEqual(executed.map((call) => call[0]), [
    "workbench.action.openRemoteSettings", "workbench.action.openSettings"]));
  await extension.deactivate();
  console.log(`ok ${checks}`);
}

main().catch((err) => { console.error(err); process.exit(1); });
