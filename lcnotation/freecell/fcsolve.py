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

How many cards a move carries: ``vN`` says it; a move onto a card carries
the one run that fits; in ``-snx`` output (one with a ``v`` anywhere) a move
into an empty column without ``v`` carries one card.  ``-sn`` leaves that
length unsaid: every length the rules allow is followed through the rest of
the solution at once, readings that reach the same position merged, and the
first (fewest cards) of those that reach the end is taken; if they end in
different positions, or too many stay open, the import says the output is
ambiguous (F403) rather than guess.

Output cut short (a moves line cut in the middle, or fc-solve's closing
``This game is solveable.`` missing after its opening ``-=-=-...`` line, or
a last line of moves without the line end fc-solve ends every line with) is
refused as truncated (F401), not imported as a partial solution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, TypeVar

from ..core.diagnostics import NotationError
from .ast import Span
from .cards import RANKS, SUITS, Card, parse_card
from .deals import COLUMNS, deal
from .formatter import MOVES_PER_LINE, layout_text
from .rules import FREECELL_NAMES, FREECELLS, GAME_PREFIX, HOME, LONGEST_RUN, SINGLE
from .state import IllegalMove, Position, fits_on

__all__ = ["FcSolveMove", "read_fc_solve", "import_fc_solve"]

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
    #: From ``-snx`` output: into an empty column, no ``v`` means one card.
    extended: bool = False

    def named(self, index: int) -> str:
        """``fc-solve's move 5 (5h, line 3)``."""
        return f"fc-solve's move {index + 1} ({self.text}, line {self.line})"


_WORD = re.compile(r"\S+")
_SHORT = re.compile(r"^([1-8a-d])([1-8a-dh])(?:v([0-9a-fA-F]+))?$")
#: The beginning of a short move, cut: one place, or two and the "v".
_SHORT_CUT = re.compile(r"^[1-8a-d](?:[1-8a-dh]v)?$")
#: fc-solve -m's first line, and the line it prints after the last move.
_OPENING = "-=-=-=-=-=-=-=-=-=-=-=-"
_SOLVED = "This game is solveable."
_UNSOLVED = ("I could not solve this game.", "Iterations count exceeded.")
_VERBOSE = [
    (re.compile(r"Move a card from stack ([0-9]+) to freecell ([0-9]+)"), "s", "f"),
    (re.compile(r"Move a card from stack ([0-9]+) to the foundations"), "s", "h"),
    (re.compile(r"Move a card from freecell ([0-9]+) to stack ([0-9]+)"), "f", "s"),
    (re.compile(r"Move a card from freecell ([0-9]+) to the foundations"), "f", "h"),
    (re.compile(r"Move a card from freecell ([0-9]+) to freecell ([0-9]+)"), "f", "f"),
    (re.compile(r"Move a card from stack ([0-9]+) to stack ([0-9]+)"), "s", "s"),
]
_RUN = re.compile(r"Move ([0-9]+) cards from stack ([0-9]+) to stack ([0-9]+)")
_FREECELLS = re.compile(r"^Freecells:(.*)$")
# The board's foundations and columns are read an item at a time (see
# _items): a repeated group would cost Python's re memory for every item of
# a long line.
_FOUNDATIONS = "Foundations:"
_FOUNDATION = re.compile(r"\s+([HCDS]-[0-9A-Z]+)")
_COLUMN_CARD = re.compile(r" ([2-9AJQKT][CDHS]|10[CDHS])")


T = TypeVar("T")


def _items(text: str, start: int, item: "re.Pattern[str]",
           convert: Callable[[str], T]) -> Optional[List[T]]:
    """The items of ``text`` from ``start`` on, each matched by ``item`` where
    the one before ends, to its end (``text`` is stripped), each converted as
    it is read; None when something else stands there."""
    found: List[T] = []
    i = start
    while i < len(text):
        m = item.match(text, i)
        if m is None:
            return None
        found.append(convert(m.group(1)))
        i = m.end()
    return found


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
    if char in FREECELL_NAMES:
        return ("f", FREECELL_NAMES.index(char))
    return ("s", int(char) - 1)


def _card(text: str) -> Optional[Card]:
    return parse_card(text.replace("10", "T"))


def _truncated(line: int, column: int = 1) -> NotationError:
    return _error("fc-solve's output is truncated: it stops in the middle of its moves "
                  f"(before '{_SOLVED}')", line, "F401", column)


