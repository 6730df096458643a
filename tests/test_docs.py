"""The documentation: the site builds, its links resolve, its examples run (issue 24).

The site (docs/conf.py) is built from the repository's root with warnings as
errors, so MyST reports every link between pages, and to a heading, that does
not resolve; a check of our own covers the same links as GitHub shows them
(relative to the page, headings by GitHub's anchors), files that are not pages
included (the README's LICENSE, grammar). The Python examples of the README and
the guides run: ``pycon`` blocks as doctests, ``python`` blocks page by page in
one namespace, in a folder that holds what they read. The pre-commit snippet is
a whole configuration that pre-commit itself accepts and runs; the README's
command list is the list of commands ``lcn`` registers; the Neovim snippets are
Lua that enables file watching and sets ``commentstring``.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: Every Markdown page of the site (docs/conf.py's include_patterns).
PAGES = sorted([ROOT / "README.md", ROOT / "fuzz" / "README.md", *(ROOT / "spec").glob("*.md"),
                *(p for p in DOCS.rglob("*.md")
                  if not p.relative_to(DOCS).parts[0].startswith("_"))])
#: The pages written for readers of the package (the spec's examples have their own tests).
GUIDES = [p for p in PAGES if p.parent != ROOT / "spec"]

_FENCE = re.compile(r"^(`{3,})([^\n`]*)\n(.*?)^\1[ \t]*$", re.M | re.S)


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _blocks(page: Path, *kinds: str) -> Iterator[Tuple[int, str]]:
    """The fenced blocks of ``page`` whose info string is one of ``kinds``: (line, body)."""
    text = page.read_text("utf-8")
    for m in _FENCE.finditer(text):
        if m.group(2).strip() in kinds:
            yield text.count("\n", 0, m.start()) + 2, m.group(3)


def _env() -> Dict[str, str]:
    """The environment of a subprocess that must run this tree's code."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}


# ---------------------------------------------------------------- the site

@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("site")
    ran = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-c", "docs",
         "-d", str(out / "doctrees"), ".", str(out / "html")],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    return ran, out / "html"


def test_the_site_builds_with_warnings_as_errors(site) -> None:
    ran, _ = site
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert "WARNING" not in ran.stderr, ran.stderr


def test_the_site_holds_the_guides_the_api_and_the_spec(site) -> None:
    ran, html = site
    assert ran.returncode == 0, ran.stderr
    for page in PAGES:
        assert html.joinpath(page.relative_to(ROOT)).with_suffix(".html").is_file(), page
    assert 'url=docs/index.html' in (html / "index.html").read_text("utf-8")
    index = (html / "docs" / "index.html").read_text("utf-8")
    for guide in ("cli", "configuration", "editors", "library", "pictures", "importers",
                  "freecell", "archives", "engines", "hardening", "speed", "architecture"):
        assert f'href="{guide}.html"' in index, guide
    # The API reference is read from the docstrings.
    api = (html / "docs" / "api" / "lcnotation.html").read_text("utf-8")
    assert 'id="lcnotation.GameState.legal_moves"' in api
    assert "Every legal move of the side to move" in api
    # and its data names too, from the modules that define them (lcn-constants)
    assert api.count('class="py data"') >= 8 and 'id="lcnotation.formats.FORMATS"' in api
    for module in ("engine", "archive", "formats", "freecell", "arrow", "dask", "tools"):
        text = (html / "docs" / "api" / f"{module}.html").read_text("utf-8")
        assert 'class="py function"' in text or 'class="py class"' in text, module
    # The README's picture is part of the site.
    assert list(html.glob("_images/board*.svg"))


