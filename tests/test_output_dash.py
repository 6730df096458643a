"""``-o -``: standard output, for every command that writes there by default.

Inputs take ``-`` for standard input; an output named ``-`` is standard
output in the same way (``./-`` is a file of that name), instead of a file
called ``-`` left in the current folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from running import in_process

ROOT = Path(__file__).resolve().parent.parent
METAPYZIKS = next((ROOT / "tests" / "data" / "formats" / "metapyziks").glob("*.txt"))

COMMANDS = [
    ("convert", "match.lcn", "--to", "json"),
    ("dedupe", "match.lcn"),
    ("export", "--to", "metapyziks", "match.lcn"),
    ("filter", "match.lcn", "--where", "moves > 10"),
    ("import", "--from", "metapyziks", "replays.txt"),
    ("lint", "mistakes.lcn"),
    ("render", "match.lcn"),
    ("stats", "match.lcn"),
    ("view", "match.lcn"),
]


@pytest.fixture
def lcn(capsys, monkeypatch, tmp_path):
    for name in ("match.lcn", "mistakes.lcn"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    shutil.copy(METAPYZIKS, tmp_path / "replays.txt")
    monkeypatch.chdir(tmp_path)
    return in_process(capsys, monkeypatch)


@pytest.mark.parametrize("argv", COMMANDS, ids=[argv[0] for argv in COMMANDS])
def test_dash_is_standard_output(lcn, tmp_path, argv):
    plain = lcn(*argv)
    assert plain.out  # something to compare
    assert lcn(*argv, "-o", "-") == plain
    assert not (tmp_path / "-").exists()


def test_dot_slash_dash_is_a_file_called_dash(lcn, tmp_path):
    plain = lcn("convert", "match.lcn", "--to", "json")
    assert lcn("convert", "match.lcn", "--to", "json", "-o", "./-").out == ""
    assert (tmp_path / "-").read_text(encoding="utf-8") == plain.out
