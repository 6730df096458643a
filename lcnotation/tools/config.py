"""Configuration from ``pyproject.toml``, table ``[tool.lcnotation]``.

>>> config_from_table({"select": ["N", "R"], "ignore": ["R2"], "colors": "RGWBYK"})
LintConfig(select=('N', 'R'), ignore=('R2',), colors=('R', 'G', 'W', 'B', 'Y', 'K'), dialect=None)
>>> config_from_table({"ignore": ["R9"]})
Traceback (most recent call last):
...
lcnotation.tools.config.ConfigError: 'ignore': no code starts with 'R9'
"""

from __future__ import annotations

import os
import sys
from typing import Any, Mapping, Optional, Sequence, Tuple

from .codes import ALL_CODES
from ..text.dialects import DIALECTS
from ..text.errors import NotationError
from ..text.headers import parse_colors
from .lint import LintConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["ConfigError", "find_config", "load_config", "config_from_table", "parse_codes"]

_KEYS = ("select", "ignore", "colors", "dialect")


class ConfigError(ValueError):
    """A configuration file or value that cannot be used."""


def find_config(start: str = ".") -> Optional[str]:
    """The nearest ``pyproject.toml`` with a ``[tool.lcnotation]`` table, from
    ``start`` up to the root of the file system."""
    here = os.path.abspath(start)
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if os.path.isfile(candidate) and _table(candidate) is not None:
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _table(path: str) -> Optional[Mapping[str, Any]]:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    except ValueError:  # an integer too long for Python to read (more than 4,300 digits)
        raise ConfigError(f"{path}: cannot read configuration: a number is too long to "
                          "read") from None
    tool = data.get("tool")
    table = tool.get("lcnotation") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


def load_config(path: Optional[str]) -> LintConfig:
    """The configuration in ``path`` (defaults when ``path`` is None)."""
    if path is None:
        return LintConfig()
    table = _table(path)
    if table is None:
        return LintConfig()
    try:
        return config_from_table(table)
    except ConfigError as exc:
        raise ConfigError(f"{path}: [tool.lcnotation] {exc}") from None


def parse_codes(values: Sequence[str], what: str) -> Tuple[str, ...]:
    """Codes or code prefixes, in upper case; each must start some code.

    >>> parse_codes(["s1", " R101 "], "select")
    ('S1', 'R101')
    """
    codes = []
    for value in values:
        code = value.strip().upper()
        if not code or not any(known.startswith(code) for known in ALL_CODES):
            raise ConfigError(f"{what}: no code starts with {value.strip()!r}")
        codes.append(code)
    return tuple(codes)


def _codes(table: Mapping[str, Any], key: str, default: Tuple[str, ...]) -> Tuple[str, ...]:
    value = table.get(key, default)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"'{key}' must be a list of codes or code prefixes such as \"S1\"")
    return parse_codes(value, f"'{key}'")


def config_from_table(table: Mapping[str, Any]) -> LintConfig:
    """A :class:`LintConfig` from the keys of a ``[tool.lcnotation]`` table."""
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(f"unknown key '{unknown[0]}' (known: {', '.join(_KEYS)})")
    default = LintConfig()
    colors = default.colors
    if "colors" in table:
        if not isinstance(table["colors"], str):
            raise ConfigError("'colors' must be a string of colour letters such as \"RGWBYK\"")
        try:
            colors = parse_colors(table["colors"])
        except NotationError as exc:
            raise ConfigError(f"'colors': {exc.message}") from None
    dialect = table.get("dialect", default.dialect)
    if dialect is not None and (not isinstance(dialect, str) or dialect not in DIALECTS):
        raise ConfigError(f"'dialect' must be one of {', '.join(DIALECTS)}")
    return LintConfig(_codes(table, "select", default.select),
                      _codes(table, "ignore", default.ignore), colors, dialect)
