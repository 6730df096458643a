"""A lean start-up (issue #11: ``lcn lint`` of one game within 2x ``import lark``).

``import lcnotation.cli`` loads each command's module for its options only;
what a command needs to run (the pictures, the FreeCell package, the importers,
the language server) is imported when it runs.  FreeCell's codes are still in
the registry whenever it is needed in full: each check below starts a fresh
Python, as ``lcn`` does, so that nothing imported by another test hides a
family that was never loaded.  (bench/startup.py measures the time.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from lcnotation.core.diagnostics import Severity
from lcnotation.core.codes import CodeRegistry, Family

MATCH = str(Path(__file__).resolve().parent.parent / "examples" / "match.lcn")

#: What ``lcn lint`` must not pay for at start-up.
HEAVY = ("lcnotation.svg", "lcnotation.freecell", "lcnotation.formats", "lcnotation.lsp",
         "lcnotation.archive", "lcnotation.view", "lcnotation.engine", "asyncio",
         "lcnotation.arrow", "lcnotation.dask", "pygls", "concurrent.futures", "pyarrow", "dask",
         "distributed")


def fresh(code: str) -> Any:
    """Run ``code`` in a new Python; the JSON it prints last."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.splitlines()[-1])


LOADED = ("import json, sys; print(json.dumps(sorted(m for m in sys.modules "
          f"if m.startswith({HEAVY!r}))))")


def test_importing_the_command_line_loads_no_feature_package() -> None:
    assert fresh("import lcnotation.cli\n" + LOADED) == []


def test_linting_one_file_loads_no_feature_package() -> None:
    loaded = fresh("import contextlib, io\nfrom lcnotation.cli import main\n"
                   "with contextlib.redirect_stdout(io.StringIO()):\n"
                   f"    assert main(['lint', '--no-progress', {MATCH!r}]) == 0\n" + LOADED)
    assert loaded == []


def run_lcn(*argv: str) -> Tuple[int, str, str]:
    """``lcn *argv`` in a fresh Python: its exit status, output and error."""
    status, out, err = fresh("import contextlib, io, json\nfrom lcnotation.cli import main\n"
                 "out, err = io.StringIO(), io.StringIO()\n"
                 "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
                 f"    status = main({list(argv)!r})\n"
                 "print(json.dumps([status, out.getvalue(), err.getvalue()]))")
    return int(status), str(out), str(err)


def test_explain_knows_the_freecell_codes() -> None:
    status, out, _ = run_lcn("explain", "F304")
    assert status == 0 and "no card of the moved run fits" in out
    status, out, _ = run_lcn("explain", "--all")
    assert status == 0 and "F304" in out and "S102" in out


def test_select_accepts_the_freecell_family() -> None:
    status, _, err = run_lcn("lint", "--no-progress", "--select", "F3,S", MATCH)
    assert status == 0, err
    status, _, err = run_lcn("lint", "--no-progress", "--select", "Q1", MATCH)
    assert status == 2 and "Q1" in err


def test_sarif_describes_the_freecell_codes() -> None:
    status, out, _ = run_lcn("lint", "--no-progress", "--output-format", "sarif", MATCH)
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert status == 0 and "F304" in {rule["id"] for rule in rules}


def test_the_registry_in_full_holds_the_freecell_family() -> None:
    found = fresh("import json, sys\nimport lcnotation.cli\n"
                  "from lcnotation.tools.codes import ALL_CODES, FAMILIES\n"
                  "before = 'lcnotation.freecell' in sys.modules\n"
                  "codes = sorted(ALL_CODES)\n"
                  "print(json.dumps([before, FAMILIES['F'], 'F304' in codes, "
                  "'lcnotation.freecell' in sys.modules]))")
    assert found == [False, "FreeCell notation", True, True]


def make_registry() -> Tuple[CodeRegistry, List[str]]:
    calls: List[str] = []

    def load() -> Family:
        calls.append("B")
        return Family("B", "b codes", "b.md", {"B101": (Severity.WARNING, "b")})

    registry = CodeRegistry()
    registry.add(Family("A", "a codes", "a.md", {"A101": (Severity.INFO, "a")}))
    registry.defer("B", load)
    return registry, calls


def test_a_known_code_does_not_load_the_deferred_families() -> None:
    registry, calls = make_registry()
    assert registry["A101"] == (Severity.INFO, "a") and registry.get("A101")
    assert calls == [] and registry.pending == ("B",)


@pytest.mark.parametrize("use", [
    lambda r: sorted(r), lambda r: len(r), lambda r: dict(r.items()),
    lambda r: "B101" in r, lambda r: r.get("B101"), lambda r: r["B101"],
    lambda r: "Z999" in r,
])
def test_full_use_loads_the_deferred_families_once(use: Any) -> None:
    registry, calls = make_registry()
    use(registry)
    assert calls == ["B"] and registry.pending == ()
    assert dict(registry) == {"A101": (Severity.INFO, "a"), "B101": (Severity.WARNING, "b")}
    assert calls == ["B"]


def test_an_unknown_code_is_still_unknown() -> None:
    registry, _ = make_registry()
    with pytest.raises(KeyError):
        registry["Z999"]
    assert registry.get("Z999") is None


# ---------------------------------------------------------------- Lark


