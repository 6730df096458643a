"""The optional compiled accelerators (issue 25).

Everything else about the package is in pyproject.toml; this file only adds
the C extensions listed in ``EXTENSIONS``, built where a compiler and
Python's headers are, and skipped with a warning where they are not (as
MarkupSafe's speed-ups are): ``pip install .`` without a compiler still
works and gives the same results, through the pure-Python paths
(lcnotation/core/compiled.py is the switch; lcnotation/lostcities/accel.py
says which path lint takes).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:  # setuptools >= 59 vendors distutils' errors here
    from setuptools.errors import CCompilerError, CompileError, ExecError, PlatformError
    _FAILURES: tuple = (CCompilerError, CompileError, ExecError, PlatformError, OSError)
except ImportError:  # pragma: no cover - an old setuptools
    from distutils.errors import (CCompilerError, DistutilsExecError,  # type: ignore
                                  DistutilsPlatformError)
    _FAILURES = (CCompilerError, DistutilsExecError, DistutilsPlatformError, OSError)


class OptionalBuildExt(build_ext):
    """build_ext that warns, and goes on without the extension, when it
    cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except _FAILURES as err:
            _warn(err)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except _FAILURES as err:
            _warn(err)


def _warn(err: BaseException) -> None:
    sys.stderr.write(f"WARNING: lcnotation's C accelerator was not built ({err}); "
                     "lcnotation works without it, in pure Python, with the same "
                     "results\n")


def _optional(name: str, *headers: str) -> Extension:
    """The extension ``name`` (a dotted module), from the C file of that path,
    which includes ``headers`` (files of its folder: rebuilt when they change,
    shipped in the source distribution)."""
    path = os.path.join(*name.split("."))
    folder = os.path.dirname(path)
    return Extension(name, [path + ".c"], depends=[os.path.join(folder, h) for h in headers],
                     optional=True)


#: Every optional extension: lint's fused check of Lost Cities games, the
#: FreeCell check's clean path, the reader of chikinn's transcripts
#: (lcnotation/formats/chikinn.py), the decoder of metapyziks replays
#: (lcnotation/formats/metapyziks.py).
EXTENSIONS = [_optional("lcnotation.lostcities._speedups"),
              _optional("lcnotation.freecell._speedups"),
              _optional("lcnotation.formats._chikinn", "_tuples.h"),
              _optional("lcnotation.formats._metapyziks", "_tuples.h")]

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt})
