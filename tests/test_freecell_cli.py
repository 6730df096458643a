"""``lcn freecell``: deal, check (text, json, github, sarif), import, fmt."""

from __future__ import annotations

import json
from pathlib import Path

from lcnotation import freecell
from test_cli import sarif_validator

DATA = Path(__file__).resolve().parent / "data" / "freecell"


def solved(n: int) -> str:
    return (DATA / f"deal-{n}.txt").read_text()


def test_deal_prints_the_standard_layout(run) -> None:
    r = run("freecell", "deal", "1")
    assert r.status == 0
    lines = r.out.splitlines()
    assert lines[:3] == ["Game #1", "  -  -  -  +", "JD 2D 9H JC 5D 7H 7C 5H"]
    assert len(lines) == 9 and r.out == freecell.deal(1)


def test_deal_out_of_range_is_a_usage_error(run) -> None:
    for bad in ("8589934592", "-1", "x"):
        r = run("freecell", "deal", bad)
        assert r.status == 2 and "deal number" in r.err


def write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return name


def mixed_files(tmp_path: Path):
    won = write(tmp_path, "won.txt", solved(1))
    record = freecell.parse(solved(1))
    span = record.moves[2].span
    bad_text = solved(1)[:span.start] + " 11" + solved(1)[span.end:]
    bad = write(tmp_path, "bad.txt", bad_text)
    open_ = write(tmp_path, "open.txt", freecell.deal(11982))
    broken = write(tmp_path, "broken.txt", "Game #1\nJD 6X\n")
    wkr = write(tmp_path, "wkr.txt", "  =  =  =  +QC KD QH KS\nKC KH\n")
    return won, bad, open_, broken, wkr


def test_check_json(run, tmp_path) -> None:
    files = mixed_files(tmp_path)
    r = run("freecell", "check", *files, "--format", "json")
    assert r.status == 1
    out = json.loads(r.out)
    assert list(out) == ["files"]
    rows = {f["path"]: f for f in out["files"]}
    for row in rows.values():
        assert list(row) == ["path", "deal", "verdict", "moves", "first_bad_move",
                             "diagnostics"]
    assert (rows["won.txt"]["verdict"], rows["won.txt"]["first_bad_move"]) == ("won", None)
    assert rows["won.txt"]["deal"] == 1 and rows["won.txt"]["diagnostics"] == []
    assert (rows["bad.txt"]["verdict"], rows["bad.txt"]["first_bad_move"]) == ("illegal", 2)
    assert rows["bad.txt"]["diagnostics"][0]["code"] == "F306"
    assert rows["bad.txt"]["diagnostics"][0]["turn"] == 2
    assert (rows["open.txt"]["verdict"], rows["open.txt"]["moves"],
            rows["open.txt"]["first_bad_move"]) == ("not_won", 0, 0)
    assert rows["broken.txt"]["verdict"] == "layout_error"
    assert rows["broken.txt"]["first_bad_move"] is None
    assert rows["wkr.txt"]["verdict"] == "unsupported" and rows["wkr.txt"]["deal"] is None


def test_check_exit_statuses(run, tmp_path) -> None:
    won = write(tmp_path, "won.txt", solved(617))
    assert run("freecell", "check", won).status == 0
    assert run("freecell", "check", won, "missing.txt").status == 2
    assert run("freecell", "check", "-", stdin=solved(1).encode()).status == 0


def test_check_text_shows_the_position_before_an_illegal_move(run, tmp_path) -> None:
    _, bad, *_ = mixed_files(tmp_path)
    r = run("freecell", "check", bad)
    assert r.status == 1
    lines = r.out.splitlines()
    assert lines[0].startswith("bad.txt:10:7: F306 move 3 (11) is illegal")
    assert lines[1] == "bad.txt: illegal (97 moves)"
    assert lines[2] == "  the position before it:"
    assert lines[3].startswith("    6C-8H-  -  +")


def test_check_github_and_sarif(run, tmp_path) -> None:
    files = mixed_files(tmp_path)
    r = run("freecell", "check", *files, "--format", "github")
    assert r.status == 1
    assert "::error file=bad.txt,line=10,col=7,endLine=10,endColumn=10,title=F306::" in r.out
    assert "::warning file=open.txt," in r.out
    r = run("freecell", "check", *files, "--format", "sarif")
    log = json.loads(r.out)
    assert not list(sarif_validator().iter_errors(log))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    results = log["runs"][0]["results"]
    assert {"F306", "F320", "F101", "F210"} <= {x["ruleId"] for x in results}
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_import_from_fc_solve(run, tmp_path) -> None:
    r = run("freecell", "import", "--from", "fc-solve", str(DATA / "fc-solve-617.snx.txt"),
            "--deal", "617")
    assert r.status == 0 and r.out == solved(617)
    r = run("freecell", "import", "--from", "fc-solve", str(DATA / "fc-solve-617.snx.txt"))
    assert r.status == 1 and "F401" in r.err and "shows no board" in r.err
    r = run("freecell", "import", "--from", "fc-solve", str(DATA / "fc-solve-617.snx.txt"),
            "--deal", "618")
    assert r.status == 1 and "F402" in r.err
    r = run("freecell", "import", "--from", "pysol", "x.txt")
    assert r.status == 2
    assert run("freecell", "import", "--from", "fc-solve", "none.txt").status == 2


def test_fmt_in_place_check_and_stdin(run, tmp_path) -> None:
    messy = solved(1).replace("\n", "  \r\n").replace("Game #1  \r\n  -  -  -  +  \r\n",
                                                      "Game #1\r\n\r\n")
    name = write(tmp_path, "messy.txt", "")
    (tmp_path / name).write_bytes(messy.encode())
    r = run("freecell", "fmt", name, "--check")
    assert r.status == 1 and "would reformat messy.txt" in r.out
    r = run("freecell", "fmt", name)
    assert r.status == 0
    assert (tmp_path / name).read_bytes() == solved(1).replace("\n", "\r\n").encode()
    assert run("freecell", "fmt", name, "--check").status == 0
    r = run("freecell", "fmt", "-", stdin=b"JD KD\n 1h2h\n")
    assert r.status == 0 and r.out == "  -  -  -  +\nJD KD\n 1h2h\n"
    r = run("freecell", "fmt", write(tmp_path, "bad.txt", "JD 6X\n"))
    assert r.status == 1 and "not formatted" in r.err and "F101" in r.err


def test_an_action_is_required(run) -> None:
    r = run("freecell")
    assert r.status == 2 and "ACTION" in r.err
    r = run("freecell", "shuffle")
    assert r.status == 2 and "invalid choice" in r.err
