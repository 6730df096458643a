"""The golden files of the corpus: what reading each record must give.

``tests/corpus/valid/NAME.lcn`` has ``NAME.expected.json`` beside it: every
game with its headers, typed header values, moves (canonical text, the text
as written at the move's position, turn, written number) and comments, each
with the line and column where it stands.  When the games can be written
back, ``NAME.canonical`` holds what ``format_games`` writes.

``tests/corpus/invalid/NAME.lcn`` has ``NAME.expected`` beside it, one item
a line (``#`` lines are the case's description)::

    game
    header Event
    error N103 3:2-3:4
    move 1 G4-D

``game`` opens each game of the file; ``header NAME`` is a header that was
read; ``error CODE L:C-L:C`` is a diagnostic with its start and end; ``move
TURN TEXT`` a move that was still read, with its 0-based turn.  Diagnostics include those of the typed header
values (Colors, Hand1, Hand2, Deck, Result).

The golden files were written by this script and then checked by hand.
``python tests/golden.py`` writes the missing ones (and fills an
``.expected`` file that holds only its description); ``--force`` rewrites
all (then read the diff before committing it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Sequence

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
if str(ROOT.parent) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT.parent))

from lcnotation.lostcities.text.ast import Comment, Game, Span  # noqa: E402
from lcnotation.core.diagnostics import NotationError  # noqa: E402
from lcnotation.lostcities.text.formatter import format_card, format_games, format_move  # noqa: E402
from lcnotation.lostcities.text.headers import parse_cards, parse_colors, parse_result  # noqa: E402
from lcnotation.lostcities.text.reader import read_games  # noqa: E402

#: The headers with a structured value, and how to read it for the golden file.
TYPED_HEADERS: Dict[str, Callable[..., object]] = {
    "Colors": lambda h: list(parse_colors(h)),
    "Hand1": lambda h: [format_card(c) for c in parse_cards(h)],
    "Hand2": lambda h: [format_card(c) for c in parse_cards(h)],
    "Deck": lambda h: [format_card(c) for c in parse_cards(h)],
    "Result": lambda h: (lambda r: None if r is None else list(r))(parse_result(h)),
}


def source_lines(path: Path) -> List[str]:
    """The lines of a record as the reader sees them (UTF-8, BOM dropped, any line end)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def at(span: Span) -> str:
    return f"{span.line}:{span.column}"


def written(lines: Sequence[str], span: Span) -> str:
    """The source text that a single-line span covers, found by line and column."""
    assert span.line == span.end_line, span
    return lines[span.line - 1][span.column - 1:span.end_column - 1]


def describe_comments(comments: Iterable[Comment]) -> List[dict]:
    return [{"kind": c.kind, "text": c.text, "at": at(c.span)} for c in comments]


def describe_game(game: Game, lines: Sequence[str]) -> dict:
    values = {}
    for h in game.headers:
        if h.name in TYPED_HEADERS and h.name not in values:
            values[h.name] = TYPED_HEADERS[h.name](h)
    return {
        "at": at(game.span),
        "comments": describe_comments(game.comments),
        "headers": [{"name": h.name, "value": h.value, "at": at(h.span),
                     "comments": describe_comments(h.comments)} for h in game.headers],
        "values": values,
        "moves": [{"move": format_move(m), "written": written(lines, m.span),
                   "turn": m.turn, "number": m.number, "at": at(m.span),
                   "comments": describe_comments(m.comments)} for m in game.moves],
    }


def describe_valid(path: Path) -> dict:
    lines = source_lines(path)
    games = list(read_games(path))
    errors = [e for g in games for e in (*g.errors, *header_value_errors(g))]
    if errors:
        raise ValueError(f"{path.name} is meant to be valid: {errors[0]}")
    return {"games": [describe_game(g, lines) for g in games]}


def header_value_errors(game: Game) -> List[NotationError]:
    """The errors of the game's typed header values."""
    found = []
    for h in game.headers:
        if h.name in TYPED_HEADERS:
            try:
                TYPED_HEADERS[h.name](h)
            except NotationError as err:
                found.append(err)
    return found


def span_text(span: Span) -> str:
    return f"{span.line}:{span.column}-{span.end_line}:{span.end_column}"


def describe_invalid(games: Iterable[Game], header_values: bool = True) -> List[str]:
    """The items of an ``.expected`` file (without its description).

    With ``header_values=False`` only the syntax errors are listed.
    """
    items = []
    for game in games:
        items.append("game")
        items += [f"header {h.name}" for h in game.headers]
        errors = list(game.errors)
        if header_values:
            errors = sorted(errors + header_value_errors(game), key=lambda e: e.span.start)
        items += [f"error {e.code} {span_text(e.span)}" for e in errors]
        items += [f"move {m.turn} {format_move(m)}" for m in game.moves]
    return items


def read_expected(path: Path) -> List[str]:
    """The items of an ``.expected`` file: its lines but blank ones and ``#`` lines."""
    return [line.strip() for line in path.read_text("utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def canonical(path: Path) -> str:
    """What format_games writes for the record (raises ValueError if it cannot)."""
    return format_games(list(read_games(path)))


def main(argv: Sequence[str]) -> int:
    force = "--force" in argv
    for path in sorted((CORPUS / "valid").glob("*.lcn")):
        golden = path.with_suffix(".expected.json")
        if force or not golden.exists():
            golden.write_text(json.dumps(describe_valid(path), indent=1, ensure_ascii=False)
                              + "\n", "utf-8")
            print("wrote", golden.relative_to(ROOT))
        text_golden = path.with_suffix(".canonical")
        if force or not text_golden.exists():
            try:
                text = canonical(path)
            except ValueError as err:
                print("no canonical form for", path.name, "-", err)
            else:
                text_golden.write_text(text, "utf-8", newline="\n")
                print("wrote", text_golden.relative_to(ROOT))
    for path in sorted((CORPUS / "invalid").glob("*.lcn")):
        golden = path.with_suffix(".expected")
        if force or not golden.exists() or not read_expected(golden):
            old = golden.read_text("utf-8").splitlines() if golden.exists() else []
            notes = [line for line in old if line.lstrip().startswith("#")]
            items = describe_invalid(read_games(path))
            golden.write_text("\n".join(notes + items) + "\n", "utf-8")
            print("wrote", golden.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
