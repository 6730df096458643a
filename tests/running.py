"""Running ``lcn`` in this process, for the tests of the command line."""

from __future__ import annotations

import io
import sys
from typing import Callable, NamedTuple

import pytest

from lcnotation.cli import main


class Ran(NamedTuple):
    """What a run of ``lcn`` gave: exit status, standard output and error."""

    status: int
    out: str
    err: str


def in_process(capsys: pytest.CaptureFixture[str],
               monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """``call(*argv, stdin=b"")`` runs ``lcn`` in this process; it never prints a
    traceback (the command catches everything)."""

    def call(*argv: str, stdin: bytes = b"") -> Ran:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        status = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return Ran(status, out, err)

    return call
