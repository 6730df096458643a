"""The VS Code extension in editors/vscode/: its TextMate grammar, its
manifest and its package.

The grammar is generated from grammar/lcnotation.lark (build_grammar.py); it
is tested three ways: the annotated samples in editors/vscode/tests/ (one per
dialect, and headers, comments, movetext) with vscode-tmgrammar-test; the
moves it highlights against the moves the reader reads, over the test corpus,
the spec's examples and hypothesis' notation text; and the generator against
a changed grammar.  The .vsix is built with @vscode/vsce and its contents
listed.  The npm packages come from ``npm ci`` (scripts/setup.d/vscode.sh).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Set, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PIECES, examples, notation_text, written_games
from tools import require

import lcnotation as lcn
from lcnotation.lostcities.text.dialects import DIALECTS
from lcnotation.core.grammar import grammar_text
from lcnotation.lostcities.text.lexical import LEXICON, Lexicon

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "editors" / "vscode"
GRAMMAR = EXT / "syntaxes" / "lcn.tmLanguage.json"
FREECELL_GRAMMAR = EXT / "syntaxes" / "sfn.tmLanguage.json"
SAMPLES = sorted((EXT / "tests").glob("*.lcn"))
MOVE = "meta.move.lcn"

Spans = Set[Tuple[int, int, int]]


def _bin(name: str) -> str:
    """A command installed by ``npm ci`` in editors/vscode (skip or fail without it)."""
    require("npm", "for the VS Code extension's tests")
    return require(str(EXT / "node_modules" / ".bin" / name),
                   "npm ci in editors/vscode (scripts/setup.d/vscode.sh)")


def _grammar_builder() -> Callable[..., Dict[str, Any]]:
    """editors/vscode/build_grammar.py's ``build`` (the grammar as JSON)."""
    spec = importlib.util.spec_from_file_location("build_grammar", EXT / "build_grammar.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    build: Callable[..., Dict[str, Any]] = module.build
    return build


# ---------------------------------------------------------------- the generator

def test_the_grammar_file_is_the_one_generated_from_the_lark_grammar() -> None:
    done = subprocess.run([sys.executable, str(EXT / "build_grammar.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_generator_follows_the_lark_grammar() -> None:
    """A colour letter taken out of COLOR, a new rank: the TextMate grammar
    changes with them, with no edit of its own."""
    build = _grammar_builder()
    text = grammar_text("lcnotation.lark")
    changed = text.replace("COLOR: /[A-CE-GI-WYZa-ce-gi-wyz]/", "COLOR: /[A-CE-GI-PR-WYZa-ce-gi-pr-wyz]/")
    changed = changed.replace("(?:10|[2-9]|[Hh])", "(?:11|10|[2-9]|[Hh])")
    assert "GI-PR" in changed and "11|10" in changed
    before, after = build(), build(Lexicon(changed))

    def matches(grammar: Dict[str, Any], rule: str, scope: str) -> str:
        return next(str(r["match"]) for r in grammar["repository"][rule]["patterns"]
                    if r["name"] == scope)

    def reserved(grammar: Dict[str, Any]) -> str:
        colors = grammar["repository"]["header"]["patterns"][0]
        inside = colors["beginCaptures"]["0"]["patterns"][2]["patterns"]
        return next(str(r["match"]) for r in inside
                    if r.get("name") == "invalid.illegal.reserved.lcn")

    custom, rank = "constant.other.color.custom.lcn", "constant.numeric.rank.lcn"
    assert "Q" in matches(before, "color", custom) and "Q" not in reserved(before)
    assert "Q" not in matches(after, "color", custom) and "Q" in reserved(after)
    assert "11" not in matches(before, "rank", rank) and "11" in matches(after, "rank", rank)


# ---------------------------------------------------------------- annotated samples

def test_the_annotated_samples_pass() -> None:
    done = subprocess.run([_bin("vscode-tmgrammar-test"), "--compact", "tests/*.lcn"],
                          cwd=EXT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for sample in SAMPLES:
        assert f"tests/{sample.name} run successfuly" in done.stdout


def test_the_freecell_sample_passes_with_the_grammar_made_from_freecell_lark() -> None:
    # The second language: its grammar is generated (the --check above covers
    # it) and its annotated sample holds each kind of line to its scopes.
    done = subprocess.run([_bin("vscode-tmgrammar-test"), "--compact", "-g",
                           str(FREECELL_GRAMMAR), "tests/*.sfn"],
                          cwd=EXT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tests/freecell.sfn run successfuly" in done.stdout
    grammar = json.loads(FREECELL_GRAMMAR.read_text("utf-8"))
    move = grammar["repository"]["move"]["match"]
    # The moves are the grammar's: a move read by lcn is highlighted, one it
    # refuses is not.
    assert re.fullmatch(move, " 5a") and re.fullmatch(move, ".8h")
    assert not re.fullmatch(move, " 9a") and not re.fullmatch(move, " 5e")


def test_a_wrong_annotation_fails(tmp_path: Path) -> None:
    """The harness can fail: a sample claiming a red 3 is blue does not pass."""
    text = (EXT / "tests" / "v1.lcn").read_text("utf-8")
    wrong = text.replace(
        ";  ^ meta.move.lcn constant.other.color.red.lcn",
        ";  ^ meta.move.lcn constant.other.color.blue.lcn", 1)
    assert wrong != text
    (tmp_path / "wrong.lcn").write_text(wrong, "utf-8")
    done = subprocess.run([_bin("vscode-tmgrammar-test"), "--compact", "-g", str(GRAMMAR),
                           str(tmp_path / "wrong.lcn")],
                          cwd=EXT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "constant.other.color.blue.lcn" in done.stdout


def _scopes(rule: object) -> Iterator[str]:
    if isinstance(rule, dict):
        for key, value in rule.items():
            if key in ("name", "contentName") and isinstance(value, str):
                yield from value.split()
            else:
                yield from _scopes(value)
    elif isinstance(rule, list):
        for item in rule:
            yield from _scopes(item)


def test_the_samples_cover_every_scope_and_every_dialect() -> None:
    grammar = json.loads(GRAMMAR.read_text("utf-8"))
    asserted = " ".join(line for sample in SAMPLES
                        for line in sample.read_text("utf-8").splitlines()
                        if line.startswith(";") and ("^" in line or "<-" in line))
    missing = {scope for scope in _scopes(grammar["repository"])
               if not re.search(rf"(?<![\w.-]){re.escape(scope)}(?![\w.-])", asserted)}
    assert not missing
    assert {d for d in DIALECTS} <= {s.stem for s in SAMPLES}


# ---------------------------------------------------------------- grammar and reader agree

class Tokenizer:
    """One tokenize.js process (vscode-textmate with Oniguruma, as in VS Code)."""

    def __init__(self) -> None:
        require("node", "for the VS Code extension's tests")
        _bin("vscode-tmgrammar-test")
        self.process = subprocess.Popen(["node", str(EXT / "tests" / "tokenize.js"), "--serve"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8")

    def tokens(self, text: str) -> List[Tuple[int, int, int, List[str]]]:
        """Each token's line, start, end and scopes."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(text) + "\n")
        self.process.stdin.flush()
        return [(line, start, end, scopes)
                for line, start, end, scopes in json.loads(self.process.stdout.readline())]

    def moves(self, text: str) -> Spans:
        """The (line, start, end) of each run of text the grammar scopes as a move."""
        spans: List[List[int]] = []
        for line, start, end, scopes in self.tokens(text):
            if MOVE in scopes and start < end:
                if spans and spans[-1][0] == line and spans[-1][2] == start:
                    spans[-1][2] = end
                else:
                    spans.append([line, start, end])
        return {(line, start, end) for line, start, end in spans}

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def tokenizer() -> Iterator[Tokenizer]:
    t = Tokenizer()
    yield t
    t.close()


def read_moves(text: str) -> Spans | None:
    """The (line, start, end) of each move the reader reads, columns in UTF-16
    code units as TextMate counts them; None for a text with an unclosed
    ``{`` (the reader ends it at its line, N110, or skips it; an editor's
    grammar cannot know at the ``{`` that it is never closed, and makes the
    rest a comment up to the next header line)."""
    if any(LEXICON.brace_comment.match(text, brace.start()) is None
           for brace in re.finditer(r"\{", text)):
        return None
    games = list(lcn.parse_games(text))
    lines = re.split(r"\r\n|\r|\n", text)

    def utf16(line: int, column: int) -> int:
        before = lines[line - 1][:column - 1]
        return len(before.encode("utf-16-le")) // 2

    return {(m.span.line - 1, utf16(m.span.line, m.span.column),
             utf16(m.span.line, m.span.end_column))
            for g in games for m in g.moves if m.span is not None}


def _agree(tokenizer: Tokenizer, text: str) -> None:
    expected = read_moves(text)
    if expected is not None:
        assert tokenizer.moves(text) == expected, text


def _examples() -> Iterator[Tuple[str, str]]:
    for path in sorted((ROOT / "tests" / "corpus").rglob("*.lcn")):
        yield path.name, path.read_bytes().decode("utf-8", "replace").lstrip("\ufeff")
    for path in sorted((ROOT / "spec").glob("*.md")):
        text = path.read_text("utf-8")
        for i, block in enumerate(re.findall(r"```lcn[^\n]*\n(.*?)```", text, re.S)):
            yield f"{path.name} example {i + 1}", block
        for row in re.findall(r"^\| `([^`|]+)` \|", text, re.M):
            yield f"{path.name} table", row


def test_the_grammar_highlights_the_moves_the_reader_reads(tokenizer: Tokenizer) -> None:
    """Over the test corpus (valid and invalid records) and every example of the spec."""
    seen = 0
    for name, text in _examples():
        expected = read_moves(text)
        if expected is not None:
            assert tokenizer.moves(text) == expected, name
            seen += 1
    assert seen > 150


def test_every_blank_of_the_grammar_is_a_blank_to_the_textmate_grammar(
        tokenizer: Tokenizer) -> None:
    """Oniguruma's \\s is not Python's: the generator writes the class out."""
    blanks = [chr(c) for c in range(0x10000) if LEXICON.ws.fullmatch(chr(c))
              and chr(c) not in "\r\n"]
    assert "\x1c" in blanks and "\ufeff" in blanks
    for blank in blanks:
        tokens = tokenizer.tokens(f"R3-D{blank}G4-D")
        assert [scopes for _, start, _, scopes in tokens if start == 4] == [["source.lcn"]]
        assert tokenizer.moves(f"R3-D{blank}G4-D") == {(0, 0, 4), (0, 5, 9)}


# The reader's pieces, and more white space and punctuation (the grammar's
# character classes are Oniguruma's, the reader's Python's).
_TEXT = st.one_of(notation_text, st.lists(st.sampled_from(
    PIECES + ["\x1c", "\x85", "\u2028", "\xa0", "\u3000", "\u2013", "_", ")", "1.", "}",
              '"x"]', "[E x]", "R3-DR", "ä"]), max_size=20).map("".join))


@examples(150)
@given(_TEXT)
def test_on_any_notation_text_the_grammar_highlights_the_moves_read(
        tokenizer: Tokenizer, text: str) -> None:
    _agree(tokenizer, text)


@examples(60)
@given(written_games())
def test_on_games_written_any_way_the_grammar_highlights_every_move(
        tokenizer: Tokenizer, written: Tuple[object, str]) -> None:
    _agree(tokenizer, written[1])


# ---------------------------------------------------------------- manifest and package

def test_the_manifest_contributes_the_language_the_grammar_and_the_settings() -> None:
    manifest = json.loads((EXT / "package.json").read_text("utf-8"))
    contributes = manifest["contributes"]
    language, freecell = contributes["languages"]
    assert language["id"] == "lcn" and language["extensions"] == [".lcn"]
    assert freecell["id"] == "sfn" and freecell["extensions"] == [".sfn"]
    assert (EXT / language["configuration"]).is_file()
    assert (EXT / freecell["configuration"]).is_file()
    grammar, freecell_grammar = contributes["grammars"]
    assert grammar["language"] == "lcn" and (EXT / grammar["path"]).resolve() == GRAMMAR
    assert json.loads(GRAMMAR.read_text("utf-8"))["scopeName"] == grammar["scopeName"]
    assert freecell_grammar["language"] == "sfn"
    assert (EXT / freecell_grammar["path"]).resolve() == FREECELL_GRAMMAR
    assert json.loads(FREECELL_GRAMMAR.read_text("utf-8"))["scopeName"] == \
        freecell_grammar["scopeName"]
    # The extensions are the notations' own (lcnotation.tools.notations).
    from lcnotation.tools.notations import NOTATIONS
    assert {e for l in contributes["languages"] for e in l["extensions"]} == \
        set(NOTATIONS.extensions)
    settings = contributes["configuration"]["properties"]
    assert settings["lcnotation.server.path"]["default"] == "lcn"
    assert settings["lcnotation.server.args"]["default"] == ["server"]
    assert settings["lcnotation.trace.server"]["enum"] == ["off", "messages", "verbose"]
    assert (EXT / manifest["main"]).is_file()
    assert "vscode-languageclient" in manifest["dependencies"]
    config = json.loads((EXT / "language-configuration.json").read_text("utf-8"))
    assert config["comments"] == {"lineComment": ";", "blockComment": ["{", "}"]}
    # Every TextMate scope a semantic token falls back to is one the grammar has.
    scopes = set(_scopes(json.loads(GRAMMAR.read_text("utf-8"))["repository"]))
    for mapping in contributes["semanticTokenScopes"]:
        for fallback in mapping["scopes"].values():
            assert set(fallback) <= scopes


def test_each_named_colour_has_one_colour_with_and_without_the_server() -> None:
    """Colour letters are coloured by their colour: by the semantic tokens
    when the server runs, by the TextMate scopes before (or without) it, the
    same colour for both."""
    contributes = json.loads((EXT / "package.json").read_text("utf-8"))["contributes"]
    defaults = contributes["configurationDefaults"]
    semantic = {rule.split(":")[0].split(".")[1]: colour for rule, colour in
                defaults["editor.semanticTokenColorCustomizations"]["rules"].items()}
    textmate = {rule["scope"].split(".")[3]: rule["settings"]["foreground"]
                for rule in defaults["editor.tokenColorCustomizations"]["textMateRules"]}
    grammar = json.loads(GRAMMAR.read_text("utf-8"))
    named = {r["name"].split(".")[3] for r in grammar["repository"]["color"]["patterns"]} - {"custom"}
    assert semantic == textmate and set(semantic) == named
    modifiers = {m["id"] for m in contributes["semanticTokenModifiers"]}
    assert named <= modifiers


def test_the_manifest_declares_the_servers_semantic_token_types() -> None:
    """The token types and modifiers of lcnotation.lsp's legend that LSP does
    not define are declared, so that themes (and the TextMate fallbacks)
    colour them."""
    tokens = pytest.importorskip("lcnotation.lsp.tokens", reason="the language server (lsp)")
    contributes = json.loads((EXT / "package.json").read_text("utf-8"))["contributes"]
    standard = {"comment", "string", "number", "keyword", "operator", "enumMember", "property"}
    declared = {t["id"] for t in contributes["semanticTokenTypes"]}
    assert set(tokens.TOKEN_TYPES) - standard == declared
    assert [m["id"] for m in contributes["semanticTokenModifiers"]] == list(tokens.TOKEN_MODIFIERS)


def test_the_client_starts_lcn_server_and_follows_the_settings() -> None:
    """extension.js against stand-ins for VS Code and vscode-languageclient
    (editors/vscode/tests/client.test.js): the command and its options, the
    path setting, a settings change, a server that cannot start."""
    node = require("node", "for the VS Code extension's tests")
    done = subprocess.run([node, str(EXT / "tests" / "client.test.js")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.fullmatch(r"ok [1-9][0-9]+\n", done.stdout)


def test_the_vsix_builds_and_holds_the_extension(tmp_path: Path) -> None:
    vsix = tmp_path / "lcnotation.vsix"
    _bin("vsce")
    # The README's command (the package script), writing elsewhere.
    done = subprocess.run([require("npm"), "run", "package", "--", "--out", str(vsix)], cwd=EXT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    names = set(zipfile.ZipFile(vsix).namelist())
    for name in ["extension.vsixmanifest", "extension/package.json", "extension/extension.js",
                 "extension/language-configuration.json", "extension/readme.md",
                 "extension/syntaxes/lcn.tmLanguage.json",
                 "extension/node_modules/vscode-languageclient/node.js"]:
        assert name in names
    # Not the tests, the generator nor the tools that build and test it.
    assert not [n for n in names if n.startswith("extension/tests/")
                or n.endswith((".py", ".pyc"))
                or re.match(r"extension/node_modules/(vscode-tmgrammar-test|@vscode/vsce|"
                            r"vscode-textmate|vscode-oniguruma)/", n)]


# ---------------------------------------------------------------- the editor guide

def _editor_section() -> str:
    """docs/editors.md, the guide to the editors' set-up (once the README's section)."""
    return (ROOT / "docs" / "editors.md").read_text("utf-8")


def test_the_guide_lists_the_extension_settings_with_their_defaults() -> None:
    settings = json.loads((EXT / "package.json").read_text("utf-8"))["contributes"][
        "configuration"]["properties"]
    rows = dict(re.findall(r"^\| `(lcnotation\.[\w.]+)` \| `([^`]*)` \|", _editor_section(), re.M))
    assert set(rows) == set(settings)
    for name, default in rows.items():
        written = settings[name]["default"]
        assert default == (written if isinstance(written, str) else json.dumps(written)), name


def test_the_guide_snippets_start_lcn_server() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    section = _editor_section()
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    kinds = [kind for kind, _ in blocks]
    assert kinds.count("lua") == 2 and "toml" in kinds and "elisp" in kinds
    for kind, code in blocks:
        if kind == "lua":
            assert 'cmd = { "lcn", "server" }' in code
            assert 'extension = { lcn = "lcn" }' in code
        elif kind == "elisp":
            assert '("lcn" "server")' in code and "\\\\.lcn" in code
            assert code.count("(") == code.count(")")
        elif kind == "toml":
            helix = tomllib.loads(code)
            assert helix["language-server"]["lcn"] == {"command": "lcn", "args": ["server"]}
            (language,) = helix["language"]
            assert language["file-types"] == ["lcn"] and language["language-servers"] == ["lcn"]
    assert "code --install-extension lcnotation-" in section
