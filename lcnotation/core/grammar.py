"""Grammars: where the package's Lark grammars are, and their terminals.

Every notation keeps its words in a Lark grammar under ``grammar/``; this
module finds the file (in the installed package, or in a source checkout)
and reads the terminals that are plain regular expressions, so that each
notation derives its lexical tables from its grammar alone.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Dict, List

__all__ = ["grammar_text", "grammar_terminals"]

# A terminal on its own line: NAME: then regular expressions (/.../flags),
# strings ("...", without escapes) and names of terminals defined before it,
# one after the other, in alternatives separated by "|".
_TERMINAL = re.compile(r"^(_?[A-Z][A-Z0-9_]*)(?:\.-?[0-9]+)?[ \t]*:[ \t]*(.*?)[ \t]*$", re.M)
_PIECE = re.compile(r'[ \t]*(?:/((?:[^/\\\n]|\\.)*)/([imslux]*)|"([^"\\\n]*)"(i?)'
                    r"|(_?[A-Z][A-Z0-9_]*)|(\|))")


def grammar_text(name: str) -> str:
    """The text of the Lark grammar ``name`` of the installed package
    (``"lcnotation.lark"``, ``"freecell.lark"``).

    >>> "move:" in grammar_text("lcnotation.lark")
    True
    """
    try:
        grammar = importlib.import_module("..grammar", __package__)
    except ImportError:  # a source checkout that was not installed
        folder = Path(__file__).resolve().parents[2] / "grammar"
    else:
        folder = Path(str(grammar.__file__)).parent
    return (folder / name).read_text("utf-8")


def grammar_terminals(text: str) -> Dict[str, str]:
    """The terminals of the grammar ``text`` made of regular expressions,
    strings and terminals defined before them, by name, as Python patterns:
    flags as an inline group, strings escaped, alternatives in a group (in
    the order written: Lark tries the longest first, so write them so).
    Terminals of another form are left out.

    >>> grammar_terminals("MINUS: /-/\\nWORD: /ab/i\\nBOTH: /(?<=x)/ MINUS /y/\\nTOP.2: /z/")
    {'MINUS': '-', 'WORD': '(?i:ab)', 'BOTH': '(?<=x)-y', 'TOP': 'z'}
    >>> grammar_terminals('PLUS: "+"\\n_SEP: "-" | " " | "ab"i\\nTWO: "x" PLUS')
    {'PLUS': '\\\\+', '_SEP': '(?:\\\\-|\\\\ |(?i:ab))', 'TWO': 'x\\\\+'}
    """
    found: Dict[str, str] = {}
    for m in _TERMINAL.finditer(text):
        name, body = m.groups()
        alternatives: List[List[str]] = [[]]
        at = 0
        while at < len(body):
            piece = _PIECE.match(body, at)
            if piece is None or (piece.group(5) and piece.group(5) not in found):
                break
            regexp, flags, string, string_flags, other, bar = piece.groups()
            if bar:
                alternatives.append([])
            elif other:
                alternatives[-1].append(found[other])
            elif string is not None:
                escaped = re.escape(string)
                alternatives[-1].append(f"(?i:{escaped})" if string_flags else escaped)
            else:
                regexp = regexp.replace("\\/", "/")
                alternatives[-1].append(f"(?{flags}:{regexp})" if flags else regexp)
            at = piece.end()
        else:
            if all(alternatives):
                joined = ["".join(pieces) for pieces in alternatives]
                found[name] = joined[0] if len(joined) == 1 else f"(?:{'|'.join(joined)})"
    return found
