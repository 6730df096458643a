#!/usr/bin/env node
// Tokenizes text with the extension's TextMate grammar, the way VS Code does
// (vscode-textmate on the Oniguruma engine), and prints the tokens as JSON:
// one [line, start, end, scopes] per token, lines from 0, columns in UTF-16
// code units.
//   node tokenize.js FILE...   a JSON list: the tokens of each file
//   node tokenize.js --serve   for each line of input (a JSON string, the
//                              text), one line of output (its tokens)
// Used by tests/test_vscode_extension.py to hold the grammar to the reader.
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.join(__dirname, "..");
const grammarPath = path.join(here, "syntaxes", "lcn.tmLanguage.json");

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => scopeName === "source.lcn"
      ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
      : null,
  });
  return registry.loadGrammar("source.lcn");
}

function tokenize(grammar, text) {
  const out = [];
  let stack = vsctm.INITIAL;
  text.split(/\r\n|\r|\n/).forEach((line, n) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      out.push([n, token.startIndex, Math.min(token.endIndex, line.length), token.scopes]);
    }
    stack = result.ruleStack;
  });
  return out;
}

async function main() {
  const grammar = await loadGrammar();
  const args = process.argv.slice(2);
  if (args[0] === "--serve") {
    const lines = require("readline").createInterface({ input: process.stdin });
    for await (const line of lines) {
      process.stdout.write(JSON.stringify(tokenize(grammar, JSON.parse(line))) + "\n");
    }
    return;
  }
  const texts = args.map((file) => fs.readFileSync(file, "utf8"));
  process.stdout.write(JSON.stringify(texts.map((text) => tokenize(grammar, text))) + "\n");
}

main().catch((err) => { console.error(err); process.exit(1); });
