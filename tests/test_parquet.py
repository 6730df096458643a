"""The Parquet export (issue 21, item 6): ``lcn export --to parquet`` and
``lcn import --from parquet``.

The records come back byte for byte, whatever they hold (comments, odd
layouts, every line end, a byte-order mark, syntax errors, bytes that are not
UTF-8); nothing is written over an input; a game that cannot be read is
reported with its file, line and column and kept; the tables say what the
checker says; DuckDB and Polars get ``lcn stats``' figures from them; the
schema is the one ``spec/parquet.md`` describes.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from lcnotation.archive import game_digest, scan  # noqa: E402
from lcnotation.arrow.reader import ExportError, import_parquet  # noqa: E402
from lcnotation.arrow.schema import (GAMES, MANIFEST, PLIES, SCHEMA_VERSION,  # noqa: E402
                                     games_schema, plies_schema, type_text)
from lcnotation.arrow.writer import export_parquet  # noqa: E402
from lcnotation.lostcities.game.checker import check  # noqa: E402
from lcnotation.lostcities.game.generator import generate_game  # noqa: E402
from lcnotation.lostcities.text.formatter import format_game, format_move  # noqa: E402
from strategies import examples, record_files  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "parquet.md"
MATCH = ROOT / "examples" / "match.lcn"


def table(folder: Path, name: str) -> Any:
    """A table of an export, partitions read back as columns."""
    import pyarrow.dataset as ds

    files = sorted(str(p) for p in (folder / name).rglob("*.parquet"))
    return ds.dataset(files, format="parquet", partitioning="hive",
                      partition_base_dir=str(folder / name)).to_table()


def imported(folder: Path, **kwargs: Any) -> Tuple[bytes, Any]:
    out = io.BytesIO()
    report = import_parquet(str(folder), out.write, **kwargs)
    return out.getvalue(), report


# ---------------------------------------------------------------- round trips

@given(files=st.lists(record_files(), min_size=1, max_size=3))
@examples(40)
def test_the_records_come_back_byte_for_byte(files: List[bytes], tmp_path_factory: Any
                                             ) -> None:
    folder = tmp_path_factory.mktemp("roundtrip")
    paths = []
    for i, data in enumerate(files):
        path = folder / f"f{i}.lcn"
        path.write_bytes(data)
        paths.append(str(path))
    refused: List[Any] = []
    report = export_parquet(paths, str(folder / "out"), refused=refused.append)
    games = [e for p in paths for e in scan(p)]
    assert report.games == len(games)
    unreadable = [e for e in games if e.game().errors]
    assert report.refused == len(unreadable) == len(refused)
    assert [(e.path, e.line) for e in refused] == [(e.path, e.game().errors[0].line)
                                                 for e in unreadable]
    for path, data in zip(paths, files):
        back, result = imported(folder / "out", sources=[path])
        assert back == data and result.problems == []
    whole, result = imported(folder / "out")
    assert result.problems == []
    expected = b""
    for data in files:
        if expected and data and not expected.endswith((b"\n", b"\r")):
            expected += b"\n"  # so that the next file's first game does not join this line
        expected += data
    assert whole == expected
    assert (folder / "out").exists()
    for path, data in zip(paths, files):
        assert Path(path).read_bytes() == data


def test_an_empty_file_and_a_file_of_white_space(tmp_path: Path) -> None:
    (tmp_path / "empty.lcn").write_bytes(b"")
    (tmp_path / "blank.lcn").write_bytes(b"\xef\xbb\xbf \r\n\t\n")
    paths = [str(tmp_path / "empty.lcn"), str(tmp_path / "blank.lcn")]
    report = export_parquet(paths, str(tmp_path / "out"))
    assert report.games == 0 and table(tmp_path / "out", GAMES).num_rows == 0
    for path in paths:
        assert imported(tmp_path / "out", sources=[path])[0] == Path(path).read_bytes()


def corpus() -> str:
    """Games of every kind: with and without the deal, incomplete, with a
    broken rule, a wrong Result, six colours, a draw by hand."""
    parts = []
    for seed in range(24):
        game = generate_game(seed, deal=seed % 3 == 0, turns=30 if seed % 5 == 4 else None,
                             colors="RGWBYK" if seed % 4 == 1 else None,
                             players=("Ann", "Bob") if seed % 2 else ("Bob", "Cy"))
        parts.append(format_game(game))
    parts.append('[Player1 "Ann"]\n[Player2 "Bob"]\n[Result "9-9"]\n1. R7-D\n2. B4-D\n'
                 '3. R4-D\n')                      # R101 (and R110: it is incomplete)
    parts.append('[Player1 "Ann"]\n[Player2 "Cy"]\n1. R3-D 2. R11-D\n')   # N103
    parts.append('[Date "2026.11.29"]\n[Round "3"]\n[Event "Club / night"]\n1. G5-D\n')
    return "\n".join(parts)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: Any) -> Tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("corpus")
    source = folder / "games.lcn"
    source.write_text(corpus(), encoding="utf-8")
    export_parquet([str(source)], str(folder / "out"), header_columns=("Event",))
    return source, folder / "out"


def test_the_games_table_says_what_the_checker_says(exported: Tuple[Path, Path]) -> None:
    source, out = exported
    rows = table(out, GAMES).to_pylist()
    entries = list(scan(str(source)))
    assert len(rows) == len(entries)
    for number, (row, entry) in enumerate(zip(rows, entries), start=1):
        game = entry.game()
        report = check(game)
        assert (row["source"], row["byte_offset"], row["byte_length"], row["line"],
                row["game"]) == (
            str(source), entry.offset, len(entry.raw), entry.line, number)
        assert row["record"] == entry.raw and row["digest"] == game_digest(game)
        assert row["readable"] == (not game.errors)
        assert row["errors"] == len(report.errors)
        assert [(d["code"], d["line"], d["column"]) for d in row["diagnostics"]] == [
            (d.code, d.line, d.column) for d in report.diagnostics]
        assert [(h["name"], h["value"]) for h in row["headers"]] == [
            (h.name, h.value) for h in game.headers]
        assert (row["player1"], row["player2"]) == report.score.players
        assert row["colors"] == "".join(report.score.colors)
        assert row["header_Event"] == game.header("Event")
        if game.errors:
            assert row["score1"] is None and row["moves"] is None and row["winner"] is None
            continue
        assert (row["score1"], row["score2"]) == report.score.totals
        assert row["complete"] == report.complete
        assert row["moves"] == [format_move(m) for m in game.moves]
        assert row["move_count"] == len(game.moves)
        by_player = {(e["player"], e["color"]): e for e in row["expeditions"]}
        for p in (0, 1):
            for color, points in report.score.by_color(p).items():
                cards = report.state.expedition(p, color)
                assert (by_player[(p + 1, color)]["score"], by_player[(p + 1, color)]["cards"],
                        by_player[(p + 1, color)]["wagers"]) == (
                    points, len(cards), sum(1 for c in cards if c.is_handshake))
        if game.header("Hand1") is not None:
            assert " ".join(row["hand1"]) == game.header("Hand1")
            assert " ".join(row["deck"]) == game.header("Deck")


def test_typed_headers(exported: Tuple[Path, Path]) -> None:
    rows = table(exported[1], GAMES).to_pylist()
    last = rows[-1]
    import datetime

    assert (last["date"], last["year"], last["round"]) == (datetime.date(2026, 11, 29), 2026, 3)
    wrong = rows[-3]
    assert (wrong["result"], wrong["result1"], wrong["result2"]) == ("9-9", 9, 9)
    assert wrong["errors"] == 1 and wrong["readable"] and not wrong["complete"]


def test_the_plies_replay_each_game(exported: Tuple[Path, Path]) -> None:
    games = {r["byte_offset"]: r for r in table(exported[1], GAMES).to_pylist()}
    plies: Dict[int, List[Dict[str, Any]]] = {}
    for row in table(exported[1], PLIES).to_pylist():
        plies.setdefault(row["byte_offset"], []).append(row)
    readable = [g for g in games.values() if g["readable"]]
    assert set(plies) == {g["byte_offset"] for g in readable if g["move_count"]}
    for offset, rows in plies.items():
        game = games[offset]
        assert [r["ply"] for r in rows] == list(range(1, game["move_count"] + 1))
        assert [r["player"] for r in rows] == [1 + i % 2 for i in range(len(rows))]
        spelled = [f"{r['card']}{'D' if r['discard'] else ''}-{r['draw']}" for r in rows]
        assert spelled == game["moves"]
        last = rows[-1]
        final = ((last["score_after"], last["opponent_score_after"]) if last["player"] == 1
                 else (last["opponent_score_after"], last["score_after"]))
        assert final == (game["score1"], game["score2"])
        assert all(r["digest"] == game["digest"] and r["game"] == game["game"] for r in rows)


def test_partitions_round_trip_and_keep_their_values(tmp_path: Path) -> None:
    """Names with a slash, an equals sign, a percent sign, accents, and a
    game without the header (null): each its folder, all read back."""
    text = "\n".join(format_game(generate_game(i, players=(name, "Bob")))
                     for i, name in enumerate(["Ann", "A/B", "x=y", "50%", "Zoë", "Ann"]))
    text += '\n[Event "no players"]\n1. R3-D\n'
    source = tmp_path / "p.lcn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    export_parquet([str(source)], str(out), partition_by=("player1", "complete"))
    folders = sorted(p.parent.relative_to(out / GAMES).as_posix()
                     for p in (out / GAMES).rglob("*.parquet"))
    assert "player1=A%2FB/complete=true" in folders and "player1=x%3Dy/complete=true" in folders
    assert any(f.startswith("player1=Player%201/") for f in folders)
    assert imported(out)[0] == source.read_bytes()
    rows = table(out, GAMES).to_pylist()
    assert sorted(str(r["player1"]) for r in rows) == sorted(
        ["Ann", "A/B", "x=y", "50%", "Zoë", "Ann", "Player 1"])
    plies = table(out, PLIES)
    assert set(plies.column_names) >= {"player1", "complete", "score_after"}


def test_a_table_of_another_program(tmp_path: Path, exported: Tuple[Path, Path]) -> None:
    """DuckDB writes the games of one player, in any order, to a Parquet file:
    importing it gives their records in file order."""
    duckdb = pytest.importorskip("duckdb")
    source, out = exported
    chosen = tmp_path / "ann.parquet"
    duckdb.sql(f"COPY (SELECT source, byte_offset, record FROM '{out}/games/*.parquet' "
               f"WHERE player1 = 'Ann' ORDER BY byte_offset DESC) TO '{chosen}' (FORMAT parquet)")
    back, report = imported(chosen)
    expected = b"".join(e.raw for e in scan(str(source)) if e.game().header("Player1") == "Ann")
    assert back == expected and report.problems == []
    with pytest.raises(ExportError, match="record"):
        duckdb.sql(f"COPY (SELECT source, byte_offset FROM '{out}/games/*.parquet') TO "
                   f"'{tmp_path / 'bare.parquet'}' (FORMAT parquet)")
        imported(tmp_path / "bare.parquet")


def test_an_export_that_lost_rows_or_was_changed_is_not_imported(tmp_path: Path, run: Any
                                                                 ) -> None:
    source = tmp_path / "m.lcn"
    source.write_bytes(MATCH.read_bytes())
    assert run("export", "--to", "parquet", str(source), "-o", "out").status == 0
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    manifest["sources"][0]["ranges"][0]["sha256"] = "0" * 64
    (tmp_path / "out" / MANIFEST).write_text(json.dumps(manifest))
    ran = run("import", "--from", "parquet", "out", "-o", "back.lcn")
    assert ran.status == 1 and "not those exported" in ran.err
    assert not (tmp_path / "back.lcn").exists()
    for part in (tmp_path / "out" / GAMES).glob("*.parquet"):
        data = pq.read_table(part)
        pq.write_table(data.slice(1), part)  # the first game is lost
    ran = run("import", "--from", "parquet", "out", "-o", "back.lcn")
    assert ran.status == 1 and "have no record" in ran.err and not (tmp_path / "back.lcn").exists()


def test_a_newer_schema_is_refused(tmp_path: Path, run: Any) -> None:
    (tmp_path / "m.lcn").write_bytes(MATCH.read_bytes())
    assert run("export", "--to", "parquet", "m.lcn", "-o", "out").status == 0
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    manifest["schema_version"] = SCHEMA_VERSION + 1
    (tmp_path / "out" / MANIFEST).write_text(json.dumps(manifest))
    ran = run("import", "--from", "parquet", "out")
    assert ran.status == 2 and "upgrade lcnotation" in ran.err and ran.out == ""


# ---------------------------------------------------------------- the command line


def test_the_commands(tmp_path: Path, run: Any) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.lcn").write_bytes(MATCH.read_bytes())
    (tmp_path / "games" / "b.lcn").write_bytes(b"[Round \"1\"]\r\n1. R3-D 2. R11-D\r\n")
    ran = run("export", "--to", "parquet", "games", "-o", "out")
    assert ran.status == 1, ran.err  # one game could not be read
    lines = ran.err.splitlines()
    assert lines[0] == "lcn: games/b.lcn:2:13: N103 expected a rank (2 to 10, or H) after " \
                       "the colour 'R', found '11'"
    assert re.match(r"lcn: export: 4 games and \d+ plies written to out; 1 of the games could "
                    r"not be read: kept as their text only", lines[1]), lines
    back = run("import", "--from", "parquet", "out")
    assert back.status == 0 and back.err == ""
    assert back.out.encode() == MATCH.read_bytes() + b"[Round \"1\"]\r\n1. R3-D 2. R11-D\r\n"
    one = run("import", "--from", "parquet", "out", "--source", "games/b.lcn", "-o", "b.lcn")
    assert one.status == 0 and (tmp_path / "b.lcn").read_bytes() == (
        tmp_path / "games" / "b.lcn").read_bytes()
    none = run("import", "--from", "parquet", "out", "--source", "c.lcn")
    assert none.status == 1 and "--source c.lcn: no such file" in none.err


def test_usage_errors(tmp_path: Path, run: Any) -> None:
    (tmp_path / "m.lcn").write_bytes(MATCH.read_bytes())
    for argv, says in (
            (["export", "--to", "parquet", "m.lcn"], "-o DIR"),
            (["export", "--to", "parquet", "-", "-o", "x"], "standard input"),
            (["export", "--to", "parquet", "m.lcn", "-o", "x", "--partition-by", "moves"],
             "cannot partition by 'moves'"),
            (["export", "--to", "metapyziks", "m.lcn", "--partition-by", "year"],
             "collection formats"),
            (["import", "--from", "parquet", "nowhere"], "nowhere: cannot read"),
            (["import", "--from", "parquet", "m.lcn"], "cannot read the table")):
        ran = run(*argv)
        assert ran.status == 2 and says in ran.err and ran.out == "", (argv, ran.err)
    assert not (tmp_path / "x").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.lcn"]


def test_nothing_is_written_over_an_input(tmp_path: Path, run: Any) -> None:
    record = tmp_path / "m.lcn"
    record.write_bytes(MATCH.read_bytes())
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    for output in (record, full, tmp_path / "." / "m.lcn"):
        ran = run("export", "--to", "parquet", str(record), "-o", str(output))
        assert ran.status == 2 and "nothing written" in ran.err, ran.err
    assert record.read_bytes() == MATCH.read_bytes() and os.listdir(full) == ["keep.txt"]
    assert run("export", "--to", "parquet", str(record), "-o", "out").status == 0
    part = next((tmp_path / "out" / GAMES).glob("*.parquet"))
    before = part.read_bytes()
    ran = run("import", "--from", "parquet", str(part), "-o", str(part))
    assert ran.status == 2 and "input" in ran.err and part.read_bytes() == before
    ran = run("export", "--to", "parquet", str(record), "-o", "out")
    assert ran.status == 2 and "not empty" in ran.err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_export_that_fails_leaves_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    import lcnotation.arrow.writer as writer

    source = tmp_path / "m.lcn"
    source.write_bytes(MATCH.read_bytes())
    calls = []

    def fails(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "write_manifest", fails)
    with pytest.raises(KeyboardInterrupt):
        export_parquet([str(source)], str(tmp_path / "out"))
    assert calls and sorted(p.name for p in tmp_path.iterdir()) == ["m.lcn"]


def test_lint_does_not_load_pyarrow() -> None:
    """``lcnotation.formats`` is loaded for the registry, not pyarrow."""
    import subprocess
    import sys

    code = ("import contextlib, io, sys\nfrom lcnotation.cli import main\n"
            "from lcnotation.formats import FORMATS\nassert 'parquet' in FORMATS\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['lint', '--no-progress', {str(MATCH)!r}])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pyarrow', 'dask', 'distributed', 'duckdb', 'polars')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "[]"


# ---------------------------------------------------------------- the schema


def spec_tables() -> Dict[str, List[Tuple[str, str, bool]]]:
    """The column tables of spec/parquet.md: name, type, nullable."""
    found: Dict[str, List[Tuple[str, str, bool]]] = {}
    current: Optional[str] = None
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## \d\. The (\w+) table", line)
        if heading:
            current = heading.group(1)
            found[current] = []
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if current and line.startswith("| `") and len(cells) == 4:
            found[current].append((cells[0].strip("`"), cells[1].strip("`"), cells[2] == "yes"))
    return found


@pytest.mark.parametrize("name, schema", [(GAMES, games_schema()), (PLIES, plies_schema())])
def test_the_spec_describes_every_column(name: str, schema: Any) -> None:
    assert spec_tables()[name] == [(f.name, type_text(f.type), f.nullable) for f in schema]


def test_the_files_carry_the_schema_version(exported: Tuple[Path, Path]) -> None:
    for name in (GAMES, PLIES):
        part = next((exported[1] / name).glob("*.parquet"))
        metadata = pq.read_schema(part).metadata
        assert metadata[b"lcnotation.schema_version"] == str(SCHEMA_VERSION).encode()
        assert metadata[b"lcnotation.table"] == name.encode()
        assert pq.read_schema(part).names == [f.name for f in
                                              (games_schema(("Event",)) if name == GAMES
                                               else plies_schema())]


# ---------------------------------------------------------------- queries


def stats_of(path: Path) -> Dict[str, Any]:
    """What ``lcn stats --format json`` says of the file."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "lcnotation", "stats", "--format", "json",
                           str(path)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    figures: Dict[str, Any] = json.loads(done.stdout)
    return figures


