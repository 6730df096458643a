"""Pictures for notebooks, drawn by a layer above this one.

A :class:`~lcnotation.lostcities.text.ast.Game` (this layer) and a
:class:`~lcnotation.lostcities.game.state.GameState` (the game layer) have Jupyter's
display hooks, ``_repr_svg_`` and ``_repr_html_``; the drawing is done by
:mod:`lcnotation.svg`, which stands above both.  So that neither layer imports
upward, the package root names the drawer here when it is imported
(:func:`install`), and the hooks ask for it (:func:`draw`) only when a
notebook shows a game; reading and checking records never load the pictures.
"""

from __future__ import annotations

from typing import Callable, Literal, Optional

__all__ = ["Drawer", "Kind", "draw", "install"]

#: ``"svg"`` for ``_repr_svg_``, ``"html"`` for ``_repr_html_``.
Kind = Literal["svg", "html"]
#: ``drawer(subject, kind)``: the picture of a Game or a GameState.
Drawer = Callable[[object, Kind], str]

_load: Optional[Callable[[], Drawer]] = None


def install(load: Callable[[], Drawer]) -> None:
    """Name the drawer: ``load()`` gives it, and is called when first needed."""
    global _load
    _load = load


def draw(subject: object, kind: Kind) -> str:
    """The picture of ``subject`` (a Game or a GameState) for a notebook."""
    if _load is None:  # pragma: no cover - the package root always installs one
        raise RuntimeError("no drawer for notebook pictures: import lcnotation")
    return _load()(subject, kind)
