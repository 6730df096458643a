"""lcnotation.core.compiled: the one switch and the loading of the optional
C extensions (each is configured with tables from the Python that owns them)."""

from __future__ import annotations

import sys
import types

import pytest

from lcnotation.core import compiled


@pytest.fixture
def fake(monkeypatch):
    """A stand-in extension, ``lcnotation._fake``: it records its configuration
    and refuses tables with ``bad`` in them."""
    module = types.ModuleType("lcnotation._fake")
    seen = []

    def configure(**tables):
        if "bad" in tables:
            raise ValueError("tables the C code cannot hold")
        seen.append(tables)

    module.configure = configure
    module.check = lambda text: len(text)
    module.seen = seen
    monkeypatch.setitem(sys.modules, "lcnotation._fake", module)
    monkeypatch.setattr(compiled, "PURE_PYTHON", False)
    return module


def test_configured_gives_the_function_after_configuring(fake):
    check = compiled.configured("lcnotation._fake", lambda: {"ranks": "A23"}, "check")
    assert check is fake.check and fake.seen == [{"ranks": "A23"}]


@pytest.mark.parametrize("tables", [lambda: None, lambda: {"bad": 1}])
def test_tables_of_another_shape_leave_the_work_to_python(fake, tables):
    assert compiled.configured("lcnotation._fake", tables, "check") is None
    assert fake.seen == []


def test_pure_python_turns_every_extension_off(fake, monkeypatch):
    monkeypatch.setattr(compiled, "PURE_PYTHON", True)
    assert compiled.optional("lcnotation._fake") is None
    assert compiled.configured("lcnotation._fake", lambda: {}, "check") is None


def test_a_module_that_is_not_built_is_none(monkeypatch):
    monkeypatch.setattr(compiled, "PURE_PYTHON", False)
    assert compiled.optional("lcnotation._not_built_anywhere") is None