PERCENTILES = (0, 5, 10, 25, 50, 75, 90, 95, 100)


def duckdb_figures(out: Path) -> Dict[str, Any]:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.sql(f"CREATE VIEW games AS SELECT * FROM '{out}/games/**/*.parquet'")
    con.sql("CREATE VIEW results AS SELECT * FROM games WHERE errors = 0")

    def one(query: str) -> Any:
        return con.execute(query).fetchone()

    figures: Dict[str, Any] = {}
    figures["games"], figures["unusable"] = one(
        "SELECT count(*), count(*) FILTER (errors > 0) FROM games")
    figures["results"], figures["complete"], figures["moves"] = one(
        "SELECT count(*), count(*) FILTER (complete), sum(move_count) FROM results")
    figures["mean_length"], wins, losses, draws = one(
        "SELECT avg(move_count), count(*) FILTER (winner = 1), count(*) FILTER (winner = 2), "
        "count(*) FILTER (winner = 0) FROM results WHERE complete")
    n = figures["complete"]
    z = 1.959963984540054
    low, high = one(  # the Wilson interval, in SQL
        f"SELECT (p + {z}^2/(2*n) - {z}*sqrt(p*(1-p)/n + {z}^2/(4*n*n))) / (1 + {z}^2/n), "
        f"(p + {z}^2/(2*n) + {z}*sqrt(p*(1-p)/n + {z}^2/(4*n*n))) / (1 + {z}^2/n) "
        f"FROM (SELECT {wins}/{n} AS p, {n} AS n)")
    figures["first_mover"] = {"games": n, "wins": wins, "losses": losses, "draws": draws,
                              "rate": wins / n, "interval": [low, high]}
    seats = ("SELECT player1 AS name, score1 AS score, complete, winner = 1 AS won, "
             "winner = 2 AS lost, winner = 0 AS drawn FROM results UNION ALL "
             "SELECT player2, score2, complete, winner = 2, winner = 1, winner = 0 FROM results")
    figures["players"] = {
        name: {"games": games, "wins": wins, "losses": losses, "draws": draws,
               "mean_score": mean}
        for name, games, wins, losses, draws, mean in con.execute(
            f"SELECT name, count(*), count(*) FILTER (won), count(*) FILTER (lost), "
            f"count(*) FILTER (drawn), avg(score) FROM ({seats}) GROUP BY name").fetchall()}
    quantiles = ", ".join(f"quantile_cont(score, {p / 100})" for p in PERCENTILES)
    figures["scores"] = dict(zip(map(str, PERCENTILES), one(
        f"SELECT {quantiles} FROM (SELECT score1 AS score FROM results UNION ALL "
        f"SELECT score2 FROM results)")))
    figures["colors"] = {
        color: {"expeditions": expeditions, "opened": opened, "mean_score": mean,
                "bonus": bonus}
        for color, expeditions, opened, mean, bonus in con.execute(
            "SELECT e.color, count(*), count(*) FILTER (e.cards > 0), "
            "avg(e.score) FILTER (e.cards > 0), count(*) FILTER (e.cards >= 8) "
            "FROM (SELECT unnest(expeditions) AS e FROM results) GROUP BY e.color").fetchall()}
    return figures