DATA = Path(__file__).resolve().parent / "data"
#: Commands that read only clean records, each with no use for the grammar's
#: parser: none may import Lark (some 216 M instructions, a third of start-up).
CLEAN_COMMANDS = {
    "version": ["--version"],
    "metapyziks": ["import", "--from", "metapyziks", str(DATA / "formats" / "metapyziks"
                                                          / "replay-v3.txt")],
    "chikinn": ["import", "--from", "chikinn", str(DATA / "formats" / "chikinn"
                                                    / "chikinn-seed01-kenny-committer.txt")],
    "freecell": ["freecell", "check", str(DATA / "freecell" / "deal-617.txt"),
                 str(DATA / "freecell" / "deal-1.txt")],
    "lint": ["lint", "--no-progress", MATCH],
}


def modules_after(argv: List[str]) -> Tuple[int, List[str]]:
    """``lcn *argv`` as a command starts, in a fresh Python: its exit status
    and the modules it loaded."""
    done = subprocess.run([sys.executable, "-c",
                           "import contextlib, io, json, sys\nfrom lcnotation.cli import main\n"
                           "with contextlib.redirect_stdout(io.StringIO()):\n"
                           "    try:\n"
                           f"        status = main({argv!r})\n"
                           "    except SystemExit as exc:\n"
                           "        status = exc.code\n"
                           "print(json.dumps([status, sorted(sys.modules)]))"],
                          capture_output=True, text=True, check=True, timeout=120)
    status, modules = json.loads(done.stdout.splitlines()[-1])
    return int(status or 0), list(modules)


@pytest.mark.parametrize("name", [
    *[n for n in CLEAN_COMMANDS if n != "lint"],
    pytest.param("lint", marks=pytest.mark.xfail(
        strict=True, reason="lostcities/fused.py's _Reading builds its expressions from "
        "parser().lark; move_pattern() and terminal_patterns() need no Lark")),
])
def test_a_command_over_clean_records_imports_no_lark(name: str) -> None:
    status, modules = modules_after(CLEAN_COMMANDS[name])
    assert status == 0
    assert "lcnotation.cli" in modules and not [m for m in modules if m.split(".")[0] in (
        "lark", "interegular", "regex")]


def test_a_syntax_error_still_loads_lark_and_is_reported() -> None:
    status, out, err = run_lcn("lint", "--no-progress", "--output-format", "concise",
                               str(Path(MATCH).parent / "mistakes.lcn"))
    assert status == 1 and "N103" in out


def test_each_command_module_registers_its_own_name() -> None:
    import argparse

    from lcnotation import cli

    for name, module in cli.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        cli._module(module).register(sub)
        assert list(sub.choices) == [name]
    assert [m.__name__ for m in cli.COMMANDS] == [f"lcnotation.cli.{module}"
                                                  for _, module in cli.COMMAND_MODULES]


@pytest.mark.parametrize("name, commands", [
    ("version", []), ("metapyziks", ["importcmd", "inputs"]), ("freecell", ["freecell", "inputs"]),
    ("lint", ["lint", "inputs"])])
def test_a_command_loads_its_own_module_alone(name: str, commands: List[str]) -> None:
    _, modules = modules_after(CLEAN_COMMANDS[name])
    assert sorted(m.split(".")[2] for m in modules if m.startswith("lcnotation.cli.")) == \
        sorted(["common", *commands])


def test_freecell_check_loads_nothing_of_lost_cities() -> None:
    status, modules = modules_after(CLEAN_COMMANDS["freecell"])
    assert status == 0 and "lcnotation.freecell.rules" in modules
    assert [m for m in modules if m.startswith("lcnotation.lostcities")] == []


#: What the Python check of a FreeCell record loads, and the compiled clean path does not.
FREECELL_PYTHON_PATH = ["lcnotation.freecell.ast", "lcnotation.freecell.checker",
                        "lcnotation.freecell.parser", "lcnotation.freecell.state"]


def test_freecell_check_of_clean_records_loads_no_reader_with_the_c_path() -> None:
    from lcnotation.freecell import accel

    if accel.clean_check() is None:
        pytest.skip("the FreeCell C extension is not built (or LCNOTATION_PURE_PYTHON=1)")
    status, modules = modules_after(CLEAN_COMMANDS["freecell"])
    assert status == 0 and "lcnotation.freecell._speedups" in modules
    assert [m for m in FREECELL_PYTHON_PATH if m in modules] == []
    # A record it does not call clean goes the Python way.
    status, modules = modules_after([*CLEAN_COMMANDS["freecell"],
                                     str(DATA / "freecell" / "fc-solve-1.snx.txt")])
    assert status == 1 and [m for m in FREECELL_PYTHON_PATH if m in modules] == \
        FREECELL_PYTHON_PATH


def test_freecell_check_json_of_clean_records_loads_no_code_registry() -> None:
    from lcnotation.freecell import accel

    if accel.clean_check() is None:
        pytest.skip("the FreeCell C extension is not built (or LCNOTATION_PURE_PYTHON=1)")
    status, modules = modules_after([*CLEAN_COMMANDS["freecell"], "--format", "json"])
    # The JSON of won records has no findings: no output module, no code registry.
    assert status == 0 and "lcnotation.core.terminal" in modules
    assert [m for m in ("lcnotation.tools.output", "lcnotation.tools.codes") if m in modules] == []


def test_help_lists_every_command() -> None:
    status, out, _ = run_lcn("--help")
    assert status == 0
    from lcnotation.cli import COMMAND_MODULES

    listed = [line.split()[0] for line in out.split("COMMAND\n", 1)[1].splitlines()
              if line.startswith("    ") and not line[4].isspace()]
    assert listed == [name for name, _ in COMMAND_MODULES]
