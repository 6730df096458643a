"""The Lark grammars of lcnotation (``lcnotation.lark``, ``freecell.lark``), shipped as package data."""
