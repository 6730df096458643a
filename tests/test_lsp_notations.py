"""The language server on the other notations: FreeCell documents (``*.sfn``)
get diagnostics, formatting, hover on a move, the outline and quick fixes
through the FreeCell notation; a third notation registered by one call (the
toy under tests/toy) gets diagnostics from the same server."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import AsyncIterator, List

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from lcnotation import freecell
from lcnotation.tools.lint import lint_text
from lcnotation.tools.output import documentation_url

from lspclient import SERVER, Session, apply_edits, capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

TESTS = Path(__file__).resolve().parent
PLAYED = freecell.deal(1) + " 5a 5b\n"


@pytest_lsp.fixture(config=SERVER, scope="module")
async def vscode(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(vscode: LanguageClient) -> Session:
    return Session(vscode)


def _uri(tmp_path: Path, name: str) -> str:
    return (tmp_path / name).as_uri()


async def test_freecell_diagnostics_follow_the_document(session: Session, tmp_path: Path) -> None:
    uri = _uri(tmp_path, "a.sfn")
    bad = freecell.deal(1) + " 5a 5b 11\n"
    await session.open(uri, bad)
    diags = await session.published(uri)
    codes = [(str(d.code), d.range.start.line) for d in diags]
    assert codes == [(d.code, d.line - 1) for d in lint_text(bad, "a.sfn").diagnostics]
    f306 = next(d for d in diags if d.code == "F306")
    assert session.text_at(uri, f306.range) == " 11"
    assert f306.code_description is not None and \
        f306.code_description.href == documentation_url("F306")
    start = session.texts[uri].index(" 11")
    session.change(uri, start, start + 3, "")
    assert [str(d.code) for d in await session.published(uri)] == ["F320"]


async def test_freecell_formatting_hover_outline_and_fixes(session: Session,
                                                         tmp_path: Path) -> None:
    uri = _uri(tmp_path, "b.sfn")
    untidy = PLAYED.replace("5H\n", "5H   \n", 1)
    await session.open(uri, untidy)
    diags = await session.published(uri)
    f501 = next(d for d in diags if d.code == "F501")
    edits = await session.client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(2, True)))
    assert edits and apply_edits(untidy, edits, session.encoding) == PLAYED

    hover = await session.client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), session.at(uri, "5b")))
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert hover.contents.value.startswith("**2. 5b**: column 5 to freecell b")
    assert "After it and its automoves" in hover.contents.value

    symbols = await session.client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri)))
    assert symbols is not None
    names = [s.name for s in symbols if isinstance(s, lsp.DocumentSymbol)]
    assert names == ["Game #1", "Layout", "Solution"]

    actions = await session.client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), f501.range, lsp.CodeActionContext([f501])))
    assert actions is not None
    titles = [a.title for a in actions if isinstance(a, lsp.CodeAction)]
    assert "write the canonical layout" in titles
    fix = next(a for a in actions if isinstance(a, lsp.CodeAction)
               and a.title == "write the canonical layout")
    assert fix.edit is not None and fix.edit.changes is not None
    assert apply_edits(untidy, fix.edit.changes[uri], session.encoding) == PLAYED


async def test_ignore_on_this_line_is_offered_on_a_solution_line(session: Session,
                                                                tmp_path: Path) -> None:
    uri = _uri(tmp_path, "c.sfn")
    await session.open(uri, PLAYED)
    f320 = next(d for d in await session.published(uri) if d.code == "F320")
    actions = await session.client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), f320.range, lsp.CodeActionContext([f320])))
    ignore = next(a for a in actions or [] if isinstance(a, lsp.CodeAction)
                  and a.title == "Ignore F320 on this line")
    assert ignore.edit is not None and ignore.edit.changes is not None
    after = apply_edits(PLAYED, ignore.edit.changes[uri], session.encoding)
    assert after.endswith(" 5a 5b  lcn: ignore[F320]\n")
    assert lint_text(after, "c.sfn").diagnostics == []


_TOY_SERVER = ClientServerConfig([sys.executable, "-c", (
    "import sys; sys.path.insert(0, sys.argv[1])\n"
    "import toy\n"
    "from lcnotation.tools.notations import register_notation\n"
    "register_notation(toy.NOTATION)\n"
    "from lcnotation.lsp.server import main\n"
    "main()\n"), str(TESTS)])


async def test_a_registered_third_notation_gets_diagnostics(tmp_path: Path) -> None:
    client = await _TOY_SERVER.start()
    try:
        await client.initialize_session(lsp.InitializeParams(
            capabilities=capabilities("visual-studio-code")))
        session = Session(client)
        uri = _uri(tmp_path, "a.toy")
        await session.open(uri, "+3\n- 2\n-5\n")
        found: List[str] = [f"{d.code}:{d.range.start.line}"
                            for d in await session.published(uri)]
        assert found == ["T301:1", "T201:2"]
        await client.shutdown_session()
    finally:
        await client.stop()
