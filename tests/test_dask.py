"""Archives on Dask (issue 21, item 7): lint, stats and the Parquet export of
many files and of large files cut into byte ranges, on a
``distributed.LocalCluster`` of two worker processes, give exactly the
results of one process; every worker process ends, on failure and on
SIGTERM too.

The ranges are kept small here (a few kilobytes), so that a file of a few
hundred games is cut into dozens of them.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

distributed = pytest.importorskip("distributed")
pytest.importorskip("dask.bag")
pytest.importorskip("pyarrow")
psutil = pytest.importorskip("psutil")

import lcnotation.dask as lcd  # noqa: E402
from lcnotation.archive import StatsAccumulator, entry_stats, scan  # noqa: E402
from lcnotation.arrow.reader import import_parquet  # noqa: E402
from lcnotation.arrow.writer import export_parquet  # noqa: E402
from lcnotation.dask.ranges import measure_range, split_ranges  # noqa: E402
from lcnotation.lostcities.game.generator import generate_game  # noqa: E402
from lcnotation.lostcities.text.formatter import format_game  # noqa: E402
from lcnotation.lostcities.text.reader import read_games  # noqa: E402
from lcnotation.tools.lint import LintConfig, lint_file  # noqa: E402
from lcnotation.core.lineends import CountingReader  # noqa: E402
from strategies import examples, record_files  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Small ranges: dozens per file.
BLOCK = 4096


# ---------------------------------------------------------------- the ranges


@given(data=record_files(), step=st.integers(1, 400))
@examples(150)
def test_ranges_share_out_the_games_of_a_file(data: bytes, step: int) -> None:
    """Ranges cut at game boundaries cover the file; the games that begin in
    each are those of the whole file (bytes, positions, text, problems), the
    games and line ends counted in each add up to the file's."""
    handle = io.BytesIO(data)
    ranges = split_ranges(handle, len(data), step)
    assert ranges[0].start == 0 and ranges[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(ranges, ranges[1:]))

    def key(entry: Any) -> Tuple[Any, ...]:
        part = entry.text()
        return (entry.raw, entry.offset, entry.line, entry.char_offset, part.text,
                [(p.code, p.span, p.message) for p in part.problems])

    whole = [key(e) for e in scan(io.BytesIO(data))]
    got: List[Tuple[Any, ...]] = []
    crlf = cr = lf = 0
    for r in ranges:
        handle.seek(r.start)
        found = [key(e) for e in scan(handle, start=r.start, end=r.end)]
        counts = measure_range(handle, r.start, r.end)
        assert counts.games == len(found)
        crlf, cr, lf = crlf + counts.line_ends[0], cr + counts.line_ends[1], \
            lf + counts.line_ends[2]
        got += found
    assert got == whole
    counted = CountingReader(io.BytesIO(data))
    while counted.read(7):
        pass
    assert (crlf, cr, lf) == counted.counts


# ---------------------------------------------------------------- the files


def archive_text(n: int, seed: int) -> str:
    """Games of every kind: the first discards with D, later ones with X in
    places (S101 against the file's first marker), lower case, a syntax error,
    a broken rule, a suppression, six colours, incomplete games."""
    parts = []
    for i in range(n):
        game = generate_game(seed * 1000 + i, deal=i % 7 == 0,
                             turns=20 if i % 11 == 5 else None,
                             players=("Ann", "Bob") if i % 3 else ("Cy", "Ann"))
        dialect = "v1" if i % 4 else ("x-discard" if i % 8 else "lower")
        text = format_game(game, dialect if i else "v1")
        if i % 13 == 6:
            text = text.replace("\n1. ", "\n1. R11-D ", 1)
        if i % 17 == 9:
            text += "\nR2-D ; lcn: ignore[R101]\n"
        parts.append(text)
        if i % 19 == 3:
            parts.append('[Player1 "Ann"]\n[Player2 "Cy"]\n1. R7-D 2. B4-D 3. R4-D\n')
    return "\n".join(parts)


