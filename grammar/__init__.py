"""The Lark grammar of lcnotation (``lcnotation.lark``), shipped as package data."""
