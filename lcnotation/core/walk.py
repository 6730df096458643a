"""Finding the record files below folders (``*.lcn``, ``*.sfn``: the extensions
the caller asks for), as ruff does: hidden folders,
what ``.gitignore`` files ignore and what the configuration excludes are
skipped.  Files named on the command line are always taken.

The ``.gitignore`` files that count are those of the folders walked and of
the folders above them up to the top of the git work tree (the folder that
holds ``.git``), each applying to the paths below its own folder, with the
rules of git (read by :mod:`pathspec`, which black uses too).
"""

from __future__ import annotations

import os
import stat
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .files import NotRegularFile

__all__ = ["GitIgnored", "iter_record_files"]


def iter_record_files(paths: Sequence[str], extensions: Tuple[str, ...] = (".lcn",),
                      skip: Optional[Callable[[str], bool]] = None,
                      gitignore: bool = True) -> Iterator[str]:
    """Expand folders into the files below them whose names end in one of
    ``extensions`` (sorted); keep files as given.

    ``skip(path)`` (for files and folders met while walking) leaves a path
    out; so does ``.gitignore`` unless ``gitignore`` is False.  A folder that
    cannot be listed is yielded itself, so that reading it fails and is
    reported rather than the folder silently skipped.
    """
    ignored = GitIgnored() if gitignore else None
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        found: List[str] = []

        def left_out(candidate: str, folder: bool) -> bool:
            return ((skip is not None and skip(candidate))
                    or (ignored is not None and ignored(candidate, folder)))

        for root, dirs, files in os.walk(path, onerror=lambda err: found.append(
                err.filename if err.filename is not None else path)):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                             and not left_out(os.path.join(root, d), True))
            found.extend(_regular(p) for p in (os.path.join(root, f) for f in files
                                                if f.lower().endswith(extensions))
                         if not left_out(p, False))
        yield from sorted(found)


def _regular(path: str) -> str:
    """``path``, marked when it is not a regular file (a FIFO, a device): a walk
    takes regular files only, and reading one could wait forever.  One that
    cannot be looked at is left to the reading, which reports why."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return path
    return path if stat.S_ISREG(mode) else NotRegularFile.of(path, mode)


class GitIgnored:
    """``ignored(path, is_folder)``: whether a ``.gitignore`` ignores ``path``."""

    def __init__(self) -> None:
        # folder -> (the spec of its .gitignore, or None), read once each
        self._specs: Dict[str, Optional[object]] = {}
        self._tops: Dict[str, Optional[str]] = {}

    def __call__(self, path: str, folder: bool) -> bool:
        full = os.path.abspath(path)
        parent = os.path.dirname(full)
        top = self._top(parent)
        if top is None:
            return False
        for base, spec in self._chain(parent, top):
            relative = os.path.relpath(full, base).replace(os.sep, "/")
            if spec.match_file(relative + ("/" if folder else "")):  # type: ignore[attr-defined]
                return True
        return False

    def _top(self, folder: str) -> Optional[str]:
        """The top of the git work tree holding ``folder``, or None."""
        if folder in self._tops:
            return self._tops[folder]
        if os.path.exists(os.path.join(folder, ".git")):
            top: Optional[str] = folder
        else:
            up = os.path.dirname(folder)
            top = None if up == folder else self._top(up)
        self._tops[folder] = top
        return top

    def _chain(self, folder: str, top: str) -> Iterator[Tuple[str, object]]:
        while True:
            spec = self._spec(folder)
            if spec is not None:
                yield folder, spec
            if folder == top:
                return
            up = os.path.dirname(folder)
            if up == folder:
                return
            folder = up

    def _spec(self, folder: str) -> Optional[object]:
        if folder not in self._specs:
            spec = None
            try:
                with open(os.path.join(folder, ".gitignore"), encoding="utf-8",
                          errors="replace") as handle:
                    lines = handle.read().splitlines()
            except OSError:
                lines = []
            if any(line.strip() and not line.startswith("#") for line in lines):
                import pathspec  # only where a .gitignore says something
                spec = pathspec.GitIgnoreSpec.from_lines(lines)
            self._specs[folder] = spec
        return self._specs[folder]