def polars_figures(out: Path) -> Dict[str, Any]:
    pl = pytest.importorskip("polars")
    games = pl.scan_parquet(f"{out}/games/**/*.parquet", hive_partitioning=True)
    results = games.filter(pl.col("errors") == 0)
    complete = results.filter(pl.col("complete"))
    figures: Dict[str, Any] = {
        "games": games.select(pl.len()).collect().item(),
        "unusable": games.filter(pl.col("errors") > 0).select(pl.len()).collect().item(),
        "results": results.select(pl.len()).collect().item(),
        "complete": complete.select(pl.len()).collect().item(),
        "moves": results.select(pl.col("move_count").sum()).collect().item(),
        "mean_length": complete.select(pl.col("move_count").mean()).collect().item(),
    }
    outcome = complete.select((pl.col("winner") == 1).sum().alias("wins"),
                              (pl.col("winner") == 2).sum().alias("losses"),
                              (pl.col("winner") == 0).sum().alias("draws")).collect().row(0)
    figures["first_mover"] = dict(zip(("wins", "losses", "draws"), outcome))
    seats = pl.concat([
        results.select(pl.col("player1").alias("name"), pl.col("score1").alias("score"),
                       (pl.col("winner") == 1).alias("won"), (pl.col("winner") == 2).alias("lost"),
                       (pl.col("winner") == 0).alias("drawn")),
        results.select(pl.col("player2").alias("name"), pl.col("score2").alias("score"),
                       (pl.col("winner") == 2).alias("won"), (pl.col("winner") == 1).alias("lost"),
                       (pl.col("winner") == 0).alias("drawn"))])
    per = seats.group_by("name").agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"),
                                     pl.col("lost").sum().alias("losses"),
                                     pl.col("drawn").sum().alias("draws"),
                                     pl.col("score").mean().alias("mean_score")).collect()
    figures["players"] = {row.pop("name"): row for row in per.to_dicts()}
    scores = seats.select("score").collect()["score"]
    figures["scores"] = {str(p): scores.quantile(p / 100, interpolation="linear")
                         for p in PERCENTILES}
    opened = (results.select(pl.col("expeditions")).explode("expeditions").unnest("expeditions")
              .filter(pl.col("cards") > 0).group_by("color")
              .agg(pl.len().alias("opened"), pl.col("score").mean().alias("mean_score"),
                   (pl.col("cards") >= 8).sum().alias("bonus")).collect())
    figures["colors"] = {row.pop("color"): row for row in opened.to_dicts()}
    return figures


