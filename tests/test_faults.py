"""Fault injection, second round (issue 17): huge numbers, failed writes to
standard output, endless input, hostile text on the terminal, FIFOs and
pipes, owners and hard links, signals.

Each test holds a promise of ``spec/guarantees.md`` and was seen to fail on
the code before its fix.
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List

import pytest

from lcnotation import NotationError
from lcnotation.cli import main
from lcnotation.lostcities.game.checker import check
from lcnotation.lostcities.game.generator import generate_games
from lcnotation.lostcities.text.dialects import ConversionError
from lcnotation.lostcities.text import parser as parser_module
from lcnotation.lostcities.text.formatter import format_games
from lcnotation.lostcities.text.reader import parse_games, read_games
from lcnotation.lostcities.jsonform import from_json, to_json
from lcnotation.tools.lint import lint_text

FORMAT_DATA = Path(__file__).parent / "data" / "formats"
#: One digit more than Python's own limit for turning text into an int.
HUGE = "9" * 4301


# ---------------------------------------------------------------- huge numbers


def test_a_result_too_long_to_read_is_n122():
    text = f'[Result "{HUGE}-0"]\n1. R3-D'
    game = next(parse_games(text))
    report = check(game)
    assert [d.code for d in report.diagnostics if d.code.startswith("N")] == ["N122"]
    assert "4,301 digits" in report.diagnostics[0].message
    assert "N122" in [d.code for d in lint_text(text).diagnostics]


def test_leading_zeros_do_not_count_against_the_limit():
    text = f'[Result "{"0" * 5000}87-42"]\n1. R3-D'
    assert not [d for d in lint_text(text).diagnostics if d.code.startswith("N")]


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "lark"])
def test_a_move_number_too_long_to_read_is_a_syntax_error(fast):
    text = f"1. R3-D {HUGE}. B4-D 3. G5-D"
    game = next(parse_games(text, fast_path=fast))
    assert [e.code for e in game.errors] == ["N101"]
    error = game.errors[0]
    assert (error.span.start, error.span.end) == (8, 8 + len(HUGE) + 1)
    assert [m.number for m in game.moves] == [1, None, 3]
    with pytest.raises(NotationError):
        next(parse_games(text, strict=True))


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE])
def test_a_json_number_too_long_to_read_is_refused(value):
    document = json.loads(to_json(list(parse_games("1. R3-D"))))
    text = json.dumps(document).replace('"rank": 3', f'"rank": {value}')
    assert value in text
    with pytest.raises(ConversionError) as caught:
        from_json(text)
    assert [e.code for e in caught.value.errors] == ["J102"]
    assert "4,301 digits" in str(caught.value)


def test_lcn_on_numbers_too_long_to_read(run, tmp_path):
    (tmp_path / "a.lcn").write_text(f'[Result "{HUGE}-0"]\n1. R3-D\n')
    (tmp_path / "b.lcn").write_text("1. R3-D 2. B4-D 3. R2-D\n")
    ran = run("lint", ".")
    assert ran.status == 1
    assert "a.lcn:1:10: N122" in ran.out and "b.lcn:1:20: R101" in ran.out, ran.out
    ran = run("lint", ".", "--format", "sarif")
    assert {r["ruleId"] for r in json.loads(ran.out)["runs"][0]["results"]} >= {"N122", "R101"}
    (tmp_path / "c.json").write_text('{"format": "lcnotation", "version": %s, "games": []}' % HUGE)
    ran = run("convert", "c.json", "--to", "v1")
    assert ran.status == 1 and "4,301 digits" in ran.err


def test_a_configuration_holding_a_number_too_long_to_read(run, tmp_path):
    (tmp_path / "pyproject.toml").write_text(f"[tool.lcnotation]\nx = {HUGE}\n")
    (tmp_path / "a.lcn").write_text("1. R3-D\n")
    ran = run("lint", "a.lcn")
    assert ran.status == 2
    assert "pyproject.toml: cannot read configuration: a number is too long" in ran.err


# ---------------------------------------------------------------- failed writes to standard output


class FullDisk(io.RawIOBase):
    """A standard output on a full file system: every write fails with ENOSPC."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


OUTPUT_RUNS = [
    ["lint", "a.lcn"], ["lint", "a.lcn", "--format", "json"],
    ["lint", "a.lcn", "--format", "github"], ["lint", "a.lcn", "--format", "sarif"],
    ["lint", "a.lcn", "--fix"], ["score", "a.lcn"], ["score", "a.lcn", "--format", "json"],
    ["fmt", "-"], ["fmt", "a.lcn", "--diff"], ["fmt", "a.lcn", "--check"],
    ["convert", "a.lcn", "--to", "lower"], ["convert", "a.lcn", "--to", "json"],
]


