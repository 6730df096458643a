"""The Lark grammars of lcnotation (``lcnotation.lark``, ``freecell.lark``, ``query.lark`` for
``lcn filter``), shipped as package data."""
