"""Importing Freecell Solver (fc-solve) solutions into the standard notation.

fc-solve writes its moves in three ways: ``-sn`` (two characters a move, as
the notation), ``-snx`` (the same, a move of several cards into an empty
column followed by ``v`` and the count in hexadecimal) and ``-m`` alone
(sentences such as ``Move 3 cards from stack 1 to stack 7``).  fc-solve makes
no automoves: every card goes home by an explicit move.  The import replays
fc-solve's moves as fc-solve meant them and, beside them, the notation's
replay with Horne automoves, and writes only what the notation needs:

- a move whose cards Horne automoves have already sent home is dropped, and a
  move whose top cards went home carries only the rest;
- a move into an empty column gets ``.`` (one card) or a space (the longest
  run allowed); a run of any other length is written as single-card moves
  through the freecells and empty columns.

After every move the two replays must agree (the notation's position is
fc-solve's with some top cards home); if they cannot, the import stops with
an F402 error naming the move, rather than write a different game.

When ``-sn`` leaves the length of a run into an empty column unsaid, it is
found by replaying the rest of the solution with each possible length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..core.diagnostics import NotationError
from .ast import Span
from .cards import RANKS, SUITS, Card, parse_card
from .deals import COLUMNS, deal
from .formatter import MOVES_PER_LINE, layout_text
from .state import FREECELLS, IllegalMove, Position, fits_on

__all__ = ["FcSolveMove", "read_fc_solve", "import_fc_solve"]

_FREECELL_NAMES = "abcd"
# Where a move comes from or goes: ("s", column), ("f", freecell), ("h", 0); 0-based.
Place = Tuple[str, int]


@dataclass(frozen=True)
class FcSolveMove:
    """One move of fc-solve's solution; ``cards`` None when the output did not say
    how many cards it carries."""

    source: Place
    target: Place
    cards: Optional[int]
    line: int
    text: str = ""

    def named(self, index: int) -> str:
        """``fc-solve's move 5 (5h, line 3)``."""
        return f"fc-solve's move {index + 1} ({self.text}, line {self.line})"


_WORD = re.compile(r"\S+")
_SHORT = re.compile(r"^([1-8a-d])([1-8a-dh])(?:v([0-9a-fA-F]+))?$")
_VERBOSE = [
    (re.compile(r"Move a card from stack ([0-9]+) to freecell ([0-9]+)"), "s", "f"),
    (re.compile(r"Move a card from stack ([0-9]+) to the foundations"), "s", "h"),
    (re.compile(r"Move a card from freecell ([0-9]+) to stack ([0-9]+)"), "f", "s"),
    (re.compile(r"Move a card from freecell ([0-9]+) to the foundations"), "f", "h"),
    (re.compile(r"Move a card from freecell ([0-9]+) to freecell ([0-9]+)"), "f", "f"),
    (re.compile(r"Move a card from stack ([0-9]+) to stack ([0-9]+)"), "s", "s"),
]
_RUN = re.compile(r"Move ([0-9]+) cards from stack ([0-9]+) to stack ([0-9]+)")
_FOUNDATIONS = re.compile(r"^Foundations:((?:\s+[HCDS]-[0-9A-Z]+)+)\s*$")
_FREECELLS = re.compile(r"^Freecells:(.*)$")
_COLUMN = re.compile(r"^:((?: [2-9AJQKT][CDHS]| 10[CDHS])*)\s*$")


def _error(message: str, line: int, code: str = "F401", column: int = 1) -> NotationError:
    return NotationError(message, Span(line, column, line, column, 0, 0), code=code)


#: How many of each place fc-solve's moves name (stacks and freecells from 0).
_PLACES = {"s": ("stack", COLUMNS), "f": ("freecell", FREECELLS)}


_RUN_WORDS = "a run of {} cards: a run is 1 to {} cards"


def _number(match: "re.Match[str]", group: int, most: int, what: str, line: int, *,
            least: int = 0, base: int = 10, offset: int = 0) -> int:
    """The number of ``match``'s ``group``, ``least`` to ``most``; raises F401
    (at its column, ``offset`` being where the match's text starts in the
    line) for any other.  ``what`` says what is wrong with it: ``{}`` stands
    for the number, a second ``{}`` for ``most``."""
    digits = match.group(group)
    significant = digits.lstrip("0")
    # Never converted when long: no place or run has more than a few digits.
    value = int(significant, base) if 0 < len(significant) <= 4 else (0 if not significant
                                                                      else most + 1)
    if not least <= value <= most:
        shown = digits if len(digits) <= 12 else f"({len(digits):,} digits)"
        raise _error(what.format(shown, most), line, "F401",
                     offset + match.start(group) + 1)
    return value