@pytest.mark.parametrize("argv", OUTPUT_RUNS, ids=" ".join)
def test_a_failed_write_to_standard_output_is_one_line_and_status_2(
        capsys, monkeypatch, tmp_path, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.lcn").write_text("1. r3-d 2. b4-d\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1. r3-d\n")))
    out = io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert "lcn: cannot write the output: No space left on device" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["lint", "a.lcn"], ["fmt", "-"], ["score", "a.lcn"]],
                         ids=" ".join)
def test_the_real_command_writing_to_dev_full(tmp_path, argv):
    (tmp_path / "a.lcn").write_text("1. r3-d 2. b4-d\n")
    with open("/dev/full", "wb") as full, open(tmp_path / "a.lcn", "rb") as stdin:
        ran = subprocess.run([sys.executable, "-m", "lcnotation", *argv], cwd=tmp_path,
                             stdin=stdin, stdout=full, stderr=subprocess.PIPE)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.decode().splitlines() == [
        "lcn: cannot write the output: No space left on device"]


# ---------------------------------------------------------------- terminal and CI-command injection

#: Sets the terminal's title, clears the screen, and starts a GitHub command
#: on a line of its own; then a C1 control (CSI, U+009B) and a NEL (U+0085).
HOSTILE = "\x1b]0;owned\x07\x1b[2J\n::error file=x::injected\u009b2J\u0085"


def assert_inert(text: str) -> None:
    """Nothing in ``text`` drives a terminal or starts a workflow command."""
    assert not any(c in text for c in "\x1b\x07\u009b\u0085"), repr(text)
    assert not any(line.startswith("::error file=x") for line in text.splitlines()), text


@pytest.fixture
def hostile_file(tmp_path):
    name = "h\x1b[2J\n::error file=x::injected.lcn"
    record = f'[Event "{HOSTILE}"]\n[Player1 "A\x1b[31m\u009b"]\n1. r3-d 2. B4-D 3. \u009bG5-D\n'
    record = record.replace('\n::error', ' ::error')  # a header value is one line
    (tmp_path / name).write_text(record)
    return name


@pytest.mark.parametrize("argv", [["score"], ["score", "--format", "json"],
                                  ["fmt", "--diff", "--force"], ["fmt", "--check", "--force"], ["fmt", "--force"],
                                  ["lint"], ["lint", "--format", "json"],
                                  ["lint", "--format", "sarif"], ["lint", "--format", "github"]],
                         ids=" ".join)
def test_text_from_a_record_or_a_path_is_printed_inert(run, hostile_file, argv):
    ran = run(*argv, hostile_file)
    assert_inert(ran.out)
    assert_inert(ran.err)


def test_usage_errors_quote_arguments_inert(run):
    ran = run("lint", "--format", HOSTILE)
    assert ran.status == 2
    assert_inert(ran.err)
    ran = run("convert", "a.lcn", "--to", HOSTILE)
    assert ran.status == 2
    assert_inert(ran.err)
    ran = run("lint", "--select", HOSTILE)
    assert ran.status == 2
    assert_inert(ran.err)
    ran = run("lint", "a.lcn", "--bogus\x1b[2J\u009b")
    assert ran.status == 2
    assert_inert(ran.err)


# ---------------------------------------------------------------- FIFOs and pipes


@pytest.mark.parametrize("argv", [["lint"], ["lint", "-j", "2"], ["fmt", "--check"], ["score"]],
                         ids=" ".join)
