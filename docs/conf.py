"""Sphinx configuration of lcnotation's documentation site.

Built from the repository's root, so that the README, the guides in docs/
and the specification in spec/ are pages of one site and their links
between each other are the links GitHub shows::

    sphinx-build -W -b html -c docs . docs/_build/html

(``pip install -e '.[docs]'`` installs Sphinx, MyST-Parser and furo;
``tests/test_docs.py`` runs this build with warnings as errors.)
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from pygments import token
from pygments.lexer import RegexLexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lcnotation.core.version import __version__  # noqa: E402

project = "lcnotation"
author = "lcnotation contributors"
copyright = "2026, lcnotation contributors"
release = version = __version__

extensions = [
    "myst_parser",          # the pages are Markdown (CommonMark, as GitHub shows them)
    "sphinx.ext.autodoc",   # the API reference, from the docstrings
    "sphinx.ext.napoleon",  # ... written with Google-style sections
    "sphinx.ext.viewcode",
]

root_doc = "docs/index"
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# Only documentation is a page: not the tests' data, the examples, the
# editors' packages, benchmarks, the fuzzing harness (its README is a page), notes waiting to be folded in, or
# the build itself.
include_patterns = ["README.md", "docs/**", "spec/**", "fuzz/README.md"]
exclude_patterns = ["docs/_build", "docs/_incoming", "**/node_modules", "docs/pictures/*.md"]

# Links to headings (`page.md#a-heading`) use GitHub's anchors.
myst_heading_anchors = 4
myst_enable_extensions = ["deflist"]
# A link to a file that is not a page (a grammar, a script, the JSON
# schema) is written as it is on GitHub: a path relative to the page.
myst_url_schemes = ["http", "https", "mailto"]

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autoclass_content = "class"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"lcnotation {release}"
html_static_path: list = []
pygments_style = "sphinx"


class LcnLexer(RegexLexer):
    """Lost Cities records: headers, comments, move numbers and moves."""

    name = "lcn"
    aliases = ["lcn"]
    tokens = {"root": [
        (r"\[[A-Za-z0-9_]+", token.Keyword, "header"),
        (r"\{[^}]*\}?", token.Comment.Multiline),
        (r";.*", token.Comment.Single),
        (r"\d+\.", token.Number),
        (r"[^\s;{\[]+", token.Name),
        (r"\s+", token.Text),
    ], "header": [
        (r'"(\\.|[^"\\])*"', token.String),
        (r"\]", token.Keyword, "#pop"),
        (r"[^\]\"\n]+", token.Text),
        (r'"', token.String),      # an unclosed value: shown, not an error
        (r"\n", token.Text, "#pop"),
    ]}


def _spec_block_kinds() -> set:
    """The words that open spec/'s fenced blocks (``lcn game``, ``diagnostics``,
    ``findings``, ...: inputs and results that tests/test_spec_examples.py
    runs, see spec/README.md); those that are not a language Pygments knows are
    shown as plain text."""
    kinds = set()
    for page in (ROOT / "spec").glob("*.md"):
        kinds |= set(re.findall(r"^```([\w-]+)", page.read_text("utf-8"), re.M))
    return kinds - {"lcn"}


class LcnHelp(SphinxDirective):
    """A block ```` ```{lcn-help} ```` whose one line is a command such as
    ``lcn score --help``: on the site, what that command prints, read from the
    command's own parser when the site is built (so the options are written
    once, in the code); on GitHub, the command to run."""

    has_content = True

    def run(self) -> list:
        from lcnotation.cli import _build_parser

        words = " ".join(self.content).split()
        if len(words) < 3 or words[0] != "lcn" or words[-1] != "--help":
            raise self.error("lcn-help holds one line: lcn COMMAND --help")
        parser = _build_parser()
        for name in words[1:-1]:
            subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            if not subs or name not in subs[0].choices:
                raise self.error(f"{' '.join(words[:-1])}: no such command")
            parser = subs[0].choices[name]
        saved = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "88"
        try:
            text = parser.format_help()
        finally:
            if saved is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = saved
        return [nodes.literal_block(text, text, language="text")]


class LcnConstants(SphinxDirective):
    """``.. lcn-constants::`` (reStructuredText, in an ``{eval-rst}`` block): the names of ``lcnotation.__all__`` that are data
    (``FORMATS``, ``DIALECTS``, ``ALL_CODES``, ...), each documented from the
    module that defines it (autodoc sees only what a module assigns itself,
    and the package root imports these when first used)."""

    def run(self) -> list:
        import importlib.util
        import inspect

        import lcnotation

        lines = StringList()
        for name in lcnotation.__all__:
            value = getattr(lcnotation, name)
            if inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value):
                continue
            module = importlib.util.resolve_name(lcnotation._WHERE[name], "lcnotation")
            for line in (f".. autodata:: {module}.{name}", "   :no-value:", ""):
                lines.append(line, "lcn-constants")
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(lines, 0, node)
        return list(node.children)


def _redirect_index(app: Any, exception: Any) -> None:
    """The site opens on docs/index.html; index.html at the top leads there."""
    if exception is None and app.builder.format == "html":
        Path(app.outdir, "index.html").write_text(
            '<!DOCTYPE html><meta charset="utf-8"><title>lcnotation</title>'
            '<meta http-equiv="refresh" content="0; url=docs/index.html">'
            '<a href="docs/index.html">lcnotation</a>\n', encoding="utf-8")


def _drop_generated_docstrings(app: Any, what: str, name: str, obj: Any, options: Any,
                               lines: list) -> None:
    """A NamedTuple's fields say "Alias for field number 0": say nothing instead
    (the class's docstring describes its fields)."""
    if len(lines) == 1 and re.fullmatch(r"Alias for field number \d+", lines[0]):
        lines.clear()


def setup(app: Any) -> None:
    app.add_directive("lcn-help", LcnHelp)
    app.add_directive("lcn-constants", LcnConstants)
    app.connect("autodoc-process-docstring", _drop_generated_docstrings)
    app.add_lexer("lcn", LcnLexer)
    for kind in sorted(_spec_block_kinds()):
        try:
            get_lexer_by_name(kind)
        except ClassNotFound:
            app.add_lexer(kind, TextLexer)
    app.connect("build-finished", _redirect_index)