def _place(kind: str, match: "re.Match[str]", group: int, line: int) -> Place:
    """A stack or freecell of a verbose move, checked to exist."""
    name, count = _PLACES[kind]
    return (kind, _number(match, group, count - 1,
                          f"there is no {name} {{}} (fc-solve counts them from 0 to {{}})",
                          line))


def _short_place(char: str) -> Place:
    if char == "h":
        return ("h", 0)
    if char in _FREECELL_NAMES:
        return ("f", _FREECELL_NAMES.index(char))
    return ("s", int(char) - 1)


def _card(text: str) -> Optional[Card]:
    return parse_card(text.replace("10", "T"))


def read_fc_solve(text: str) -> Tuple[Optional[Position], List[FcSolveMove]]:
    """fc-solve's starting position (when its output shows it, as ``-p -t`` does)
    and its moves.  Raises NotationError (F401) when there are no moves."""
    board: Optional[Position] = None
    columns: List[List[Card]] = []
    freecells: List[Optional[Card]] = [None] * FREECELLS
    homes = {s: 0 for s in SUITS}
    moves: List[FcSolveMove] = []
    board_done = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not board_done and not moves:
            found = _FOUNDATIONS.match(stripped)
            if found:
                for item in found.group(1).split():
                    suit, rank = item.split("-")
                    home = parse_card(rank.replace("10", "T") + suit)
                    if home is None and rank != "0":
                        raise _error(f"the foundation {item!r} holds no card of its suit",
                                     number, "F401", line.find(item) + 1)
                    homes[suit] = 0 if home is None else home.rank
                continue
            cells = _FREECELLS.match(line)
            if cells:
                body = cells.group(1)
                for i in range(FREECELLS):
                    cell = body[4 * i + 2:4 * i + 4].strip() if len(body) > 4 * i + 2 else ""
                    freecells[i] = _card(cell) if cell and cell != "-" else None
                continue
            column = _COLUMN.match(stripped) if stripped.startswith(":") else None
            if column:
                if len(columns) == COLUMNS:
                    raise _error(f"the board has more than {COLUMNS} columns", number)
                columns.append([c for c in (_card(t) for t in column.group(1).split()) if c])
                continue
        if columns and not board_done:
            board_done = True
            board = Position(freecells, [False] * FREECELLS, homes,
                             columns + [[] for _ in range(COLUMNS - len(columns))])
        run = _RUN.search(line)
        if run:
            moves.append(FcSolveMove(_place("s", run, 2, number), _place("s", run, 3, number),
                                     _number(run, 1, len(RANKS), _RUN_WORDS, number, least=1),
                                     number, run.group()))
            continue
        for pattern, source, target in _VERBOSE:
            found = pattern.search(line)
            if found:
                moves.append(FcSolveMove(
                    _place(source, found, 1, number),
                    _place(target, found, 2, number) if target != "h" else ("h", 0),
                    1, number, found.group()))
                break
        else:
            words = list(_WORD.finditer(line.replace("Move:", "     ", 1)
                                        if stripped.startswith("Move:") else line))
            parsed = [_SHORT.match(w.group()) for w in words]
            if words and all(parsed):
                for m, w in zip(parsed, words):
                    assert m is not None
                    count = (_number(m, 3, len(RANKS), _RUN_WORDS, number, least=1, base=16,
                                     offset=w.start())
                             if m.group(3) else None)
                    moves.append(FcSolveMove(_short_place(m.group(1)), _short_place(
                        m.group(2)), count, number, m.group()))
    if columns and not board_done:
        board = Position(freecells, [False] * FREECELLS, homes,
                         columns + [[] for _ in range(COLUMNS - len(columns))])
    if not moves:
        raise _error("no fc-solve moves found (expected the output of fc-solve -m, with "
                     "-sn or -snx or neither)", 1)
    return board, moves


# ---- fc-solve's own replay (no automoves) ------------------------------------

