"""Write the extension's TextMate grammars: syntaxes/lcn.tmLanguage.json (Lost
Cities) and syntaxes/sfn.tmLanguage.json (Standard FreeCell Notation).

The grammar is derived, not written by hand: every lexical rule comes from
``grammar/lcnotation.lark`` through ``lcnotation.lostcities.text.lexical.LEXICON`` (the
colour letters, ranks, discard markers, draw sources, move numbers, headers
and comments), the colour names from ``lcnotation.lostcities.game.violations.color_name``, the
tags with a structured value from ``lcnotation.lostcities.text.headers.KNOWN_TAGS`` and
the suppression comment from the linter.  A change there is a rerun here:

    python editors/vscode/build_grammar.py          # rewrite the file
    python editors/vscode/build_grammar.py --check  # fail when it is stale

The FreeCell grammar takes its moves, markers and deal numbers from the
terminals of ``grammar/freecell.lark`` and its cards from
``lcnotation.freecell.cards``.  tests/test_vscode_extension.py runs the check.  The grammar is lexical only;
the language server's semantic tokens and diagnostics do the rest.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Union

from lcnotation.lostcities.game.violations import color_name
from lcnotation.lostcities.text.ast import HANDSHAKE
from lcnotation.lostcities.text.headers import KNOWN_TAGS
from lcnotation.lostcities.text.lexical import LEXICON, Lexicon, without_lookbehind
from lcnotation.core.grammar import grammar_terminals, grammar_text
from lcnotation.core.suppression import PATTERN as SUPPRESSION
from lcnotation.freecell.cards import RANKS as FREECELL_RANKS, RED_SUITS, SUITS

OUTPUT = Path(__file__).resolve().parent / "syntaxes" / "lcn.tmLanguage.json"
FREECELL_OUTPUT = OUTPUT.parent / "sfn.tmLanguage.json"
SCOPE = "source.lcn"
FREECELL_SCOPE = "source.sfn"
COLORS_TAG = "Colors"
CARD_TAGS = ("Hand1", "Hand2", "Deck")

# A rule or a part of the grammar: only ever written out as JSON.
Rule = Dict[str, object]


def onig(pattern: str) -> str:
    r"""A Python regular expression in Oniguruma's syntax (the two differ in
    the grammar's patterns only in how a code point is written).

    >>> onig(r"[\s\ufeff]+")
    '[\\s\\x{FEFF}]+'
    """
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: "\\x{" + m.group(1).upper() + "}", pattern)


def blank_class(python_class: str) -> str:
    r"""The grammar's class of white space (Python's ``\s`` and more) written
    out code point by code point: Oniguruma's ``\s`` is not Python's (it
    leaves out U+001C to U+001F, for one).

    >>> print(blank_class(r"[\s\ufeff]")[:31])
    [\x{9}-\x{D}\x{1C}-\x{20}\x{85}
    """
    pattern = re.compile(python_class)
    ranges: List[List[int]] = []
    for code in range(0x10000):
        if pattern.fullmatch(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "[" + "".join(f"\\x{{{a:X}}}" + (f"-\\x{{{b:X}}}" if b > a else "")
                         for a, b in ranges) + "]"


def _class(letters: str) -> str:
    """A character class of ``letters`` in both cases."""
    return "[" + "".join(sorted(set(letters.upper() + letters.lower()))) + "]"


def color_rules(lexicon: Lexicon) -> List[object]:
    """One rule per named colour (``constant.other.color.red.lcn``), then one for
    the letters a ``Colors`` header may declare without a name (``custom``)."""
    named: Dict[str, str] = {}
    custom = ""
    for letter in sorted(lexicon.color_letters):
        name = color_name(letter)
        if name == letter:
            custom += letter
        else:
            named[letter] = name.lower()
    rules: List[object] = [{"match": _class(letter), "name": f"constant.other.color.{name}.lcn"}
                         for letter, name in named.items()]
    rules.append({"match": _class(custom), "name": "constant.other.color.custom.lcn"})
    return rules


def rank_rules(lexicon: Lexicon) -> List[object]:
    """The handshake letter and the number ranks, as the grammar's RANK writes them."""
    letters = "".join(w for w, value in lexicon.rank_of.items() if value == HANDSHAKE)
    numbers = sorted((w for w, value in lexicon.rank_of.items() if value != HANDSHAKE),
                     key=len, reverse=True)
    return [{"match": _class(letters), "name": "constant.language.handshake.lcn"},
            {"match": "|".join(numbers), "name": "constant.numeric.rank.lcn"}]


def build(lexicon: Lexicon = LEXICON) -> Rule:
    """The whole grammar, as the JSON object to write, for the lexical facts
    of ``lexicon`` (by default those of the package's grammar)."""
    t = {name: onig(pattern) for name, pattern in lexicon.terminals.items()}
    bare = {name: without_lookbehind(pattern) for name, pattern in t.items()}
    blank = blank_class(lexicon.blank_class)
    line_blank = onig(lexicon.line_blank_class)
    not_blank = "[^" + blank[1:-1] + "]"
    move = (f"({bare['COLOR']})({bare['RANK']})({bare['DISCARD']})?({bare['MINUS']})"
            f"(?:({bare['DRAW_COLOR']})|({bare['DRAW_PILE']}))")
    fragment = (f"(?:{t['MOVE_NUMBER']})?{bare['COLOR']}"
                f"(?:{bare['RANK']}(?:{bare['DISCARD']})?(?:{bare['MINUS']})?)?")
    move_captures: object = {
        "1": {"patterns": [{"include": "#color"}]},
        "2": {"patterns": [{"include": "#rank"}]},
        "3": {"name": "keyword.operator.discard.lcn"},
        "4": {"name": "punctuation.separator.draw.lcn"},
        "5": {"name": "meta.draw.discard-pile.lcn", "patterns": [{"include": "#color"}]},
        "6": {"name": "constant.language.draw-pile.lcn"},
    }
    # Where the reader starts a token: after white space or a "}", or at the
    # start of a line (and right after a header or a move number: see
    # glued() below).
    token_start = f"(?<!{not_blank[:-1]}}}])"
    # After a move, the reader skips the punctuation that follows it directly
    # (an error) and reads on: "R3-D,G4-D" is two moves and a stray ",".
    # A "[" right after the move is a header, after other punctuation not.
    punctuation = "[^\\w" + blank[1:-1] + "{;\\[][^\\w" + blank[1:-1] + "{;]*"
    number = "constant.numeric.move-number.lcn"
    header_start = f"(?=\\[[ \\t]*({{tags}})[ \\t])"
    value: Rule = {"begin": '"', "end": '"',
                   "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.lcn"}},
                   "endCaptures": {"0": {"name": "punctuation.definition.string.end.lcn"}}}

    def move_run(start: str) -> Rule:
        """A move from ``start`` on, with what the reader reads glued to it."""
        return {"begin": f"{start}(?={move})", "end": f"(?={blank}|[{{;\\[]|$)",
                "patterns": [
                    {"match": punctuation, "name": "invalid.illegal.after-move.lcn"},
                    {"include": "#move-number-in-run"},
                    {"match": "(?<!\\w)" + move, "captures": move_captures,
                     "name": "meta.move.lcn"},
                    # A word after the punctuation that is no move: the reader
                    # skips it, up to white space, "{" or ";".
                    {"match": f"(?<!\\w)(?!{t['MOVE_NUMBER']}|{move})\\w[^{blank[1:-1]}{{;]*",
                     "name": "invalid.illegal.after-move.lcn"}]}

    def skipped(start: str) -> Rule:
        """A word that is no move: the reader skips it up to white space, "{"
        or ";" (a "[" included), unless it is the start of a move cut short
        by one of those or by a header, or a "}" (a stray brace, alone)."""
        return {"match": f"{start}(?!{fragment}(?:{blank}|[{{;]|$|(?={t['HEADER']}))|[{{;\\[}}])"
                         f"[^{blank[1:-1]}{{;]+",
                "name": "invalid.illegal.skipped.lcn"}

    def glued(rule: Rule, follows: str, then: List[object]) -> Rule:
        """``rule`` as the begin of a region that also holds the tokens
        ``then``, when what ``follows`` is written right after it (a move
        after a move number or a header: the reader reads it, while after
        other text it does not)."""
        begin = rule.pop("match")
        return {"begin": begin, "beginCaptures": {"0": rule},
                "end": f"\\G(?!{follows})|(?!\\G)", "patterns": then}

    def move_number(start: str) -> Rule:
        return glued({"match": start + t["MOVE_NUMBER"], "name": number}, move,
                     [move_run("\\G")])

    def header(tags: str, inside: List[object], kind: str) -> Rule:
        return glued({"match": (header_start.format(tags=tags) if tags else "") + t["HEADER"],
                      "name": f"meta.header.{kind}.lcn", "patterns": [
                          {"match": "\\[|\\]", "name": "punctuation.definition.header.lcn"},
                          {"match": "[A-Za-z][A-Za-z0-9_]*", "name": "entity.name.tag.lcn"},
                          dict(value, name="string.quoted.double.lcn", patterns=inside)]},
                     f"[^{blank[1:-1]}{{;\\[}}]",
                     [move_number("\\G"), move_run("\\G"), skipped("\\G")])

    for tag in (COLORS_TAG, *CARD_TAGS):
        assert tag in KNOWN_TAGS, tag
    escape: object = {"match": "\\\\.", "name": "constant.character.escape.lcn"}
    reserved = "".join(sorted(lexicon.reserved_letters))
    codes = {"match": "[A-Za-z]+[0-9]*", "name": "constant.other.diagnostic-code.lcn"}
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Lost Cities Notation",
        "scopeName": SCOPE,
        "fileTypes": ["lcn"],
        "comment": "Generated by editors/vscode/build_grammar.py from grammar/lcnotation.lark;"
                   " do not edit.",
        "patterns": [{"include": "#comment"}, {"include": "#header"},
                     {"include": "#move-number"}, {"include": "#move"}, {"include": "#skipped"}],
        "repository": {
            "comment": {"patterns": [
                {"begin": "\\{", "end": f"\\}}|^(?={line_blank}*\\[)",
                 "name": "comment.block.braces.lcn",
                 "beginCaptures": {"0": {"name": "punctuation.definition.comment.begin.lcn"}},
                 "endCaptures": {"0": {"name": "punctuation.definition.comment.end.lcn"}},
                 "patterns": [{"include": "#suppression"}]},
                {"begin": ";", "end": "$", "name": "comment.line.semicolon.lcn",
                 "beginCaptures": {"0": {"name": "punctuation.definition.comment.lcn"}},
                 "patterns": [{"include": "#suppression"}]}]},
            "suppression": {
                "match": onig(SUPPRESSION.pattern), "name": "meta.directive.suppression.lcn",
                "captures": {"1": {"patterns": [codes]}}},
            "header": {"patterns": [
                header(COLORS_TAG, [escape, {"include": "#color"},
                                    {"match": _class(reserved), "name": "invalid.illegal.reserved.lcn"}],
                       "colors"),
                header("|".join(CARD_TAGS), [escape, {"include": "#card"}], "cards"),
                header("", [escape], "other"),
                # A "[" that starts no header: the reader skips the rest of its line.
                {"match": "\\[.*", "name": "invalid.illegal.header.lcn"}]},
            "card": {"match": f"({bare['COLOR']})({bare['RANK']})", "name": "meta.card.lcn",
                     "captures": {"1": {"patterns": [{"include": "#color"}]},
                                  "2": {"patterns": [{"include": "#rank"}]}}},
            "move-number": move_number(token_start),
            "move-number-in-run": move_number("(?<!\\w)"),
            "move": move_run(token_start),
            "skipped": skipped(token_start),
            "color": {"patterns": color_rules(lexicon)},
            "rank": {"patterns": rank_rules(lexicon)},
        },
    }


