"""Where lcnotation is documented: one fact, read where it is declared.

The addresses are ``[project.urls]`` of ``pyproject.toml`` (``Documentation``,
``Source``), which the installed package's metadata carries; this module
reads them at run time (:mod:`importlib.metadata`) and no other module
spells them.  Without a documentation address in the metadata (a source tree
used without installing it, a build that dropped it) the installed
specification pages (``lcnotation/spec/*.md``, as file URIs) are the
documentation: every link of ``lcn explain``, the JSON and SARIF outputs and
the language server's ``codeDescription`` still leads to the text.

>>> spec_url("rules.md", "r101").endswith("rules.md#r101") or "rules.html#r101" in spec_url("rules.md", "r101")
True
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional

__all__ = ["project_urls", "documentation_base", "home_url", "spec_url", "spec_folder"]

#: The distribution whose metadata holds the addresses.
DISTRIBUTION = "lcnotation"


def _label(text: str) -> str:
    """A Project-URL label as PEP 753 compares them: lower case, no punctuation
    or white space (``Documentation``, ``documentation`` and ``Docs.`` differ
    only there)."""
    return re.sub(r"[\s\W_]+", "", text).lower()


@lru_cache(maxsize=None)
def project_urls() -> Dict[str, str]:
    """The ``[project.urls]`` of the installed package, by normalised label
    (empty when the package is not installed, or declares none)."""
    from importlib import metadata  # only when a link is made

    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return {}
    urls: Dict[str, str] = {}
    for entry in entries:
        label, _, url = str(entry).partition(",")
        if url.strip():
            urls.setdefault(_label(label), url.strip())
    return urls


def documentation_base() -> Optional[str]:
    """The documentation site, ending in ``/`` (None when the metadata has none)."""
    url = project_urls().get("documentation")
    return None if url is None else url.rstrip("/") + "/"


def home_url() -> Optional[str]:
    """Where to read about lcnotation: the documentation site, else its source."""
    urls = project_urls()
    return documentation_base() or urls.get("source") or urls.get("homepage")


def spec_folder() -> Path:
    """The installed specification pages (``lcnotation/spec``)."""
    return Path(__file__).absolute().parents[1] / "spec"


def spec_url(page: str, anchor: str) -> str:
    """The address of ``anchor`` on the specification page ``page``
    (``diagnostics.md``): on the documentation site, which builds ``spec/``'s
    pages as HTML pages of the same names, else in the installed file."""
    base = documentation_base()
    if base is not None:
        stem = page[:-3] if page.endswith(".md") else page
        return f"{base}spec/{stem}.html#{anchor}"
    return f"{(spec_folder() / page).as_uri()}#{anchor}"
