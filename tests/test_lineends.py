"""The line ends of a text, counted (lcnotation.core.lineends)."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from lcnotation.core.lineends import byte_line_ends, line_end_counts

_PIECES = st.sampled_from(["a", "é", "\u2028", "\r", "\n", "\r\n", "\n\r", " ", "\x85"])


def _counted(text: str) -> tuple:
    """The counts by a regular expression that takes CRLF first."""
    ends = re.findall(r"\r\n|\r|\n", text)
    return ends.count("\r\n"), ends.count("\r"), ends.count("\n")


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_line_end_counts_count_crlf_lone_cr_and_lf(text):
    # with and without a CR in the text (one count of LF when there is none)
    assert line_end_counts(text) == _counted(text)
    assert line_end_counts(text) == byte_line_ends(text.encode("utf-8"))