# ---------------------------------------------------------------- links

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading (MyST's myst_heading_anchors makes the same)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set:
    text = _FENCE.sub("", page.read_text("utf-8"))
    return {_slug(m.group(1).replace("`", "")) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def _links(page: Path) -> Iterator[Tuple[str, str]]:
    text = _CODE_SPAN.sub("", _FENCE.sub("", page.read_text("utf-8")))
    for m in _LINK.finditer(text):
        target = m.group(1)
        if not re.match(r"[a-z]+:", target):
            path, _, anchor = target.partition("#")
            yield path, anchor


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_resolves(page: Path) -> None:
    """Each link to a file or folder of the repository, and to a heading, resolves
    where GitHub resolves it; this is the README's check too, whose links to
    files that are not pages (LICENSE, the grammar) Sphinx does not check."""
    for path, anchor in _links(page):
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{_name(page)}: no {path}"
        assert ROOT in target.parents or target == ROOT, f"{_name(page)}: {path} is outside"
        if anchor:
            assert target.suffix == ".md", f"{_name(page)}: #{anchor} in {path}"
            assert anchor in _anchors(target), f"{_name(page)}: no heading #{anchor} in {path or 'it'}"


def test_the_link_check_sees_a_broken_anchor(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# Title\n\n[a](#title) [b](#nowhere) `[c](#code)`\n```\n[d](x.md)\n```\n")
    assert list(_links(page)) == [("", "title"), ("", "nowhere")]
    assert _anchors(page) == {"title"}


# ---------------------------------------------------------------- examples

@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding what the examples read: examples/, match.lcn, 617.sfn, and
    games.parquet (the Parquet export of examples/match.lcn)."""
    from lcnotation import freecell
    from lcnotation.cli import main
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    shutil.copy(ROOT / "examples" / "match.lcn", tmp_path / "match.lcn")
    (tmp_path / "617.sfn").write_text(freecell.deal(617), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["export", "--to", "parquet", "match.lcn", "-o", "games.parquet"]) == 0
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])  # engines the examples start
    return tmp_path


def _with_doctests(page: Path) -> bool:
    return any(True for _ in _blocks(page, "pycon"))


@pytest.mark.parametrize("page", [p for p in GUIDES if _with_doctests(p)], ids=_name)
def test_the_interactive_examples_give_what_they_show(page: Path, workdir: Path) -> None:
    """``pycon`` blocks are doctests, run in order in one namespace per page."""
    globs: dict = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    for line, body in _blocks(page, "pycon"):
        test = parser.get_doctest(body, globs, f"{_name(page)}:{line}", str(page), line)
        assert test.examples, f"{_name(page)}:{line}: a pycon block without >>>"
        runner.run(test, out=report.write, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs in a copy of the names it is given
    assert runner.failures == 0, report.getvalue()


@pytest.mark.parametrize("page", [p for p in GUIDES if any(True for _ in _blocks(p, "python"))],
                         ids=_name)
def test_the_python_examples_run(page: Path, workdir: Path) -> None:
    """``python`` blocks run, in order, in one namespace per page (as a notebook)."""
    namespace: dict = {"__name__": "__docs__"}
    for line, body in _blocks(page, "python"):
        code = compile(body, f"{_name(page)}:{line}", "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)


def test_the_state_api_is_shown_at_work() -> None:
    """The README and the library guide push moves and draw the position with
    the state API, in examples that run (pycon blocks: doctests above)."""
    for page in (ROOT / "README.md", DOCS / "library.md"):
        shown = "".join(body for _, body in _blocks(page, "pycon"))
        for call in (".legal_moves()", ".apply(", ".play(", "board_svg(", ".scores()"):
            assert call in shown, f"{_name(page)}: no {call}"


# ---------------------------------------------------------------- pre-commit

def _pre_commit_configs() -> List[Tuple[str, str]]:
    return [(f"{_name(page)}:{line}", body) for page in GUIDES
            for line, body in _blocks(page, "yaml") if re.search(r"^\s*-? ?repo:", body, re.M)]


def _pre_commit(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**_env(), "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-home")}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_every_pre_commit_snippet_is_a_whole_configuration(tmp_path: Path) -> None:
    """Pasted as the whole .pre-commit-config.yaml, the snippet is valid (the
    README's had no ``repos:``: "Expected a Config map but got a list")."""
    configs = _pre_commit_configs()
    assert configs
    for where, body in configs:
        config = tmp_path / ".pre-commit-config.yaml"
        config.write_text(body, encoding="utf-8")
        ran = _pre_commit("validate-config", str(config), cwd=tmp_path)
        assert ran.returncode == 0, f"{where}: {ran.stdout}{ran.stderr}"


def test_the_pre_commit_hooks_fix_and_format(tmp_path: Path) -> None:
    """The documented hooks run in a repository: the first run fixes a record
    (and fails, as pre-commit does when a hook changed a file), the second passes."""
    if shutil.which("git") is None or shutil.which("lcn") is None:
        pytest.fail("git and the installed lcn command are needed (pip install -e '.[test]')")
    (where, body), = _pre_commit_configs()
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".pre-commit-config.yaml").write_text(body, encoding="utf-8")
    (repo / "a.lcn").write_text("1. r3-d\n2.  g4-d\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    first = _pre_commit("run", "--all-files", cwd=repo)
    assert first.returncode == 1, first.stdout + first.stderr
    assert (repo / "a.lcn").read_text("utf-8") == "1. R3-D\n2. G4-D\n", where
    second = _pre_commit("run", "--all-files", cwd=repo)
    assert second.returncode == 0, second.stdout + second.stderr


# ---------------------------------------------------------------- the README's commands

def test_the_readme_lists_every_command_once_with_its_section() -> None:
    from lcnotation.cli import _build_parser
    from lcnotation.cli.completion import commands
    registered = [c.name for c in commands(_build_parser())]
    readme = (ROOT / "README.md").read_text("utf-8")
    rows = re.findall(r"^\| \[`lcn ([\w-]+)`\]\(docs/cli\.md#([\w-]+)\) \|", readme, re.M)
    assert [name for name, _ in rows] == registered
    sections = _anchors(DOCS / "cli.md")
    for name, anchor in rows:
        assert anchor == f"lcn-{name}" and anchor in sections, name


def test_the_readme_is_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= 250
    # the two set-up commands, exactly as .ci/run runs the second
    ci = (ROOT / ".ci" / "run").read_text("utf-8").strip().splitlines()[-1]
    assert f"```sh\n{ci}\n```" in readme
    assert ("```sh\npython -m pip install -e . && lcn lint examples/match.lcn "
            "&& lcn score examples/match.lcn\n```") in readme


def test_the_license_is_the_one_pyproject_names() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert project["license"] == {"text": "MIT"}
    assert text.startswith("MIT License\n") and "2026 lcnotation contributors" in text
    assert "Permission is hereby granted, free of charge" in text


# ---------------------------------------------------------------- Neovim

def _lua_snippets() -> List[Tuple[int, str]]:
    return list(_blocks(DOCS / "editors.md", "lua"))


def test_the_neovim_snippets_watch_files_and_set_commentstring(tmp_path: Path) -> None:
    """Neovim offers no file watching on Linux unless the client asks for it, and
    has no commentstring for a new filetype (``gc`` fails: "Option
    'commentstring' is empty"); both snippets say so (issue 24, defect 10)."""
    snippets = _lua_snippets()
    assert len(snippets) == 2
    for line, code in snippets:
        flat = re.sub(r"--[^\n]*", "", code)
        assert re.search(r"didChangeWatchedFiles\s*=\s*\{\s*dynamicRegistration\s*=\s*true\s*\}",
                         flat), line
        assert re.search(r"workspace\s*=\s*\{\s*didChangeWatchedFiles", flat), line
        assert re.search(r'vim\.bo\[args\.buf\]\.commentstring = "; %s"', flat), line
        assert re.search(r'pattern = "lcn"', flat), line
        for opening, closing in ("()", "{}", "[]"):
            assert flat.count(opening) == flat.count(closing), (line, opening)
        assert len(re.findall(r"\bfunction\b", flat)) == len(re.findall(r"\bend\b", flat)), line
        luac = shutil.which("luac") or shutil.which("luac5.4") or shutil.which("luac5.1")
        if luac:  # the syntax, where a Lua compiler is at hand
            source = tmp_path / f"init{line}.lua"
            source.write_text(code, encoding="utf-8")
            checked = subprocess.run([luac, "-p", str(source)], capture_output=True, text=True)
            assert checked.returncode == 0, checked.stderr


# ---------------------------------------------------------------- the reference tables

def _section(page: Path, heading: str) -> str:
    text = page.read_text("utf-8")
    start = text.index(f"\n{heading}\n")
    level = heading.split(" ")[0]
    end = re.compile(rf"^#{{1,{len(level)}}} ", re.M).search(text, start + len(heading) + 2)
    return text[start:end.start() if end else len(text)]


def test_the_lint_options_table_names_every_option() -> None:
    """docs/cli.md's table of ``lcn lint`` options has a row for each option the
    command takes (the site also shows ``lcn lint --help``, read from the parser)."""
    from lcnotation.cli import _build_parser
    from lcnotation.cli.completion import commands
    (lint,) = [c for c in commands(_build_parser()) if c.name == "lint"]
    table = "\n".join(line for line in _section(DOCS / "cli.md", "## `lcn lint`").splitlines()
                      if line.startswith("| `"))
    for option in lint.options:
        assert any(f"`{flag}" in table for flag in option.flags), option.flags


def test_every_command_section_shows_its_help() -> None:
    from lcnotation.cli import _build_parser
    from lcnotation.cli.completion import commands
    for command in commands(_build_parser()):
        section = _section(DOCS / "cli.md", f"## `lcn {command.name}`")
        assert f"```{{lcn-help}}\nlcn {command.name} --help\n```" in section, command.name


def test_the_configuration_example_holds_every_key() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    from lcnotation.tools.config import config_from_table
    from lcnotation.tools import config
    ((_, body),) = _blocks(DOCS / "configuration.md", "toml")
    table = tomllib.loads(body)["tool"]["lcnotation"]
    assert set(table) == set(config._KEYS)
    config_from_table(table)  # and the values are valid


def test_the_readme_tour_shows_what_lcn_prints() -> None:
    """Each ``console`` block of the README: its ``$ lcn ...`` command run in the
    repository, every line shown (but ``...``) is a line of what it prints."""
    import shlex
    blocks = list(_blocks(ROOT / "README.md", "console"))
    assert blocks
    for line, body in blocks:
        command, *shown = body.splitlines()
        assert command.startswith("$ lcn "), line
        ran = subprocess.run([sys.executable, "-m", "lcnotation", *shlex.split(command[6:])],
                             cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
        printed = ran.stdout.splitlines()
        for expected in shown:
            assert expected == "..." or expected in printed, f"README.md:{line}: {expected!r}"
