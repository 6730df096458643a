"""Write the extension's TextMate grammar, syntaxes/lcn.tmLanguage.json.

The grammar is derived, not written by hand: every lexical rule comes from
``grammar/lcnotation.lark`` through ``lcnotation.text.lexical.LEXICON`` (the
colour letters, ranks, discard markers, draw sources, move numbers, headers
and comments), the colour names from ``lcnotation.game.state.color_name``, the
tags with a structured value from ``lcnotation.text.headers.KNOWN_TAGS`` and
the suppression comment from the linter.  A change there is a rerun here:

    python editors/vscode/build_grammar.py          # rewrite the file
    python editors/vscode/build_grammar.py --check  # fail when it is stale

tests/test_vscode_extension.py runs the check.  The grammar is lexical only;
the language server's semantic tokens and diagnostics do the rest.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Union

from lcnotation.game.state import color_name
from lcnotation.text.ast import HANDSHAKE
from lcnotation.text.headers import KNOWN_TAGS
from lcnotation.text.lexical import LEXICON, without_lookbehind
from lcnotation.tools.lint import _SUPPRESSION

OUTPUT = Path(__file__).resolve().parent / "syntaxes" / "lcn.tmLanguage.json"
SCOPE = "source.lcn"
COLORS_TAG = "Colors"
CARD_TAGS = ("Hand1", "Hand2", "Deck")

Json = Union[str, List["Json"], Dict[str, "Json"]]
Rule = Dict[str, Json]


def onig(pattern: str) -> str:
    r"""A Python regular expression in Oniguruma's syntax (the two differ in
    the grammar's patterns only in how a code point is written).

    >>> onig(r"[\s\ufeff]+")
    '[\\s\\x{FEFF}]+'
    """
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: "\\x{" + m.group(1).upper() + "}", pattern)


def _class(letters: str) -> str:
    """A character class of ``letters`` in both cases."""
    return "[" + "".join(sorted(set(letters.upper() + letters.lower()))) + "]"


def color_rules() -> List[Json]:
    """One rule per named colour (``constant.other.color.red.lcn``), then one for
    the letters a ``Colors`` header may declare without a name (``custom``)."""
    named: Dict[str, str] = {}
    custom = ""
    for letter in sorted(LEXICON.color_letters):
        name = color_name(letter)
        if name == letter:
            custom += letter
        else:
            named[letter] = name.lower()
    rules: List[Json] = [{"match": _class(letter), "name": f"constant.other.color.{name}.lcn"}
                         for letter, name in named.items()]
    rules.append({"match": _class(custom), "name": "constant.other.color.custom.lcn"})
    return rules


def rank_rules() -> List[Json]:
    """The handshake letter and the number ranks, as the grammar's RANK writes them."""
    letters = "".join(w for w, value in LEXICON.rank_of.items() if value == HANDSHAKE)
    numbers = sorted((w for w, value in LEXICON.rank_of.items() if value != HANDSHAKE),
                     key=len, reverse=True)
    return [{"match": _class(letters), "name": "constant.language.handshake.lcn"},
            {"match": "|".join(numbers), "name": "constant.numeric.rank.lcn"}]