def _run_ok(cards: Sequence[Card]) -> bool:
    return all(fits_on(cards[i + 1], cards[i]) for i in range(len(cards) - 1))


def _plain_move(position: Position, move: FcSolveMove, count: int) -> List[Card]:
    """Make ``move`` as fc-solve does (no automoves); the cards moved.
    Raises IllegalMove when it is not legal."""
    kind, index = move.source
    if kind == "f":
        card = position.freecells[index]
        if card is None:
            raise IllegalMove("F301", f"freecell {index} is empty")
        cards = [card]
    else:
        column = position.columns[index]
        if count > len(column) or count < 1:
            raise IllegalMove("F301", f"stack {index} has fewer than {count} cards")
        cards = column[len(column) - count:]
        if not _run_ok(cards):
            raise IllegalMove("F304", "the cards moved are not a sequence")
    target, where = move.target
    if target == "h":
        if len(cards) != 1 or position.homes[cards[0].suit] != cards[0].rank - 1:
            raise IllegalMove("F303", "the card cannot go home")
        position.homes[cards[0].suit] = cards[0].rank
    elif target == "f":
        if len(cards) != 1 or position.freecells[where] is not None:
            raise IllegalMove("F302", "the freecell is not free")
        position.freecells[where] = cards[0]
    else:
        destination = position.columns[where]
        if destination and not fits_on(cards[0], destination[-1]):
            raise IllegalMove("F304", "the cards do not fit")
        if len(cards) > position.limit(into_empty=not destination):
            raise IllegalMove("F305", "too many cards")
        destination.extend(cards)
    if kind == "f":
        position.freecells[index] = None
    else:
        del position.columns[index][-len(cards):]
    return cards


def _choices(position: Position, move: FcSolveMove) -> List[int]:
    """The card counts ``move`` may carry in ``position``, most likely first."""
    if move.cards is not None:
        return [move.cards]
    if move.source[0] != "s" or move.target[0] != "s":
        return [1]
    column = position.columns[move.source[1]]
    destination = position.columns[move.target[1]]
    run = position.run_length(move.source[1])
    if destination:
        return [n for n in range(1, run + 1) if fits_on(column[-n], destination[-1])][:1]
    top = min(run, position.limit(into_empty=True))
    return list(range(top, 0, -1))


def _counts(start: Position, moves: Sequence[FcSolveMove], budget: int = 200000
            ) -> List[int]:
    """How many cards each move carries: those ``-sn`` leaves unsaid are found
    by trying each and replaying the rest (depth first)."""
    counts: List[int] = []
    trail: List[Tuple[Position, List[int]]] = []  # per move: position before, choices left
    position = start.copy()
    steps = 0
    i = 0
    furthest = 0
    while i < len(moves):
        steps += 1
        if steps > budget:
            break
        if len(trail) == i:
            trail.append((position.copy(), _choices(position, moves[i])))
        before, left = trail[i]
        if left:
            count = left.pop(0)
            trial = before.copy()
            try:
                _plain_move(trial, moves[i], count)
            except IllegalMove:
                continue
            counts[i:] = [count]
            position = trial
            i += 1
            furthest = max(furthest, i)
            continue
        trail.pop()
        i -= 1
        if i < 0:
            break
        position = trail[i][0]
    if len(counts) < len(moves) or i < len(moves):
        index = min(furthest, len(moves) - 1)
        bad = moves[index]
        raise _error(f"{bad.named(index)} cannot be made from the layout: is it the "
                     "solution of this deal?", bad.line, "F402")
    return counts


# ---- the notation's replay ---------------------------------------------------

def _name(place: Place) -> str:
    kind, index = place
    if kind == "s":
        return str(index + 1)
    return _FREECELL_NAMES[index] if kind == "f" else "h"