@pytest.fixture(scope="module")
def files(tmp_path_factory: Any) -> List[str]:
    folder = tmp_path_factory.mktemp("archive")
    big = folder / "big.lcn"
    text = archive_text(160, 1)
    lines = text.split("\n")
    # Mixed line ends (S107): CRLF in the middle third.
    third = len(lines) // 3
    big.write_bytes(("\n".join(lines[:third]) + "\n" + "\r\n".join(lines[third:2 * third])
                     + "\r\n" + "\n".join(lines[2 * third:])).encode("utf-8"))
    (folder / "bom-crlf.lcn").write_bytes(b"\xef\xbb\xbf" + archive_text(30, 2).replace(
        "\n", "\r\n").encode("utf-8"))
    (folder / "blank.lcn").write_bytes(b" \n\n")
    (folder / "empty.lcn").write_bytes(b"")
    (folder / "bad.lcn").write_bytes(b'[Round "1"]\n1. R3-D \xff\xfe 2. B4-D\n')
    return [str(folder / name) for name in
            ("big.lcn", "bom-crlf.lcn", "blank.lcn", "empty.lcn", "bad.lcn")]


def processes_of(pids: Set[int]) -> List[Any]:
    """The processes of ``pids`` still running (zombies are ended: reaped).
    Python's resource tracker, which ``multiprocessing`` starts for the
    process that starts workers and which ends with that process, does not
    count: it is not a worker (the tests of a cluster of its own see it end)."""
    alive = []
    for pid in pids:
        try:
            process = psutil.Process(pid)
            if process.status() != psutil.STATUS_ZOMBIE and not any(
                    "multiprocessing.resource_tracker" in part for part in process.cmdline()):
                alive.append(process)
        except psutil.NoSuchProcess:
            pass
    return alive


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A LocalCluster of two worker processes for the module's tests; closed
    at the end, every process it started checked to have ended."""
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    with lcd.connect("local:2") as made:
        workers = made.scheduler_info()["workers"]
        assert len(workers) == 2
        started = {p.pid for p in me.children(recursive=True)} - before
        assert len(started) >= 2  # the worker processes (and their nannies)
        yield made
    deadline = time.monotonic() + 30
    while processes_of(started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p.cmdline() for p in processes_of(started)] == []


def test_lint_on_the_cluster_is_lint(files: List[str], client: Any) -> None:
    config = LintConfig()
    reports = list(lcd.lint(files + ["missing.lcn"], lambda path: config, client=client,
                            blocksize=BLOCK))
    assert len(lcd.plan([files[0]], BLOCK).ranges) > 20
    for report, path in zip(reports, files):
        alone = lint_file(path, config)
        assert (report.path, report.games, report.moves) == (path, alone.games, alone.moves)
        assert report.findings == alone.findings, path
    codes = {f.diagnostic.code for f in reports[0].findings}
    assert {"S101", "S102", "S107", "N103", "R101", "S100"} <= codes
    assert reports[-1].unreadable == "No such file or directory"


def test_stats_on_the_cluster_are_the_stats(files: List[str], client: Any) -> None:
    total, unusable, unreadable = lcd.stats(files, client=client, blocksize=BLOCK)
    alone = StatsAccumulator()
    errors = []
    for path in files:
        for entry in scan(path):
            record = entry_stats(entry)
            alone.add(record)
            if record.error is not None:
                errors.append(record)
    assert total.summary() == alone.summary()
    assert unusable == errors
    assert unreadable == {} and total.unusable > 5


def rows(folder: Path, name: str) -> List[Dict[str, Any]]:
    import pyarrow.dataset as ds

    found = sorted(str(p) for p in (folder / name).rglob("*.parquet"))
    table = ds.dataset(found, format="parquet", partitioning="hive",
                       partition_base_dir=str(folder / name)).to_table()
    return sorted(table.to_pylist(), key=lambda r: (r["source"], r["byte_offset"],
                                                    r.get("ply", 0)))


def test_the_export_on_the_cluster_is_the_export(files: List[str], client: Any,
                                                 tmp_path: Path) -> None:
    refused: List[Any] = []
    report = lcd.export_parquet(files, str(tmp_path / "cluster"), client=client,
                                blocksize=BLOCK, partition_by=("player1",),
                                refused=refused.append)
    alone_refused: List[Any] = []
    alone = export_parquet(files, str(tmp_path / "alone"), partition_by=("player1",),
                           refused=alone_refused.append)
    assert (report.games, report.refused, report.plies) == (alone.games, alone.refused,
                                                            alone.plies)
    assert [(e.path, e.line, e.column) for e in refused] == [
        (e.path, e.line, e.column) for e in alone_refused]
    for name in ("games", "plies"):
        assert rows(tmp_path / "cluster", name) == rows(tmp_path / "alone", name)
    manifest = json.loads((tmp_path / "cluster" / "lcnotation.json").read_text())
    assert len(manifest["sources"][0]["ranges"]) > 20
    for path in files:
        out = io.BytesIO()
        back = import_parquet(str(tmp_path / "cluster"), out.write, sources=[path])
        assert back.problems == [] and out.getvalue() == Path(path).read_bytes()


def test_the_games_as_a_dask_bag(files: List[str], client: Any) -> None:
    bag = lcd.games(files, blocksize=BLOCK)
    assert bag.npartitions > 20
    moves = bag.map(lambda game: len(game.moves)).compute()
    assert moves == [len(g.moves) for path in files for g in read_games(path)]


def test_the_commands_with_a_scheduler_address(files: List[str], client: Any, run: Any,
                                               tmp_path: Path) -> None:
    address = client.scheduler.address
    for options in ([], ["--output-format", "json"]):
        alone = run("lint", "--no-progress", *options, *files)
        cluster = run("lint", "--no-progress", "--scheduler", address, *options, *files)
        assert cluster == alone and alone.status == 1
    for options in ([], ["--format", "json"]):
        alone = run("stats", *options, *files, "missing.lcn")
        cluster = run("stats", "--scheduler", address, *options, *files, "missing.lcn")
        assert cluster == alone and alone.status == 2 and "is not used" in alone.err
    ran = run("export", "--to", "parquet", "--scheduler", address, *files, "-o", "out")
    refused = [e for path in files for e in scan(path) if e.game().errors]
    assert ran.status == 1 and f" {len(refused)} of the games could not be read" in ran.err
    said = ran.err.splitlines()[:-1]
    assert said == [f"lcn: {e.path}:{e.game().errors[0].line}:{e.game().errors[0].column}: "
                    f"{e.game().errors[0].code} {e.game().errors[0].message}" for e in refused]
    assert said[-1].startswith(f"lcn: {files[-1]}:2:9: N001")
    back = run("import", "--from", "parquet", "out", "--source", files[0])
    assert back.status == 0 and back.out.encode() == Path(files[0]).read_bytes()


def test_a_scheduler_that_cannot_be_reached(files: List[str], run: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import lcnotation.dask.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    for argv in (["lint", "--scheduler", "tcp://127.0.0.1:9", files[0]],
                 ["stats", "--scheduler", "tcp://127.0.0.1:9", files[0]],
                 ["export", "--to", "parquet", "--scheduler", "tcp://127.0.0.1:9", files[0],
                  "-o", "out"]):
        ran = run(*argv)
        assert ran.status == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" \
            in ran.err and ran.out == "", ran.err
    assert not os.path.exists("out")
    ran = run("lint", "--scheduler", "local:0", files[0])
    assert ran.status == 2 and "local:N" in ran.err
    ran = run("lint", "--scheduler", "local", "--fix", files[0])
    assert ran.status == 2 and "--fix" in ran.err


# ---------------------------------------------------------------- a cluster of its own


def marked(marker: str) -> List[int]:
    """The processes whose environment holds ``marker``."""
    found = []
    for pid in psutil.pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(pid)
        except OSError:
            pass
    return [pid for pid in found if processes_of({pid})]


def lcn(argv: List[str], marker: str, cwd: Path) -> "subprocess.Popen[bytes]":
    env = dict(os.environ, LCN_TEST_MARKER=marker)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", "lcnotation", *argv], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_local_cluster_ends_with_the_command(files: List[str], tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    process = lcn(["lint", "-q", "--scheduler", "local:2", files[1]], marker, tmp_path)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    alone = subprocess.run([sys.executable, "-m", "lcnotation", "lint", "-q", files[1]],
                           capture_output=True, timeout=120, cwd=tmp_path,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out == alone.stdout
    deadline = time.monotonic() + 30
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marked(marker) == []


def test_sigterm_ends_the_workers_and_leaves_no_export(files: List[str],
                                                       tmp_path: Path) -> None:
    big = tmp_path / "big.lcn"
    big.write_bytes(Path(files[0]).read_bytes() * 40)
    marker = uuid.uuid4().hex
    process = lcn(["export", "--to", "parquet", "--scheduler", "local:2", str(big), "-o",
                   "out"], marker, tmp_path)
    deadline = time.monotonic() + 60
    while len(marked(marker)) < 3 and time.monotonic() < deadline:  # lcn and two workers
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    deadline = time.monotonic() + 30
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marked(marker) == []
    left = sorted(p.name for p in tmp_path.iterdir())
    if process.returncode == 0:  # it finished before the signal came: whole
        assert left == ["big.lcn", "out"]
    else:
        assert left == ["big.lcn"] and b"terminated by SIGTERM" in err