def build_freecell() -> Rule:
    """The TextMate grammar of Standard FreeCell Notation.

    A record is read line by line, each line's kind set by its place; a
    TextMate grammar sees one line at a time, so it tells the kinds by their
    shape instead: a solution line (moves in three-character cycles, then a
    comment), the freecell+home line (``+`` at position 12), a column line
    (cards and blanks, three characters each), the Game# line (the first line
    of the file, its deal number marked), and any other line is a comment.
    """
    t = grammar_terminals(grammar_text("freecell.lark"))
    black = "".join(c for c in SUITS if c not in RED_SUITS)
    card = f"[{FREECELL_RANKS}][{SUITS}]"
    cell = "(?:[^ \\t]{2})"
    step = f"(?:{t['MOVE']}|{t['MARKER']})"
    card_rule: Rule = {
        "match": f"([{FREECELL_RANKS}])(?:([{RED_SUITS}])|([{black}]))",
        "name": "meta.card.sfn",
        "captures": {"1": {"name": "constant.numeric.rank.sfn"},
                     "2": {"name": "constant.other.suit.red.sfn"},
                     "3": {"name": "constant.other.suit.black.sfn"}}}
    suppression: Rule = {
        "match": onig(SUPPRESSION.pattern), "name": "meta.directive.suppression.sfn",
        "captures": {"1": {"patterns": [{"match": "[A-Za-z][0-9]*",
                                         "name": "constant.other.code.sfn"}]}}}
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "Standard FreeCell Notation",
        "scopeName": FREECELL_SCOPE,
        "comment": "Generated by editors/vscode/build_grammar.py from grammar/freecell.lark; "
                   "do not edit.",
        "patterns": [{"include": "#solution-line"}, {"include": "#home-line"},
                     {"include": "#column-line"}, {"include": "#game-line"},
                     {"include": "#comment-line"}],
        "repository": {
            "solution-line": {
                "match": f"^({step}+)(.*)$", "name": "meta.solution.sfn",
                "captures": {"1": {"patterns": [{"include": "#marker"}, {"include": "#move"}]},
                             "2": {"name": "comment.line.sfn",
                                   "patterns": [{"include": "#suppression"}]}}},
            "move": {
                # The grammar's move with each of its three characters captured.
                "match": onig(re.sub(r"\[[^\]]*\]", lambda m: f"({m.group()})", t["MOVE"])),
                "name": "meta.move.sfn",
                "captures": {"1": {"name": "keyword.operator.one-card.sfn"},
                             "2": {"name": "variable.other.source.sfn"},
                             "3": {"name": "variable.other.target.sfn"}}},
            "marker": {"match": onig(t["MARKER"]), "name": "keyword.control.marker.sfn"},
            "home-line": {
                "match": f"^((?:{cell}|  )[-= ](?:{cell}|  )[-= ](?:{cell}|  )[-= ](?:{cell}|  ))"
                         "(\\+)(.*)$",
                "name": "meta.home-line.sfn",
                "captures": {"1": {"patterns": [{"include": "#card"},
                                                {"match": "=", "name": "keyword.other.wkr.sfn"},
                                                {"match": "-",
                                                 "name": "punctuation.separator.freecell.sfn"}]},
                             "2": {"name": "keyword.operator.home.sfn"},
                             "3": {"patterns": [{"include": "#card"}]}}},
            "column-line": {
                "match": f"^(?:{card}|  )(?: (?:{card}|  ))*[ \\t]*$",
                "name": "meta.columns.sfn", "captures": {"0": {"patterns": [{"include": "#card"}]}}},
            "game-line": {
                "match": "\\A.*$", "name": "meta.game-line.sfn",
                "captures": {"0": {"patterns": [
                    {"match": onig(t["MARKED_NUMBER"]), "name": "constant.numeric.deal.sfn"},
                    {"match": onig(t["WORD_NUMBER"]), "name": "constant.numeric.deal.sfn"},
                    {"include": "#suppression"}]}}},
            "comment-line": {"match": "^.*$", "name": "comment.line.sfn",
                             "captures": {"0": {"patterns": [{"include": "#suppression"}]}}},
            "card": card_rule,
            "suppression": suppression,
        },
    }


def render() -> str:
    """The Lost Cities grammar file's text."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def render_freecell() -> str:
    """The FreeCell grammar file's text."""
    return json.dumps(build_freecell(), indent=2, ensure_ascii=False) + "\n"


def main(argv: Union[List[str], None] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the file is up to date (status 1 when not)")
    args = parser.parse_args(argv)
    stale = 0
    for output, text in ((OUTPUT, render()), (FREECELL_OUTPUT, render_freecell())):
        if args.check:
            current = output.read_text("utf-8") if output.exists() else ""
            if current != text:
                print(f"{output} is out of date: run python {Path(__file__).name}",
                      file=sys.stderr)
                stale = 1
            continue
        output.parent.mkdir(exist_ok=True)
        output.write_text(text, "utf-8")
    return stale


if __name__ == "__main__":
    sys.exit(main())
