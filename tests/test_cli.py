"""The ``lcn`` command, end to end.

Two kinds of test.  The first runs the real console script (``lcn`` next to
the interpreter, and ``python -m lcnotation``) in subprocesses on real files,
once per subcommand and output format; every process is started at once by
one fixture, since the interpreter's start-up is most of their cost.  The
second calls ``lcnotation.cli.main`` in this process for the many variants
(options, configuration, suppressions, fixes, line ends), which is the same
code without the start-up.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest
from hypothesis import given

from lcnotation.lostcities.text.ast import Span
from lcnotation.cli import main
from lcnotation.lostcities.game.checker import score
from lcnotation.tools.codes import ALL_CODES
from lcnotation.core.diagnostics import Diagnostic, Severity
from lcnotation.lostcities.text.headers import parse_result
from lcnotation.tools.lint import fix_text, lint_text
from lcnotation.tools.output import github_line
from lcnotation.tools.progress import Progress
from lcnotation.lostcities.text.reader import parse_game, read_games
from lcnotation.core.lineends import as_lf
from running import Ran
from strategies import examples, written_games

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-2.1.0-subset.schema.json"


def _console_script() -> str:
    """The installed ``lcn`` of this interpreter's environment."""
    here = Path(sys.executable).parent / ("lcn.exe" if os.name == "nt" else "lcn")
    found = str(here) if here.exists() else shutil.which("lcn")
    assert found, "the lcn console script is not installed (pip install -e .)"
    return found


LCN = [_console_script()]
MODULE = [sys.executable, "-m", "lcnotation"]

# Small records.  WARN has a warning (S102) and a note (R110, the record is
# incomplete) but no error; MISTAKES is the bundled example with one finding
# of many kinds.
WARN = "1. R3-D\n2. b4-d\n"
MISTAKES = (EXAMPLES / "mistakes.lcn").read_text("utf-8")
MATCH = (EXAMPLES / "match.lcn").read_text("utf-8")
MISTAKES_TEXT = """\
{p}:9:4: R101 Red 4 cannot follow Red 7 on North's expedition: number cards must go up
{p}:10:5: N103 expected a rank (2 to 10, or H) after the colour 'R', found '11'
{p}:12:4: R108 South cannot draw back the Blue 6: a card discarded this turn stays on its pile until the next turn
{p}:12:4: S102 [*] 'b6d-b' should be written in upper case: 'B6D-B'
{p}:13:4: R106 North plays Black 2, but K is not one of this game's colours (RGWBY)
{p}:13:4: S104 colour 'K' is used but the game has no Colors header: add one such as [Colors "RGWBYK"]
{p}:14:1: S103 move number 9 skips ahead: expected 8
{p}:14:4: S101 [*] 'W3X-D' marks its discard with X, but this file uses D
{p}:14:9: R110 the record ends with 36 to 38 cards in the draw pile: the round is incomplete, and is scored as it stands
"""
# (code, line, column, end_line, end_column, severity) of each finding in MISTAKES.
MISTAKES_SPANS = [
    ("R101", 9, 4, 9, 8, "error"), ("N103", 10, 5, 10, 7, "error"),
    ("R108", 12, 4, 12, 9, "error"), ("S102", 12, 4, 12, 9, "warning"),
    ("R106", 13, 4, 13, 8, "error"), ("S104", 13, 4, 13, 8, "warning"),
    ("S103", 14, 1, 14, 3, "warning"), ("S101", 14, 4, 14, 9, "warning"),
    ("R110", 14, 9, 14, 9, "info"),
]
# A record that breaks a rule in every game of a conversion to v1-draft.
REFUSED = '1. R3-D 2. P4-D\n[Round "2"]\n\nR11-D Q3-D\n'
# Canonical text with a comment, an unknown header and CRLF line ends.
CANONICAL_CRLF = (b'; club archive\r\n[Event "Club"]\r\n[Table "7"] ; ours\r\n\r\n'
                  b'1. RH-D {a wager}\r\n2. BHD-D\r\n3. R4D-B ; why?\r\n')




def write(path: Path, content) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))
    return path


# ---------------------------------------------------------------- the real command


