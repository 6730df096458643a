"""One large file linted in several processes gives what one process gives.

The file is cut in bytes at game boundaries, and each worker reads its own
piece (lcnotation/lostcities/parallel.py); these tests cut small files into
many small pieces, so that every kind of place a cut can fall is met, and
compare the findings, their order, positions, messages and fixes, and the
counts with lint_file's (and the output of lcn fmt, score and convert with
that of one process): line ends of every kind, a byte-order mark, bytes that
are not UTF-8, a discard marker that changes between pieces.
"""

from __future__ import annotations

import io
from typing import List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lcnotation import format_game, generate_game
from lcnotation.core.lint import LintConfig
from lcnotation.lostcities import parallel
from lcnotation.lostcities.text.reader import decoded_lines, split_games
from lcnotation.tools.lint import lint_file, lint_file_emitting
from strategies import examples, record_files
from test_fused import mutated


def _both(path, config=None, jobs=2):
    whole = lint_file(str(path), config)
    emitted: List = []
    report = lint_file_emitting(str(path), config, emitted.extend, jobs=jobs)
    return whole, report, emitted


def _same(whole, report, emitted):
    assert [(f.diagnostic, f.diagnostic.span, f.diagnostic.path, f.fix) for f in emitted] == [
        (f.diagnostic, f.diagnostic.span, f.diagnostic.path, f.fix) for f in whole.findings]
    assert (report.games, report.moves, report.unreadable) == (
        whole.games, whole.moves, whole.unreadable)


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few hundred characters, and every file parallel."""
    from lcnotation.core import notation

    monkeypatch.setattr(parallel, "PIECE", 300)
    monkeypatch.setattr(notation, "PARALLEL_BYTES", 0)


def _cuts(path):
    """The pieces ``path`` is cut into (``PIECE`` as the test sets it)."""
    import os

    with open(path, "rb") as handle:
        return list(parallel.cuts(handle, os.path.getsize(path)))


def _games(seeds, dialects) -> str:
    return "\n".join(format_game(generate_game(s, deal=s % 2 == 0), d)
                     for s, d in zip(seeds, dialects))


@pytest.mark.parametrize("dialects", [["v1"] * 8, ["x-discard"] * 8, ["lower"] * 8,
                                      ["v1", "x-discard"] * 4, ["x-discard", "v1"] * 4])
def test_a_file_cut_in_pieces_gives_the_findings_of_one_process(tmp_path, small_pieces,
                                                                  dialects):
    path = tmp_path / "games.lcn"
    text = _games(range(8), dialects).replace("\n7. ", "\n8. ", 3) + "\n1. r3-d\r\n"
    path.write_bytes(text.encode("utf-8") + b"\n[Event \"\xff\"]\n")
    assert len(_cuts(path)) > 4  # the file is really cut
    _same(*_both(path))
    _same(*_both(path, LintConfig(dialect="x-discard", select=("S",))))


def _split_both_ways(path):
    """The games of the file ``path`` split whole, and split piece by piece as
    the workers read the pieces: text, line, offset and decoding problems."""
    def key(part):
        return (part.text, part.line, part.offset,
                [(p.code, p.span, p.message) for p in part.problems])

    with open(path, "rb") as handle:
        source = parallel.source_of(handle)
        whole = [key(g) for g in split_games(decoded_lines(handle))]
    assert source is not None
    cut = [key(g) for c in _cuts(path)
           for g in split_games(parallel.cut_items(source, c), c.line, c.offset)]
    return whole, cut


def test_the_pieces_are_the_games_split_whole(tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    path.write_text(_games(range(6), ["v1"] * 6), encoding="utf-8")
    whole, cut = _split_both_ways(path)
    assert cut == whole and len(_cuts(path)) > 4


@examples(60)
@given(data=st.lists(record_files(), min_size=1, max_size=4), step=st.integers(1, 400))
def test_pieces_read_by_the_workers_are_the_file_split_whole(tmp_path_factory, data, step):
    """Any bytes (line ends of every kind and mixed, a byte-order mark, bytes
    that are not UTF-8): the games of the pieces, decoded each on its own
    from where it stands, are those of the file read whole."""
    import unittest.mock

    path = tmp_path_factory.mktemp("split") / "games.lcn"
    path.write_bytes(b"\n".join(data))
    with unittest.mock.patch.object(parallel, "PIECE", step):
        whole, cut = _split_both_ways(path)
    assert cut == whole


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4))
def test_mutated_files_in_pieces(tmp_path, small_pieces, texts):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    _same(*_both(path))


@examples(25)
@given(data=st.lists(record_files(), min_size=1, max_size=4), step=st.integers(1, 400),
       held=st.sampled_from([0, 3, parallel.HELD]))
def test_any_bytes_linted_in_pieces_give_the_findings_of_one_process(tmp_path_factory, data,
                                                                     step, held):
    """Line ends of every kind and mixed, a byte-order mark, bytes that are
    not UTF-8, cut anywhere: the workers place their pieces from what the
    pieces before them counted, S107 is made of the pieces' counts (or, past
    ``HELD`` findings held for it, of the file read ahead) and goes where one
    process puts it."""
    import unittest.mock

    from lcnotation.core import notation

    path = tmp_path_factory.mktemp("lint") / "games.lcn"
    path.write_bytes(b"\n".join(data))
    with unittest.mock.patch.object(parallel, "PIECE", step), \
            unittest.mock.patch.object(parallel, "HELD", held), \
            unittest.mock.patch.object(notation, "PARALLEL_BYTES", 0):
        _same(*_both(path))


class _CountedFile(io.FileIO):
    """A file that counts the bytes read from it."""

    got = 0

    def read(self, size=-1):
        data = super().read(size)
        self.got += len(data or b"")
        return data

    def readinto(self, buffer):
        n = super().readinto(buffer)
        self.got += n or 0
        return n

    def readall(self):
        data = super().readall()
        self.got += len(data)
        return data


@pytest.mark.parametrize("variant", ["lf", "mixed", "bom-crlf"])
def test_the_main_process_reads_only_around_the_cuts(tmp_path, monkeypatch, variant):
    """-j 2's main process finds the cuts (a few KB read around each) and
    leaves the pieces to the workers, line ends and all: it does not read
    the file through (nor does it for S107, when the findings held for it
    are few)."""
    monkeypatch.setattr(parallel, "PIECE", 1 << 14)
    path = tmp_path / "games.lcn"
    path.write_bytes(VARIANTS[variant] * 40)
    emitted: List = []
    with _CountedFile(str(path), "rb") as handle:
        report = parallel.lint_stream_parallel(handle, str(path), LintConfig(), 2,
                                               emitted.extend)
        got = handle.got
    size = path.stat().st_size
    assert len(_cuts(path)) > 8 and got < size / 4
    whole = lint_file(str(path))
    _same(whole, report, emitted)
    assert ("S107" in [f.diagnostic.code for f in emitted]) == (variant == "mixed")


def test_the_board_sums_the_pieces_before_and_tells_a_piece_that_could_not_be_read():
    board = parallel._Board(4)
    board.tell(0, 3, 40)
    board.tell(1, 0, 0)
    board.tell(2, 5, 7)
    assert [board.before(i) for i in (0, 1, 2, 3)] == [(0, 0), (3, 40), (3, 40), (8, 47)]
    board = parallel._Board(3)
    board.tell(0, 1, 1)
    board.fail(1)
    with pytest.raises(OSError):
        board.before(2)
    assert board.before(1) == (1, 1)


def test_without_fork_a_file_is_linted_in_this_process(tmp_path, small_pieces, monkeypatch):
    import os

    def refused(*args, **kwargs):
        raise AssertionError("no workers without fork")

    path = tmp_path / "games.lcn"
    path.write_bytes(VARIANTS["mixed"])
    whole = lint_file(str(path))
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(parallel, "mapped", refused)
    emitted: List = []
    with open(path, "rb") as handle:
        report = parallel.lint_stream_parallel(handle, str(path), LintConfig(), 2,
                                               emitted.extend)
    _same(whole, report, emitted)


def _children_of_this_process():
    import os

    return _children(os.getpid()) if os.path.isdir("/proc") else []


@pytest.fixture
def new_children():
    """The children of this process that were not there when the test began:
    another test in the same worker may have left a long-lived helper of its
    own (multiprocessing's resource tracker), which is not a worker of ours."""
    before = set(_children_of_this_process())
    return lambda: sorted(set(_children_of_this_process()) - before)


def test_forked_workers_give_the_results_in_order_and_are_reaped(new_children):
    """mapped(forked=True): the workers are this process's forks, ``extra``
    theirs from the start (a closure, which could not be pickled), and the
    results come in the order of the cuts, however long each took."""
    import time

    seen = []

    def work(job):
        cut, (scale, record) = job
        time.sleep(0.002 * (cut % 3))
        record(cut)  # in the worker: this process's list is not touched
        return cut * scale

    done = list(parallel.mapped(range(40), 2, work, (3, seen.append), forked=True))
    assert done == [(i, 3 * i) for i in range(40)] and seen == []
    assert new_children() == []


def test_a_forked_worker_s_exception_is_raised_here_and_every_worker_ends(new_children):
    import errno

    def work(job):
        cut, _ = job
        if cut == 5:
            raise OSError(errno.ESTALE, "the file changed", "a.lcn")
        return cut

    done = parallel.mapped(range(20), 2, work, None, forked=True)
    got = []
    with pytest.raises(OSError) as caught:
        for cut, result in done:
            got.append(result)
    assert got == [0, 1, 2, 3, 4] and caught.value.errno == errno.ESTALE
    assert caught.value.filename == "a.lcn"
    assert new_children() == []


def test_a_forked_worker_that_dies_is_said_not_waited_for(new_children):
    import errno
    import os
    import signal

    def work(job):
        cut, _ = job
        if cut == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return cut

    with pytest.raises(OSError) as caught:
        list(parallel.mapped(range(10), 2, work, None, forked=True))
    assert caught.value.errno == errno.ECHILD and "ended before it was done" in str(caught.value)
    assert new_children() == []


def test_lcn_lint_j2_does_not_load_multiprocessing(tmp_path):
    """lcn lint -j 2 forks its workers itself: multiprocessing and
    concurrent.futures are not imported (their import alone was some 73 M
    instructions)."""
    import os
    import subprocess
    import sys

    path = tmp_path / "games.lcn"
    path.write_bytes(VARIANTS["lf"] * 3)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = (
        "import sys\n"
        "from lcnotation.core import notation\n"
        "from lcnotation.lostcities import parallel\n"
        "notation.PARALLEL_BYTES = 0\n"
        "parallel.PIECE = 300\n"
        "from lcnotation.cli import main\n"
        "try:\n"
        f"    main(['lint', '--no-progress', '-j', '2', {str(path)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('multiprocessing', "
        "'concurrent'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root})
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


def test_lcn_lint_j2_on_one_file_prints_what_j1_prints(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    one = run("lint", "--no-progress", "-j", "1", str(path))
    two = run("lint", "--no-progress", "-j", "2", str(path))
    assert two == one and "S102" in one.out
    for fmt in ("json", "github", "sarif"):
        assert run("lint", "-j", "2", "--output-format", fmt, str(path)) == run(
            "lint", "-j", "1", "--output-format", fmt, str(path))


def test_lcn_score_j2_prints_what_j1_prints(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    text = _games(range(9), ["v1", "lower", "x-discard"] * 3)
    text = text.replace("\n5. ", "\n5. R11-D ", 1).replace('[Result "', '[Result "7', 1)
    path.write_text(text, encoding="utf-8")
    for fmt in ("text", "json"):
        one = run("score", "-j", "1", "--format", fmt, str(path))
        two = run("score", "-j", "2", "--format", fmt, str(path))
        assert two == one and one.status == 1 and "game 1 is not a result" in one.err
    assert "game 9" in run("score", "-j", "2", str(path)).out


# ---------------------------------------------------------------- lcn fmt -j N


def _formatted_both_ways(path, dialect=None, force=False):
    """format_stream and format_stream_parallel of ``path``: what each wrote
    and found, or the exception each raised (its type and message)."""
    import io

    from lcnotation.lostcities.reformat import format_stream, format_stream_parallel

    outcomes = []
    for run in (lambda h, w: format_stream(h, "a.lcn", dialect, force, w),
                lambda h, w: format_stream_parallel(h, "a.lcn", dialect, force, 2, w)):
        out = io.BytesIO()
        with open(path, "rb") as handle:
            try:
                found = run(handle, out.write)
                outcomes.append((found, out.getvalue()))
            except (ValueError, OSError) as exc:
                outcomes.append((type(exc), str(exc), getattr(exc, "span", None)))
    return outcomes


@pytest.mark.parametrize("dialects", [["v1"] * 8, ["x-discard"] * 8, ["lower"] * 8,
                                      ["v1", "x-discard"] * 4, ["x-discard", "v1"] * 4])
@pytest.mark.parametrize("dialect", [None, "x-discard"])
def test_fmt_of_a_file_in_pieces_writes_what_one_process_writes(tmp_path, small_pieces,
                                                                 dialects, dialect):
    path = tmp_path / "games.lcn"
    text = _games(range(8), dialects)
    path.write_text(text.replace("\n\n", "\n\n\n").replace("\n", "\r\n"), encoding="utf-8")
    assert len(_cuts(path)) > 4
    one, two = _formatted_both_ways(path, dialect)
    assert two == one and one[0].changed


@pytest.mark.parametrize("force", [False, True])
def test_fmt_in_pieces_refuses_and_keeps_what_one_process_does(tmp_path, small_pieces, force):
    games = _games(range(8), ["v1"] * 8).split("\n\n[")
    games[3] = games[3].replace("\n1. ", "\n1. R99-D ", 1)       # a syntax error in game 4
    games[6] = games[6].replace("\n1. ", "\n1. {open ", 1)       # and in game 7
    path = tmp_path / "games.lcn"
    path.write_text("\n\n[".join(games), encoding="utf-8")
    one, two = _formatted_both_ways(path, None, force)
    assert two == one
    if force:
        assert [note.split(":")[2] for note in one[0].kept] == [" game 4 kept as written",
                                                                " game 7 kept as written"]
    else:
        assert "not formatted: 1 syntax error" in one[1]
    path.write_bytes(path.read_bytes().replace(b"R99-D", b"R\xff", 1))
    assert _formatted_both_ways(path, None, True)[1] == _formatted_both_ways(path, None,
                                                                            True)[0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4), st.booleans(),
       st.sampled_from([None, "x-discard", "lower"]))
def test_fmt_of_mutated_files_in_pieces(tmp_path, small_pieces, texts, force, dialect):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    one, two = _formatted_both_ways(path, dialect, force)
    assert two == one


def test_lcn_fmt_j2_does_what_j1_does(run, tmp_path, small_pieces):
    text = _games(range(10), ["v1", "lower"] * 5)
    for args in (["--check"], ["--diff"], []):
        results = []
        for jobs in ("1", "2"):
            path = tmp_path / f"games-{jobs}.lcn"
            path.write_text(text, encoding="utf-8")
            ran = run("fmt", "-j", jobs, *args, str(path))
            results.append((ran.status, ran.out.replace(f"games-{jobs}", "games"),
                            ran.err.replace(f"games-{jobs}", "games"), path.read_bytes()))
        assert results[1] == results[0]
    assert results[0][3] != text.encode("utf-8")  # the file was rewritten


# ---------------------------------------------------------------- lcn convert -j N


def _converted_both_ways(path, to, source=None):
    from lcnotation.lostcities.convert import convert_file

    outcomes = []
    for jobs in (1, 2):
        with open(path, "rb") as data:
            try:
                outcomes.append(b"".join(convert_file(data, to, source=source, path="a.lcn",
                                                      jobs=jobs)))
            except ValueError as exc:
                outcomes.append((type(exc), str(exc), [(e.code, e.span, e.message, e.path)
                                                       for e in getattr(exc, "errors", [])]))
    return outcomes


@pytest.mark.parametrize("to", ["x-discard", "lower", "v1", "json"])
@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
def test_convert_of_a_file_in_pieces_gives_what_one_process_gives(tmp_path, small_pieces, to,
                                                                   ends):
    path = tmp_path / "games.lcn"
    text = _games(range(8), ["v1", "x-discard"] * 4).replace("\n", ends)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    one, two = _converted_both_ways(path, to)
    assert two == one
    # Games that cannot be converted: every problem of the file, in its order.
    bad = text.replace(f"{ends}1. ", f"{ends}1. R99-D ", 2).replace("[Hand1", "[Hand1 x", 1)
    path.write_text(bad, encoding="utf-8", newline="")
    one, two = _converted_both_ways(path, to, "v1")
    assert two == one and len(one[2]) > 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4), st.sampled_from(["x-discard", "json"]))
def test_convert_of_mutated_files_in_pieces(tmp_path, small_pieces, texts, to):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    one, two = _converted_both_ways(path, to)
    assert two == one


def test_lcn_convert_j2_does_what_j1_does(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    for to in ("x-discard", "json"):
        one = run("convert", "-j", "1", "--to", to, str(path))
        two = run("convert", "-j", "2", "--to", to, str(path))
        assert two == one and one.status == 0 and one.out
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    one = run("convert", "-j", "1", "--to", "v1", "--from", "v1", str(path))
    assert run("convert", "-j", "2", "--to", "v1", "--from", "v1", str(path)) == one
    assert one.status == 1 and "not converted" in one.err


# ---------------------------------------------------------------- interrupted


def _children(pid):
    """The processes whose parent is ``pid``."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not __import__("os").path.isdir("/proc"), reason="needs /proc")
@pytest.mark.parametrize("command", [["lint", "--no-progress"], ["fmt", "--check"], ["score"],
                                     ["convert", "--to", "x-discard"]])
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_while_workers_run_ends_them_all(tmp_path, command, how):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or
    SIGTERM to lcn alone, while two workers run: exit 130 or 143, and no
    worker outlives it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from lcnotation.core.notation import PARALLEL_BYTES

    path = tmp_path / "large.lcn"
    games = _games(range(40), ["v1"] * 40) + "\n"
    # lint is the quickest of the four: it gets a larger file, to be still at work
    size = (8 if command[0] == "lint" else 2) * PARALLEL_BYTES
    path.write_text(games * (size // len(games) + 1), encoding="utf-8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "lcnotation", *command, "-j", "2", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            # pure Python: with the C accelerator the file may be
                            # linted before the signal comes
                            env={**os.environ, "PYTHONPATH": root, "LCNOTATION_PURE_PYTHON": "1"},
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers = []
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(0.1)  # they are at work
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == (130 if how == "SIGINT" else 143), err
    assert b"Traceback" not in err
    assert (b"interrupted" if how == "SIGINT" else b"terminated by SIGTERM") in err
    deadline = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)]


# ---------------------------------------------------------------- bytes of every kind


def _variants():
    """Files whose pieces meet each way bytes and text can differ: line ends
    of each kind (mixed too: S107, about the whole file), a byte-order mark,
    bytes that are not UTF-8, the file's discard marker changing."""
    text = _games(range(10), ["v1", "x-discard", "lower", "v1", "x-discard"] * 2)
    lines = text.split("\n")
    third = len(lines) // 3
    mixed = ("\n".join(lines[:third]) + "\n" + "\r\n".join(lines[third:2 * third]) + "\r\n"
             + "\n".join(lines[2 * third:]))
    bad = text.encode("utf-8")
    at = bad.index(b"\n1. ", len(bad) // 2)
    return {
        "lf": text.encode("utf-8"),
        "crlf": text.replace("\n", "\r\n").encode("utf-8"),
        "cr": text.replace("\n", "\r").encode("utf-8"),
        "mixed": mixed.encode("utf-8"),
        "bom-crlf": b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"),
        "not-utf8": bad[:at] + b"\n1. R\xff-D" + bad[at:],
        "accents": text.replace('"Ivo"', '"Iv\u00f6 \u00c9"').encode("utf-8"),
    }


VARIANTS = _variants()
COMMANDS = [["lint", "--no-progress"], ["lint", "--output-format", "json"],
            ["lint", "--select", "S"], ["fmt", "--check"], ["fmt", "--diff"], ["fmt"],
            ["fmt", "--force"], ["score"], ["score", "--format", "json"],
            ["convert", "--to", "x-discard"], ["convert", "--to", "json"]]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_j2_prints_and_writes_what_j1_does_for_bytes_of_every_kind(run, tmp_path, small_pieces,
                                                                     variant, command):
    data = VARIANTS[variant]
    results = []
    for jobs in ("1", "2"):
        path = tmp_path / f"games-{jobs}.lcn"
        path.write_bytes(data)
        if jobs == "2" and variant != "mixed":
            assert len(_cuts(path)) > 4
        ran = run(*command, "-j", jobs, str(path))
        results.append((ran.status, ran.out.replace(f"games-{jobs}", "games"),
                        ran.err.replace(f"games-{jobs}", "games"), path.read_bytes()))
    assert results[1] == results[0]


def test_stdin_and_small_files_stay_in_one_process(run, tmp_path, monkeypatch):
    """Standard input, and a file under the size from which -j N cuts it, are
    done in this process as with -j 1."""
    from lcnotation.core import notation

    def refused(*args, **kwargs):
        raise AssertionError("no workers for this input")

    monkeypatch.setattr(parallel, "mapped", refused)
    monkeypatch.setattr(parallel, "PIECE", 300)
    data = VARIANTS["crlf"]
    path = tmp_path / "games.lcn"
    path.write_bytes(data)
    assert len(data) < notation.PARALLEL_BYTES
    for command in COMMANDS[:3] + [["fmt", "--check"], ["score"], ["convert", "--to", "lower"]]:
        assert run(*command, "-j", "2", str(path)) == run(*command, "-j", "1", str(path))
        assert run(*command, "-j", "2", "-", stdin=data) == run(*command, "-j", "1", "-",
                                                                 stdin=data)


def test_a_stream_without_a_name_is_done_in_this_process(tmp_path, small_pieces):
    """Workers open the file again by its name: a stream that has none (or
    whose name is no longer that file) is done in this process."""
    import io

    from lcnotation.lostcities.convert import convert_file
    from lcnotation.lostcities.lint import lint_stream_emitting as lint_stream
    from lcnotation.lostcities.reformat import format_stream, format_stream_parallel

    data = VARIANTS["crlf"]
    assert parallel.source_of(io.BytesIO(data)) is None
    emitted: List = []
    report = parallel.lint_stream_parallel(io.BytesIO(data), "a.lcn", LintConfig(), 2,
                                           emitted.extend)
    again: List = []
    assert (report.games, emitted) == (lint_stream(io.BytesIO(data), "a.lcn", None,
                                                   again.extend).games, again)
    path = tmp_path / "a.lcn"
    path.write_bytes(data)
    one, two = io.BytesIO(), io.BytesIO()
    assert format_stream_parallel(io.BytesIO(data), "a.lcn", None, False, 2, two.write) == \
        format_stream(io.BytesIO(data), "a.lcn", None, False, one.write)
    assert two.getvalue() == one.getvalue()
    assert b"".join(convert_file(io.BytesIO(data), "lower", jobs=2)) == b"".join(
        convert_file(io.BytesIO(data), "lower"))
    with open(path, "rb") as handle:
        assert parallel.source_of(handle) is not None
        handle.read(10)  # not read from its start
        assert parallel.source_of(handle) is None
        handle.seek(0)
        path.unlink()  # its name no longer names it
        assert parallel.source_of(handle) is None
    path.write_bytes(b"\n" * 5 + data)
    with open(path, "rb") as handle:
        handle.seek(5)
        assert b"".join(convert_file(handle, "lower", jobs=2)) == b"".join(
            convert_file(io.BytesIO(data), "lower"))


def test_a_worker_refuses_a_file_put_in_its_place(tmp_path, small_pieces):
    """A file that changed after the main process looked at it (another
    program saved it) is not read as if it were the same: OSError, named."""
    import errno

    path = tmp_path / "a.lcn"
    path.write_bytes(VARIANTS["lf"])
    with open(path, "rb") as handle:
        source = parallel.source_of(handle)
        cut = _cuts(path)[1]
    assert source is not None
    path.write_bytes(VARIANTS["crlf"])
    with pytest.raises(OSError) as caught:
        parallel.cut_bytes(source, cut)
    assert caught.value.errno == errno.ESTALE and caught.value.filename == str(path)
    assert "changed while lcn was reading it" in str(caught.value)


def test_score_j2_checks_a_file_at_a_glance(run, tmp_path, small_pieces, monkeypatch):
    """lcn score reads a file through once before it scores it (a file that
    cannot be read to its end prints nothing but why); with -j N a quick look
    at the bytes does, and the reader's own pass only when that does not tell."""
    from lcnotation.cli import score
    from lcnotation.lostcities.text import reader

    for variant in ("crlf", "not-utf8", "bom-crlf"):
        path = tmp_path / f"{variant}.lcn"
        path.write_bytes(VARIANTS[variant])
        with open(path, "rb") as handle:
            glance = parallel.readable_at_a_glance(handle, len(VARIANTS[variant]))
        assert glance is (variant != "not-utf8")
    with open(tmp_path / "crlf.lcn", "rb") as handle:
        monkeypatch.setattr(reader, "MAX_GAME", 200)
        monkeypatch.setattr(parallel, "MAX_GAME", 200)
        assert not parallel.readable_at_a_glance(handle, len(VARIANTS["crlf"]))
    monkeypatch.undo()
    monkeypatch.setattr(parallel, "PIECE", 300)
    from lcnotation.core import notation

    monkeypatch.setattr(notation, "PARALLEL_BYTES", 0)
    one = run("score", "-j", "1", str(tmp_path / "crlf.lcn"))
    closely = []
    looked = score.readable_games
    monkeypatch.setattr(score, "readable_games", lambda path: closely.append(path) or looked(path))
    assert run("score", "-j", "2", str(tmp_path / "crlf.lcn")) == one and not closely
    bad = run("score", "-j", "2", str(tmp_path / "not-utf8.lcn"))
    assert closely and bad == run("score", "-j", "1", str(tmp_path / "not-utf8.lcn"))
    assert bad.status == 2 and "cannot read" in bad.err and not bad.out
