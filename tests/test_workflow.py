"""Everyday workflows (issue #11): lint, fmt and fix agree with each other.

Each test of a defect failed on the code before its fix.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation.lostcities.game.generator import generate_games
from lcnotation.lostcities.text.formatter import format_games
from lcnotation.tools.lint import LintConfig, fix_text, lint_text
from lcnotation.core.findings import Edit, Fix, apply_fixes

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = (ROOT / "examples" / "mistakes.lcn").read_text("utf-8")
GAMES = format_games(generate_games(3, seed=3))


def _mangled(text: str, seed: int, marker: str = "") -> str:
    """``text`` with moves in random letter case (and, with ``marker``, every
    discard written with that marker)."""
    rng = random.Random(seed)

    def move(m: "re.Match[str]") -> str:
        written = m.group()
        if marker and re.fullmatch(r"[A-Z](?:10|[2-9H])[DX]-[A-Z]", written, re.I):
            written = written[:-3] + marker + written[-2:]
        return "".join(c.lower() if rng.random() < 0.5 else c for c in written)

    return re.sub(r"(?m)(?<=\. )[A-Za-z0-9]+-[A-Za-z]", move, text)


# Defect 1: --fix was quadratic in the number of fixes.

def _reference_apply(text: str, fixes: list) -> tuple:
    """The old, quadratic apply_fixes: the meaning the fast one must keep."""
    edits, taken, applied = [], [], 0
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        if any(e.start < end and start < e.end or e.start == start
               for e in fix.edits for start, end in taken):
            continue
        for e in fix.edits:
            taken.append((e.start, e.end))
            edits.append((e.start, e.end, e.replacement))
        applied += 1
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        out.append(text[pos:start] + replacement)
        pos = end
    return "".join(out) + text[pos:], applied


_edits = st.tuples(st.integers(0, 30), st.integers(0, 4), st.text("xyz", max_size=3)).map(
    lambda t: Edit(t[0], t[0] + t[1], t[2]))
_fixes = st.lists(st.lists(_edits, min_size=1, max_size=3).map(
    lambda es: Fix("f", tuple(es))), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_fixes)
def test_apply_fixes_skips_overlaps_as_before(fixes):
    text = "abcdefghijklmnopqrstuvwxyz0123456789"
    assert apply_fixes(text, fixes) == _reference_apply(text, fixes)


def test_fix_of_a_large_lower_case_file_is_complete():
    text = format_games(generate_games(40, seed=3), "lower")
    fixed, applied, report = fix_text(text)
    assert fixed == format_games(generate_games(40, seed=3))
    assert applied > 2000 and not [d for d in report.diagnostics if d.code.startswith("S")]


# Defect 2: fmt and lint disagreed about the dialect.

from strategies import suppressing_comments, written_games  # noqa: E402

_SPELLING = {"S101", "S102", "S103"}


@settings(max_examples=40, deadline=None)
@given(written_games(), st.sampled_from([None, "v1", "x-discard", "lower"]))
def test_fmt_output_is_clean_under_lint_and_fix_output_is_kept_by_fmt(written, dialect):
    from lcnotation.lostcities.reformat import format_source
    _, text = written
    config = LintConfig(dialect=dialect)
    formatted = format_source(text, dialect=dialect).text
    assert not {d.code for d in lint_text(formatted, config=config).diagnostics} & _SPELLING
    mangled = _mangled(formatted, len(text), marker="x" if len(text) % 2 else "")
    fixed = fix_text(mangled, config=config)[0]
    assert format_source(fixed, dialect=dialect).text == fixed


# issue 24, defect 5: fmt honours suppressions as lint --fix does, so that its
# output never holds a suppression that suppresses nothing (S100).

def test_fmt_keeps_what_a_suppression_is_for(run, tmp_path):
    from lcnotation.lostcities.reformat import format_source

    text = "1. R4-D\n2. B3-D\n3. G4-D\n4. w6-d ; lcn: ignore\n5. Y5-D\n"
    assert format_source(text).text == text
    assert "S100" not in {d.code for d in lint_text(format_source(text).text).diagnostics}
    # What the suppression does not cover is fixed; what stands on its line stays there.
    text = "1. r4-d 2. b3-d\n{lcn: ignore[S102]} 3. g4-d 4. w6-d 6. y2-d ; lcn: ignore[S103]\n"
    assert format_source(text).text == (
        "1. R4-D\n2. B3-D\n{lcn: ignore[S102]} 3. g4-d 4. w6-d 6. y2-d ; lcn: ignore[S103]\n")
    (tmp_path / "s.lcn").write_text(text)
    assert run("fmt", "s.lcn").status == 0
    assert "S100" not in run("lint", "s.lcn").out


_FIXED_BY_FMT = {"S101", "S102", "S103", "S107"}


@settings(max_examples=150, deadline=None)
@given(written_games(move_comments=suppressing_comments),
       st.sampled_from([None, "v1", "x-discard", "lower"]))
def test_fmt_output_has_no_style_finding_that_the_record_had_not(written, dialect):
    # For any record fmt accepts: lint of fmt's output has no finding that
    # fmt fixes, and no more of the others (S100, S104-S106) than the record.
    from collections import Counter

    from lcnotation.lostcities.reformat import format_source
    _, text = written
    config = LintConfig(dialect=dialect)
    before = Counter(d.code for d in lint_text(text, config=config).diagnostics)
    after = Counter(d.code for d in lint_text(format_source(text, dialect=dialect).text,
                                              config=config).diagnostics)
    assert not set(after) & _FIXED_BY_FMT, (text, after)
    for code in ("S100", "S104", "S105", "S106"):
        assert after[code] <= before[code], (text, code, before, after)


def test_fmt_and_lint_fix_agree_on_a_configured_dialect(run, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\ndialect = "x-discard"\n')
    (tmp_path / "a.lcn").write_text("1. R3-D\n2. G4D-D\n")
    assert run("lint", "--fix", "a.lcn").status == 0
    assert (tmp_path / "a.lcn").read_text() == "1. R3-D\n2. G4X-D\n"
    assert run("fmt", "--check", "a.lcn").status == 0
    assert run("fmt", "a.lcn").status == 0
    assert (tmp_path / "a.lcn").read_text() == "1. R3-D\n2. G4X-D\n"
    assert "S101" not in run("lint", "a.lcn").out
    # Without configuration, a file that uses X is left with X by both.
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "b.lcn").write_text("1. R3X-D\n2. G4X-D\n")
    assert run("fmt", "--check", "b.lcn").status == 0
    assert run("lint", "b.lcn").out.count("S10") == 0
    # fmt takes --config like lint.
    (tmp_path / "conf.toml").write_text('[tool.lcnotation]\ndialect = "lower"\n')
    assert run("fmt", "--config", "conf.toml", "b.lcn").status == 0
    assert (tmp_path / "b.lcn").read_text() == "1. r3d-d\n2. g4d-d\n"


# Defect 3: fmt --force changed who made each move.

def test_fmt_force_keeps_the_players_of_every_move(run, tmp_path):
    path = tmp_path / "m.lcn"
    path.write_text(MISTAKES)
    r = run("fmt", "--force", "m.lcn")
    assert r.status == 0 and "kept as written" in r.err
    import lcnotation as lcn
    before = [(m.turn, lcn.format_move(m)) for g in lcn.parse_games(MISTAKES) for m in g.moves]
    after = [(m.turn, lcn.format_move(m)) for g in lcn.read_games(str(path)) for m in g.moves]
    assert after == before


def test_fmt_force_formats_the_games_without_errors(run, tmp_path):
    path = tmp_path / "m.lcn"
    path.write_text('[Round "1"]\n1. r3-d 2. R11-D\n\n[Round "2"]\n1. g4-d   2. b5-d\n')
    assert run("fmt", "--force", "m.lcn").status == 0
    assert path.read_text() == ('[Round "1"]\n1. r3-d 2. R11-D\n\n'
                                '[Round "2"]\n\n1. G4-D\n2. B5-D\n')


# Defect 5: syntax errors could be hidden.

def test_syntax_errors_cannot_be_ignored(run, tmp_path):
    (tmp_path / "bin.lcn").write_bytes(b"\x00\xff\xfe binary")
    r = run("lint", "--ignore", "N,R", "bin.lcn")
    assert r.status == 1 and "N001" in r.out and "All clear" not in r.out
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\nignore = ["N"]\n')
    assert run("lint", "bin.lcn").status == 1


# Defect 6: one bad move cascaded into a warning on every later move.

def test_one_bad_move_is_one_cause():
    games = format_games(generate_games(1, seed=3))
    broken = re.sub(r"(?m)^2\. \S+$", "2. YH D", games)
    codes = [d.code for d in lint_text(broken).diagnostics]
    assert codes.count("S103") == 0 and {"N104", "N102"} <= set(codes)


# Defect 7: score scored games with errors silently.

def test_score_says_which_games_have_errors(run, tmp_path):
    (tmp_path / "m.lcn").write_text(MISTAKES)
    r = run("score", "m.lcn")
    assert r.status == 1
    assert "m.lcn:9:4: game 1 is not a result: 4 errors" in r.err
    assert "not a result: 4 errors)" in r.out and "match totals" not in r.out
    # One pair of parentheses in a heading (regression: "(incomplete) (not a ...)").
    heading = next(line for line in r.out.splitlines() if "not a result" in line)
    assert heading.endswith(", round 1 (incomplete; not a result: 4 errors)")
    assert all(line.count("(") <= 1 for line in r.out.splitlines())
    assert run("score", "--allow-errors", "m.lcn").status == 0
    data = json.loads(run("score", "--format", "json", "--allow-errors", "m.lcn").out)
    assert (data["games"][0]["errors"], data["games"][0]["result"]) == (4, False)


# Defect 8: the configuration was found from the working folder.

def test_configuration_is_found_from_each_files_folder(run, tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    (repo / "pyproject.toml").write_text('[tool.lcnotation]\nignore = ["S102"]\n')
    (repo / "sub" / "x.lcn").write_text("1. r3-d\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "y.lcn").write_text("1. r3-d\n")
    monkeypatch.chdir(tmp_path / "other")
    r = run("lint", str(repo / "sub" / "x.lcn"), "y.lcn")
    assert "x.lcn:1:4: S102" not in r.out and "y.lcn:1:4: S102" in r.out
    from lcnotation.tools.config import config_for_file
    assert config_for_file(str(repo / "sub" / "x.lcn")).ignore == ("S102",)


# Defect 9: the documentation's pre-commit snippet could not work (docs/cli.md;
# tests/test_docs.py has pre-commit itself validate it as a whole file).

def test_the_documented_pre_commit_hooks_run_the_installed_lcn():
    guide = (ROOT / "docs" / "cli.md").read_text("utf-8")
    block = re.search(r"```yaml\n(repos:\n.*?)```", guide, re.S).group(1)
    assert "  - repo: local" in block and "github.com" not in block
    entries = re.findall(r"entry: (.*)", block)
    assert entries and all(e.startswith("lcn ") for e in entries)
    from lcnotation.cli import _build_parser
    for entry in entries:
        _build_parser().parse_args(entry.split()[1:] + ["a.lcn"])  # no SystemExit
    hooks = block.split("- id: ")[1:]
    for hook in hooks:
        if "--fix" in hook or "lcn fmt" in hook:
            assert "require_serial: true" in hook


# Defect 13: consistency.

def test_one_name_per_severity(run, tmp_path):
    (tmp_path / "w.lcn").write_text("1. R3-D\n2. b4-d\n")
    out = run("lint", "w.lcn").out
    assert " 1 info " in out and "note" not in out
    assert "info" in run("lint", "--format", "json", "w.lcn").out


def test_fmt_and_score_warn_when_no_file_is_found(run, tmp_path):
    (tmp_path / "empty").mkdir()
    assert run("fmt", "empty").err == "lcn: warning: no *.lcn files found in empty\n"
    assert run("score", "empty").err == "lcn: warning: no *.lcn files found in empty\n"


def test_convert_several_files_into_a_folder(run, tmp_path):
    (tmp_path / "a.lcn").write_text("1. R3-D\n")
    (tmp_path / "b.lcn").write_text("1. G4-D\n")
    r = run("convert", "a.lcn", "b.lcn", "--to", "lower", "-o", "out")
    assert r.status == 0, r.err
    assert (tmp_path / "out" / "a.lcn").read_text() == "1. r3-d\n"
    assert (tmp_path / "out" / "b.lcn").read_text() == "1. g4-d\n"
    r = run("convert", "a.lcn", "b.lcn", "--to", "lower")
    assert r.status == 2 and "-o DIR" in r.err


def test_usage_errors_name_the_subcommands_help(run):
    for argv in (["lint", "--select", "Q"], ["fmt", "--dialect", "q"], ["score", "--q"]):
        r = run(*argv)
        assert r.status == 2 and f"(see 'lcn {argv[0]} --help')" in r.err


# lcn explain: the registry and the specification are one source.

def _spec_tables() -> dict:
    rows = {}
    for name in ("diagnostics.md", "rules.md"):
        text = (ROOT / "spec" / name).read_text("utf-8")
        for m in re.finditer(r"^\| \[`?([A-Z]\d{3})`?\]\(#[^)]*\) \| (.+?) \|", text, re.M):
            rows[m.group(1)] = m.group(2)
        for m in re.finditer(r"^\| `([A-Z]\d{3})` \| (error|warning|info) \| (.+?) \|", text,
                             re.M):
            rows[m.group(1)] = m.group(3)
    return rows


def test_the_spec_tables_say_what_the_registry_says():
    from lcnotation.tools.codes import ALL_CODES
    rows = _spec_tables()
    for code, (_, summary) in ALL_CODES.items():
        if code[0] in "NRS":
            assert rows.get(code) == summary, code


# The codes an example cannot help raising with its own, and why.
_RAISED_WITH = {
    "R203": ({"R202"}, "a deal of the right sizes misses a card only when it holds "
             "another twice"),
    "F201": ({"F202"}, "a card twice in a layout of 52 leaves another out"),
    "F205": ({"F202"}, "two home piles of one suit leave another suit's cards out"),
    # A solution short enough for an example does not bring every card home.
    "F204": ({"F320"}, "a short solution"), "F500": ({"F320"}, "a short solution"),
    "F501": ({"F320"}, "a short solution"),
}


def _explained_codes() -> list:
    from lcnotation.tools.codes import ALL_CODES
    from lcnotation.tools.explain import example_of
    return [code for code in sorted(ALL_CODES) if example_of(code) is not None]


@pytest.mark.parametrize("code", _explained_codes())
def test_the_example_lcn_explain_gives_raises_its_code_alone(code):
    """Regression: lcn explain R204's example also raised R205.  What the
    example raises is what its result blocks say (tests/test_spec_examples.py
    holds them to what lcnotation reports); information about the record
    aside (R110: an example shorter than a round is incomplete), it is the
    code explained, and only the codes listed above beside it."""
    from lcnotation.core.diagnostics import Severity
    from lcnotation.tools.codes import ALL_CODES
    from lcnotation.tools.explain import example_of
    example = example_of(code)
    assert example is not None
    raised = {c for _, result in example.results
              for c in re.findall(r"(?:^|\s)([A-Z]\d{3})\s", result, re.M)}
    assert code in raised
    others = {c for c in raised - {code} if ALL_CODES[c][0] is not Severity.INFO}
    assert others == _RAISED_WITH.get(code, (set(), ""))[0], (code, example.text)


def test_explain_every_code(run):
    from lcnotation.tools.codes import ALL_CODES
    from lcnotation.tools.explain import example_of
    listed = run("explain", "--all").out.splitlines()
    assert [line.split()[0] for line in listed] == sorted(ALL_CODES)
    for code, (severity, summary) in ALL_CODES.items():
        text = run("explain", code.lower()).out
        assert text.startswith(f"{code} (") and f"{severity.value}): {summary}" in text
        if code[0] in "NRSF":
            example = example_of(code)
            assert example is not None and example.text in text.replace("\n    ", "\n"), code
    fixable = run("explain", "S102").out
    assert "After lcn lint --fix:\n    1. R3-D 2. BHD-D\n" in fixable
    assert run("explain", "Q999").status == 2


# lcn completion

@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_name_every_command_and_option(run, shell):
    from lcnotation.cli import _build_parser
    from lcnotation.cli.completion import commands
    text = run("completion", shell).out
    for command in commands(_build_parser()):
        assert command.name in text
        for option in command.options:
            for flag in option.flags:
                assert (flag if shell != "fish" else flag.lstrip("-")) in text


def test_bash_completion_completes(tmp_path):
    import shutil
    import subprocess
    from lcnotation.cli import _build_parser
    from lcnotation.cli.completion import script
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    (tmp_path / "c.bash").write_text(script("bash", _build_parser()))

    def complete(*words: str) -> list:
        line = " ".join(f"'{w}'" for w in words)
        out = subprocess.run([bash, "-c", f"source {tmp_path / 'c.bash'}; COMP_WORDS=({line}); "
                              f"COMP_CWORD={len(words) - 1}; _lcn; printf '%s\\n' "
                              '"${COMPREPLY[@]}"'], capture_output=True, text=True, check=True)
        return out.stdout.split()

    assert complete("lcn", "li") == ["lint"]
    assert "--statistics" in complete("lcn", "lint", "--st")
    assert complete("lcn", "lint", "--output-format", "c") == ["concise"]
    # Choices, not file names (the names come from the registries and argparse).
    from lcnotation.formats import FORMATS
    from lcnotation.lostcities.convert import dialect_names
    from lcnotation.tools.codes import ALL_CODES
    (tmp_path / "x.lcn").write_text("")
    assert complete("lcn", "convert", "x.lcn", "--to", "") == dialect_names()
    assert complete("lcn", "import", "--from", "") == ["auto"] + [
        f.name for f in FORMATS.values() if f.read or f.translate or f.import_records]
    assert complete("lcn", "export", "x.lcn", "--to", "") == [
        f.name for f in FORMATS.values() if f.write or f.export_files]
    assert complete("lcn", "explain", "") == sorted(ALL_CODES)
    assert complete("lcn", "explain", "R1", "R20") == [c for c in sorted(ALL_CODES)
                                                      if c.startswith("R20")]
    assert complete("lcn", "freecell", "") == ["deal", "check", "import", "fmt"]
    assert complete("lcn", "completion", "") == ["bash", "zsh", "fish"]
    # File names where a file is meant.
    assert complete("lcn", "lint", str(tmp_path / "x.")) == [str(tmp_path / "x.lcn")]
    assert complete("lcn", "freecell", "check", str(tmp_path / "x.")) == [str(tmp_path / "x.lcn")]


# Defect 10: after `pip install -e .`, type checkers could not find the package.

@pytest.mark.slow
def test_an_editable_install_is_a_path_type_checkers_follow(tmp_path):
    """mypy and pyright follow the folders a .pth file names, never its import
    hooks (which is what setuptools writes when folders are mapped). Installed
    from a copy of the tree, without the accelerator: an editable install
    writes into the tree it installs (the accelerator compiled in place)."""
    import subprocess
    import venv

    from trees import copy_of_tree

    source = copy_of_tree(tmp_path)
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps",
                           "--disable-pip-version-check", "-e", str(source)],
                          capture_output=True, text=True,
                          env={**os.environ, "CC": "false", "LDSHARED": "false"})
    assert done.returncode == 0, done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True).stdout.strip()
    pth = [p for p in Path(site).glob("*.pth") if "lcnotation" in p.name]
    assert pth, "no .pth file for lcnotation"
    lines = [line for p in pth for line in p.read_text().splitlines() if line.strip()]
    assert not any(line.startswith("import") for line in lines), lines
    assert str(source) in lines
    # The grammar and the specification are reached through the package.
    assert (ROOT / "lcnotation" / "grammar" / "lcnotation.lark").is_file()
    assert (ROOT / "lcnotation" / "spec" / "diagnostics.md").is_file()


# What ruff users expect of lcn lint.

WARN = "1. R3-D\n2. b4-d\n"


@pytest.fixture
def games(tmp_path):
    (tmp_path / "w.lcn").write_text(WARN)
    (tmp_path / "m.lcn").write_text(MISTAKES)
    return tmp_path


def test_statistics_count_each_code(run, games):
    r = run("lint", "--statistics", "m.lcn", "w.lcn")
    rows = {line.split()[1]: line.split() for line in r.out.splitlines()[:-1]}
    assert rows["S102"][:3] == ["2", "S102", "[*]"] and rows["S101"][:3] == ["1", "S101", "[*]"]
    assert rows["R110"][:3] == ["2", "R110", "a"]
    assert not re.search(r"^\S+:\d+:\d+:", r.out, re.M)  # no findings listed


def test_exit_zero_and_strict(run, games):
    assert run("lint", "m.lcn").status == 1
    assert run("lint", "--exit-zero", "m.lcn").status == 0
    assert run("lint", "--exit-zero", "missing.lcn").status == 2


def test_diff_shows_the_fixes_and_writes_nothing(run, games):
    r = run("lint", "--diff", "w.lcn")
    assert r.status == 1 and (games / "w.lcn").read_text() == WARN
    assert "-2. b4-d\n+2. B4-D\n" in r.out
    run("lint", "--fix", "w.lcn")
    assert run("lint", "--diff", "w.lcn").status == 0


def test_diff_prints_only_the_diff(run, games):
    """As ruff's --diff: the diffs on standard output, not the findings again
    nor a summary of them (regression); what would be fixed is told on
    standard error; exit 1 when a file would change, whatever else it holds."""
    (games / "e.lcn").write_text("1. R3-D 2. R3-D\n")  # an error, no fix
    r = run("lint", "--diff", "w.lcn", "m.lcn", "e.lcn")
    assert r.status == 1
    assert not re.search(r"^\S+:\d+:\d+:", r.out, re.M)  # no findings listed
    assert all(line[:1] in "-+ @" or line.startswith(("--- ", "+++ ")) for line in
               r.out.splitlines()), r.out
    assert r.out.count("--- ") == 1 and "e.lcn" not in r.out  # m.lcn: a syntax error
    assert r.err.splitlines()[-1].startswith("lcn: would fix ")
    r = run("lint", "--diff", "e.lcn")  # nothing to fix: no diff, exit 0
    assert (r.status, r.out) == (0, "")
    assert r.err == "lcn: nothing to fix\n"


def test_show_fixes(run, games):
    r = run("lint", "--show-fixes", "w.lcn")
    assert "  fix: write 'B4-D'\n" in r.out
    r = run("lint", "--fix", "--show-fixes", "w.lcn")
    assert "fixed 1 \u00d7 S102 in w.lcn" in r.out


@pytest.mark.parametrize("show", [True, False])
def test_fixing_mixed_line_ends_alone_reports_them_fixed(run, tmp_path, show):
    # issue 24, defect 2: S107 is the file's only fixable finding; once the
    # file is rewritten with one line end it is fixed, not still "fixable".
    (tmp_path / "x.lcn").write_bytes(b'[Event "x"]\r\n\n1. R4-D\r\n')
    r = run("lint", "--fix", *(["--show-fixes"] if show else []), "x.lcn")
    assert (tmp_path / "x.lcn").read_bytes() == b'[Event "x"]\r\n\r\n1. R4-D\r\n'
    assert "S107" not in r.out.replace("fixed 1 \u00d7 S107", "")
    assert "fixable" not in r.out
    if show:
        assert "fixed 1 \u00d7 S107 in x.lcn" in r.out


@pytest.mark.parametrize("argv", [[], ["."], ["./w.lcn"], [".//w.lcn"]])
def test_paths_are_shown_as_written_less_a_leading_dot_slash(run, tmp_path, argv):
    # issue 24, defect 6: GitHub attaches no annotation to file=./w.lcn.
    (tmp_path / "w.lcn").write_text(WARN)
    assert run("lint", *argv).out.startswith("w.lcn:2:4: S102")
    github = run("lint", "--output-format", "github", *argv).out
    assert github.startswith("::warning file=w.lcn,line=2,"), github
    sarif = json.loads(run("lint", "--output-format", "sarif", *argv).out)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {"w.lcn"}
    assert run("fmt", "--check", *argv).out == "would reformat w.lcn\n"


def test_standard_input_without_a_name_has_no_file_in_annotations(run):
    text = run("lint", "-", stdin=WARN.encode()).out
    assert text.startswith("-:2:4: S102")
    github = run("lint", "-", "--output-format", "github", stdin=WARN.encode()).out
    assert github.startswith("::warning title=S102::") and "file=" not in github
    named = run("lint", "--stdin-filename", "./g/x.lcn", "--output-format", "github",
                stdin=WARN.encode()).out
    assert named.startswith("::warning file=g/x.lcn,line=2,")


def test_output_file_and_quiet_and_verbose(run, games):
    r = run("lint", "--output-file", "out.txt", "w.lcn")
    assert r.out == "" and "w.lcn:2:4: S102" in (games / "out.txt").read_text()
    r = run("lint", "-q", "w.lcn")
    assert "Found" not in r.out and "S102" in r.out
    (games / "pyproject.toml").write_text("[tool.lcnotation]\n")
    r = run("lint", "-v", "w.lcn")
    assert f"w.lcn: configuration {games / 'pyproject.toml'}" in r.err


def test_stdin_filename_names_the_input_and_finds_its_configuration(run, games):
    (games / "sub").mkdir()
    (games / "sub" / "pyproject.toml").write_text('[tool.lcnotation]\nignore = ["S102"]\n')
    r = run("lint", "--stdin-filename", "sub/x.lcn", stdin=WARN.encode())
    assert "S102" not in r.out and "sub/x.lcn:2:8: R110" in r.out
    r = run("lint", "-", "--stdin-filename", "y.lcn", stdin=WARN.encode())
    assert "y.lcn:2:4: S102" in r.out


def test_per_file_ignores_and_exclude(run, games):
    (games / "pyproject.toml").write_text(
        '[tool.lcnotation]\nexclude = ["drafts"]\n'
        '[tool.lcnotation.per-file-ignores]\n"old/*" = ["S102"]\n')
    for folder in ("old", "drafts", "new"):
        (games / folder).mkdir()
        (games / folder / "a.lcn").write_text(WARN)
    r = run("lint", ".")
    found = re.findall(r"^(\S+):2:4: S102", r.out, re.M)
    assert sorted(found) == [os.path.join("new", "a.lcn"), "w.lcn"]
    assert "drafts" not in r.out
    # A file named on the command line is linted even when excluded, as ruff does.
    assert "S102" in run("lint", "drafts/a.lcn").out


def test_folders_walked_skip_what_gitignore_ignores(run, games):
    (games / ".git").mkdir()
    (games / ".gitignore").write_text("build/\n*.tmp.lcn\n")
    (games / "build").mkdir()
    (games / "build" / "b.lcn").write_text(WARN)
    (games / "x.tmp.lcn").write_text(WARN)
    r = run("lint", ".")
    assert "build" not in r.out and "x.tmp.lcn" not in r.out and "w.lcn" in r.out
    assert "S102" in run("lint", "build/b.lcn").out


def test_full_output_shows_the_line_and_a_caret(run, games):
    r = run("lint", "--output-format", "full", "w.lcn")
    assert ("w.lcn:2:4: S102 [*] 'b4-d' should be written in upper case: 'B4-D'\n"
            "  |\n2 | 2. b4-d\n  |    ^^^^\n") in r.out
    concise = run("lint", "--output-format", "concise", "w.lcn").out
    assert "|" not in concise and "w.lcn:2:4: S102 [*]" in concise


@pytest.mark.parametrize("option,environ,coloured", [
    ("always", {}, True), ("never", {"FORCE_COLOR": "1"}, False), ("auto", {}, False),
    ("auto", {"FORCE_COLOR": "1"}, True), ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, True),
])
def test_colour(run, games, monkeypatch, option, environ, coloured):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    out = run("lint", "--color", option, "w.lcn").out
    assert ("\x1b[" in out) == coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == run("lint", "--color", "never", "w.lcn").out


def test_no_color_on_a_terminal():
    from lcnotation.tools.colour import wants_colour
    assert wants_colour("auto", {}, True) and not wants_colour("auto", {"NO_COLOR": "x"}, True)
    assert not wants_colour("auto", {"NO_COLOR": ""}, False)


def test_json_carries_fixes_and_links(run, games):
    items = json.loads(run("lint", "--output-format", "json", "w.lcn").out)
    s102 = next(i for i in items if i["code"] == "S102")
    assert s102["fix"] == {"message": "write 'B4-D'", "applicability": "safe", "edits": [
        {"line": 2, "column": 4, "end_line": 2, "end_column": 8, "start": 11, "end": 15,
         "content": "B4-D"}]}
    from lcnotation.core.links import spec_url  # the site's address, or the installed page

    assert s102["url"] == spec_url("diagnostics.md", "s102")
    r110 = next(i for i in items if i["code"] == "R110")
    assert r110["fix"] is None and r110["url"] == spec_url("rules.md", "r110")
    # Applying the edits gives what --fix writes.
    text = WARN
    for edit in sorted((e for i in items if i["fix"] for e in i["fix"]["edits"]),
                       key=lambda e: -e["start"]):
        text = text[:edit["start"]] + edit["content"] + text[edit["end"]:]
    run("lint", "--fix", "w.lcn")
    assert text == (games / "w.lcn").read_text()


def test_the_dialect_of_a_file_for_other_tools(tmp_path):
    from lcnotation.tools.config import dialect_for_file
    path = tmp_path / "a.lcn"
    assert dialect_for_file(str(path), '[Round "1"]\n1. R3-D\n\n[Round "2"]\n1. r3x-d\n'
                            ).name == "x-discard"
    assert dialect_for_file(str(path), "1. R3-D\n").name == "v1"
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\ndialect = "lower"\n')
    assert dialect_for_file(str(path), "1. R3X-D\n").name == "lower"