def read_fc_solve(text: str) -> Tuple[Optional[Position], List[FcSolveMove]]:
    """fc-solve's starting position (when its output shows it, as ``-p -t`` does)
    and its moves.  Raises NotationError (F401) when there are no moves."""
    board: Optional[Position] = None
    columns: List[List[Card]] = []
    freecells: List[Optional[Card]] = [None] * FREECELLS
    homes = {s: 0 for s in SUITS}
    moves: List[FcSolveMove] = []
    board_done = False
    opened = solved = extended = False
    lines = text.splitlines()
    last = max((i for i, line in enumerate(lines, 1) if line.strip()), default=0)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped == _OPENING:
            opened = True
        elif stripped == _SOLVED:
            solved = True
        elif stripped in _UNSOLVED and not moves:
            raise _error(f"fc-solve did not solve this game ({stripped!r}): its output has "
                         "no moves", number)
        if not board_done and not moves:
            homes_found = (_items(stripped, len(_FOUNDATIONS), _FOUNDATION, str)
                           if stripped.startswith(_FOUNDATIONS) else None)
            if homes_found:  # one at least
                for item in homes_found:
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
            column = (_items(stripped, 1, _COLUMN_CARD, _card) if stripped.startswith(":")
                      else None)
            if column is not None:
                if len(columns) == COLUMNS:
                    raise _error(f"the board has more than {COLUMNS} columns", number)
                columns.append([c for c in column if c])
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
            if number == last and stripped.startswith("Move "):
                raise _truncated(number)  # one of fc-solve's sentences, cut
            spoken = line.replace("Move:", "     ", 1) if stripped.startswith("Move:") else line
            first = _WORD.search(spoken)
            if first is None or not _SHORT.match(first.group()):
                continue  # not a line of moves
            for w in _WORD.finditer(spoken):  # a word at a time: a line may be long
                m = _SHORT.match(w.group())
                if m is None:
                    if number == last and w.end() == len(line) and _SHORT_CUT.match(w.group()):
                        raise _truncated(number, w.start() + 1)
                    shown = w.group() if len(w.group()) <= 12 else w.group()[:9] + "..."
                    raise _error(f"{shown!r} is not an fc-solve move (a line of its moves "
                                 "holds nothing else)", number, "F401", w.start() + 1)
                count = (_number(m, 3, len(RANKS), _RUN_WORDS, number, least=1, base=16,
                                 offset=w.start())
                         if m.group(3) else None)
                extended = extended or count is not None
                moves.append(FcSolveMove(_short_place(m.group(1)), _short_place(
                    m.group(2)), count, number, m.group()))
    if columns and not board_done:
        board = Position(freecells, [False] * FREECELLS, homes,
                         columns + [[] for _ in range(COLUMNS - len(columns))])
    if not moves:
        raise _error("no fc-solve moves found (expected the output of fc-solve -m, with "
                     "-sn or -snx or neither)", 1)
    if (opened and not solved) or (moves[-1].line == last and not text.endswith(("\n", "\r"))):
        # Reported where the text stops.  fc-solve ends every line it writes:
        # a last line of moves without its line end was cut, maybe between
        # two of its moves (which a list of moves alone cannot show otherwise).
        raise _truncated(last, len(lines[last - 1].rstrip()) + 1 if last else 1)
    if extended:  # -snx output: a move without v into an empty column is one card
        moves = [replace(m, extended=True) if m.cards is None else m for m in moves]
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
    """The card counts ``move`` may carry in ``position``, fewest first: what
    the output says, else what the rules allow (onto a card, the one run that
    fits; into an empty column, one card in -snx output, else 1 to the longest
    run the freecells and empty columns allow)."""
    if move.cards is not None:
        return [move.cards]
    if move.source[0] != "s" or move.target[0] != "s":
        return [1]
    column = position.columns[move.source[1]]
    destination = position.columns[move.target[1]]
    run = position.run_length(move.source[1])
    if destination:
        return [n for n in range(1, run + 1) if fits_on(column[-n], destination[-1])][:1]
    if move.extended:
        return [1]
    return list(range(1, min(run, position.limit(into_empty=True)) + 1))


#: The most readings of -sn's unsaid run lengths followed at once (each a
#: different position).  Over 9,000 fc-solve outputs (bench/fcsolve_import.py)
#: the most was 640 (deal 104, -l tfts); past this the output is reported as
#: ambiguous, and a move costs at most about 8 ms.
MOST_READINGS = 4096


