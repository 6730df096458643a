"""A built wheel, installed in a fresh virtual environment, works on its own.

This proves that the grammar ships inside the wheel and is found there: the
check runs the new environment's Python outside the source tree, so nothing
can be imported from the checkout by accident.  It takes a few seconds and
needs the package index for lark; deselect it with ``-m "not slow"``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

CHECK = textwrap.dedent("""
    import json, sys
    from importlib import resources
    import lcnotation
    from lcnotation.lostcities.text.reader import parse_move, read_games
    from lcnotation.lostcities.text.formatter import format_move

    move = parse_move("bhx-d")
    games = list(read_games(sys.argv[1]))
    grammar = resources.files("lcnotation.grammar").joinpath("lcnotation.lark")
    print(json.dumps({
        "module": lcnotation.__file__,
        "move": format_move(move),
        "games": [[format_move(m) for m in g.moves] for g in games],
        "headers": [g.header("Round") for g in games],
        "errors": [[(e.code, e.line, e.column) for e in g.errors] for g in games],
        "grammar": grammar.is_file(),
        "typed": resources.files("lcnotation").joinpath("py.typed").is_file(),
        "page": "lcnView" in lcnotation.view_html(games, title="t"),
        "docs": __import__("lcnotation.tools.output", fromlist=["x"]).documentation_url("S102"),
    }))
""")


def run(*args, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Build from a copy: setuptools leaves build/ in the tree it builds, and
    # a stale build/lib would put files that no longer exist into the wheel.
    source = tmp_path_factory.mktemp("source") / "lcnotation"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", ".hypothesis", ".pytest_cache",
        "__pycache__", "tests", ".venv", "venv"))
    out = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out),
        cwd=out)
    wheels = list(out.glob("lcnotation-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_the_wheel_holds_the_grammar_and_the_type_marker(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "lcnotation/grammar/lcnotation.lark" in names
    assert "lcnotation/py.typed" in names
    assert "lcnotation/lostcities/text/reader.py" in names
    # Every module and spec page of the source tree ships: a sub-package
    # missing from pyproject.toml's list would leave its files out.
    shipped = {path.relative_to(ROOT).as_posix()
               for path in (ROOT / "lcnotation").rglob("*.py")
               if "__pycache__" not in path.parts and path.parent.name != "grammar"}
    shipped |= {f"lcnotation/spec/{page.name}" for page in (ROOT / "spec").glob("*.md")}
    assert shipped <= names, sorted(shipped - names)
    assert {f"lcnotation/view/page.{ext}" for ext in ("html", "css", "js")} <= names
    assert not any(name.startswith(("tests/", "grammar/")) for name in names)


def test_an_installed_wheel_reads_games_outside_the_source_tree(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run(str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel),
        cwd=tmp_path)
    record = tmp_path / "match.lcn"
    record.write_text('[Round "1"]\n1. R3-D 2. BHD-D\n\n[Round "2"]\n1. r4-b R11-D G5-D\n',
                      "utf-8")
    script = tmp_path / "check.py"
    script.write_text(CHECK, "utf-8")
    result = json.loads(run(str(python), str(script), str(record), cwd=tmp_path))
    assert Path(result["module"]).resolve().is_relative_to(env_dir.resolve())
    assert not Path(result["module"]).resolve().is_relative_to(ROOT)
    assert result["move"] == "BHD-D"
    assert result["games"] == [["R3-D", "BHD-D"], ["R4-B", "G5-D"]]
    assert result["headers"] == ["1", "2"]
    assert result["errors"] == [[], [["N103", 5, 10]]]
    assert result["grammar"] and result["typed"] and result["page"]
    # The documentation address comes from the wheel's metadata ([project.urls]).
    import tomllib

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["urls"]
    assert result["docs"] == urls["Documentation"].rstrip("/") + "/spec/diagnostics.html#s102"