@dataclass
class _Writer:
    """The notation's moves, made on the notation's position as they are written."""

    position: Position
    moves: List[str]
    line: int = 0
    name: str = ""

    def play(self, source: str, target: str, single: bool = False) -> None:
        try:
            self.position.play(source, target, single)
        except IllegalMove as exc:
            raise _error(f"{self.name} cannot be written in the notation: "
                         f"{source}{target} would be illegal ({exc.reason})",
                         self.line, "F402") from None
        self.position.automove()
        self.moves.append(("." if single else " ") + source + target)

    def run_to(self, source: int, target: int, count: int, avoid: Tuple[int, ...] = ()
               ) -> None:
        """Move the top ``count`` cards of column ``source`` onto column ``target``."""
        p = self.position
        count = min(count, len(p.columns[source]))
        if count <= 0:
            return
        src, dst = str(source + 1), str(target + 1)
        if p.columns[target]:
            self.play(src, dst)
            return
        longest = min(p.run_length(source), p.limit(into_empty=True))
        if count == 1 or count == longest:
            self.play(src, dst, single=count == 1)
            return
        if count - 1 <= p.free_freecells():
            parked: List[str] = []
            for _ in range(count - 1):
                cell = next(i for i in range(FREECELLS)
                            if p.freecells[i] is None and not p.blocked[i])
                parked.append(_FREECELL_NAMES[cell])
                self.play(src, _FREECELL_NAMES[cell])
            self.play(src, dst, single=True)
            for cell_name in reversed(parked):
                if p.freecells[_FREECELL_NAMES.index(cell_name)] is not None:
                    self.play(cell_name, dst)
            return
        spare = [i for i, c in enumerate(p.columns)
                 if not c and i not in (source, target) + avoid]
        if not spare:
            raise _error(f"{self.name} moves {count} cards into an empty column, which "
                         "the notation cannot spell here", self.line, "F402")
        half = count // 2
        self.run_to(source, spare[0], half, avoid + (target,))
        self.run_to(source, target, count - half, avoid + (spare[0],))
        self.run_to(spare[0], target, half, avoid)


def _agrees(notation: Position, plain: Position) -> bool:
    """Whether the notation's position is fc-solve's with some top cards home."""
    def home(card: Optional[Card]) -> bool:
        return card is not None and notation.homes[card.suit] >= card.rank
    for mine, theirs in zip(notation.columns, plain.columns):
        if mine != theirs[:len(mine)] or not all(home(c) for c in theirs[len(mine):]):
            return False
    for mine_cell, theirs_cell in zip(notation.freecells, plain.freecells):
        if mine_cell != theirs_cell and not (mine_cell is None and home(theirs_cell)):
            return False
    return all(notation.homes[s] >= plain.homes[s] for s in SUITS)


def _translate(start: Position, moves: Sequence[FcSolveMove]) -> List[str]:
    counts = _counts(start, moves)
    plain = start.copy()
    writer = _Writer(start.copy(), [])
    writer.position.automove()
    for index, (move, count) in enumerate(zip(moves, counts)):
        writer.line, writer.name = move.line, move.named(index)
        cards = _plain_move(plain, move, count)
        p = writer.position
        left = [c for c in cards if p.homes[c.suit] < c.rank]
        if left:
            source, target = move.source, move.target
            if target[0] == "s" and source[0] == "s" and not p.columns[target[1]]:
                writer.run_to(source[1], target[1], len(left))
            else:
                writer.play(_name(source), _name(target))
        if not _agrees(writer.position, plain):
            raise _error(f"{move.named(index)} cannot be written in the "
                         "notation: Horne automoves have already moved a card it relies on",
                         move.line, "F402")
    return writer.moves


def import_fc_solve(text: str, deal_number: Optional[int] = None) -> str:
    """The record (in the canonical layout) of fc-solve's solution ``text``.

    The starting layout is deal ``deal_number`` when given, else the board
    the output shows (``fc-solve -p -t`` with ``-sam``).  Raises NotationError
    (F401: unreadable; F402: a move the notation cannot express).
    """
    board, moves = read_fc_solve(text)
    if deal_number is not None:
        start = Position.fresh(deal(deal_number))
        if board is not None and board != start:
            raise _error(f"the board in fc-solve's output is not deal {deal_number}", 1)
    elif board is not None:
        start = board
    else:
        raise _error("fc-solve's output shows no board (run it with -p -t -sam, or give "
                     "the deal number)", 1)
    written = _translate(start, moves)
    fresh = any(start == Position.fresh(deal(n)) for n in ([deal_number] if deal_number
                                                          is not None else []))
    lines = [f"Game #{deal_number}"] if fresh else []
    lines.append(layout_text(start).rstrip("\n"))
    lines.extend("".join(written[i:i + MOVES_PER_LINE])
                 for i in range(0, len(written), MOVES_PER_LINE))
    return "\n".join(lines) + "\n"
