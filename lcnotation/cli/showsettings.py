"""``lcn lint --show-settings FILE``: the configuration ``lcn lint`` resolves
for one file, and where each part of it comes from, as ``ruff check
--show-settings`` does (text, or JSON with ``--output-format json``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

from ..core.terminal import printable
from ..tools.notations import DEFAULT, NOTATIONS, notation_for
from .common import EXIT_OK, Settings, usage_error

__all__ = ["show_settings", "resolved"]


def resolved(settings: Settings, path: str) -> Dict[str, Any]:
    """What ``lcn lint`` holds the file (or folder) ``path`` to: every setting,
    by the name of its ``[tool.lcnotation]`` key, and ``sources``, saying for
    each where it comes from."""
    project = settings.project(path)
    named = settings.named(path)
    config = settings.lint(path)
    from_file = project.path if project.path is not None else "(defaults)"
    sources: Dict[str, str] = {}

    def source(key: str, option: Optional[object], configured: object) -> None:
        sources[key] = ("command line" if option is not None
                        else from_file if configured is not None else "default")

    source("select", settings.select, project.lint.select)
    source("ignore", settings.ignore, project.lint.ignore or None)
    source("dialect", settings.dialect, project.lint.dialect)
    source("colors", None, project.lint.colors)
    source("exclude", settings.exclude, project.exclude or None)
    if settings.notation is not None:
        sources["notation"] = "command line"
    elif project.lint.notation is not None:
        sources["notation"] = from_file
    else:
        ext = os.path.splitext(named)[1].lower()
        sources["notation"] = (f"the extension {ext}" if NOTATIONS.by_extension(named)
                               else "default")
    if settings.extend_select:
        sources["extend-select"] = "command line"
    if settings.extend_ignore:
        sources["extend-ignore"] = "command line"
    per_file = [(pattern, list(codes)) for pattern, codes in project.per_file_ignores]
    matched = list(project.for_file(named).ignore[len(project.lint.ignore):])
    if per_file:
        sources["per-file-ignores"] = from_file
    if project.extend_exclude or settings.extend_exclude:
        sources["extend-exclude"] = ", ".join(
            ([from_file] if project.extend_exclude else [])
            + (["command line"] if settings.extend_exclude else []))
    excluded = settings.excluded_by(path)
    return {
        "path": named,
        "settings_path": project.path,
        "notation": notation_for(named, config.notation).name,
        "select": _listed(settings.select if settings.select is not None
                          else project.lint.select),
        "extend-select": list(settings.extend_select),
        "ignore": list(settings.ignore if settings.ignore is not None else project.lint.ignore),
        "extend-ignore": list(settings.extend_ignore),
        "per-file-ignores": dict(per_file),
        "per-file-ignores-matched": matched,
        "colors": None if config.colors is None else "".join(config.colors),
        "dialect": config.dialect,
        "exclude": list(settings.exclude if settings.exclude is not None
                        else project.exclude),
        "extend-exclude": list(project.extend_exclude) + list(settings.extend_exclude),
        "excluded": excluded is not None,
        "excluded_by": excluded,
        "reported": {"select": _listed(config.select), "ignore": list(config.ignore)},
        "sources": sources,
    }


def _listed(codes: Optional[Tuple[str, ...]]) -> Optional[List[str]]:
    return None if codes is None else list(codes)


#: How the text output shows a setting that is not set.
_UNSET = {"select": "every code", "colors": "RGWBY (a game without a Colors header)",
          "dialect": "the file's own (upper case, the marker of its first discard)"}


def _text(found: Dict[str, Any]) -> str:
    lines: List[str] = [f"Resolved settings for: {found['path']}",
                        "Settings path: " + (found["settings_path"] or
                                             "(none: no pyproject.toml with [tool.lcnotation] "
                                             "above it; the defaults)"), ""]
    sources = found["sources"]
    rows: List[Tuple[str, str]] = []
    for key in ("notation", "select", "extend-select", "ignore", "extend-ignore",
                "per-file-ignores", "per-file-ignores-matched", "colors", "dialect",
                "exclude", "extend-exclude", "excluded"):
        value = found[key]
        if value is None:
            shown = _UNSET.get(key, "(none)")
        elif isinstance(value, bool):
            shown = (f"yes, by {found['excluded_by']} (skipped where a folder is walked; "
                     "a file named is linted)") if value else "no"
        else:
            shown = json.dumps(value, ensure_ascii=False)
        if key in sources:
            shown += f"  ({sources[key]})"
        rows.append((key, shown))
    reported = found["reported"]
    rows.append(("reported", "select " + (json.dumps(reported["select"]) if reported["select"]
                                          is not None else "every code")
                 + ", ignore " + json.dumps(reported["ignore"])
                 + " (syntax errors, N, always)"))
    width = max(len(key) for key, _ in rows)
    lines += [f"{key.ljust(width)} = {shown}" for key, shown in rows]
    if found["notation"] != DEFAULT:
        lines.append("")
        lines.append(f"(colors and dialect are Lost Cities settings: {found['notation']} "
                     "records do not use them)")
    return "\n".join(lines)


def show_settings(args: argparse.Namespace, settings: Settings, paths: List[str]) -> int:
    """Print the resolved settings of the one file ``paths`` names."""
    if len(paths) != 1:
        return usage_error("lint", "--show-settings takes one file (or folder), "
                           f"not {len(paths)}")
    if args.fix or args.diff or args.add_noqa or args.watch:
        return usage_error("lint", "--show-settings prints the settings and lints nothing")
    found = resolved(settings, paths[0])  # a ConfigError is said by the command line
    if args.format == "json":
        sys.stdout.write(json.dumps(found, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("".join(printable(line) + "\n" for line in _text(found).split("\n")))
    return EXIT_OK