@dataclass(frozen=True)
class _Chosen:
    """A reading's choice of a count for move ``index``, and its earlier choices."""

    index: int
    count: int
    before: Optional["_Chosen"]

    def counts(self) -> Dict[int, int]:
        found: Dict[int, int] = {}
        node: Optional[_Chosen] = self
        while node is not None:
            found[node.index] = node.count
            node = node.before
        return found


_Reading = Tuple[Position, Optional[_Chosen]]


def _counts(start: Position, moves: Sequence[FcSolveMove],
            widths: Optional[List[int]] = None) -> Dict[int, int]:
    """How many cards the moves with a choice carry (index: count); every
    other move carries the one count :func:`_choices` gives.

    All readings are followed at once, move by move; readings that reach the
    same position are merged into the first (the one with the fewest cards at
    the first move where they differ), since what follows is the same for
    both.  The work is bounded by the rules: a move has at most as many
    readings as the run it may carry is long, and never more than
    :data:`MOST_READINGS` positions are kept (``widths``, when given, gets
    how many after each move).  Raises NotationError: F402 when no reading
    can make a move, F403 when the moves leave a count open.
    """
    readings: List[_Reading] = [(start.copy(), None)]
    for index, move in enumerate(moves):
        following: List[_Reading] = []
        carried: Set[int] = set()  # the counts used (-1: a reading that had a choice)
        for position, chosen in readings:
            choices = _choices(position, move)
            for k, count in enumerate(choices):
                trial = position if k == len(choices) - 1 else position.copy()
                try:
                    _plain_move(trial, move, count)
                except IllegalMove:
                    continue
                carried.add(count if len(choices) == 1 else -1)
                following.append((trial, chosen if len(choices) == 1
                                  else _Chosen(index, count, chosen)))
        if not following:
            raise _error(f"{move.named(index)} cannot be made from the layout: is it the "
                         "solution of this deal?", move.line, "F402")
        # The same number of cards moved the same way from different positions
        # gives different positions (move them back to see), unless they go home.
        if len(following) > 1 and (len(carried) > 1 or -1 in carried
                                   or move.target[0] == "h"):
            seen: Dict[Tuple[object, ...], None] = {}
            kept: List[_Reading] = []
            for reading in following:
                key = reading[0].key()
                if key not in seen:
                    seen[key] = None
                    kept.append(reading)
            following = kept
            if len(following) > MOST_READINGS:
                raise _ambiguous(moves, following, f"more than {MOST_READINGS:,} readings "
                                 "of the moves after it fit")
        readings = following
        if widths is not None:
            widths.append(len(readings))
    if len(readings) > 1:
        raise _ambiguous(moves, readings, "the moves after it end in different positions "
                         "for each")
    chosen = readings[0][1]
    return chosen.counts() if chosen is not None else {}


def _ambiguous(moves: Sequence[FcSolveMove], readings: Sequence[_Reading], why: str
               ) -> NotationError:
    """F403 at the first move whose count the readings disagree on."""
    counts = [r[1].counts() if r[1] is not None else {} for r in readings]
    index = min(i for i in set().union(*counts)
                if len({c.get(i) for c in counts}) > 1)
    options = sorted({c[index] for c in counts if index in c})
    shown = (f"{options[0]} to {options[-1]}" if len(options) > 2
             and options == list(range(options[0], options[-1] + 1))
             else ", ".join(map(str, options[:-1])) + f" or {options[-1]}")
    move = moves[index]
    return _error(f"{move.named(index)} does not say how many cards it moves into the "
                  f"empty column ({shown}), and {why}: run fc-solve with -snx, which says",
                  move.line, "F403")


# ---- the notation's replay ---------------------------------------------------

def _name(place: Place) -> str:
    kind, index = place
    if kind == "s":
        return str(index + 1)
    return FREECELL_NAMES[index] if kind == "f" else HOME


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
        self.moves.append((SINGLE if single else LONGEST_RUN) + source + target)

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
                parked.append(FREECELL_NAMES[cell])
                self.play(src, FREECELL_NAMES[cell])
            self.play(src, dst, single=True)
            for cell_name in reversed(parked):
                if p.freecells[FREECELL_NAMES.index(cell_name)] is not None:
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
    for index, move in enumerate(moves):
        writer.line, writer.name = move.line, move.named(index)
        count = counts.get(index) or _choices(plain, move)[0]
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
    lines = [f"{GAME_PREFIX}{deal_number}"] if fresh else []
    lines.append(layout_text(start).rstrip("\n"))
    lines.extend("".join(written[i:i + MOVES_PER_LINE])
                 for i in range(0, len(written), MOVES_PER_LINE))
    return "\n".join(lines) + "\n"
