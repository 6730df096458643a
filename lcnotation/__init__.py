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

from .ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement, Span
from .dialects import DIALECTS, Dialect, get_dialect, register_dialect
from .errors import Diagnostic, NotationError, Severity
from .formatter import (format_card, format_comment, format_game, format_games,
                        format_header, format_move)
from .headers import (DEFAULT_COLORS, KNOWN_TAGS, RESERVED_LETTERS, game_colors,
                      parse_cards, parse_colors, parse_result)
from .reader import parse_game, parse_games, parse_move, read_games
from .checker import RULE_CODES, CheckReport, check
from .state import GameState, Location
from .scoring import GameScore, match_totals, score, score_expedition
from .generator import generate_game, generate_games, generate_match
from .convert import convert_text, detect_dialect
from .jsonform import from_json, to_json
from .lint import FileReport, LintConfig, lint_file, lint_text
from .codes import ALL_CODES

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
]
