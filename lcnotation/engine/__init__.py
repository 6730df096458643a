"""Engines: programs that play Lost Cities over the engine protocol
(``spec/engine-protocol.md``), for those who write them and those who drive them.

For bot authors: :func:`run_engine` turns a ``choose(view) -> Move`` into an
engine (:class:`Engine` for options and more), :class:`View` is what a player
sees.  For programs that drive engines: :class:`EngineClient` (synchronous)
and :class:`AsyncEngineClient` (asyncio) start an engine process and talk to
it with time limits; what goes wrong is an :class:`EngineError`.  The match
runner is :mod:`lcnotation.engine.match` (``lcn match``).
"""

from typing import TYPE_CHECKING

from ..core.lazy import lazy_attributes
from .bot import Engine, GameEnd, run_engine
from .protocol import (EngineCrashed, EngineError, EngineTimeout, Option, OptionValue,
                       ProtocolError, VERSION)
from .view import View

if TYPE_CHECKING:  # pragma: no cover
    from .aio import AsyncEngineClient
    from .client import Answer, EngineClient

__all__ = ["Engine", "GameEnd", "run_engine", "View", "Option", "OptionValue", "VERSION",
           "EngineError", "EngineCrashed", "EngineTimeout", "ProtocolError", "EngineClient",
           "AsyncEngineClient", "Answer"]

# The clients are imported when first used: an engine (which needs the
# library above) does not load asyncio and the process machinery.
_LAZY = {"EngineClient": ".client", "Answer": ".client", "AsyncEngineClient": ".aio"}
_lazy = lazy_attributes(__name__, _LAZY, globals())


def __getattr__(name: str) -> object:
    return _lazy(name)