def test_a_fifo_in_a_walked_folder_is_reported_not_read(tmp_path, argv):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.lcn").write_text("1. R3-D\n")
    os.mkfifo(tmp_path / "games" / "b.lcn")
    # A real process, so that a hang is a timeout and not a stuck test run.
    ran = subprocess.run([sys.executable, "-m", "lcnotation", *argv, "games"], cwd=tmp_path,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
    assert ran.returncode == 2, ran.stderr
    assert "b.lcn: cannot read: not a regular file (a FIFO)" in ran.stderr
    assert "Traceback" not in ran.stderr


@pytest.mark.parametrize("argv", [["convert", "--to", "lower"], ["convert", "--to", "json"],
                                  ["lint"], ["score"], ["fmt", "--check"]], ids=" ".join)
def test_a_pipe_named_on_the_command_line_is_read_as_a_stream(tmp_path, argv):
    """``lcn convert <(cat a.lcn)``: the shell passes /dev/fd/N, a pipe."""
    read, write = os.pipe()
    os.write(write, b"1. R3-D 2. B4-D\n")
    os.close(write)
    try:
        ran = subprocess.run([sys.executable, "-m", "lcnotation", *argv, f"/dev/fd/{read}"],
                             cwd=tmp_path, pass_fds=(read,), capture_output=True, text=True,
                             timeout=20)
    finally:
        os.close(read)
    assert "Traceback" not in ran.stderr and "seekable" not in ran.stderr, ran.stderr
    assert ran.returncode in (0, 1), ran.stderr
    if argv[0] == "convert":
        assert ran.returncode == 0 and ("r3-d" in ran.stdout or "R3-D" in ran.stdout)


# ---------------------------------------------------------------- owners and hard links


def test_a_rewrite_keeps_the_owner_and_group(run, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can make a file that belongs to another user")
    path = tmp_path / "a.lcn"
    path.write_text("1. r3-d\n")
    os.chown(path, 12345, 23456)
    assert run("fmt", "a.lcn").status == 0
    assert path.read_text() == "1. R3-D\n"
    info = os.stat(path)
    assert (info.st_uid, info.st_gid) == (12345, 23456)


def test_a_rewrite_keeps_a_group_we_belong_to(run, tmp_path):
    groups = [g for g in os.getgroups() if g != os.getegid()]
    if not groups:
        pytest.skip("the user belongs to one group only")
    path = tmp_path / "a.lcn"
    path.write_text("1. r3-d\n")
    os.chown(path, -1, groups[0])
    assert run("fmt", "a.lcn").status == 0
    assert path.read_text() == "1. R3-D\n" and os.stat(path).st_gid == groups[0]


@pytest.mark.parametrize("argv", [["fmt", "a.lcn"], ["lint", "--fix", "a.lcn"],
                                  ["convert", "a.lcn", "--to", "v1", "--in-place"]],
                         ids=" ".join)
def test_a_file_with_hard_links_is_refused_not_split(run, tmp_path, argv):
    path = tmp_path / "a.lcn"
    path.write_text("1. r3-d\n")
    os.link(path, tmp_path / "b.lcn")
    ran = run(*argv)
    assert ran.status == 2
    assert "a.lcn: cannot write: it has 2 hard links" in ran.err
    assert os.stat(path).st_nlink == 2
    assert path.read_text() == (tmp_path / "b.lcn").read_text() == "1. r3-d\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.lcn", "b.lcn"]


def test_a_file_with_hard_links_that_needs_no_change_is_fine(run, tmp_path):
    path = tmp_path / "a.lcn"
    path.write_text("1. R3-D\n")
    os.link(path, tmp_path / "b.lcn")
    assert run("fmt", "a.lcn").status == 0
    assert os.stat(path).st_nlink == 2


# ---------------------------------------------------------------- signals and temporary files

#: Runs lcn with a signal sent to itself while the new file is being synced,
#: that is, while its temporary file exists.
SIGNAL_DURING_WRITE = """
import os, signal, sys
real_fsync = os.fsync
def fsync(fd):
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    real_fsync(fd)
os.fsync = fsync
from lcnotation.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
@pytest.mark.parametrize("argv", [["fmt", "a.lcn"], ["lint", "--fix", "a.lcn"],
                                  ["convert", "a.lcn", "--to", "v1", "--in-place"]],
                         ids=" ".join)
def test_a_signal_while_writing_leaves_the_original_and_no_temporary_file(
        tmp_path, name, status, argv):
    path = tmp_path / "a.lcn"
    path.write_text("1. r3-d 2. b4-d\n")
    ran = subprocess.run([sys.executable, "-c", SIGNAL_DURING_WRITE, name, *argv],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ran.returncode == status, ran.stderr
    assert "Traceback" not in ran.stderr
    assert path.read_text() == "1. r3-d 2. b4-d\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.lcn"]


#: lcn lint --fix writes each game as it is fixed: its temporary file stands
#: for the whole run.
FIX = ["lint", "--fix", "--no-progress", "--select", "S"]


def test_sigterm_at_random_moments_of_a_real_run(tmp_path):
    """``timeout`` and ``docker stop`` send SIGTERM whenever they like."""
    from lcnotation.lostcities.game.generator import generate_games
    from lcnotation.lostcities.text.formatter import format_games

    original = format_games(generate_games(1000, seed=3), "lower").encode()
    (tmp_path / "done").mkdir()
    (tmp_path / "done" / "a.lcn").write_bytes(original)
    subprocess.run([sys.executable, "-m", "lcnotation", *FIX, "a.lcn"],
                   cwd=tmp_path / "done", capture_output=True)
    formatted = (tmp_path / "done" / "a.lcn").read_bytes()
    assert formatted != original
    tmp_path = tmp_path / "run"
    tmp_path.mkdir()
    rng = random.Random(17)
    caught = 0
    for _ in range(4):
        path = tmp_path / "a.lcn"
        path.write_bytes(original)
        process = subprocess.Popen([sys.executable, "-m", "lcnotation", *FIX, "a.lcn"],
                                   cwd=tmp_path, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        # Wait for the temporary file, then strike at some moment of the write.
        deadline = time.monotonic() + 60
        while (process.poll() is None and time.monotonic() < deadline
               and not list(tmp_path.glob(".lcn-*.tmp"))):
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.02))
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        assert b"Traceback" not in err
        assert [p.name for p in tmp_path.iterdir()] == ["a.lcn"]
        data = path.read_bytes()
        assert data in (original, formatted)
        if process.returncode == -signal.SIGTERM:  # after main returned, at exit
            assert data == formatted and b"applied" in err
        else:
            assert process.returncode in (0, 1, 143), err
        caught += process.returncode == 143
    assert caught, "the signal never came while the file was being written"


def stale(folder, name: str, age: float) -> str:
    path = folder / name
    path.write_text("half a file")
    os.utime(path, (time.time() - age, time.time() - age))
    return name


def test_a_later_run_removes_the_temporary_files_a_killed_run_left(run, tmp_path):
    old = stale(tmp_path, ".lcn-abcd1234.tmp", 2 * 3600)
    young = stale(tmp_path, ".lcn-young123.tmp", 60)
    other = stale(tmp_path, ".lcn-abcd1234.tmp.keep", 2 * 3600)
    theirs = stale(tmp_path, ".other-abcd1234.tmp", 2 * 3600)
    (tmp_path / ".lcn-link1234.tmp").symlink_to(tmp_path / theirs)
    (tmp_path / "a.lcn").write_text("1. r3-d\n")
    assert run("fmt", "a.lcn").status == 0
    left = sorted(p.name for p in tmp_path.iterdir())
    assert old not in left
    assert {young, other, theirs, ".lcn-link1234.tmp", "a.lcn"} == set(left)


def test_temporary_files_of_another_user_are_left_alone(run, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can make a file that belongs to another user")
    name = stale(tmp_path, ".lcn-abcd1234.tmp", 2 * 3600)
    os.chown(tmp_path / name, 12345, 12345)
    (tmp_path / "a.lcn").write_text("1. r3-d\n")
    assert run("fmt", "a.lcn").status == 0
    assert (tmp_path / name).exists()


# ---------------------------------------------------------------- endless input and memory


class Endless(io.RawIOBase):
    """A stream that never ends: ``piece`` again and again."""

    def __init__(self, piece: bytes) -> None:
        self.piece = piece

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = len(buffer) - len(buffer) % len(self.piece)
        buffer[:n] = self.piece * (n // len(self.piece))
        return n


@pytest.mark.parametrize("piece", [b"\0" * 64, b"R3-D ", b"R3-D\n", b"{ a comment\n"],
                         ids=["zeros", "one line", "one game", "one comment"])
def test_reading_endless_input_stops_at_the_bound(piece):
    with pytest.raises(OSError) as caught:
        for _ in read_games(io.BufferedReader(Endless(piece))):
            pass
    assert caught.value.errno == errno.EFBIG
    assert "16,777,216" in caught.value.strerror


@pytest.mark.parametrize("argv", [["lint", "-"]], ids=" ".join)
def test_the_command_line_on_endless_input(capsys, monkeypatch, argv):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless(b"R3-D\n"))))
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert "cannot read" in err and "a game longer than 16,777,216 characters" in err, err
    assert len(err.splitlines()) == 1


def test_lcn_lint_of_dev_zero_under_a_memory_limit(tmp_path):
    """prlimit --as=2000000000 lcn lint /dev/zero"""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))

    ran = subprocess.run([sys.executable, "-m", "lcnotation", "lint", "/dev/zero"],
                         cwd=tmp_path, preexec_fn=limit, capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith("lcn: /dev/zero: cannot read: a line longer than "
                                 "16,777,216 bytes (from line 1)"), ran.stderr


@pytest.fixture
def big_game(tmp_path, monkeypatch):
    """a.lcn, whose second game (the one with B4-D) is too large for memory."""
    (tmp_path / "a.lcn").write_text("1. R3-D\n[Event \"big\"]\n1. B4-D\n")
    real = parser_module.GameParser.run

    def run_or_fail(self, start, text, *args, **kwargs):
        if "B4-D" in text:
            raise MemoryError
        return real(self, start, text, *args, **kwargs)

    monkeypatch.setattr(parser_module.GameParser, "run", run_or_fail)


@pytest.mark.parametrize("argv", [["lint", "."], ["lint", "--fix", "."]], ids=" ".join)
def test_running_out_of_memory_names_the_file_and_goes_on(run, tmp_path, big_game, argv):
    (tmp_path / "b.lcn").write_text("1. r3-d\n")
    ran = run(*argv)
    assert ran.status == 2
    assert "a.lcn: cannot read: out of memory" in ran.err
    assert "b.lcn" in ran.out + ran.err


@pytest.mark.parametrize("argv", [["fmt", "--check", "."], ["score", "."]], ids=" ".join)
def test_running_out_of_memory_in_a_command_that_reads_whole_files(run, big_game, argv):
    ran = run(*argv)
    assert (ran.status, ran.err) == (2, "lcn: out of memory\n")


def test_a_command_that_reads_whole_files_stops_at_its_bound(run, tmp_path, monkeypatch):
    from lcnotation.cli import common

    monkeypatch.setattr(common, "MAX_WHOLE", 1000)
    # Standard input is read whole (a regular file is read game by game).
    ran = run("score", "-", stdin=b"1. R3-D\n" * 200)
    assert ran.status == 2
    assert "-: cannot read: more than 1,000 bytes" in ran.err


# ---------------------------------------------------------------- wording


def test_a_run_where_a_file_could_not_be_read_is_not_all_clear(run, tmp_path):
    (tmp_path / "a.lcn").write_text("1. R3-D\n")
    ran = run("lint", "--select", "N", "a.lcn", "missing.lcn")
    assert ran.status == 2
    assert "All clear" not in ran.out
    assert ran.out.splitlines()[-1] == ("No findings in 1 file, 1 game, 1 move; "
                                        "1 file could not be read.")


def test_numbers_too_long_to_read_in_other_programs_records():
    """The importers and the fc-solve reader read numbers too (issue 17's audit)."""
    from lcnotation.formats import import_games
    from lcnotation.freecell.fcsolve import read_fc_solve

    transcript = sorted(FORMAT_DATA.glob("chikinn/*.txt"))[0].read_text()
    for old, new in [("ROUND 0:", f"ROUND {HUGE}:"), ("scores -37", f"scores {HUGE}")]:
        assert old in transcript
        with pytest.raises(NotationError) as caught:
            import_games(transcript.replace(old, new, 1), "chikinn")
        assert "4,301 digits" in caught.value.message
    # A move naming a stack that cannot exist is reported, not skipped: skipping
    # it would drop a move of the solution (see test_feature_hardening.py).
    with pytest.raises(NotationError) as caught:
        read_fc_solve(f"Move a card from stack {HUGE} to freecell 0\n"
                      "Move a card from stack 3 to freecell 0\n")
    assert caught.value.code == "F401" and caught.value.line == 1
    assert "4,301 digits" in caught.value.message


# ---------------------------------------------------------------- streaming commands


def stream_fixed(text: str):
    from lcnotation.lostcities.lint import fix_stream

    pieces: list = []
    result = fix_stream([text], "a.lcn", None, pieces.append)
    return "".join(pieces), result


@pytest.mark.parametrize("seed", range(3))
def test_fixing_a_game_at_a_time_is_fixing_the_whole_text(seed):
    """lcn lint --fix streams (issue 11, defect 11): the same text and findings
    as fix_text on the whole file."""
    from lcnotation.lostcities.game.generator import generate_games
    from lcnotation.lostcities.text.formatter import format_games
    from lcnotation.tools.lint import fix_text

    text = format_games(generate_games(4, seed=seed), ["lower", "x-discard", "v1"][seed])
    text = text.replace("\n1. ", "\n1. ", 1).replace(" 3.", " 7.", 2) + "\n"
    whole, applied, report = fix_text(text, "a.lcn")
    streamed, result = stream_fixed(text)
    assert streamed == whole and result.applied == applied
    assert [(d.code, d.start) for d in result.report.diagnostics] == \
        [(d.code, d.start) for d in report.diagnostics]


# ---------------------------------------------------------------- fmt and score stream
# lcn fmt and lcn score read a file game by game and write as they go, so
# memory holds one game, not the file (issue 11, defect 11; issue 17).  Shown
# without measuring memory: the work has begun before the input is read to
# its end (a command that reads the file whole, then works, does nothing until
# every read is done).  bench/memory.py measures.


@pytest.fixture(scope="module")
def archive() -> bytes:
    """About 3 MB of lower-case games: well beyond the readers' 1 MiB blocks."""
    block = (format_games(generate_games(40, seed=3), "lower") + "\n\n").encode()
    return block * (3_000_000 // len(block) + 1)


def _watch_reads(monkeypatch, path: Path, seen: Callable[[], int]) -> List[int]:
    """At each read of the file ``path``, what ``seen()`` says then (how much
    output there is)."""
    import builtins

    real_open = builtins.open
    marks: List[int] = []

    class Watched(io.BufferedReader):
        def read(self, size=-1):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().read(size)

        def read1(self, size=-1):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().read1(size)

        def readinto(self, buffer):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().readinto(buffer)

    def watching_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == str(path) \
                and mode == "rb":
            return Watched(io.FileIO(file, "rb"))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching_open)
    return marks


def test_fmt_writes_the_new_file_while_it_reads_the_old(tmp_path, monkeypatch, archive):
    path = tmp_path / "big.lcn"
    path.write_bytes(archive)

    def written() -> int:
        return sum(e.stat().st_size for e in os.scandir(tmp_path) if e.name.endswith(".tmp"))

    marks = _watch_reads(monkeypatch, path, written)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["fmt", "-q", str(path)]) == 0
    monkeypatch.undo()
    assert path.read_bytes().startswith(b"[")  # formatted: upper case moves
    assert b"-d\n" not in path.read_bytes()
    assert marks[-1] > 0, "nothing was written before the last read of the file"


def test_score_prints_while_it_reads(tmp_path, monkeypatch, archive):
    path = tmp_path / "big.lcn"
    path.write_bytes(archive)
    out = io.StringIO()
    marks = _watch_reads(monkeypatch, path, out.tell)
    monkeypatch.setattr(sys, "stdout", out)
    main(["score", "--allow-errors", str(path)])
    monkeypatch.undo()
    assert "match totals" in out.getvalue()
    assert marks[-1] > 0, "nothing was printed before the last read of the file"


def test_fmt_check_formats_games_while_it_reads(tmp_path, monkeypatch, archive):
    from lcnotation.lostcities import reformat

    path = tmp_path / "big.lcn"
    path.write_bytes(archive)
    formatted = []
    real = reformat.format_game
    monkeypatch.setattr(reformat, "format_game",
                        lambda *a, **k: formatted.append(1) or real(*a, **k))
    marks = _watch_reads(monkeypatch, path, formatted.__len__)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["fmt", "--check", str(path)]) == 1
    monkeypatch.undo()
    assert out.getvalue() == f"would reformat {path}\n"
    assert path.read_bytes() == archive
    assert marks[-1] > 0, "no game was formatted before the last read of the file"


def test_fmt_on_a_full_disk_still_passes_a_file_it_would_not_change(run, tmp_path, monkeypatch):
    from lcnotation.cli import fmt as fmt_module

    def no_space(*args):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    # Every write fails, as on a full disk: the streaming one and the whole one.
    guarded = fmt_module.guarded
    monkeypatch.setattr(fmt_module, "guarded", lambda write: guarded(no_space))
    monkeypatch.setattr("lcnotation.cli.common.write_atomic", no_space)
    (tmp_path / "same.lcn").write_bytes(b"1. R3-D\n2. B4-D\n")
    (tmp_path / "other.lcn").write_bytes(b"r3-d b4-d\n")
    ran = run("fmt", "same.lcn")
    assert (ran.status, ran.err) == (0, "")
    ran = run("fmt", "other.lcn")
    assert ran.status == 2
    assert ran.err == "lcn: other.lcn: cannot write: No space left on device\n"
    assert (tmp_path / "other.lcn").read_bytes() == b"r3-d b4-d\n"
