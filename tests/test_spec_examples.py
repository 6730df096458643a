"""The examples in spec/ are run against the code, so the spec cannot drift.

Conventions (described for authors in spec/README.md):

* A fenced block whose info string starts with ``lcn`` is an input.  The
  word after ``lcn`` says how it is read: nothing (a ``.lcn`` file: the text
  encoded as UTF-8 and read with ``read_games``), ``game`` (``parse_game``
  on the text), ``bytes`` (a file whose bytes are the text with ``\\xNN``
  escapes resolved) or ``move`` (``parse_move`` on the text without its final
  line break).
* Each input is followed by one or more result blocks (prose may stand
  between them, other fenced blocks may not), each checked:
  ``diagnostics`` (every syntax diagnostic, one per line,
  ``line:column-end_line:end_column CODE message``; empty means none),
  ``outline`` (the games, headers, moves and the comment attached to each)
  ``canonical`` or ``canonical DIALECT`` (what ``format_games`` writes) and
  ``converted DIALECT`` (what ``convert_text`` makes of the input text, or,
  when it refuses, every problem it names, listed as diagnostics are).
* ``lcn lint`` inputs are linted with ``lcnotation.tools.lint.lint_text``; words
  after ``lint`` such as ``select=S`` or ``dialect=x-discard`` set the
  ``LintConfig`` (``[tool.lcnotation]``).  Their results: ``findings`` (every
  finding reported, listed as diagnostics are) and ``fixed`` (the text after
  the safe fixes of ``lcn lint --fix``, from ``lcnotation.tools.lint.fix_text``).
* Tables whose header row is ``| Text | Canonical | Meaning |`` list valid
  moves: ``parse_move(text)`` written back must be the canonical text.
  Tables whose header row is ``| Text | Diagnostic | Message |`` list
  invalid movetext: ``parse_game(text)`` must report exactly that one
  diagnostic.
"""

from __future__ import annotations

import codecs
import io
import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

import pytest

from lcnotation.lostcities.text.ast import Game, Header
from lcnotation.lostcities.convert import convert_text
from lcnotation.lostcities.text.dialects import ConversionError
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_comment, format_games, format_header, format_move
from lcnotation.lostcities.text.headers import parse_cards, parse_colors, parse_result
from lcnotation.tools.lint import LintConfig, fix_text, lint_text
from lcnotation.lostcities.text.messages import SYNTAX_CODES
from lcnotation.lostcities.text.reader import parse_game, parse_move, read_games

SPEC = Path(__file__).resolve().parent.parent / "spec"
# The documents whose examples this file runs (rules.md and json-form.md have their own tests).
DOCUMENTS = ("notation.md", "file-format.md", "dialects.md", "diagnostics.md")

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
_DIAGNOSTIC = re.compile(r"(\d+):(\d+)-(\d+):(\d+) ([A-Z]\d{3}) (.*)")
_CODE_SPAN = re.compile(r"`([^`]*)`")
_HEADER_VALUES: Dict[str, Callable[[Header], object]] = {
    "Colors": parse_colors, "Hand1": parse_cards, "Hand2": parse_cards,
    "Deck": parse_cards, "Result": parse_result,
}

Read = Union[List[Game], "MoveResult"]


class MoveResult(NamedTuple):
    """What ``parse_move`` gave: a move's canonical text, or the error it raised."""

    text: Optional[str]
    error: Optional[NotationError]


class Example(NamedTuple):
    document: str
    line: int
    mode: str
    text: str
    results: Tuple[Tuple[str, str], ...]

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


# ---------------------------------------------------------------- reading the spec


RESULT_KINDS = ("diagnostics", "outline", "canonical", "converted", "findings", "fixed")


def examples(document: str) -> List[Example]:
    """The input blocks of ``document``, each with the result blocks right after it."""
    text = (SPEC / document).read_text("utf-8")
    found: List[Example] = []
    current: Optional[Example] = None
    for m in _FENCE.finditer(text):
        info = m.group(1).strip()
        kind = info.split()[0] if info else ""
        line = text.count("\n", 0, m.start()) + 1
        if kind == "lcn":
            if current is not None:
                found.append(current)
            current = Example(document, line, info[3:].strip(), m.group(2), ())
        elif kind in RESULT_KINDS:
            assert current is not None, (
                f"{document}:{line}: a ```{kind} block must come after an ```lcn block, "
                "with no other fenced block between them")
            current = current._replace(results=current.results + ((info, m.group(2)),))
        elif current is not None:
            found.append(current)
            current = None
    if current is not None:
        found.append(current)
    return found


