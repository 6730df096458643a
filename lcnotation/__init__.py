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

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Dict, List, Tuple

from .core import display as _display
from .core.lazy import lazy_attributes

#: The public API, in one table: each module, whether it is imported with the
#: package, and the names it gives.  None is: a name's module is imported
#: when the name is first used, so that ``import lcnotation.freecell`` loads
#: nothing of Lost Cities, and a command that only lints does not pay for the
#: rest at start-up.  The ``TYPE_CHECKING`` imports and ``__all__`` below say the same
#: for type checkers; tests/test_api.py holds the three to agreement.
_API: Tuple[Tuple[str, bool, Tuple[str, ...]], ...] = (
    (".lostcities.text.ast", False, ("HANDSHAKE", "Card", "Comment", "Draw", "Game", "Header", "Move",
                         "Placement", "Span")),
    (".core.diagnostics", False, ("Diagnostic", "NotationError", "Severity")),
    (".lostcities.text.formatter", False, ("format_card", "format_comment", "format_game",
                               "format_games", "format_header", "format_move")),
    (".lostcities.text.reader", False, ("parse_game", "parse_games", "parse_move", "read_games")),
    (".lostcities.text.dialects", False, ("DIALECTS", "ConversionError", "Dialect", "get_dialect",
                               "register_dialect")),
    (".lostcities.text.headers", False, ("DEFAULT_COLORS", "KNOWN_TAGS", "RESERVED_LETTERS",
                              "game_colors", "parse_cards", "parse_colors", "parse_result")),
    (".lostcities.game.codes", False, ("RULE_CODES",)),
    (".lostcities.game.checker", False, ("CheckReport", "check", "match_totals", "score")),
    (".lostcities.game.state", False, ("GameState", "Location")),
    (".lostcities.game.scoring", False, ("GameScore", "score_expedition")),
    (".lostcities.game.generator", False, ("generate_game", "generate_games", "generate_match")),
    (".lostcities.convert", False, ("convert_text", "detect_dialect")),
    (".lostcities.jsonform", False, ("from_json", "to_json")),
    (".tools.lint", False, ("FileReport", "LintConfig", "lint_file", "lint_text")),
    (".tools.codes", False, ("ALL_CODES",)),
    (".formats", False, ("FORMATS", "Format", "register_format", "import_games",
                         "export_game")),
    (".svg", False, ("board_svg",)),
    (".view", False, ("view_html",)),
)


def _load() -> Dict[str, str]:
    """Import the eager modules' names; where each lazy name is."""
    where: Dict[str, str] = {}
    for module, eager, names in _API:
        if eager:
            loaded = importlib.import_module(module, __name__)
            globals().update((name, getattr(loaded, name)) for name in names)
        else:
            where.update(dict.fromkeys(names, module))
    return where


_WHERE = _load()

if TYPE_CHECKING:  # pragma: no cover
    from .formats import FORMATS, Format, export_game, import_games, register_format
    from .lostcities.game.checker import CheckReport, check, match_totals, score
    from .lostcities.game.generator import generate_game, generate_games, generate_match
    from .lostcities.game.scoring import GameScore, score_expedition
    from .lostcities.game.codes import RULE_CODES
    from .lostcities.game.state import GameState, Location
    from .svg import board_svg
    from .lostcities.text.ast import (HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement,
                           Span)
    from .lostcities.text.dialects import (DIALECTS, ConversionError, Dialect, get_dialect,
                                register_dialect)
    from .core.diagnostics import Diagnostic, NotationError, Severity
    from .lostcities.text.formatter import (format_card, format_comment, format_game, format_games,
                                 format_header, format_move)
    from .lostcities.text.headers import (DEFAULT_COLORS, KNOWN_TAGS, RESERVED_LETTERS, game_colors,
                               parse_cards, parse_colors, parse_result)
    from .lostcities.text.reader import parse_game, parse_games, parse_move, read_games
    from .tools.codes import ALL_CODES
    from .lostcities.convert import convert_text, detect_dialect
    from .lostcities.jsonform import from_json, to_json
    from .tools.lint import FileReport, LintConfig, lint_file, lint_text
    from .view import view_html


#: Feature packages reachable as attributes (``lcnotation.freecell``), imported when first used.
_SUBPACKAGES = ("freecell", "engine")


def _notebook_drawer() -> _display.Drawer:
    from .svg import notebook_picture  # the pictures, only when a notebook asks

    return notebook_picture


# Game and GameState draw themselves in notebooks with the pictures, a layer
# above theirs: the drawer is named here, at the top (see core/display.py).
_display.install(_notebook_drawer)


_lazy = lazy_attributes(__name__, _WHERE, globals())


def __getattr__(name: str) -> object:
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    return _lazy(name)


def __dir__() -> List[str]:
    """The API, the subpackages, and the package's own dunders: not the names
    this module uses (Dict, TYPE_CHECKING, importlib...)."""
    own = [name for name, value in globals().items() if name.startswith("__") or (
        isinstance(value, ModuleType) and value.__name__ == f"{__name__}.{name}")]
    return sorted(set(own) | set(__all__) | set(_SUBPACKAGES))


from .core.version import __version__  # noqa: E402,F401 (the one place it is written)

__all__ = [
    "HANDSHAKE", "Card", "Comment", "Draw", "Game", "Header", "Move", "Placement", "Span",
    "Diagnostic", "NotationError", "Severity",
    "format_card", "format_comment", "format_game", "format_games", "format_header",
    "format_move",
    "parse_game", "parse_games", "parse_move", "read_games",
    "DIALECTS", "ConversionError", "Dialect", "get_dialect", "register_dialect",
    "DEFAULT_COLORS", "KNOWN_TAGS", "RESERVED_LETTERS", "game_colors", "parse_cards",
    "parse_colors", "parse_result",
    "RULE_CODES", "CheckReport", "check", "match_totals", "score",
    "GameState", "Location", "GameScore", "score_expedition",
    "generate_game", "generate_games", "generate_match",
    "convert_text", "detect_dialect", "from_json", "to_json",
    "FileReport", "LintConfig", "lint_file", "lint_text", "ALL_CODES",
    "board_svg", "view_html",
    "FORMATS", "Format", "register_format", "import_games", "export_game",
]