def build() -> Rule:
    """The whole grammar, as the JSON object to write."""
    t = {name: onig(pattern) for name, pattern in LEXICON.terminals.items()}
    bare = {name: without_lookbehind(pattern) for name, pattern in t.items()}
    blank = onig(LEXICON.blank_class)
    line_blank = onig(LEXICON.line_blank_class)
    not_blank = "[^" + blank[1:-1] + "]"
    move = (f"({bare['COLOR']})({bare['RANK']})({bare['DISCARD']})?({bare['MINUS']})"
            f"(?:({bare['DRAW_COLOR']})|({bare['DRAW_PILE']}))")
    move_captures: Json = {
        "1": {"patterns": [{"include": "#color"}]},
        "2": {"patterns": [{"include": "#rank"}]},
        "3": {"name": "keyword.operator.discard.lcn"},
        "4": {"name": "punctuation.separator.draw.lcn"},
        "5": {"name": "meta.draw.discard-pile.lcn", "patterns": [{"include": "#color"}]},
        "6": {"name": "constant.language.draw-pile.lcn"},
    }
    # Where the reader starts a token: after white space, a comment's "}", a
    # header's "]" or a move number's dot, or at the start of a line.
    token_start = f"(?:(?<!{not_blank[:-1]}}}\\]])|(?<=[0-9]\\.))"
    # After a move, the reader skips the punctuation that follows it directly
    # (an error) and reads on: "R3-D,G4-D" is two moves and a stray ",".
    punctuation = "[^\\w" + blank[1:-1] + "{;\\[]+"
    header_start = f"(?=\\[[ \\t]*({{tags}})[ \\t])"
    value: Rule = {"begin": '"', "end": '"',
                   "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.lcn"}},
                   "endCaptures": {"0": {"name": "punctuation.definition.string.end.lcn"}}}

    def header(tags: str, inside: List[Json], kind: str) -> Rule:
        return {"match": (header_start.format(tags=tags) if tags else "") + t["HEADER"],
                "name": f"meta.header.{kind}.lcn",
                "captures": {"0": {"patterns": [
                    {"match": "\\[|\\]", "name": "punctuation.definition.header.lcn"},
                    {"match": "[A-Za-z][A-Za-z0-9_]*", "name": "entity.name.tag.lcn"},
                    dict(value, name="string.quoted.double.lcn", patterns=inside)]}}}

    for tag in (COLORS_TAG, *CARD_TAGS):
        assert tag in KNOWN_TAGS, tag
    escape: Json = {"match": "\\\\.", "name": "constant.character.escape.lcn"}
    reserved = "".join(sorted(LEXICON.reserved_letters))
    codes = {"match": "[A-Za-z]+[0-9]*", "name": "constant.other.diagnostic-code.lcn"}
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Lost Cities Notation",
        "scopeName": SCOPE,
        "fileTypes": ["lcn"],
        "comment": "Generated by editors/vscode/build_grammar.py from grammar/lcnotation.lark;"
                   " do not edit.",
        "patterns": [{"include": "#comment"}, {"include": "#header"},
                     {"include": "#move-number"}, {"include": "#move"}],
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
                "match": onig(_SUPPRESSION.pattern), "name": "meta.directive.suppression.lcn",
                "captures": {"1": {"patterns": [codes]}}},
            "header": {"patterns": [
                header(COLORS_TAG, [escape, {"include": "#color"},
                                    {"match": _class(reserved), "name": "invalid.illegal.reserved.lcn"}],
                       "colors"),
                header("|".join(CARD_TAGS), [escape, {"include": "#card"}], "cards"),
                header("", [escape], "other")]},
            "card": {"match": f"({bare['COLOR']})({bare['RANK']})", "name": "meta.card.lcn",
                     "captures": {"1": {"patterns": [{"include": "#color"}]},
                                  "2": {"patterns": [{"include": "#rank"}]}}},
            "move-number": {"match": token_start + t["MOVE_NUMBER"],
                            "name": "constant.numeric.move-number.lcn"},
            "move": {"begin": f"{token_start}(?={move})",
                     "end": f"(?={blank}|[{{;\\[]|$)",
                     "patterns": [
                         {"match": punctuation, "name": "invalid.illegal.after-move.lcn"},
                         {"match": "(?<!\\w)" + t["MOVE_NUMBER"],
                          "name": "constant.numeric.move-number.lcn"},
                         {"match": "(?<!\\w)" + move, "captures": move_captures,
                          "name": "meta.move.lcn"}]},
            "color": {"patterns": color_rules()},
            "rank": {"patterns": rank_rules()},
        },
    }


def render() -> str:
    """The grammar file's text."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: Union[List[str], None] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the file is up to date (status 1 when not)")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = OUTPUT.read_text("utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