def assert_agrees(got: Dict[str, Any], stats: Dict[str, Any]) -> None:
    """Every figure of ``got`` (computed from the tables) is that of ``lcn stats``."""
    def same(mine: Any, theirs: Any, where: str) -> None:
        if isinstance(mine, float) or isinstance(theirs, float):
            assert mine == pytest.approx(theirs), where
        elif isinstance(mine, list):
            assert mine == pytest.approx(theirs), where
        else:
            assert mine == theirs, where

    for key in ("games", "unusable", "results", "complete", "moves", "mean_length"):
        same(got[key], stats[key], key)
    for key, value in got["first_mover"].items():
        same(value, stats["first_mover"][key], f"first_mover {key}")
    assert set(got["players"]) == set(stats["players"])
    for name, figures in got["players"].items():
        for key, value in figures.items():
            same(value, stats["players"][name][key], f"{name} {key}")
    same(list(got["scores"].values()), list(stats["scores"]["percentiles"].values()), "scores")
    assert list(got["scores"]) == list(stats["scores"]["percentiles"])
    assert set(got["colors"]) == set(stats["colors"])
    for color, figures in got["colors"].items():
        for key, value in figures.items():
            same(value, stats["colors"][color][key], f"{color} {key}")


def test_duckdb_gets_the_figures_of_lcn_stats(exported: Tuple[Path, Path]) -> None:
    source, out = exported
    stats = stats_of(source)
    assert stats["unusable"] == 2 and stats["complete"] < stats["results"]
    assert_agrees(duckdb_figures(out), stats)


def test_polars_gets_the_figures_of_lcn_stats(exported: Tuple[Path, Path]) -> None:
    source, out = exported
    assert_agrees(polars_figures(out), stats_of(source))


def test_without_pyarrow_the_commands_say_what_to_install(tmp_path: Path, run: Any,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import importlib.util
    import sys

    import lcnotation.formats.parquet as parquet

    (tmp_path / "m.lcn").write_bytes(MATCH.read_bytes())
    real = importlib.util.find_spec
    monkeypatch.setattr(parquet.importlib.util, "find_spec",
                        lambda name, *a: None if name in ("pyarrow", "distributed")
                        else real(name, *a))
    ran = run("export", "--to", "parquet", "m.lcn", "-o", "out")
    assert ran.status == 2 and "pip install 'lcnotation[arrow]'" in ran.err
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("lcnotation.arrow")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow fails
    (tmp_path / "export").mkdir()
    ran = run("import", "--from", "parquet", "export", "-o", "back.lcn")
    assert ran.status == 2 and "pip install 'lcnotation[arrow]'" in ran.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export", "m.lcn"]