class Processes:
    """Subprocesses started together; each is waited for when a test asks."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._started: Dict[str, subprocess.Popen] = {}
        self._inputs: Dict[str, Optional[bytes]] = {}
        self._done: Dict[str, Ran] = {}

    def start(self, name: str, argv: List[str], stdin: Optional[bytes] = None) -> None:
        self._inputs[name] = stdin
        self._started[name] = subprocess.Popen(
            argv, cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)

    def __getitem__(self, name: str) -> Ran:
        if name not in self._done:
            out, err = self._started[name].communicate(self._inputs[name], timeout=60)
            self._done[name] = Ran(self._started[name].returncode, out.decode("utf-8"),
                                   err.decode("utf-8"))
        return self._done[name]

    def close(self) -> None:
        for name in list(self._started):
            self[name]


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> Processes:
    root = tmp_path_factory.mktemp("cli")
    write(root / "lint" / "clean.lcn", MATCH)
    write(root / "lint" / "mistakes.lcn", MISTAKES)
    write(root / "lint" / "sub" / "warn.lcn", WARN)
    write(root / "lint" / "notes.txt", "R11-D is not a record\n")
    write(root / "lint" / ".hidden" / "broken.lcn", "R11-D\n")
    write(root / "gh" / "odd,name: 100%.lcn", WARN)
    write(root / "fmt" / "messy.lcn", "[Event \"E\"]\n1. r3-d   2. BHD-D {ok}\n")
    write(root / "fmtcheck" / "messy.lcn", "[Event \"E\"]\n1. r3-d   2. BHD-D {ok}\n")
    write(root / "convert" / "crlf.lcn", CANONICAL_CRLF)
    write(root / "convert" / "refused.lcn", REFUSED)
    write(root / "score" / "match.lcn", MATCH)

    runs = Processes(root)
    runs.start("lint-text", LCN + ["lint", "lint", "lint/missing.lcn"])
    runs.start("lint-json", MODULE + ["lint", "--format", "json", "lint/mistakes.lcn"])
    runs.start("lint-github", MODULE + ["lint", "--format", "github", "gh",
                                        "lint/mistakes.lcn"])
    runs.start("lint-sarif", MODULE + ["lint", "--format", "sarif", "lint",
                                       str(root / "gh" / "odd,name: 100%.lcn")])
    runs.start("lint-stdin", MODULE + ["lint", "-"], WARN.encode("utf-8"))
    runs.start("fmt", MODULE + ["fmt", "fmt/messy.lcn"])
    runs.start("fmt-check", MODULE + ["fmt", "--check", "fmtcheck"])
    runs.start("convert", MODULE + ["convert", "convert/crlf.lcn", "--to", "x-discard"])
    runs.start("convert-refused", MODULE + ["convert", "convert/refused.lcn",
                                            "--to", "v1-draft"])
    runs.start("score-text", MODULE + ["score", "score/match.lcn"])
    runs.start("score-json", MODULE + ["score", "--format", "json", "score/match.lcn"])
    runs.start("help", LCN + ["--help"])
    runs.start("bad-option", MODULE + ["lint", "--format", "xml", "lint"])
    yield runs
    runs.close()


def assert_one_line_error(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith("lcn"), err


def test_lint_text_lines_summary_and_unreadable_file(ran):
    r = ran["lint-text"]
    # A missing file is reported and makes the exit status 2, but every
    # readable file (found by recursing the folder: *.lcn only, hidden
    # folders skipped) is still linted and reported.
    assert r.status == 2
    expected = MISTAKES_TEXT.format(p=os.path.join("lint", "mistakes.lcn")) + (
        f"{os.path.join('lint', 'sub', 'warn.lcn')}:2:4: S102 [*] 'b4-d' should be written "
        "in upper case: 'B4-D'\n"
        f"{os.path.join('lint', 'sub', 'warn.lcn')}:2:8: R110 the record ends with 42 cards "
        "in the draw pile: the round is incomplete, and is scored as it stands\n"
        "Found 4 errors, 5 warnings, 2 info in 3 files, 5 games, 157 moves. "
        "3 fixable with --fix. 1 file could not be read.\n")
    assert r.out == expected
    # Piped stderr: the message about the missing file, and no progress bar.
    assert r.err == "lcn: lint/missing.lcn: cannot read: No such file or directory\n"


@pytest.mark.parametrize("argv, unread", [(["missing.lcn"], "1 file"),
                                           (["missing.lcn", "nowhere/"], "2 files"),
                                           (["--format", "full", "missing.lcn"], "1 file")])
def test_lint_of_only_missing_files_says_so(run, argv, unread):
    """Regression: "No findings in 0 files", as if something had been linted."""
    r = run("lint", *argv)
    assert r.status == 2
    assert r.err.startswith("lcn: missing.lcn: cannot read: No such file or directory\n")
    assert r.out == f"Nothing linted: {unread} could not be read.\n"


def test_lint_json_fields(ran):
    r = ran["lint-json"]
    assert r.status == 1 and r.err == ""
    items = json.loads(r.out)
    assert [(d["code"], d["line"], d["column"], d["end_line"], d["end_column"], d["severity"])
            for d in items] == MISTAKES_SPANS
    for d in items:
        assert d["path"] == os.path.join("lint", "mistakes.lcn")
        assert isinstance(d["message"], str) and d["message"]
        assert d["fixable"] is (d["code"] in ("S101", "S102"))
    # The same findings, with the same messages, as the text format.
    text = MISTAKES_TEXT.format(p=os.path.join("lint", "mistakes.lcn")).splitlines()
    assert [f"{d['path']}:{d['line']}:{d['column']}: {d['code']}"
            f"{' [*]' if d['fixable'] else ''} {d['message']}" for d in items] == text


def test_lint_github_annotations(ran):
    r = ran["lint-github"]
    assert r.status == 1
    lines = r.out.splitlines()
    # The file name's ',' ':' and '%' are escaped in the property.
    assert lines[0] == ("::warning file=gh/odd%2Cname%3A 100%25.lcn,line=2,col=4,endLine=2,"
                        "endColumn=8,title=S102::'b4-d' should be written in upper case: "
                        "'B4-D'")
    assert lines[1].startswith("::notice file=gh/odd%2Cname%3A 100%25.lcn,line=2,col=8,"
                               "endLine=2,endColumn=8,title=R110::the record ends")
    annotation = re.compile(r"::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),"
                            r"endLine=(\d+),endColumn=(\d+),title=([A-Z]\d{3})::(.+)")
    found = [annotation.fullmatch(line) for line in lines[2:]]
    assert all(found), lines
    level = {"error": "error", "warning": "warning", "info": "notice"}
    assert [(m.group(7), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6)),
             m.group(1)) for m in found] == [
        (c, a, b, x, y, level[s]) for c, a, b, x, y, s in MISTAKES_SPANS]


def test_github_escaping():
    d = Diagnostic("N101", "50% of 'a\r\nb': c, d", Span(1, 2, 3, 4, 0, 9),
                   Severity.INFO, path="x:y,z%.lcn")
    assert github_line(d) == ("::notice file=x%3Ay%2Cz%25.lcn,line=1,col=2,endLine=3,"
                              "endColumn=4,title=N101::50%25 of 'a%0D%0Ab': c, d")


def _uri_reference(value: str, absolute: bool) -> bool:
    """RFC 3986 URI-reference (or, with ``absolute``, URI) syntax, for the
    format checker (jsonschema checks "uri" only with optional packages)."""
    if re.search(r"%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]", value):
        return False
    scheme = re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", value)
    if absolute:
        return scheme is not None
    # Without a scheme, the first segment of a relative path has no ':'.
    return scheme is not None or ":" not in re.split(r"[/?#]", value, 1)[0]


def sarif_validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    checker = jsonschema.FormatChecker()
    checker.checks("uri")(lambda v: not isinstance(v, str) or _uri_reference(v, True))
    checker.checks("uri-reference")(lambda v: not isinstance(v, str)
                                    or _uri_reference(v, False))
    return jsonschema.Draft202012Validator(schema, format_checker=checker)


def test_sarif_schema_catches_mistakes():
    # The schema is only worth something if it refuses what SARIF refuses.
    validator = sarif_validator()
    good = {"version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "lcn", "rules": [{"id": "R101"}]}},
        "results": [{"ruleId": "R101", "ruleIndex": 0, "level": "error",
                     "message": {"text": "m"},
                     "locations": [{"physicalLocation": {
                         "artifactLocation": {"uri": "a%20b.lcn"},
                         "region": {"startLine": 1, "startColumn": 1, "endLine": 1,
                                    "endColumn": 2}}}]}]}]}
    assert not list(validator.iter_errors(good))
    result = good["runs"][0]["results"][0]
    location = result["locations"][0]["physicalLocation"]
    mistakes = [
        lambda log: log.update(version="2.1"),
        lambda log: log["runs"][0]["tool"]["driver"].pop("name"),
        lambda log: result.update(level="info"),
        lambda log: result.update(message={"txt": "m"}),
        lambda log: result.update(ruleIndex=-1),
        lambda log: location["region"].update(startColumn=0),
        lambda log: location["region"].update(startLine="1"),
        lambda log: location["artifactLocation"].update(uri="a b.lcn"),
        lambda log: location["artifactLocation"].update(uri="c:d/e.lcn%2"),
        lambda log: result.update(rule_id="R101"),
    ]
    for mistake in mistakes:
        log = json.loads(json.dumps(good))
        result = log["runs"][0]["results"][0]
        location = result["locations"][0]["physicalLocation"]
        mistake(log)
        assert list(validator.iter_errors(log)), log


def test_sarif_rules_are_described_and_a_failed_run_says_so(run, tmp_path):
    # issue 24, defect 7: rules with fullDescription and help (the explain
    # text, and Markdown); a file that could not be read (exit 2) is a run
    # that did not succeed, with a notification that says why.
    from lcnotation.tools.explain import explain

    write(tmp_path / "a.lcn", WARN)
    r = run("lint", "--output-format", "sarif", "a.lcn")
    log = json.loads(r.out)
    assert not list(sarif_validator().iter_errors(log))
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    for code, rule in rules.items():
        assert rule["fullDescription"]["text"].startswith(ALL_CODES[code][1]), code
        assert rule["help"]["text"] == explain(code), code
        assert rule["help"]["markdown"].startswith(f"**{code}**"), code
    assert "```" in rules["S102"]["help"]["markdown"]
    r = run("lint", "--output-format", "sarif", "a.lcn", "missing.lcn")
    assert r.status == 2
    log = json.loads(r.out)
    assert not list(sarif_validator().iter_errors(log))
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation == {"executionSuccessful": False, "toolExecutionNotifications": [{
        "level": "error",
        "message": {"text": "missing.lcn: cannot read: No such file or directory"},
        "locations": [{"physicalLocation": {"artifactLocation": {
            "uri": "missing.lcn", "uriBaseId": "SRCROOT"}}}]}]}
    assert {res["ruleId"] for res in log["runs"][0]["results"]} == {"S102", "R110"}


def test_lint_sarif_is_valid_and_consistent(ran):
    r = ran["lint-sarif"]
    assert r.status == 1
    log = json.loads(r.out)
    errors = sorted(sarif_validator().iter_errors(log), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert sorted(rule["id"] for rule in rules) == sorted(ALL_CODES)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert run["columnKind"] == "unicodeCodePoints"
    base = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert base == ran.root.as_uri() + "/"
    by_file: Dict[str, list] = {}
    for result in run["results"]:
        (where,) = result["locations"]
        artifact = where["physicalLocation"]["artifactLocation"]
        region = where["physicalLocation"]["region"]
        by_file.setdefault(artifact["uri"], []).append(
            (result["ruleId"], region["startLine"], region["startColumn"],
             region["endLine"], region["endColumn"],
             {"note": "info"}.get(result["level"], result["level"])))
        if "uriBaseId" in artifact:
            assert artifact["uriBaseId"] == "SRCROOT"
    assert by_file["lint/mistakes.lcn"] == MISTAKES_SPANS
    # An absolute path is a file URI that names the file.
    absolute = (ran.root / "gh" / "odd,name: 100%.lcn").as_uri()
    assert [c for c, *_ in by_file[absolute]] == ["S102", "R110"]
    assert set(by_file) == {"lint/mistakes.lcn", "lint/sub/warn.lcn", absolute}


def test_lint_stdin(ran):
    r = ran["lint-stdin"]
    assert r.status == 0  # a warning and a note alone pass
    assert r.out.splitlines() == [
        "-:2:4: S102 [*] 'b4-d' should be written in upper case: 'B4-D'",
        "-:2:8: R110 the record ends with 42 cards in the draw pile: the round is "
        "incomplete, and is scored as it stands",
        "Found 0 errors, 1 warning, 1 info in 1 file, 1 game, 2 moves. 1 fixable with --fix."]


def test_fmt_in_place_and_check(ran):
    r = ran["fmt"]
    assert (r.status, r.out, r.err) == (0, "", "reformatted fmt/messy.lcn\n")
    assert (ran.root / "fmt" / "messy.lcn").read_text("utf-8") == (
        '[Event "E"]\n\n1. R3-D\n2. BHD-D {ok}\n')
    r = ran["fmt-check"]
    assert (r.status, r.out) == (1, f"would reformat {os.path.join('fmtcheck', 'messy.lcn')}\n")
    assert (ran.root / "fmtcheck" / "messy.lcn").read_text("utf-8") == (
        "[Event \"E\"]\n1. r3-d   2. BHD-D {ok}\n")


def test_convert_keeps_layout_and_line_ends(ran):
    r = ran["convert"]
    assert (r.status, r.err) == (0, "")
    # Text mode would hide the CRs; compare the bytes written.
    assert r.out.encode("utf-8") == CANONICAL_CRLF.replace(b"BHD-D", b"BHX-D").replace(
        b"R4D-B", b"R4X-B")


def test_convert_refusal_lists_every_problem(ran):
    r = ran["convert-refused"]
    assert (r.status, r.out) == (1, "")
    p = os.path.join("convert", "refused.lcn")
    assert r.err.splitlines() == [
        f"{p}:1:12: C101 the move P4-D uses the colour P, which the v1-draft dialect cannot "
        "write (its colours: R G W B Y K)",
        f"{p}:4:2: N103 expected a rank (2 to 10, or H) after the colour 'R', found '11'",
        f"{p}:4:7: C101 the move Q3-D uses the colour Q, which the v1-draft dialect cannot "
        "write (its colours: R G W B Y K)",
        f"lcn: {p}: not converted: 3 problems"]


def _match_results() -> List[tuple]:
    return [parse_result(g.header("Result")) for g in read_games(EXAMPLES / "match.lcn")]


def test_score_json(ran):
    r = ran["score-json"]
    assert r.status == 0
    data = json.loads(r.out)
    assert set(data) == {"games", "matches"}
    games = data["games"]
    assert len(games) == 3
    for game, result in zip(games, _match_results()):
        assert isinstance(game["players"], list) and len(game["players"]) == 2
        assert all(isinstance(s, int) for s in game["scores"])
        assert game["complete"] is True
        # The generator wrote each round's score in its Result header.
        assert tuple(game["scores"]) == result
        for player, points in enumerate(game["scores"]):
            assert sum(game["by_color"][player].values()) == points
    # The players swap seats after the first round.
    assert [g["players"] for g in games] == [["North", "South"], ["South", "North"],
                                             ["North", "South"]]
    totals: Dict[str, int] = {}
    for game in games:
        for name, points in zip(game["players"], game["scores"]):
            totals[name] = totals.get(name, 0) + points
    assert data["matches"] == [{"path": "score/match.lcn", "event": "Club night", "games": 3,
                                "totals": totals}]
    assert totals == {"North": -17 - 32 + 11, "South": 0 - 10 - 13}


def test_score_text_table(ran):
    r = ran["score-text"]
    assert r.status == 0
    blocks = r.out.split("\n\n")
    games = list(read_games(EXAMPLES / "match.lcn"))
    for block, game in zip(blocks, games):
        lines = block.splitlines()
        assert lines[0] == f"Club night, game {games.index(game) + 1}, round " \
                           f"{game.header('Round')}"
        assert lines[1].split() == ["player", "R", "G", "W", "B", "Y", "total"]
        s = score(game)
        for row, name, expeditions, total in zip(lines[2:], s.players, s.expeditions,
                                                 s.totals):
            assert row.split() == [name, *map(str, expeditions), str(total)]
    assert blocks[3].splitlines() == ["match totals: Club night (score/match.lcn)",
                                      "  South       -23",
                                      "  North       -38"]


def test_help(ran):
    r = ran["help"]
    assert r.status == 0
    for command in ("lint", "fmt", "convert", "score"):
        assert re.search(rf"^\s+{command}\s", r.out, re.M), command
        assert re.search(rf"^  lcn {command} \S", r.out, re.M), command
    assert "examples:" in r.out


@pytest.mark.parametrize("command", ["lint", "fmt", "convert", "score"])
def test_command_help_has_examples(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert f"usage: lcn {command}" in out
    assert "examples:" in out and re.search(rf"^  lcn {command} \S", out, re.M)


def test_bad_option_is_one_line(ran):
    r = ran["bad-option"]
    assert (r.status, r.out) == (2, "")
    assert_one_line_error(r.err)
    assert "invalid choice: 'xml'" in r.err


# ---------------------------------------------------------------- in this process


# The fixture ``run`` (lcn in this process) is in conftest.py.


@pytest.mark.parametrize("argv,message", [
    (["lint", "-j", "x"], "argument -j/--jobs: expected a number of processes"),
    (["lint", "-j", "-1"], "expected a number of processes (0 or more), not '-1'"),
    (["lint", "--select", "Q1"], "--select: no code starts with 'Q1'"),
    (["lint", "--ignore", "R,S9"], "--ignore: no code starts with 'S9'"),
    (["lint", "--fix", "-"], "--fix and --diff cannot rewrite standard input"),
    (["lint", "--diff", "-"], "(see 'lcn lint --help')"),
    (["lint", "--select", "Q1"], "lcn lint: error: --select: no code starts with 'Q1' "
     "(see 'lcn lint --help')"),
    (["lint", "--config", "nowhere.toml"], "nowhere.toml: no such configuration file"),
    (["fmt", "--dialect", "json", "a.lcn"], "invalid choice: 'json'"),
    (["convert", "a.lcn"], "the following arguments are required: --to"),
    (["convert", "a.lcn", "--to", "klingon"], "lcn convert: error: argument --to: "
     "invalid choice: 'klingon' (choose from "),
    (["convert", "a.lcn", "--to", "v1", "--from", "mixed"], "lcn convert: error: "
     "argument --from: invalid choice: 'mixed' (choose from "),
    (["convert", "-", "--to", "v1", "--in-place"], "--in-place needs a file"),
    (["convert", "a.lcn", "--to", "v1", "-o", "b", "--in-place"], "not allowed with"),
    (["score", "a.lcn", "--format", "sarif"], "invalid choice: 'sarif'"),
    (["explode"], "invalid choice: 'explode'"),
])
def test_bad_arguments(run, argv, message):
    r = run(*argv)
    assert (r.status, r.out) == (2, "")
    assert_one_line_error(r.err)
    assert message in r.err


def test_an_unknown_dialect_is_a_usage_error_that_lists_the_dialects(run):
    from lcnotation.lostcities.convert import dialect_names

    r = run("convert", "a.lcn", "--to", "klingon")
    assert (r.status, r.out) == (2, "")
    assert_one_line_error(r.err)
    assert r.err.endswith(" (see 'lcn convert --help')\n")
    choices = r.err.split("(choose from ", 1)[1].split(")", 1)[0]
    assert [c.strip(" '") for c in choices.split(",")] == dialect_names()


# ---------------------------------------------------------------- lint


@pytest.fixture
def tree(tmp_path):
    write(tmp_path / "games" / "clean.lcn", MATCH)
    write(tmp_path / "games" / "mistakes.lcn", MISTAKES)
    write(tmp_path / "games" / "b" / "warn.lcn", WARN)
    write(tmp_path / "warn.lcn", WARN)
    write(tmp_path / "clean.lcn", MATCH)
    return tmp_path


def codes(out: str) -> List[str]:
    return re.findall(r"^\S+:\d+:\d+: ([A-Z]\d{3})", out, re.M)


@pytest.mark.parametrize("argv,status", [
    (["lint", "clean.lcn"], 0),
    (["lint", "warn.lcn"], 0),
    (["lint", "--strict", "warn.lcn"], 1),
    (["lint", "--strict", "clean.lcn"], 0),
    (["lint", "games/mistakes.lcn"], 1),
    # Syntax errors are always reported (issue #11, defect 5).
    (["lint", "--ignore", "N,R", "games/mistakes.lcn"], 1),
    (["lint", "--ignore", "R", "--exit-zero", "games/mistakes.lcn"], 0),
    (["lint", "clean.lcn", "nothing.lcn"], 2),
])
def test_lint_exit_status(run, tree, argv, status):
    assert run(*argv).status == status


def test_lint_clean_summary(run, tree):
    r = run("lint", "clean.lcn")
    assert (r.out, r.err) == ("All clear: 1 file, 3 games, 148 moves.\n", "")


def test_lint_no_files(run, tree):
    (tree / "empty").mkdir()
    r = run("lint", "empty")
    assert r.status == 0 and r.err == "lcn: warning: no *.lcn files found in empty\n"


def test_lint_defaults_to_the_working_folder(run, tree):
    r = run("lint")
    assert r.out.splitlines()[-1] == ("Found 4 errors, 6 warnings, 3 info in 5 files, 9 games, "
                                      "307 moves. 4 fixable with --fix.")


def test_lint_stdin_among_files(run, tree):
    r = run("lint", "warn.lcn", "-", stdin=b"R11-D\n")
    assert re.findall(r"^([^:]+):", r.out, re.M) == ["warn.lcn", "warn.lcn", "-", "-"]
    assert r.status == 1


def test_lint_undecodable_bytes_are_findings(run, tree):
    write(tree / "latin1.lcn", b'[Event "Caf\xe9"]\nR3-D\n')
    r = run("lint", "latin1.lcn")
    assert r.status == 1
    assert r.out.splitlines()[0] == ("latin1.lcn:1:12: N001 not UTF-8 text: byte 0xe9 at "
                                     "byte offset 11 cannot be decoded")


@pytest.mark.parametrize("options,expected", [
    (["--select", "R"], ["R101", "N103", "R108", "R106", "R110"]),
    (["--select", "r1,s10", "--ignore", "S103,R110"], ["R101", "N103", "R108", "S102",
                                                       "R106", "S104", "S101"]),
    (["--ignore", "R,N,S101"], ["N103", "S102", "S104", "S103"]),
    (["--select", "R", "--extend-select", "S103"], ["R101", "N103", "R108", "R106", "S103",
                                                    "R110"]),
    (["--extend-ignore", "R1,S"], ["N103"]),
    (["--select", "N"], ["N103"]),
])
def test_lint_select_and_ignore(run, tree, options, expected):
    assert codes(run("lint", *options, "games/mistakes.lcn").out) == expected


def test_lint_jobs_give_the_same_findings(run, tree):
    for i in range(6):
        write(tree / "many" / f"{i}.lcn", MISTAKES if i % 2 else WARN)
    one = run("lint", "-j", "1", "games", "many", "warn.lcn")
    two = run("lint", "-j", "2", "games", "many", "warn.lcn")
    assert one == two and one.status == 1
    every = run("lint", "-j", "0", "--format", "json", "games", "many", "warn.lcn")
    assert len(json.loads(every.out)) == len(codes(one.out))


# ---------------------------------------------------------------- suppressions


SUPPRESSIONS = """\
1. R7-D
2. G3-D
3. R4-D ; lcn: ignore[R101]
4. r5-d ; lcn: ignore[R101]
5. B3-D {lcn: ignore[s102, R1]} 6. g4-d
7. R8-D {lcn: ignored by nobody}
8. w4-d ; lcn: ignore[]
9. y4-d ; lcn: ignore
10. B4-D ; lcn: ignore[R1O1, b, R110]
"""


def test_suppressions(run, tmp_path):
    write(tmp_path / "s.lcn", SUPPRESSIONS)
    r = run("lint", "s.lcn")
    assert r.out.splitlines()[:-1] == [
        # R101 on line 3 is silenced; nothing on line 4 reports R101.
        "s.lcn:4:4: S102 [*] 'r5-d' should be written in upper case: 'R5-D'",
        "s.lcn:4:9: S100 this suppression does not suppress R101: nothing on line 4 "
        "reports it",
        # Codes in any case; R1 is a prefix and nothing on line 5 starts with it.
        "s.lcn:5:9: S100 this suppression does not suppress R1: nothing on line 5 "
        "reports it",
        # "lcn: ignored" is not a suppression.
        "s.lcn:7:4: S102 [*] 'w4-d' should be written in upper case: 'W4-D'",
        "s.lcn:7:9: S100 this suppression names no code: write lcn: ignore[CODE] (or lcn: "
        "ignore for every code)",
        # A bare "lcn: ignore" silences every finding of its line (S102 and R110).
        # A code with a letter O for a zero, and a letter that starts no code,
        # are no codes: said so (R110 is silenced).
        "s.lcn:9:10: S100 this suppression names R1O1, no such code: no code of these "
        "records starts with 'R1O1'",
        "s.lcn:9:10: S100 this suppression names B, no such code: no code of these records "
        "starts with 'B'",
    ]
    # S100 is a code like any other.
    assert "S100" not in codes(run("lint", "--ignore", "S100", "s.lcn").out)


def test_suppression_of_an_unselected_code_is_still_used(run, tmp_path):
    write(tmp_path / "s.lcn", "1. R7-D\n2. G3-D\n3. R4-D ; lcn: ignore[R101]\n")
    assert codes(run("lint", "--select", "S", "s.lcn").out) == []
    assert codes(run("lint", "--ignore", "R101", "s.lcn").out) == ["R110"]


def test_suppression_on_a_header_line(run, tmp_path):
    write(tmp_path / "s.lcn", '[Colors "RGB5"] ; lcn: ignore[N120, R205]\n\nR3-D\n')
    assert codes(run("lint", "s.lcn").out) == ["R110"]


# ---------------------------------------------------------------- configuration


def test_config_from_the_working_folder(run, tmp_path, monkeypatch):
    write(tmp_path / "pyproject.toml",
          '[project]\nname = "x"\n\n[tool.lcnotation]\nignore = ["R110"]\n'
          'colors = "RGWBYK"\ndialect = "x-discard"\n')
    write(tmp_path / "sub" / "k.lcn", "1. K3-D\n2. K5D-D\n3. b4X-D\n")
    monkeypatch.chdir(tmp_path / "sub")
    r = run("lint", "k.lcn")
    # K is a colour of the configured set (no S104, no R106); D is not the
    # configured dialect's marker; no R110.
    assert r.out.splitlines()[:-1] == [
        "k.lcn:2:4: S101 [*] 'K5D-D' marks its discard with D, but the configured dialect "
        "x-discard uses X",
        "k.lcn:3:4: S102 [*] 'b4X-D' should be written in upper case: 'B4X-D'"]
    # Options override the configuration's select and ignore.
    assert codes(run("lint", "--ignore", "S", "k.lcn").out) == ["R110"]


def test_config_lower_dialect_and_select(run, tmp_path):
    write(tmp_path / "pyproject.toml",
          '[tool.lcnotation]\nselect = ["S1"]\ndialect = "lower"\n')
    write(tmp_path / "a.lcn", "1. r3-d 2. BHD-D 3. K2-D\n")
    assert run("lint", "a.lcn").out.splitlines()[:-1] == [
        "a.lcn:1:12: S102 [*] 'BHD-D' should be written in lower case: 'bhd-d'",
        "a.lcn:1:21: S102 [*] 'K2-D' should be written in lower case: 'k2-d'",
        "a.lcn:1:21: S104 colour 'K' is used but the game has no Colors header: add one "
        "such as [Colors \"RGWBYK\"]"]


def test_config_option(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.lcnotation]\nselect = ["N"]\n')
    write(tmp_path / "elsewhere" / "lcn.toml", '[tool.lcnotation]\nselect = ["S"]\n')
    write(tmp_path / "a.lcn", "1. r3-d 2. R11-D\n")
    assert codes(run("lint", "a.lcn").out) == ["N103"]
    assert codes(run("lint", "--config", "elsewhere/lcn.toml", "a.lcn").out) == ["S102",
                                                                                 "N103"]


@pytest.mark.parametrize("toml,message", [
    ("[tool.lcnotation\n", "cannot read configuration: Expected ']'"),
    ("[tool.lcnotation]\nselct = ['R']\n", "unknown key 'selct'"),
    ("[tool.lcnotation]\nselect = 'R' \nignore = [1]\n", "'ignore' must be a list of codes"),
    ("[tool.lcnotation]\nignore = ['R9']\n", "'ignore': no code starts with 'R9'"),
    ("[tool.lcnotation]\ncolors = 'RGD'\n", "'colors': Colors: 'D' is not a colour letter"),
    ("[tool.lcnotation]\ncolors = ['R']\n", "'colors' must be a string"),
    ("[tool.lcnotation]\ndialect = 'json'\n", "'dialect' must be one of v1, x-discard"),
    ("[tool.lcnotation]\ndialect = ['v1']\n", "'dialect' must be one of"),
])
def test_bad_config_is_one_line(run, tmp_path, toml, message):
    write(tmp_path / "pyproject.toml", toml)
    write(tmp_path / "a.lcn", WARN)
    r = run("lint", "a.lcn")
    assert (r.status, r.out) == (2, "")
    assert_one_line_error(r.err)
    assert r.err.startswith(f"lcn: {tmp_path / 'pyproject.toml'}: ") and message in r.err


# ---------------------------------------------------------------- --fix


def test_fix_keeps_crlf_and_bom(run, tmp_path):
    path = write(tmp_path / "f.lcn", b'\xef\xbb\xbf[Event "E"]\r\n\r\n1. R3-D\r\n2. bhd-d '
                 b"; fine\r\n3. g4x-B\r\n5. W5-D\r\n6. K2-D\r\n")
    r = run("lint", "--fix", "f.lcn")
    # g4x-B has two fixes that overlap (case, marker): both are applied.
    assert path.read_bytes() == (b'\xef\xbb\xbf[Event "E"]\r\n\r\n1. R3-D\r\n2. BHD-D '
                                 b"; fine\r\n3. G4D-B\r\n4. W5-D\r\n5. K2-D\r\n")
    assert r.err == "lcn: f.lcn: applied 5 fixes\n"
    # What cannot be fixed is still reported, at its position in the new file.
    assert codes(r.out) == ["R106", "S104", "R110"]
    assert r.out.splitlines()[-1] == ("Found 1 error, 1 warning, 1 info in 1 file, 1 game, "
                                      "5 moves.")


def test_fix_with_nothing_to_fix_leaves_the_file_alone(run, tmp_path):
    path = write(tmp_path / "f.lcn", b"1. R3-D\r\n2. R11-D\r\n4. K3-D\r\n")
    before = path.stat().st_mtime_ns
    os.utime(path, ns=(before - 10**9, before - 10**9))
    r = run("lint", "--fix", "f.lcn")
    # After the unreadable move the count starts again from "4." (issue #11,
    # defect 6): the syntax error is the one cause reported.
    assert codes(r.out) == ["N103", "R106", "S104", "R110"]
    assert path.read_bytes() == b"1. R3-D\r\n2. R11-D\r\n4. K3-D\r\n"
    assert path.stat().st_mtime_ns == before - 10**9 and r.err == ""


def test_fix_of_mixed_line_ends(run, tmp_path):
    # Issue #11, defect 4: one finding (S107), fixed to the majority's line end.
    path = write(tmp_path / "f.lcn", b"1. r3-d\r\n2. B4-D\r\n3. B5-D\n")
    r = run("lint", "f.lcn")
    assert codes(r.out) == ["S102", "S107", "R110"] and r.status == 0
    r = run("lint", "--fix", "--ignore", "S107", "f.lcn")
    assert r.err == ("lcn: f.lcn: not fixed: the file mixes line ends, and S107 (which "
                     "would end every line alike) is not selected\n")
    assert path.read_bytes() == b"1. r3-d\r\n2. B4-D\r\n3. B5-D\n" and r.status == 0
    r = run("lint", "--fix", "f.lcn")
    assert r.err == "lcn: f.lcn: applied 2 fixes\n"
    assert path.read_bytes() == b"1. R3-D\r\n2. B4-D\r\n3. B5-D\r\n"
    assert codes(r.out) == ["R110"]


def test_fix_twice_is_fix_once(run, tmp_path):
    # MISTAKES has a syntax error: --force is needed to fix it (see test_hardening.py).
    path = write(tmp_path / "m.lcn", MISTAKES)
    first = run("lint", "--fix", "--force", "m.lcn")
    fixed = path.read_bytes()
    second = run("lint", "--fix", "--force", "m.lcn")
    assert path.read_bytes() == fixed and second.err == ""
    assert first.out == second.out
    assert codes(first.out) == ["R101", "N103", "R108", "R106", "S104", "S103", "R110"]


@given(written_games())
@examples(25)
def test_fix_never_changes_what_a_record_says(written):
    game, text = written
    fixed, applied, report = fix_text(text)
    # The same headers, moves and comments (numbers and spans aside). A text
    # that mixes line ends (S107) gets one line end throughout, inside
    # comments too; a file is read with its line ends as LF, so compare so.
    mixed = "S107" in {d.code for d in lint_text(text).diagnostics}
    same = as_lf if mixed else (lambda s: s)
    assert parse_game(same(fixed)) == parse_game(same(text)) == game
    # Nothing fixable is left, and fixing again changes nothing.
    assert not report.fixes
    assert fix_text(fixed) == (fixed, 0, report)
    # Only the letters of moves, the digits of numbers and, in a text that
    # mixes them (S107), line ends change.
    found = {d.code for d in lint_text(text).diagnostics}
    assert len(fixed) == len(text) or found & {"S103", "S107"}
    if "S107" in found:
        fixed, text = fixed.replace("\r\n", "\n"), text.replace("\r\n", "\n")
    assert re.sub(r"[A-Za-z0-9]", "", fixed) == re.sub(r"[A-Za-z0-9]", "", text)


# ---------------------------------------------------------------- progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only():
    screen = Terminal()
    with Progress(3, stream=screen) as bar:
        for _ in range(3):
            bar.advance()
    drawn = screen.getvalue()
    assert drawn.startswith("\rlinting [##########--------------------] 1/3")
    last = "linting [##############################] 3/3"
    # The last thing on the line is the bar erased.
    assert drawn.endswith(f"\r{last}\r{' ' * len(last)}\r")
    piped = io.StringIO()
    with Progress(3, stream=piped) as bar:
        bar.advance(3)
    assert piped.getvalue() == ""
    forced = io.StringIO()
    with Progress(2, stream=forced, enabled=True) as bar:
        bar.advance()
    assert "1/2" in forced.getvalue()


def test_lint_draws_a_bar_on_a_terminal(run, tree, monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    # The bar counts bytes (issue #11, defect 12): one large file shows it too.
    monkeypatch.setattr("lcnotation.cli.lint.PROGRESS_BYTES", 10_000)
    write(tree / "big.lcn", MATCH * 5)
    r = run("lint", "big.lcn")
    assert " MB" in screen.getvalue() and "] " in screen.getvalue()
    r = run("lint", "games", "warn.lcn")
    assert codes(r.out)  # the findings are on stdout, whole lines
    quiet = Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    run("lint", "--no-progress", "games")
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------- fmt


MESSY = ('; archive\n[Event "Club"]\n[Table "7"]   ; an unknown tag\n'
         '1. rh-d {a wager}   2. BHX-D 3. R4D-B ; why?\n'
         '[Round "2"]\nG3-D\n')
# The file's first discard is marked X: fmt keeps that dialect, as lint expects it.
FORMATTED = ('; archive\n[Event "Club"]\n[Table "7"] ; an unknown tag\n\n'
             '1. RH-D {a wager}\n2. BHX-D\n3. R4X-B ; why?\n\n'
             '[Round "2"]\n\n1. G3-D\n')


def test_fmt_keeps_comments_and_unknown_headers_and_is_idempotent(run, tmp_path):
    path = write(tmp_path / "a.lcn", MESSY)
    assert run("fmt", "a.lcn").status == 0
    assert path.read_text("utf-8") == FORMATTED
    r = run("fmt", "--check", "a.lcn")
    assert (r.status, r.out) == (0, "")
    assert run("fmt", "-q", "a.lcn").err == "" and path.read_text("utf-8") == FORMATTED


def test_fmt_check_and_diff_write_nothing(run, tmp_path):
    path = write(tmp_path / "a.lcn", MESSY)
    write(tmp_path / "b.lcn", FORMATTED)
    r = run("fmt", "--diff", "a.lcn", "b.lcn")
    assert r.status == 1 and path.read_text("utf-8") == MESSY
    assert r.out.startswith("--- a.lcn\n+++ a.lcn\n@@")
    assert "\n-1. rh-d {a wager}   2. BHX-D 3. R4D-B ; why?\n" in r.out
    assert "\n+1. RH-D {a wager}\n+2. BHX-D\n+3. R4X-B ; why?\n" in r.out
    r = run("fmt", "--check", ".")
    assert (r.status, r.out) == (1, "would reformat a.lcn\n")
    # A summary for more than one file (issue #11, defect 13).
    assert r.err == "fmt: 1 file would change, 1 file unchanged\n"
    assert path.read_text("utf-8") == MESSY
    r = run("fmt")  # the working folder, as lint
    assert r.err.splitlines()[-1] == "fmt: 1 file changed, 1 file unchanged"


def test_fmt_keeps_crlf_and_bom(run, tmp_path):
    path = write(tmp_path / "a.lcn", b"\xef\xbb\xbf" + MESSY.replace("\n", "\r\n").encode())
    assert run("fmt", "a.lcn").status == 0
    assert path.read_bytes() == b"\xef\xbb\xbf" + FORMATTED.replace("\n", "\r\n").encode()


def test_fmt_refuses_syntax_errors_unless_forced(run, tmp_path):
    path = write(tmp_path / "a.lcn", "1. R3-D 2. R11-D 3. b4-d\n")
    r = run("fmt", "a.lcn")
    assert r.status == 1 and path.read_text("utf-8") == "1. R3-D 2. R11-D 3. b4-d\n"
    assert r.err == ("lcn: a.lcn:1:13: not formatted: 1 syntax error (first: expected a rank "
                     "(2 to 10, or H) after the colour 'R', found '11'); fix them or use "
                     "--force\n")
    # Issue #11, defect 3: a game with an unreadable move is kept as written
    # (dropping the move would give every later move to the other player).
    r = run("fmt", "--force", "a.lcn")
    assert r.status == 0 and path.read_text("utf-8") == "1. R3-D 2. R11-D 3. b4-d\n"
    assert r.err.splitlines()[0] == ("lcn: a.lcn:1:13: game 1 kept as written: it has a "
                                     "syntax error (expected a rank (2 to 10, or H) after "
                                     "the colour 'R', found '11')")


def test_fmt_stdin_to_stdout(run):
    r = run("fmt", "-", stdin=MESSY.encode())
    assert (r.status, r.out, r.err) == (0, FORMATTED, "")
    r = run("fmt", "--check", "-", stdin=MESSY.encode())
    assert (r.status, r.out) == (1, "would reformat -\n")
    assert run("fmt", "--check", "-", stdin=FORMATTED.encode()) == Ran(0, "", "")


def test_fmt_dialect(run, tmp_path):
    path = write(tmp_path / "a.lcn", "1. R3-D 2. BHD-D\n")
    assert run("fmt", "--dialect", "x-discard", "a.lcn").status == 0
    assert path.read_text("utf-8") == "1. R3-D\n2. BHX-D\n"


def test_fmt_unreadable_files(run, tmp_path):
    write(tmp_path / "bad.lcn", b"R3-D\n\xff\n")
    write(tmp_path / "ok.lcn", "1. r3-d\n")
    r = run("fmt", "bad.lcn", "missing.lcn", "ok.lcn")
    assert r.status == 2
    assert r.err.splitlines() == [
        "lcn: bad.lcn:2:1: cannot read: not UTF-8 text: byte 0xff at byte offset 5 cannot "
        "be decoded",
        "lcn: missing.lcn: cannot read: No such file or directory",
        "reformatted ok.lcn"]


# ---------------------------------------------------------------- convert


CANONICAL = CANONICAL_CRLF.replace(b"\r\n", b"\n").decode()


@pytest.mark.parametrize("dialect,expected", [
    ("v1", CANONICAL),
    ("x-discard", CANONICAL.replace("BHD-D", "BHX-D").replace("R4D-B", "R4X-B")),
    ("lower", CANONICAL.replace("RH-D", "rh-d").replace("BHD-D", "bhd-d")
     .replace("R4D-B", "r4d-b")),
    ("v1-draft", CANONICAL),
])
def test_convert_to_each_text_dialect(run, tmp_path, dialect, expected):
    write(tmp_path / "a.lcn", CANONICAL)
    r = run("convert", "a.lcn", "--to", dialect)
    assert (r.status, r.out, r.err) == (0, expected, "")
    # Standard input is read whole, a file as a stream: the same result.
    assert run("convert", "-", "--to", dialect, stdin=CANONICAL.encode()).out == expected


def test_convert_round_trip_is_byte_identical(run, tmp_path):
    source = write(tmp_path / "a.lcn", b"\xef\xbb\xbf" + CANONICAL_CRLF)
    assert run("convert", "a.lcn", "--to", "x-discard", "-o", "x.lcn").status == 0
    x = (tmp_path / "x.lcn").read_bytes()
    assert x.startswith(b"\xef\xbb\xbf") and b"BHX-D\r\n" in x
    assert run("convert", "x.lcn", "--to", "v1", "-o", "back.lcn").status == 0
    assert (tmp_path / "back.lcn").read_bytes() == source.read_bytes()


def test_convert_keeps_lone_cr_and_mixed_line_ends(run, tmp_path):
    data = b"1. r3-d {a\rb}\r2. bhd-d\r\n3. G4-D\n"
    write(tmp_path / "a.lcn", data)
    assert run("convert", "a.lcn", "--to", "v1", "--in-place").status == 0
    assert (tmp_path / "a.lcn").read_bytes() == data.replace(b"r3-d", b"R3-D").replace(
        b"bhd-d", b"BHD-D")


def test_convert_json_round_trip(run, tmp_path):
    write(tmp_path / "a.lcn", b"\xef\xbb\xbf" + CANONICAL_CRLF)
    assert run("convert", "a.lcn", "--to", "json", "-o", "a.json").status == 0
    document = (tmp_path / "a.json").read_bytes()
    assert not document.startswith(b"\xef\xbb\xbf") and b"\r" not in document
    data = json.loads(document)
    assert data["format"] == "lcnotation"
    assert [m["text"] for m in data["games"][0]["moves"]] == ["RH-D", "BHD-D", "R4D-B"]
    # Read whole from standard input, as a stream from a file: the same document.
    assert run("convert", "-", "--to", "json", stdin=CANONICAL_CRLF).out.encode() == document
    r = run("convert", "a.json", "--to", "v1")
    assert (r.status, r.out) == (0, CANONICAL)
    # A document is recognised however far its '{' is.
    write(tmp_path / "far.json", b"\n" * 9000 + document)
    assert run("convert", "far.json", "--to", "v1").out == CANONICAL
    assert run("convert", "a.json", "--from", "json", "--to", "lower").out == \
        CANONICAL.replace("RH-D", "rh-d").replace("BHD-D", "bhd-d").replace("R4D-B", "r4d-b")


def test_convert_from(run, tmp_path):
    write(tmp_path / "a.lcn", "1. R3-D 2. BHD-D\n3. R4X-D\n")
    r = run("convert", "a.lcn", "--from", "x-discard", "--to", "v1")
    assert (r.status, r.out) == (1, "")
    assert r.err.splitlines() == [
        "a.lcn:1:12: C103 'BHD-D' is not spelt as the x-discard dialect spells it ('BHX-D')",
        "lcn: a.lcn: not converted: 1 problem"]
    write(tmp_path / "b.lcn", "1. R3-D 2. BHX-D\n")
    assert run("convert", "b.lcn", "--from", "x-discard", "--to", "v1").out == \
        "1. R3-D 2. BHD-D\n"


def test_convert_refused_leaves_the_output_alone(run, tmp_path):
    write(tmp_path / "a.lcn", REFUSED)
    out = write(tmp_path / "out.lcn", "precious\n")
    r = run("convert", "a.lcn", "--to", "v1-draft", "-o", "out.lcn")
    assert r.status == 1 and len(r.err.splitlines()) == 4
    assert out.read_text("utf-8") == "precious\n"
    r = run("convert", "a.lcn", "--to", "v1-draft", "--in-place")
    assert r.status == 1 and (tmp_path / "a.lcn").read_text("utf-8") == REFUSED
    # Nothing is left behind in the folder.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.lcn", "out.lcn"]


def test_convert_refused_json(run, tmp_path):
    write(tmp_path / "a.json", '{"format": "lcnotation", "version": 1, "games": '
          '[{"headers": [], "moves": [7, "R11-D"]}]}')
    r = run("convert", "a.json", "--to", "v1")
    assert (r.status, r.out) == (1, "")
    assert r.err.splitlines() == [
        "a.json:1:76: J102 $.games[0].moves[0]: expected a move object, found a number",
        "a.json:1:79: J102 $.games[0].moves[1]: expected a move object, found a string",
        "lcn: a.json: not converted: 2 problems"]


def test_convert_unreadable(run, tmp_path):
    write(tmp_path / "a.lcn", b"1. R3-D\r\n2. B4\xff-D\r\n")
    r = run("convert", "a.lcn", "--to", "v1")
    assert (r.status, r.out) == (2, "")
    assert r.err == ("lcn: a.lcn:2:6: cannot read: not UTF-8 text: byte 0xff at byte offset "
                     "14 cannot be decoded\n")
    r = run("convert", "missing.lcn", "--to", "v1")
    assert (r.status, r.err) == (2, "lcn: missing.lcn: cannot read: No such file or "
                                    "directory\n")
    r = run("convert", "a.lcn", "--to", "v1", "-o", "no/such/folder/b.lcn")
    assert r.status == 2 and "cannot" in r.err


def test_convert_in_place(run, tmp_path):
    path = write(tmp_path / "a.lcn", "1. R3-D 2. BHX-D ; x\n")
    assert run("convert", "a.lcn", "--to", "v1", "--in-place") == Ran(0, "", "")
    assert path.read_text("utf-8") == "1. R3-D 2. BHD-D ; x\n"


# ---------------------------------------------------------------- score


def test_score_stdin_and_files(run, tmp_path):
    write(tmp_path / "m.lcn", MATCH)
    r = run("score", "--format", "json", "m.lcn", "-", stdin=WARN.encode())
    data = json.loads(r.out)
    assert [(g["path"], g["complete"]) for g in data["games"]] == [
        ("m.lcn", True), ("m.lcn", True), ("m.lcn", True), ("-", False)]
    # The game of standard input is incomplete: shown, and in no match's totals.
    assert [g["match"] for g in data["games"]] == [0, 0, 0, None]
    assert data["matches"] == [{"path": "m.lcn", "event": "Club night", "games": 3,
                                "totals": {"North": -38, "South": -23}}]
    r = run("score", "m.lcn", "missing.lcn")
    assert r.status == 2 and r.err == "lcn: missing.lcn: cannot read: No such file or " \
                                      "directory\n"
    assert "match totals" in r.out


def _unnamed(game_text: str) -> str:
    """A game of the example match without its Event and player names."""
    return "".join(line + "\n" for line in game_text.splitlines()
                   if not line.startswith(("[Event", "[Player")))


def test_score_totals_belong_to_a_match(run, tmp_path):
    # issue 24, defect 4: a match is a file, or an Event within it; two files'
    # default "Player 1" are two players, and an incomplete game is in no match.
    first = _unnamed(MATCH.split("\n\n[")[0])
    write(tmp_path / "a.lcn", first)
    write(tmp_path / "b.lcn", first + '\n[Round "2"]\n' + WARN)
    write(tmp_path / "c.lcn", '[Event "Cup"]\n' + first + '\n[Event "Plate"]\n' + first
          + '\n[Event "Cup"]\n' + first)
    r = run("score", "--format", "json", "a.lcn", "b.lcn", "c.lcn")
    data = json.loads(r.out)
    one = {"Player 1": -17, "Player 2": 0}
    assert data["matches"] == [
        {"path": "a.lcn", "event": None, "games": 1, "totals": one},
        {"path": "b.lcn", "event": None, "games": 1, "totals": one},
        {"path": "c.lcn", "event": "Cup", "games": 2,
         "totals": {"Player 1": -34, "Player 2": 0}},
        {"path": "c.lcn", "event": "Plate", "games": 1, "totals": one}]
    assert [g["match"] for g in data["games"]] == [0, 1, None, 2, 3, 2]
    text = run("score", "a.lcn", "b.lcn", "c.lcn").out
    assert "match totals: a.lcn\n  Player 2 " in text and "match totals: b.lcn\n" in text
    assert "\nmatch totals: Cup (c.lcn)\n  Player 2      0\n  Player 1    -34\n\n" in text
    assert text.endswith("\n\nmatch totals: Plate (c.lcn)\n  Player 2      0\n"
                         "  Player 1    -17\n")


# ---------------------------------------------------------------- pre-commit


def _hooks(text: str) -> List[Dict[str, str]]:
    """The hooks of a .pre-commit-hooks.yaml (a list of flat mappings)."""
    hooks: List[Dict[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(r"(- |  )([a-z_]+): (.+)", line)
        assert m, f"cannot read {line!r}"
        if m.group(1) == "- ":
            hooks.append({})
        hooks[-1][m.group(2)] = m.group(3)
    return hooks


def test_pre_commit_hooks(run, tmp_path):
    hooks = _hooks((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert [h["id"] for h in hooks] == ["lcn-lint", "lcn-fmt"]
    write(tmp_path / "a.lcn", "1. r3-d\n")
    for hook in hooks:
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["language"] == "python"
        assert re.search(hook["files"], "games/a.lcn") and not re.search(hook["files"], "a.txt")
        command = hook["entry"].split()
        assert command[0] == "lcn"
        # pre-commit appends the file names to the entry: lint passes (a
        # warning alone), fmt rewrites the file.
        assert run(*command[1:], "a.lcn").status == 0
    assert (tmp_path / "a.lcn").read_text("utf-8") == "1. R3-D\n"
