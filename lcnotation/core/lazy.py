"""Names a package gives that are imported the first time they are asked for.

A package lists where each such name lives and answers PEP 562's module
``__getattr__`` with :func:`lazy_attributes`; the name is then kept in the
package's namespace, so that the import happens once.  The package root, the
engine package and the FreeCell package use it, so that a command imports
only the modules it uses.

>>> where = {"dedent": "textwrap"}
>>> namespace = {}
>>> get = lazy_attributes("lcnotation", where, namespace)
>>> get("dedent")("  x") == "x" and "dedent" in namespace
True
>>> get("indent")
Traceback (most recent call last):
...
AttributeError: module 'lcnotation' has no attribute 'indent'
"""

from __future__ import annotations

import importlib
from typing import Callable, Dict, Mapping

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, where: Mapping[str, str],
                    namespace: Dict[str, object]) -> Callable[[str], object]:
    """What ``package``'s ``__getattr__`` answers: the name ``name`` from the
    module ``where[name]`` (relative to ``package`` when it starts with a
    dot), imported and kept in ``namespace`` (the package's globals);
    AttributeError for a name ``where`` does not hold."""

    def attribute(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value: object = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    return attribute
