"""The public API (``lcnotation/__init__.py``) and the code registry (``tools/codes.py``).

The package root builds its names from one table, ``_API``; type checkers read
the ``TYPE_CHECKING`` imports and ``__all__`` instead.  These tests hold the
three to agreement, and every diagnostic code the sources can emit to the
registry that ``--select`` and SARIF use.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Set, Tuple

import pytest

import lcnotation
from lcnotation.cli import main
from lcnotation.tools.codes import ALL_CODES, FAMILIES

ROOT = Path(lcnotation.__file__).resolve().parent
INIT = ROOT / "__init__.py"


def _type_checking_imports() -> Dict[str, Set[str]]:
    """The names the ``if TYPE_CHECKING:`` block imports, by module."""
    tree = ast.parse(INIT.read_text("utf-8"))
    found: Dict[str, Set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom), ast.unparse(stmt)
                found.setdefault("." * stmt.level + (stmt.module or ""), set()).update(
                    a.name for a in stmt.names)
    return found


def _table() -> Dict[str, Tuple[bool, Set[str]]]:
    return {module: (eager, set(names)) for module, eager, names in lcnotation._API}


def test_all_is_the_table() -> None:
    names = [n for _, (_, ns) in _table().items() for n in ns]
    assert len(names) == len(set(names)), "a name is in the table twice"
    assert sorted(lcnotation.__all__) == sorted(names)
    assert len(lcnotation.__all__) == len(set(lcnotation.__all__))


def test_type_checkers_see_the_table() -> None:
    assert _type_checking_imports() == {m: names for m, (_, names) in _table().items()}


def test_eager_names_are_loaded_and_lazy_ones_are_not() -> None:
    # A fresh interpreter: this one has long since loaded everything.
    code = ("import json, lcnotation as l; g = vars(l); "
            "print(json.dumps({n: n in g for m, e, ns in l._API for n in ns}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded = json.loads(out)
    for module, (eager, names) in _table().items():
        for name in names:
            assert loaded[name] is eager, (module, name)


@pytest.mark.parametrize("module, name", [(m, n) for m, (_, ns) in _table().items()
                                          for n in sorted(ns)])
def test_every_name_is_what_its_module_gives(module: str, name: str) -> None:
    import importlib

    assert getattr(lcnotation, name) is getattr(
        importlib.import_module(module, "lcnotation"), name)
    assert name in dir(lcnotation)


def test_dir_shows_the_api_and_the_subpackages_only() -> None:
    """Regression: dir(lcnotation) showed Dict, List, Tuple, TYPE_CHECKING and
    importlib, names the package uses but does not give."""
    import subprocess
    import sys
    import types

    lcnotation.freecell  # noqa: B018 (a subpackage, imported: an attribute now)
    for name in dir(lcnotation):
        if not name.startswith("_"):
            value = getattr(lcnotation, name)
            assert name in lcnotation.__all__ or (
                isinstance(value, types.ModuleType)
                and value.__name__ == f"lcnotation.{name}"), name
    assert set(lcnotation.__all__) | {"freecell", "engine"} <= set(dir(lcnotation))
    # As it is in a fresh interpreter, before anything is used.
    code = "import lcnotation; print(' '.join(dir(lcnotation)))"
    names = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()
    assert not {"Dict", "List", "Tuple", "TYPE_CHECKING", "importlib"} & set(names)
    assert "__version__" in names and "parse_game" in names


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        lcnotation.nothing_here  # noqa: B018


def test_conversion_error_is_exported() -> None:
    with pytest.raises(lcnotation.ConversionError) as caught:
        lcnotation.convert_text("1. P4-D\n", "v1-draft")
    assert isinstance(caught.value, ValueError)
    assert [e.code for e in caught.value.errors] == ["C101"]


# ---------------------------------------------------------------- the code registry

CODE = re.compile(r"[A-Z][0-9]{3}\Z")
#: Codes the sources name that the registry leaves out, and why.
KNOWN_UNREGISTERED = {
    # NotationError's default, never reported by lcnotation (the next test).
    "N100": "core/diagnostics.py",
}


def emitted_codes() -> Dict[str, Set[str]]:
    """Every string constant of the package's sources that is a code, and where."""
    found: Dict[str, Set[str]] = {}
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and CODE.match(node.value):
                found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_code_the_sources_emit_is_registered() -> None:
    import lcnotation.formats  # noqa: F401 (feature packages register their codes)
    import lcnotation.freecell  # noqa: F401

    found = emitted_codes()
    # The scan sees every family, the default code of NotationError included,
    # which the package never reports (see the next test).
    assert {"N001", "N100", "R101", "S100", "C101", "J101", "I100", "F101"} <= set(found)
    assert found["N100"] == {"core/diagnostics.py"}
    missing = {code: sorted(where) for code, where in found.items()
               if code not in ALL_CODES and code not in KNOWN_UNREGISTERED}
    assert not missing, f"codes the sources use but tools/codes.py lacks: {missing}"


def test_every_error_the_package_makes_names_its_code() -> None:
    # N100, NotationError's default code, is never reported by lcnotation: each
    # NotationError it makes names its code (a ConversionError takes its first
    # error's; JSONFormError requires one).
    unnamed = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "NotationError" \
                    and not any(k.arg == "code" for k in node.keywords):
                unnamed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not unnamed, unnamed
    assert "N100" not in ALL_CODES


def test_every_registered_code_is_in_a_family() -> None:
    for code, (severity, summary) in ALL_CODES.items():
        assert CODE.match(code) and code[0] in FAMILIES, code
        assert isinstance(severity, lcnotation.Severity) and summary, code


@pytest.mark.parametrize("prefix", ["C", "J", "C103"])
def test_lint_selects_the_conversion_and_json_families(prefix: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    # Lint reports no C or J codes, but selecting them is no usage error.
    record = tmp_path / "a.lcn"
    record.write_text("1. R4-B\n", encoding="utf-8")
    assert main(["lint", "--select", prefix, str(record)]) == 0
    assert capsys.readouterr().out.count("R10") == 0


def test_sarif_describes_every_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    record = tmp_path / "a.lcn"
    record.write_text("1. R4-B\n", encoding="utf-8")
    main(["lint", "--format", "sarif", str(record)])
    rules = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]["rules"]
    ids = {rule["id"] for rule in rules}
    assert {"C101", "C102", "C103"} | {f"J10{i}" for i in range(1, 7)} <= ids
