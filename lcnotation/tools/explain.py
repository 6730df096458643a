"""What each diagnostic code means, for ``lcn explain``.

One source: the summary and severity come from the code registry
(:data:`~lcnotation.tools.codes.ALL_CODES`), and the example that triggers the
code, with what lcnotation reports for it and what ``lcn lint --fix`` makes
of it, is the first example of the code's section in the specification
(``spec/diagnostics.md``, ``spec/rules.md``), which the test suite runs
against the code.  The specification ships inside the package (a symbolic
link ``lcnotation/spec`` in the source tree).

>>> print(explain("S102").splitlines()[0])
S102 (style, warning): letters not in the case of the dialect (upper case, or lower case for lower)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

from .codes import ALL_CODES, FAMILIES, documentation_url

__all__ = ["Example", "example_of", "explain", "explain_markdown", "explain_all", "spec_text",
           "spec_documents"]


def spec_documents() -> Tuple[str, ...]:
    """The documents of the specification that hold a section per code: each
    family's page (:class:`~lcnotation.core.codes.Family`)."""
    return tuple(dict.fromkeys(f.page for f in ALL_CODES.families.values()))


def spec_text(name: str) -> Optional[str]:
    """The text of a document of the specification, or None when it is not there."""
    candidates = [Path(__file__).resolve().parents[1] / "spec" / name,
                  Path(__file__).resolve().parents[2] / "spec" / name]
    for candidate in candidates:
        try:
            return candidate.read_text("utf-8")
        except OSError:
            continue
    return None


class Example(NamedTuple):
    """An example of the specification: how it is read (``lcn``, ``lcn lint
    select=S``, ...), its text, and its result blocks (kind, text)."""

    info: str
    text: str
    results: List[Tuple[str, str]]


_HEADING = re.compile(r"^### `?([A-Z]\d{3})`?\s*$", re.M)
_BLOCK = re.compile(r"^```([^\n]*)\n(.*?)^```\s*$", re.M | re.S)


def _sections() -> Dict[str, str]:
    sections: Dict[str, str] = {}
    for name in spec_documents():
        text = spec_text(name)
        if text is None:
            continue
        heads = list(_HEADING.finditer(text))
        for i, head in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
            following = text.find("\n## ", head.end())
            if 0 <= following < end:
                end = following
            sections.setdefault(head.group(1), text[head.end():end])
    return sections


_CACHE: Dict[str, Dict[str, str]] = {}


def example_of(code: str) -> Optional[Example]:
    """The first example in the specification's section on ``code`` (or,
    when the section has none, the first example of the specification
    whose result reports ``code``)."""
    if "sections" not in _CACHE:
        _CACHE["sections"] = _sections()
    sections = _CACHE["sections"]
    if code not in sections:
        return None
    found = _examples(sections[code])
    if found:
        return found[0]
    for section in sections.values():
        for example in _examples(section):
            if any(f" {code} " in result for _, result in example.results):
                return example
    return None


def _examples(section: str) -> List[Example]:
    """The examples of a section: an input block (the section's first block
    says which kind of block is an input), then its result blocks."""
    blocks = [(m.group(1).strip(), m.group(2)) for m in _BLOCK.finditer(section)]
    if not blocks:
        return []
    inputs = {blocks[0][0].split(" ")[0]} | _INPUTS
    examples: List[Example] = []
    for info, text in blocks:
        if info.split(" ")[0] in inputs:
            examples.append(Example(info, text, []))
        elif examples:
            examples[-1].results.append((info, text))
    return examples


def _indented(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.rstrip("\n").split("\n"))


# Blocks of the specification that are inputs (the others are results).
_INPUTS = {"lcn", "freecell"}
_TITLES = {"diagnostics": "What lcnotation reports", "findings": "What lcn lint reports",
           "fixed": "After lcn lint --fix", "check": "What lcn freecell check reports",
           "import": "What lcn freecell import reports"}


def _explained(code: str) -> Tuple[str, str, List[Tuple[str, str]]]:
    """What ``code`` is (code, family, severity), its summary, and the
    blocks of its example, each with its title ("Example (...)", "What lcn
    lint reports", ...)."""
    severity, summary = ALL_CODES[code]
    family = FAMILIES.get(code[:1], code[:1])
    blocks: List[Tuple[str, str]] = []
    example = example_of(code)
    if example is not None:
        kind, _, words = example.info.partition(" ")
        how = words.strip() if kind == "lcn" else example.info
        blocks.append((f"Example ({how})" if how else "Example", example.text))
        for kind, result in example.results:
            blocks.append((_TITLES.get(kind.split(" ")[0], kind), result))
    return f"{family.split(' ')[0]}, {severity.value}", summary, blocks


def explain(code: str) -> str:
    """What ``code`` means, an example that triggers it and, where there is
    one, its fix.  Raises KeyError for a code that does not exist."""
    code = code.strip().upper()
    what, summary, blocks = _explained(code)
    out = [f"{code} ({what}): {summary}", ""]
    for title, text in blocks:
        out.append(f"{title}:")
        out.append(_indented(text))
    out.append(f"More: {documentation_url(code)}")
    return "\n".join(out).rstrip("\n") + "\n"


def explain_markdown(code: str) -> str:
    """:func:`explain` as Markdown (the SARIF rules' help): the same text, the
    example and results in fenced blocks, and a link to the specification.

    >>> print(explain_markdown("S102").splitlines()[0])
    **S102** (style, warning): letters not in the case of the dialect (upper case, or lower case for lower)
    """
    code = code.strip().upper()
    what, summary, blocks = _explained(code)
    out = [f"**{code}** ({what}): {summary}", ""]
    for title, text in blocks:
        fence = "````" if "```" in text else "```"
        out += [f"{title}:", "", fence, text.rstrip("\n"), fence, ""]
    out.append(f"[{code} in the specification]({documentation_url(code)})")
    return "\n".join(out) + "\n"


def explain_all() -> str:
    """Every code, one line each: code, severity and summary."""
    return "".join(f"{code}  {severity.value:<7}  {summary}\n"
                   for code, (severity, summary) in sorted(ALL_CODES.items()))
