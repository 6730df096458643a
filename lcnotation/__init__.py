"""lcnotation: read, check, write and convert Lost Cities game records.

The public API, all importable from the package root:

>>> from lcnotation import parse_move, parse_game, format_move, format_game
>>> move = parse_move("BHD-D")
>>> move.card, move.placement.discard, move.draw.from_draw_pile
(Card(color='B', rank=0), True, True)
>>> format_move(move, "x-discard")
'BHX-D'
>>> game = parse_game("1. R3-D 2. BHD-D 3. R4-B")
>>> print(format_game(game), end="")
1. R3-D
2. BHD-D
3. R4-B
"""

from typing import TYPE_CHECKING

from .text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement, Span
from .text.errors import Diagnostic, NotationError, Severity
from .text.formatter import (format_card, format_comment, format_game, format_games,
                        format_header, format_move)
from .text.reader import parse_game, parse_games, parse_move, read_games

# The rest is imported when first used, so that a tool that only reads
# records (or a command that only lints) does not pay for all of it at start-up.
_LAZY = {
    ".text.dialects": ("DIALECTS", "Dialect", "get_dialect", "register_dialect"),
    ".text.headers": ("DEFAULT_COLORS", "KNOWN_TAGS", "RESERVED_LETTERS", "game_colors",
                 "parse_cards", "parse_colors", "parse_result"),
    ".game.checker": ("RULE_CODES", "CheckReport", "check"),
    ".game.state": ("GameState", "Location"),
    ".game.scoring": ("GameScore", "match_totals", "score", "score_expedition"),
    ".game.generator": ("generate_game", "generate_games", "generate_match"),
    ".tools.convert": ("convert_text", "detect_dialect"),
    ".tools.jsonform": ("from_json", "to_json"),
    ".tools.lint": ("FileReport", "LintConfig", "lint_file", "lint_text"),
    ".tools.codes": ("ALL_CODES",),
    ".svg": ("board_svg",),
    ".view": ("view_html",),
    ".formats": ("FORMATS", "Format", "register_format", "import_games", "export_game"),
}
_WHERE = {name: module for module, names in _LAZY.items() for name in names}

if TYPE_CHECKING:  # pragma: no cover
    from .game.checker import RULE_CODES, CheckReport, check
    from .tools.codes import ALL_CODES
    from .tools.convert import convert_text, detect_dialect
    from .text.dialects import DIALECTS, Dialect, get_dialect, register_dialect
    from .game.generator import generate_game, generate_games, generate_match
    from .text.headers import (DEFAULT_COLORS, KNOWN_TAGS, RESERVED_LETTERS, game_colors,
                          parse_cards, parse_colors, parse_result)
    from .tools.jsonform import from_json, to_json
    from .tools.lint import FileReport, LintConfig, lint_file, lint_text
    from .game.scoring import GameScore, match_totals, score, score_expedition
    from .game.state import GameState, Location
    from .svg import board_svg
    from .view import view_html
    from .formats import FORMATS, Format, export_game, import_games, register_format


#: Feature packages reachable as attributes (``lcnotation.freecell``), imported when first used.
_SUBPACKAGES = ("freecell",)


def __getattr__(name: str) -> object:
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'lcnotation' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))


__version__ = "0.1.0"

__all__ = [
    "HANDSHAKE", "Card", "Comment", "Draw", "Game", "Header", "Move", "Placement", "Span",
    "DIALECTS", "Dialect", "get_dialect", "register_dialect",
    "Diagnostic", "NotationError", "Severity",
    "format_card", "format_comment", "format_game", "format_games", "format_header",
    "format_move",
    "DEFAULT_COLORS", "KNOWN_TAGS", "RESERVED_LETTERS", "game_colors", "parse_cards",
    "parse_colors", "parse_result",
    "parse_game", "parse_games", "parse_move", "read_games",
    "RULE_CODES", "CheckReport", "check", "GameState", "Location",
    "GameScore", "match_totals", "score", "score_expedition",
    "generate_game", "generate_games", "generate_match",
    "convert_text", "detect_dialect", "from_json", "to_json",
    "FileReport", "LintConfig", "lint_file", "lint_text", "ALL_CODES",
    "board_svg", "view_html",
    "FORMATS", "Format", "register_format", "import_games", "export_game",
]
