"""Configuration from ``pyproject.toml``, table ``[tool.lcnotation]``.

>>> config_from_table({"select": ["N", "R"], "ignore": ["R2"], "colors": "RGWBYK"})
LintConfig(select=('N', 'R'), ignore=('R2',), colors=('R', 'G', 'W', 'B', 'Y', 'K'), dialect=None, notation=None)
>>> config_from_table({"ignore": ["R9"]})
Traceback (most recent call last):
...
lcnotation.tools.config.ConfigError: 'ignore': no code starts with 'R9'
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence, Tuple

from ..core.diagnostics import NotationError
from ..core.lint import LintConfig

# The code registry, the notations, the reader and TOML are imported by the
# functions that use them: every command imports this module (for
# ConfigError), and a command that reads no configuration pays for none of them.
if TYPE_CHECKING:  # pragma: no cover
    from ..lostcities.text.dialects import Dialect

__all__ = ["ConfigError", "find_config", "load_config", "config_from_table", "parse_codes",
           "ProjectConfig", "ConfigCache", "load_project", "project_for", "config_for_file",
           "dialect_for_file", "resolve_dialect"]


def __getattr__(name: str) -> Any:
    if name == "resolve_dialect":  # lcnotation.lostcities.style's, named here too
        from ..lostcities.style import resolve_dialect

        return resolve_dialect
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_LINT_KEYS = ("select", "ignore", "colors", "dialect", "notation")
_KEYS = _LINT_KEYS + ("per-file-ignores", "exclude", "extend-exclude")


class ConfigError(ValueError):
    """A configuration file or value that cannot be used."""


def find_config(start: str = ".", cache: Optional["ConfigCache"] = None) -> Optional[str]:
    """The nearest ``pyproject.toml`` with a ``[tool.lcnotation]`` table, from
    the folder ``start`` up to the root of the file system.  With ``cache``,
    each folder is looked at once (a run over many files)."""
    here = os.path.abspath(start)
    while True:
        found = cache.found.get(here, _UNKNOWN) if cache is not None else _UNKNOWN
        if found is _UNKNOWN:
            candidate = os.path.join(here, "pyproject.toml")
            found = candidate if os.path.isfile(candidate) and _table(candidate) is not None \
                else None
            if cache is not None:
                cache.found[here] = found
        if found is not None:
            return str(found)
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


_UNKNOWN = object()


class ConfigCache:
    """What one run has learnt of the configuration files: which folder has
    one (``found``) and what each says (``projects``).  A long-running
    program (an editor server) makes a new one when files may have changed."""

    def __init__(self) -> None:
        self.found: Dict[str, object] = {}
        self.projects: Dict[Optional[str], "ProjectConfig"] = {}


def _table(path: str) -> Optional[Mapping[str, Any]]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    except UnicodeDecodeError as exc:  # before ValueError, of which it is one
        raise ConfigError(f"{path}: cannot read configuration: not UTF-8 (byte "
                          f"{exc.start:,})") from None
    except RecursionError:
        raise ConfigError(f"{path}: cannot read configuration: arrays or tables nested "
                          "too deeply") from None
    except ValueError:  # an integer too long for Python to read (more than 4,300 digits)
        raise ConfigError(f"{path}: cannot read configuration: a number is too long to "
                          "read") from None
    tool = data.get("tool")
    table = tool.get("lcnotation") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


def load_config(path: Optional[str]) -> LintConfig:
    """The configuration in ``path`` (defaults when ``path`` is None)."""
    return load_project(path).lint


@dataclass(frozen=True)
class ProjectConfig:
    """A ``[tool.lcnotation]`` table: the lint settings and which files they
    leave out (``exclude``, and ``extend-exclude`` besides it: a command
    line's ``--exclude`` replaces the first only) or hold to fewer codes
    (``per-file-ignores``).

    Patterns are globs matched against a file's path relative to the folder
    of the ``pyproject.toml`` (``*`` crosses ``/``); a pattern without ``/``
    is matched against the file's name too, as ruff does.

    >>> project = ProjectConfig("/p/pyproject.toml", LintConfig(),
    ...                         (("old/*", ("S",)),), ("drafts",))
    >>> project.for_file("/p/old/a.lcn").ignore, project.excludes("/p/drafts/b.lcn")
    (('S',), True)
    """

    #: The ``pyproject.toml`` read, or None for the defaults.
    path: Optional[str]
    lint: LintConfig
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = ()
    extend_exclude: Tuple[str, ...] = ()

    def _relative(self, path: str) -> str:
        root = os.path.dirname(os.path.abspath(self.path)) if self.path else os.getcwd()
        return os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")

    def for_file(self, path: str) -> LintConfig:
        """The lint settings for the file ``path``, its per-file ignores added."""
        if not self.per_file_ignores or path == "-":
            return self.lint
        relative = self._relative(path)
        extra = tuple(code for pattern, codes in self.per_file_ignores
                      if _matches(pattern, relative) for code in codes)
        if not extra:
            return self.lint
        return replace(self.lint, ignore=self.lint.ignore + extra)

    def excludes(self, path: str) -> bool:
        """Whether ``path`` (a file or folder) or a folder above it is excluded
        (by ``exclude`` or ``extend-exclude``)."""
        patterns = self.exclude + self.extend_exclude
        if not patterns or path == "-":
            return False
        relative = self._relative(path)
        if relative.startswith("../"):
            return False
        parts = relative.split("/")
        return any(_matches(pattern, "/".join(parts[:n]))
                   for n in range(1, len(parts) + 1) for pattern in patterns)


def _matches(pattern: str, relative: str) -> bool:
    pattern = pattern.strip("/") if pattern not in ("/", "") else pattern
    if fnmatchcase(relative, pattern):
        return True
    return "/" not in pattern and fnmatchcase(relative.rsplit("/", 1)[-1], pattern)


def load_project(path: Optional[str]) -> ProjectConfig:
    """The whole ``[tool.lcnotation]`` table of ``path`` (defaults when None)."""
    if path is None:
        return ProjectConfig(None, LintConfig())
    table = _table(path)
    if table is None:
        return ProjectConfig(path, LintConfig())
    try:
        return ProjectConfig(path, config_from_table(table), _per_file_ignores(table),
                             _patterns(table, "exclude"), _patterns(table, "extend-exclude"))
    except ConfigError as exc:
        raise ConfigError(f"{path}: [tool.lcnotation] {exc}") from None


def project_for(path: str, explicit: Optional[str] = None,
                cache: Optional[ConfigCache] = None) -> ProjectConfig:
    """The configuration that applies to the file or folder ``path``: the file
    ``explicit`` when given (``--config``), else the nearest ``pyproject.toml``
    with a ``[tool.lcnotation]`` table from the folder of ``path`` up (the
    working folder for ``-``, standard input), as ruff finds its own.  With
    ``cache``, each folder and configuration file is read once."""
    if explicit is not None:
        if not os.path.isfile(explicit):
            raise ConfigError(f"{explicit}: no such configuration file")
        found: Optional[str] = explicit
    else:
        start = "." if path == "-" else (path if os.path.isdir(path)
                                         else os.path.dirname(path) or ".")
        found = find_config(start, cache)
    if cache is None:
        return load_project(found)
    key = os.path.abspath(found) if found is not None else None
    project = cache.projects.get(key)
    if project is None:
        project = cache.projects[key] = load_project(found)
    return project


def dialect_for_file(path: str, text: str, explicit: Optional[str] = None,
                     cache: Optional[ConfigCache] = None) -> Dialect:
    """The dialect ``lcn lint`` and ``lcn fmt`` hold the file ``path`` to, its
    text being ``text``: the configured one (see :func:`config_for_file`),
    else the file's own spelling (:func:`resolve_dialect`: the marker of its
    first discard).  An editor calls this to format or fix as ``lcn`` would.

    >>> dialect_for_file("-", "1. R3-D 2. BHX-D").name
    'x-discard'
    """
    from ..lostcities.style import first_discard_marker, resolve_dialect
    from ..lostcities.text.reader import parse_part, split_games

    configured = config_for_file(path, explicit, cache).dialect
    if configured is not None:
        return resolve_dialect(configured, None)
    for part in split_games([text]):
        marker = first_discard_marker(parse_part(part, False, path), part.text, part.offset)
        if marker is not None:
            return resolve_dialect(None, marker)
    return resolve_dialect(None, None)


def config_for_file(path: str, explicit: Optional[str] = None,
                    cache: Optional[ConfigCache] = None) -> LintConfig:
    """The lint settings for the file ``path``: its configuration
    (:func:`project_for`) with its per-file ignores.  Editors and other tools
    call this to check a file exactly as ``lcn lint`` would."""
    return project_for(path, explicit, cache).for_file(path)


def parse_codes(values: Sequence[str], what: str) -> Tuple[str, ...]:
    """Codes or code prefixes, in upper case; each must start some code.

    >>> parse_codes(["s1", " R101 "], "select")
    ('S1', 'R101')
    """
    from .codes import ALL_CODES

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


def _patterns(table: Mapping[str, Any], key: str) -> Tuple[str, ...]:
    value = table.get(key, ())
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"'{key}' must be a list of glob patterns such as \"drafts/*\"")
    return tuple(value)


def _per_file_ignores(table: Mapping[str, Any]) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    value = table.get("per-file-ignores", {})
    if not isinstance(value, dict):
        raise ConfigError("'per-file-ignores' must be a table of glob pattern = [codes]")
    return tuple((pattern, _codes(value, pattern, ()))
                 for pattern in value)


def config_from_table(table: Mapping[str, Any]) -> LintConfig:
    """A :class:`LintConfig` from the keys of a ``[tool.lcnotation]`` table."""
    from ..lostcities.text.dialects import DIALECTS
    from ..lostcities.text.headers import parse_colors
    from .notations import NOTATIONS

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
    notation = table.get("notation", default.notation)
    if notation is not None and (not isinstance(notation, str) or notation not in NOTATIONS):
        raise ConfigError(f"'notation' must be one of {', '.join(sorted(NOTATIONS))}")
    select = _codes(table, "select", ()) if "select" in table else default.select
    return LintConfig(select, _codes(table, "ignore", default.ignore), colors, dialect, notation)
