"""What the server says on hover over a diagnostic code: its explanation,
with a link to its section of the specification.
"""

from __future__ import annotations

from typing import Optional

from ..tools.codes import ALL_CODES
from ..tools.output import documentation_url

__all__ = ["describe_code", "code_href"]


def code_href(code: str, base: Optional[str] = None) -> str:
    """The address of ``code``'s section in the specification: under
    ``base`` (a folder's URI ending in ``/``) when given, else where
    ``lcn explain`` and the SARIF output send the reader
    (:func:`~lcnotation.tools.output.documentation_url`).

    >>> code_href("N103", "file:///x/spec/"), code_href("R101", "https://e.org/spec/")
    ('file:///x/spec/diagnostics.md#n103', 'https://e.org/spec/rules.md#r101')
    >>> code_href("R101") == documentation_url("R101")
    True
    """
    if base is None:
        return documentation_url(code)
    return f"{base}{ALL_CODES.page(code)}#{code.lower()}"


def describe_code(code: str, base: Optional[str] = None) -> Optional[str]:
    """Markdown explaining ``code``; None for a code lcnotation does not have.

    >>> print(describe_code("S102").splitlines()[0])
    **S102** (style, warning): letters not in the case of the dialect (upper case, or lower case for lower)
    """
    known = ALL_CODES.get(code)
    if known is None:
        return None
    severity, summary = known
    family = ALL_CODES.name(code).split(" ")[0]
    text = f"**{code}** ({family}, {severity}): {summary}"
    return f"{text}\n\n[{code} in the specification]({code_href(code, base)})"
