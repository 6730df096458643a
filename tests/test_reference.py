"""The slow readers, made faster (issue 25 item 5), give what they gave.

``tests/reference/`` holds the outputs of the importers (metapyziks,
chikinn) and of ``lcn freecell check`` made by the code before that work
(``tests/reference/make_references.py``, run once on commit f3adf40): the
games written, their ``repr`` (every position), the errors with their line,
column and message, what each format's ``detect`` says, and the whole output
and exit status of ``lcn freecell check`` in every format.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "reference")
sys.path.insert(0, REFERENCE)

from make_references import apply, lcn, outcome  # noqa: E402  # type: ignore[import-not-found]


def _load(name: str) -> dict:
    with open(os.path.join(REFERENCE, name), encoding="utf-8") as f:
        return json.load(f)


INPUTS = _load("importers-inputs.json")
EXPECTED = _load("importers.json")


@pytest.mark.parametrize("fmt", ["metapyziks", "chikinn"])
def test_importers_give_the_reference_outputs(fmt: str) -> None:
    cases = [c for c in INPUTS["cases"] if c["format"] == fmt]
    assert len(cases) > 50
    for case in cases:
        text = apply(INPUTS["bases"][case["base"]], [tuple(e) for e in case["edits"]])
        assert outcome(fmt, text) == EXPECTED[case["name"]], case["name"]


@pytest.mark.parametrize("form", ["text", "json", "github", "sarif"])
def test_freecell_check_gives_the_reference_output(form: str) -> None:
    reference = _load("freecell.json")
    done = lcn("freecell", "check", "--format", form, *reference["paths"])
    want = reference[form]
    stdout = done.stdout.decode("utf-8")
    if form == "sarif":  # what may change: the tool's version, the folder it runs in
        got, wanted = json.loads(stdout)["runs"][0], json.loads(want["stdout"])["runs"][0]
        for field in (("tool", "driver", "version"), ("originalUriBaseIds", "SRCROOT", "uri")):
            a, b = got, wanted
            for key in field:
                a, b = a[key], b[key]
            stdout = stdout.replace(f'"{a}"', f'"{b}"')
    assert (done.returncode, done.stderr.decode("utf-8")) == (want["status"], want["stderr"])
    assert stdout == want["stdout"]
