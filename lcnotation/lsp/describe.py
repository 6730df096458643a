"""What the server says on hover over a diagnostic code: its explanation,
with a link to its section of the specification.
"""

from __future__ import annotations

from typing import Optional

from ..tools.codes import ALL_CODES
from ..tools.output import documentation_url

__all__ = ["describe_code", "code_href"]


def code_href(code: str) -> str:
    """The address of ``code``'s section in the specification, the one
    ``lcn explain`` and the SARIF output send the reader to
    (:func:`~lcnotation.tools.output.documentation_url`: the documentation
    site, or the installed page).

    >>> code_href("R101") == documentation_url("R101")
    True
    """
    return documentation_url(code)


def describe_code(code: str) -> Optional[str]:
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
    return f"{text}\n\n[{code} in the specification]({code_href(code)})"
