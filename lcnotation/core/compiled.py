"""The one switch between the optional compiled parts and pure Python.

Some hot paths have a small C extension beside their Python code (built by
``setup.py`` where a compiler is, skipped where not); each gives the same
results as the Python it stands in for.  Setting the environment variable
``LCNOTATION_PURE_PYTHON`` to ``1`` turns every one of them off (read once,
when this module is imported), which the tests use to hold the two paths
together and a user can use to rule the compiled code out of a bug report.

>>> optional("lcnotation.no_such_extension") is None
True
>>> configured("lcnotation.no_such_extension", lambda: {}, "check") is None
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any, Callable, Mapping, Optional

__all__ = ["PURE_PYTHON", "optional", "configured"]

#: True when ``LCNOTATION_PURE_PYTHON=1`` forces pure Python everywhere.
PURE_PYTHON = os.environ.get("LCNOTATION_PURE_PYTHON", "") == "1"


def optional(name: str) -> Optional[ModuleType]:
    """The compiled module ``name``, imported; None when pure Python is forced
    or the module was not built."""
    if PURE_PYTHON:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def configured(name: str, tables: Callable[[], Optional[Mapping[str, object]]],
               attribute: str) -> Optional[Any]:
    """The function ``attribute`` of the compiled module ``name``, after its
    ``configure(**tables())``: the tables each extension reads come from the
    Python modules that own them.  None when the module is not there
    (:func:`optional`), when ``tables()`` says the tables no longer have the
    shape the C code reads (None), or when ``configure`` refuses them
    (ValueError); the Python path then does the work."""
    module = optional(name)
    if module is None:
        return None
    configuration = tables()
    if configuration is None:
        return None
    try:
        module.configure(**configuration)
    except ValueError:  # tables the C code cannot hold
        return None
    return getattr(module, attribute)
