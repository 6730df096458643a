"""The notations through the common tools: FreeCell (``*.sfn``) gets ``lcn lint``
and ``lcn fmt`` as Lost Cities does, and a third notation (tests/toy, made
outside the package) gets them by registering one object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from lcnotation.core.links import spec_url
from hypothesis import given, settings
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.core.lint import LintConfig
from lcnotation.core.notation import Notation, Streaming
from lcnotation.tools import notations
from lcnotation.tools.codes import ALL_CODES
from lcnotation.tools.lint import fix_text, lint_text

TESTS = Path(__file__).resolve().parent
DEAL = freecell.deal(1)
#: Deal 1 with the first two moves of a solution: legal, not won (F320).
PLAYED = DEAL + " 5a 5b\n"


def test_the_registry_knows_each_notation_by_its_own_extensions() -> None:
    for name, notation in notations.NOTATIONS.items():
        assert isinstance(notation, Notation) and notation.name == name
        table = {ext for ext, owner in notations.NOTATIONS.by_extensions() if owner == name}
        assert table == set(notation.extensions)
        assert {f.prefix for f in notation.families} <= set(ALL_CODES.families)
    assert isinstance(notations.get_notation("lostcities"), Streaming)
    with pytest.raises(notations.UnknownNotation, match="known: freecell, lostcities"):
        notations.get_notation("chess")


def test_importing_freecell_loads_nothing_of_lost_cities() -> None:
    code = ("import sys, lcnotation.freecell, lcnotation.freecell.notation\n"
            "print(sorted(m for m in sys.modules if m.startswith('lcnotation.lostcities')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lint_reports_freecell_findings_at_their_place(run, tmp_path: Path) -> None:
    bad = DEAL + " 5a 5b 11\n"  # move 3 moves a card to where it is
    (tmp_path / "bad.sfn").write_text(bad)
    (tmp_path / "ok.lcn").write_text("1. R3-D\n")
    ran = run("lint", "--no-progress", ".")
    assert ran.status == 1
    assert "bad.sfn:10:7: F306 move 3 (11) is illegal" in ran.out
    assert "ok.lcn:1:8: R110" in ran.out  # both notations in one run
    assert "Found" in ran.out and "2 files" in ran.out


def test_lint_of_a_won_record_is_clean(run, tmp_path: Path) -> None:
    (tmp_path / "a.sfn").write_text(PLAYED)
    assert "F320" in run("lint", "a.sfn").out  # not won: a warning, exit 0
    assert run("lint", "a.sfn").status == 0
    assert run("lint", "--strict", "a.sfn").status == 1


@pytest.mark.parametrize("fmt", ["json", "github", "sarif", "concise", "full"])
def test_every_output_format_carries_freecell_codes(run, tmp_path: Path, fmt: str) -> None:
    (tmp_path / "a.sfn").write_text(DEAL + " 5a 5b 11\n")
    ran = run("lint", "--no-progress", "--output-format", fmt, "a.sfn")
    assert ran.status == 1 and "F306" in ran.out
    if fmt == "json":
        found = json.loads(ran.out)
        assert found[0]["code"] == "F306" and found[0]["url"] == spec_url("freecell.md", "f306")
    if fmt == "sarif":
        rules = json.loads(ran.out)["runs"][0]["tool"]["driver"]["rules"]
        assert "F306" in {r["id"] for r in rules}


def test_fix_writes_the_canonical_layout(run, tmp_path: Path) -> None:
    untidy = PLAYED.replace("5H\n", "5H   \n", 1).replace(" 5a 5b\n", " 5a\n 5b\n")
    (tmp_path / "a.sfn").write_text(untidy)
    ran = run("lint", "--no-progress", "a.sfn")
    assert ran.out.count("F501") == 2 and "[*]" in ran.out
    assert run("lint", "--diff", "a.sfn").status == 1
    assert (tmp_path / "a.sfn").read_text() == untidy
    assert run("lint", "--fix", "a.sfn").status == 0
    assert (tmp_path / "a.sfn").read_text() == PLAYED == freecell.format(freecell.parse(untidy))
    assert "F501" not in run("lint", "a.sfn").out


def test_suppressions_select_ignore_and_configuration(run, tmp_path: Path) -> None:
    (tmp_path / "a.sfn").write_text(DEAL + " 5a 5b  lcn: ignore[F320]\n")
    assert "F320" not in run("lint", "a.sfn").out
    (tmp_path / "b.sfn").write_text(DEAL + " 5a 5b  lcn: ignore[F304]\n")
    out = run("lint", "b.sfn").out
    assert "F500 this suppression does not suppress F304" in out and "F110" not in out
    (tmp_path / "c.sfn").write_text(DEAL + " 5a 5b  lcn: ignore[F3O4, R101]\n")
    out = run("lint", "c.sfn").out  # R101 is a Lost Cities code: not one FreeCell reports
    assert ("F500 this suppression names F3O4, no such code: no code of these records "
            "starts with 'F3O4'") in out
    assert "F500 this suppression names R101, no such code" in out
    assert "F320" not in run("lint", "--ignore", "F3", "b.sfn").out
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\nignore = ["F320", "F5"]\n')
    assert "All clear" in run("lint", "b.sfn").out
    ran = run("lint", "--statistics", "--ignore", "F5", "b.sfn")
    assert ran.out.split()[:2] == ["1", "F320"]


def test_notation_chosen_by_option_and_configuration(run, tmp_path: Path) -> None:
    (tmp_path / "deal.txt").write_text(PLAYED)
    assert "F320" in run("lint", "--notation", "freecell", "deal.txt").out
    assert "F320" not in run("lint", "deal.txt").out  # another extension reads as Lost Cities
    assert run("lint", "--notation", "go", "deal.txt").status == 2
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\nnotation = "freecell"\n')
    assert "F320" in run("lint", "deal.txt").out
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\nnotation = "go"\n')
    ran = run("lint", "deal.txt")
    assert ran.status == 2 and "'notation' must be one of freecell, lostcities" in ran.err


def test_fmt_check_diff_and_in_place(run, tmp_path: Path) -> None:
    untidy = PLAYED.replace("5H\n", "5H  \n", 1)
    (tmp_path / "a.sfn").write_text(untidy)
    ran = run("fmt", "--check", "a.sfn")
    assert ran.status == 1 and "would reformat a.sfn" in ran.out
    ran = run("fmt", "--diff", "a.sfn")
    assert ran.status == 1 and "-JD 2D 9H JC 5D 7H 7C 5H  " in ran.out
    assert (tmp_path / "a.sfn").read_text() == untidy
    assert run("fmt", "a.sfn").status == 0
    assert (tmp_path / "a.sfn").read_text() == PLAYED
    assert run("fmt", "--check", "a.sfn").status == 0
    (tmp_path / "b.sfn").write_text("Game #1\nJD 6X\n")
    ran = run("fmt", "b.sfn")
    assert ran.status == 1 and "b.sfn:2:4: not formatted" in ran.err


def test_explain_a_freecell_lint_code(run) -> None:
    ran = run("explain", "F501")
    assert ran.status == 0 and "canonical layout" in ran.out


def test_the_freecell_aliases_still_work(run, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(PLAYED)
    assert run("freecell", "check", "a.txt").status == 1
    assert run("freecell", "fmt", "--check", "a.txt").status == 0


# ---------------------------------------------------------------- property


_LAYOUT_NOISE = st.lists(st.sampled_from(["trailing", "split", "join"]), max_size=3)


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, 32000), moves=st.integers(0, 6), noise=_LAYOUT_NOISE)
def test_lint_fix_gives_what_fmt_writes_and_keeps_the_meaning(deal: int, moves: int,
                                                              noise: list) -> None:
    steps = ["1a", "2b", "3c", "4d", "a1", "b2"][:moves]
    text = freecell.deal(deal) + ("".join(f" {s}" for s in steps) + "\n" if steps else "")
    for kind in noise:
        if kind == "trailing":
            text = text.replace("\n", "  \n", 2)
        elif kind == "split" and steps:
            text = text.replace(f" {steps[0]}", f" {steps[0]}\n", 1)
        elif kind == "join":
            text = text.replace("\n", "\n\n", 1)
    record = freecell.parse(text)
    fixed, _, report = fix_text(text, "a.sfn")
    if record.errors:
        assert fixed == text  # a record that cannot be read is never rewritten
        return
    assert fixed == freecell.format(record)
    assert freecell.parse(fixed).meaning() == record.meaning()
    assert not [d for d in report.diagnostics if d.code == "F501"]


# ---------------------------------------------------------------- a third notation


@pytest.fixture
def toy() -> Iterator[object]:
    sys.path.insert(0, str(TESTS))
    try:
        from toy import NOTATION
        notations.register_notation(NOTATION)
        yield NOTATION
    finally:
        sys.path.remove(str(TESTS))
        notations.NOTATIONS.remove("toy")
        ALL_CODES.remove("T")


def test_a_third_notation_gets_lint_and_fmt_by_registering_one_object(
        toy: object, run, tmp_path: Path) -> None:
    (tmp_path / "a.toy").write_text("+3\n- 2\n-5  # lcn: ignore[T201]\n-1\nx\n")
    (tmp_path / "b.lcn").write_text("1. R3-D\n")
    ran = run("lint", "--no-progress", ".")
    assert ran.status == 1
    assert "a.toy:2:1: T301 [*] write '-2'" in ran.out
    assert "a.toy:4:1: T201 the total goes to -5" in ran.out and "T201 the total goes to -4" \
        not in ran.out
    assert "a.toy:5:1: T101 'x' is not a step" in ran.out and "b.lcn:1:8: R110" in ran.out
    assert "T301" in run("explain", "T301").out
    assert lint_text("+1\n-2\n", "c.toy").diagnostics[0].code == "T201"
    (tmp_path / "a.toy").write_text("+3\n- 2\n")
    assert run("fmt", "--check", "a.toy").status == 1
    assert run("fmt", "a.toy").status == 0 and (tmp_path / "a.toy").read_text() == "+3\n-2\n"
    assert lint_text("+3\n", "c.toy", LintConfig(ignore=("T",))).diagnostics == []


# ---------------------------------------------------------------- importing


SOLUTION = TESTS / "data" / "freecell" / "fc-solve-617.snx.txt"


def test_import_from_fc_solve_goes_through_the_format_registry(run, tmp_path: Path) -> None:
    from lcnotation.formats import FORMATS, import_games

    assert FORMATS["fc-solve"].notation == "freecell"
    ran = run("import", "--from", "fc-solve", str(SOLUTION), "--deal", "617", "-o", "617.sfn")
    assert ran.status == 0, ran.err
    written = (tmp_path / "617.sfn").read_text()
    assert written.startswith("Game #617\n")
    assert written == run("freecell", "import", "--from", "fc-solve", str(SOLUTION),
                          "--deal", "617").out
    assert freecell.check(freecell.parse(written)).verdict == "won"
    assert run("lint", "617.sfn").status == 0 and "All clear" in run("lint", "617.sfn").out
    ran = run("import", "--from", "chikinn", str(SOLUTION), "--deal", "3")
    assert ran.status == 2 and "--deal is for fc-solve" in ran.err
    ran = run("import", "--from", "fc-solve", str(SOLUTION), str(SOLUTION))
    assert ran.status == 2 and "one file at a time" in ran.err
    with pytest.raises(ValueError, match="holds freecell records"):
        import_games(SOLUTION.read_text(), "fc-solve")
