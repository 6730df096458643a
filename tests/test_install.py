"""A built wheel, installed in a fresh virtual environment, works on its own.

This proves that the grammar ships inside the wheel and is found there: the
check runs the new environment's Python outside the source tree, so nothing
can be imported from the checkout by accident.  It takes a few seconds and
needs the package index for lark; deselect it with ``-m "not slow"``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import venv
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from trees import copy_of_tree

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
        "accelerated": __import__("lcnotation.lostcities.accel").lostcities.accel.check
                       is not None,
        "docs": __import__("lcnotation.tools.output", fromlist=["x"]).documentation_url("S102"),
    }))
""")


def clean_env() -> Dict[str, str]:
    # LCNOTATION_PURE_PYTHON too: the installed wheel's accelerator is looked for.
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "LCNOTATION_PURE_PYTHON")}


def run(*args, cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, env=clean_env(), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def build_wheel(tmp_path_factory, env: Optional[Dict[str, str]] = None) -> Tuple[Path, str]:
    """A wheel built from a copy of the tree (``env`` added to pip's
    environment), and what pip said on its error stream."""
    # From a copy (an accelerator built in place is left out too: the wheel's
    # must be its own).
    source = copy_of_tree(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-v",
                           "-w", str(out)], cwd=out, capture_output=True, text=True,
                          timeout=600, env={**clean_env(), **(env or {})})
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    wheels = list(out.glob("lcnotation-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0], done.stdout + done.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory)[0]


def accelerator_in(wheel: Path, package: str = "lostcities") -> List[str]:
    """The files of the compiled accelerator of ``package`` in ``wheel`` (Lost
    Cities' stub ships always)."""
    names = zipfile.ZipFile(wheel).namelist()
    assert "lcnotation/lostcities/_speedups.pyi" in names
    return [name for name in names if name.startswith(f"lcnotation/{package}/_speedups")
            and not name.endswith(".pyi")]


def compiled_in(wheel: Path) -> List[str]:
    """The wheel's compiled extensions, as module paths without their suffix."""
    return sorted(name.split(".")[0] for name in zipfile.ZipFile(wheel).namelist()
                  if name.endswith((".so", ".pyd")))


#: The packages with an optional C extension named _speedups (setup.py's EXTENSIONS).
ACCELERATED = ["lostcities", "freecell"]


@pytest.mark.parametrize("package", ACCELERATED)
def test_the_wheel_holds_the_accelerator_where_a_compiler_is(wheel, package):
    if shutil.which("cc") is None and os.environ.get("CI") != "true":
        pytest.skip("no C compiler here")
    assert [name.endswith((".so", ".pyd")) for name in accelerator_in(wheel, package)] == [True]


def test_the_wheel_holds_every_optional_extension_where_a_compiler_is(wheel):
    if shutil.which("cc") is None and os.environ.get("CI") != "true":
        pytest.skip("no C compiler here")
    # Every optional extension of setup.py: lint's, the FreeCell check's, the
    # chikinn reader and the metapyziks decoder.
    assert compiled_in(wheel) == ["lcnotation/formats/_chikinn",
                                  "lcnotation/formats/_metapyziks",
                                  "lcnotation/freecell/_speedups",
                                  "lcnotation/lostcities/_speedups"]
    # and the types of each, beside it
    names = zipfile.ZipFile(wheel).namelist()
    assert [m for m in compiled_in(wheel) if m + ".pyi" not in names] == []


def test_the_source_distribution_holds_what_each_c_file_includes(tmp_path_factory):
    """A header a C extension includes (setup.py's depends) ships in the
    sdist (MANIFEST.in), so that the sdist still builds the extension."""
    import tarfile

    source = copy_of_tree(tmp_path_factory.mktemp("sdist-source"))
    out = tmp_path_factory.mktemp("sdist")
    run(sys.executable, "setup.py", "-q", "sdist", "-d", str(out), cwd=source)
    (archive,) = out.glob("lcnotation-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        sources = [name for name in names if name.endswith(".c")]
        assert len(sources) == 4, sources
        wanted = set()
        for name in sources:
            member = tar.extractfile(tar.getmember(f"{archive.name[:-7]}/{name}"))
            assert member is not None
            folder = name.rpartition("/")[0]
            wanted.update(f"{folder}/{header}" for header in re.findall(
                r'^#include "([^"]+)"', member.read().decode("utf-8"), re.M))
    assert wanted and wanted <= names, wanted - names


def test_without_a_compiler_the_wheel_is_built_without_the_accelerator(tmp_path_factory):
    """``pip install .`` with no compiler still works (the pure-Python path,
    the same results): the extensions are skipped with a warning."""
    built, said = build_wheel(tmp_path_factory, {"CC": "false", "LDSHARED": "false"})
    assert [accelerator_in(built, package) for package in ACCELERATED] == [[], []]
    assert compiled_in(built) == []
    assert "C accelerator was not built" in said


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
    # The MIT licence travels with the wheel (setuptools takes LICENSE by its name).
    assert any(re.fullmatch(r"lcnotation-[^/]+\.dist-info/(licenses/)?LICENSE", name)
               for name in names), sorted(n for n in names if ".dist-info/" in n)


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
    assert result["accelerated"] == bool(accelerator_in(wheel))
    # The documentation address comes from the wheel's metadata ([project.urls]).
    import tomllib

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["urls"]
    assert result["docs"] == urls["Documentation"].rstrip("/") + "/spec/diagnostics.html#s102"