def table_rows(document: str, header: str) -> List[Tuple[int, List[str]]]:
    """The rows of every table in ``document`` whose header row is ``header``."""
    rows: List[Tuple[int, List[str]]] = []
    inside = False
    for number, line in enumerate((SPEC / document).read_text("utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped == header:
            inside = True
            continue
        if not inside:
            continue
        if not stripped.startswith("|"):
            inside = False
            continue
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows.append((number, cells))
    return rows


def _code(cell: str) -> str:
    m = _CODE_SPAN.fullmatch(cell)
    assert m is not None, f"expected a `code span`, found {cell!r}"
    return m.group(1)


# ---------------------------------------------------------------- running an example


def read(example: Example) -> Read:
    mode, text = example.mode, example.text
    if mode == "":
        return list(read_games(io.BytesIO(text.encode("utf-8"))))
    if mode == "bytes":
        return list(read_games(io.BytesIO(codecs.escape_decode(text.encode("utf-8"))[0])))
    if mode == "game":
        return [parse_game(text)]
    if mode == "move":
        try:
            return MoveResult(format_move(parse_move(text[:-1] if text.endswith("\n") else text)),
                              None)
        except NotationError as err:
            return MoveResult(None, err)
    raise AssertionError(f"{example.id}: unknown input kind 'lcn {mode}': "
                         "teach tests/test_spec_examples.py to read it")


def syntax_errors(game: Game) -> List[NotationError]:
    """The reader's errors and those of the structured header values, in text order."""
    errors = list(game.errors)
    for header in game.headers:
        check = _HEADER_VALUES.get(header.name)
        if check is None:
            continue
        try:
            check(header)
        except NotationError as err:
            errors.append(err)
    return sorted(errors, key=lambda e: (e.span.start, e.span.end))


def diagnostics(result: Read) -> str:
    errors = ([] if result.error is None else [result.error]) if isinstance(result, MoveResult) \
        else [e for game in result for e in syntax_errors(game)]
    return _listing(errors)


def _listing(errors: Iterable[NotationError]) -> str:
    return "".join(f"{e.line}:{e.column}-{e.end_line}:{e.end_column} {e.code} {e.message}\n"
                   for e in errors)


def outline(games: List[Game]) -> str:
    """Games, headers and moves, each followed by the comments attached to it."""
    out: List[str] = []

    def comments(node, indent: str) -> None:
        out.extend(f"{indent}comment {format_comment(c)}" for c in node.comments)

    for n, game in enumerate(games, 1):
        out.append(f"game {n}")
        comments(game, "  ")
        for h in game.headers:
            out.append(f"  header {format_header(h)}")
            comments(h, "    ")
        for m in game.moves:
            number = "" if m.number is None else f" {m.number}."
            out.append(f"  move turn {m.turn} player {m.turn % 2 + 1}{number} {format_move(m)}")
            comments(m, "    ")
    return "".join(line + "\n" for line in out)


def lint_config(mode: str) -> LintConfig:
    """The LintConfig of an ``lcn lint key=value ...`` input."""
    fields = {}
    for option in mode.split()[1:]:
        if option == "bytes":
            continue
        key, _, value = option.partition("=")
        assert key in ("select", "ignore", "colors", "dialect"), f"unknown option {option!r}"
        fields[key] = tuple(value) if key == "colors" else (
            tuple(value.split(",")) if key in ("select", "ignore") else value)
    return LintConfig(**fields)


def lint_input(example: Example) -> str:
    """The text of an ``lcn lint`` input; with ``bytes``, its ``\\xNN``, ``\\r`` and
    ``\\n`` escapes resolved (and the block's own final line break dropped)."""
    if "bytes" not in example.mode.split()[1:]:
        return example.text
    return codecs.escape_decode(example.text.rstrip("\n").encode("utf-8"))[0].decode("utf-8")


def check_lint(example: Example) -> None:
    config = lint_config(example.mode)
    text = lint_input(example)
    for info, expected in example.results:
        if info == "findings":
            actual = _listing(lint_text(text, config=config).diagnostics)
        else:
            assert info == "fixed", f"{example.id}: ```{info} does not follow ```lcn lint"
            actual = fix_text(text, config=config)[0]
        assert actual == expected, f"{example.id}: ```{info} differs"


def check(example: Example) -> None:
    if example.mode.split()[:1] == ["lint"]:
        check_lint(example)
        return
    result = read(example)
    assert example.results, f"{example.id}: an lcn block without a result block after it"
    for info, expected in example.results:
        kind, _, arg = info.partition(" ")
        if kind == "diagnostics":
            actual = diagnostics(result)
        elif kind == "converted":
            assert example.mode == "", f"{example.id}: converted needs an ```lcn file"
            try:
                actual = convert_text(example.text, to=arg)
            except ConversionError as refused:
                actual = _listing(refused.errors)
        else:
            assert isinstance(result, list), f"{example.id}: {kind} needs a file or a game"
            actual = outline(result) if kind == "outline" else format_games(result, arg or "v1")
        assert actual == expected, f"{example.id}: ```{info} differs"


ALL = [e for d in DOCUMENTS for e in examples(d)]


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_example(example: Example) -> None:
    check(example)


VALID = [(d, n, cells) for d in DOCUMENTS for n, cells in table_rows(d, "| Text | Canonical | Meaning |")]
INVALID = [(d, n, cells) for d in DOCUMENTS
           for n, cells in table_rows(d, "| Text | Diagnostic | Message |")]


@pytest.mark.parametrize("document,line,cells", VALID, ids=[f"{d}:{n}" for d, n, _ in VALID])
def test_valid_move_table(document: str, line: int, cells: List[str]) -> None:
    assert format_move(parse_move(_code(cells[0]))) == _code(cells[1])


@pytest.mark.parametrize("document,line,cells", INVALID, ids=[f"{d}:{n}" for d, n, _ in INVALID])
def test_invalid_movetext_table(document: str, line: int, cells: List[str]) -> None:
    game = parse_game(_code(cells[0]))
    expected = f"{_code(cells[1])} {_code(cells[2])}\n"
    assert diagnostics([game]) == expected


def test_the_tables_are_found() -> None:
    # A renamed column would silently drop a table from the checks above.
    assert len(VALID) >= 10 and len(INVALID) >= 10


def test_every_syntax_code_has_a_checked_example() -> None:
    text = (SPEC / "diagnostics.md").read_text("utf-8")
    documented = set(re.findall(r"^### (N\d{3})\b", text, re.M))
    assert documented == set(SYNTAX_CODES), "spec/diagnostics.md and SYNTAX_CODES disagree"
    shown = {m.group(5) for e in examples("diagnostics.md")
             for info, body in e.results if info == "diagnostics"
             for m in map(_DIAGNOSTIC.fullmatch, body.splitlines()) if m}
    assert set(SYNTAX_CODES) <= shown, f"codes without an example: {set(SYNTAX_CODES) - shown}"


def test_diagnostic_lines_are_well_formed() -> None:
    for e in ALL:
        for info, body in e.results:
            if info in ("diagnostics", "findings"):
                for line in body.splitlines():
                    assert _DIAGNOSTIC.fullmatch(line), f"{e.id}: cannot read {line!r}"


_LINK = re.compile(r"\]\(([A-Za-z0-9_.-]+\.md)?(?:#([^)\s]+))?\)")


def _anchors(document: str) -> set:
    """GitHub's anchors for the headings of ``document``."""
    text = _FENCE.sub("", (SPEC / document).read_text("utf-8"))
    return {re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("document", ("README.md",) + DOCUMENTS)
def test_links_between_spec_documents_resolve(document: str) -> None:
    text = _FENCE.sub("", (SPEC / document).read_text("utf-8"))
    for m in _LINK.finditer(text):
        target = m.group(1) or document
        if not (SPEC / target).exists():
            # rules.md and json-form.md are written alongside; only they may lag.
            assert target in ("rules.md", "json-form.md"), f"{document}: no spec/{target}"
            continue
        if m.group(2):
            assert m.group(2) in _anchors(target), f"{document}: no heading #{m.group(2)} in {target}"


GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "lcnotation.lark"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_grammar_quotes_are_verbatim(document: str) -> None:
    # A ```lark block quotes the grammar: each of its lines must be a line of it.
    rules = {line.strip() for line in GRAMMAR.read_text("utf-8").splitlines()}
    text = (SPEC / document).read_text("utf-8")
    for m in _FENCE.finditer(text):
        if m.group(1).strip() == "lark":
            for line in m.group(2).splitlines():
                assert not line.strip() or line.strip() in rules, (
                    f"{document}: {line.strip()!r} is not in grammar/lcnotation.lark")


def _section(text: str, heading: str) -> str:
    """The text of the section ``heading`` (a "## " heading) up to the next one."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def test_every_style_code_is_documented_with_a_checked_example() -> None:
    from lcnotation.lostcities.style import STYLE_CODES

    text = (SPEC / "diagnostics.md").read_text("utf-8")
    section = _section(text, "Family S: style")
    assert set(re.findall(r"^### (S\d{3})\b", section, re.M)) == set(STYLE_CODES)
    # The table: code, meaning, severity, and whether --fix repairs it.
    rows = {}
    for line in section.splitlines():
        m = re.fullmatch(r"\| \[(S\d{3})\]\(#s\d{3}\) \| (.+) \| (\w+) \| (yes|no|[^|]+) \|", line)
        if m:
            rows[m.group(1)] = (m.group(3), m.group(4))
    assert set(rows) == set(STYLE_CODES)
    lint_examples = [e for e in examples("diagnostics.md") if e.mode.split()[:1] == ["lint"]]
    for code, (severity, fixed) in rows.items():
        assert severity == STYLE_CODES[code][0].value, code
        found = [f for e in lint_examples
                 for f in lint_text(lint_input(e), config=lint_config(e.mode)).findings
                 if f.diagnostic.code == code]
        assert found, f"{code} has no checked example"
        fixes = {f.fix is not None for f in found}
        assert fixes == ({True} if fixed == "yes" else {False} if fixed == "no"
                         else {True, False}), f"{code}: the --fix column says {fixed!r}"


def test_conversion_codes_are_listed() -> None:
    text = (SPEC / "diagnostics.md").read_text("utf-8")
    listed = set(re.findall(r"^\| `(C\d{3})` \|", _section(text, "Family C: conversion"),
                            re.M))
    source = (Path(__file__).resolve().parent.parent / "lcnotation" / "lostcities" / "convert.py").read_text(
        "utf-8")
    assert listed == set(re.findall(r'"(C\d{3})"', source)) and listed
