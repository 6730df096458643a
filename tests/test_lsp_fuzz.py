"""Properties of the language server: its game-by-game linting is the linter's,
and no document or edit kills it (hypothesis, with the readers' strategies)."""

from __future__ import annotations

import asyncio
import json
from typing import Iterator, List, Tuple

import pytest
from hypothesis import given, strategies as st
from lsprotocol import types as lsp

from lcnotation.lsp.analysis import Linter
from lcnotation.lostcities.text.ast import Game
from lcnotation.core.positions import LineIndex
from lcnotation.lostcities.text.reader import parse_games
from lcnotation.tools.lint import LintConfig, lint_text

from lspclient import SERVER, Session, capabilities, offset_of, position_of
from strategies import examples, notation_text, written_games

# Text that stresses positions and line ends: astral characters, accents, the
# characters Python's splitlines breaks at but the LSP does not.
odd_text = st.lists(st.sampled_from(
    ["\U0001F600", "\u00e9", "\u2028", "\x0c", "\x85", "\r", "\n", "\r\n", "{", "}", ";",
     "[", "]", '"', " ", "R3-D", "x", "lcn: ignore[S1]"]), max_size=12).map("".join)
documents = st.one_of(notation_text, written_games().map(lambda pair: pair[1]),
                      st.lists(written_games(max_moves=4).map(lambda pair: pair[1]),
                               max_size=3).map("\n".join))
pieces = st.one_of(notation_text, odd_text)


@st.composite
def edits(draw: st.DrawFn, text: str) -> List[Tuple[int, int, str]]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 20)))
        # An LSP position cannot stand inside a CRLF: editors never send one.
        start -= text[start - 1:start + 1] == "\r\n"
        end += text[end - 1:end + 1] == "\r\n"
        new = draw(pieces)
        out.append((start, end, new))
        text = text[:start] + new + text[end:]
    return out


def versions(text: str, changes: List[Tuple[int, int, str]]) -> Iterator[str]:
    yield text
    for start, end, new in changes:
        text = text[:start] + new + text[end:]
        yield text


@examples(60)
@given(st.data())
def test_the_linter_again_after_edits_is_the_linter(data: st.DataObject) -> None:
    text = data.draw(documents)
    config = data.draw(st.sampled_from([LintConfig(), LintConfig(dialect="x-discard")]))
    linter = Linter(config)
    for version in versions(text, data.draw(edits(text))):
        analysis = linter.lint(version)
        assert analysis.findings == [
            type(f)(f.diagnostic.with_path(None), f.fix)
            for f in lint_text(version, config=config).findings]
        # the trees, moved to where their games stand, are those read in place
        assert [_spans(g) for g in parse_games(version) if g.moves or g.headers] == [
            _spans(p.game) for p in analysis.games if p.game.moves or p.game.headers]


@examples(60)
@given(st.data())
def test_the_linter_split_again_only_where_edited_is_the_linter(data: st.DataObject) -> None:
    """With the unchanged start and end of each edit (as the server passes
    them), only the games between are split again: the same games, trees
    and findings as the whole text split afresh."""
    text = data.draw(st.lists(written_games(max_moves=4).map(lambda pair: pair[1]),
                              min_size=1, max_size=5).map("\n".join))
    linter = Linter()
    linter.lint(text)
    for start, end, new in data.draw(edits(text)):
        unchanged = (start, len(text) - end)
        text = text[:start] + new + text[end:]
        analysis = linter.lint(text, unchanged)
        fresh = Linter().lint(text)
        assert [(g.text, g.line, g.offset) for g in analysis.games] == [
            (g.text, g.line, g.offset) for g in fresh.games]
        assert analysis.findings == fresh.findings
        assert [_spans(g.game) for g in analysis.games] == [_spans(g.game) for g in fresh.games]


def _spans(game: Game) -> List[object]:
    return [(m.span, m.comments) for m in game.moves] + [h.span for h in game.headers] + [
        game.span, [e.span for e in game.errors]]


@examples(200)
@given(pieces.filter(bool), st.sampled_from(["utf-8", "utf-16", "utf-32"]), st.data())
def test_positions_go_there_and_back(text: str, encoding: str, data: st.DataObject) -> None:
    index = LineIndex(text, encoding)
    offset = data.draw(st.integers(0, len(text)))
    position = index.position(offset)
    oracle = position_of(text, offset, encoding)
    assert position == (oracle.line, oracle.character)
    if text[offset - 1:offset + 1] != "\r\n":  # no position stands inside a line end
        assert index.offset(*position) == offset
        assert offset_of(text, lsp.Position(*position), encoding) == offset


def test_no_document_nor_edit_kills_the_server(tmp_path) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.new_event_loop()
    client = loop.run_until_complete(SERVER.start())
    try:
        loop.run_until_complete(client.initialize_session(lsp.InitializeParams(
            capabilities=capabilities("visual-studio-code"))))
        s = Session(client)
        count = iter(range(10**6))

        @examples(25)
        @given(st.data())
        def one(data: st.DataObject) -> None:
            loop.run_until_complete(_fuzz(s, data, (tmp_path / f"{next(count)}.lcn").as_uri()))

        one()
        assert client._server is not None and client._server.returncode is None
    finally:
        # (stop() alone waits for ever on a server that was not shut down)
        loop.run_until_complete(asyncio.wait_for(client.shutdown_session(), 20))
        loop.run_until_complete(client.stop())
        loop.close()


async def _fuzz(s: Session, data: st.DataObject, uri: str) -> None:
    text = data.draw(documents)
    await s.open(uri, text)
    await s.published(uri)
    for start, end, new in data.draw(edits(text)):
        s.change(uri, start, end, new)
        diags = await s.published(uri)
    text = s.texts[uri]
    # the server's copy is the client's: same findings at the same places
    assert [(str(d.code), d.range.start) for d in diags] == [
        (d.code, position_of(text, d.span.start, "utf-16") if d.span.start >= 0
         else lsp.Position(d.line - 1, 0))  # S107 is about a line, and has no offset
        for d in lint_text(text).diagnostics]
    ident = lsp.TextDocumentIdentifier(uri)
    anywhere = position_of(text, data.draw(st.integers(0, len(text))), "utf-16")
    whole = lsp.Range(lsp.Position(0, 0), position_of(text, len(text), "utf-16"))
    c = s.client
    for request in (
            c.text_document_hover_async(lsp.HoverParams(ident, anywhere)),
            c.text_document_code_action_async(lsp.CodeActionParams(
                ident, lsp.Range(anywhere, anywhere), lsp.CodeActionContext([]))),
            c.text_document_formatting_async(lsp.DocumentFormattingParams(
                ident, lsp.FormattingOptions(4, True))),
            c.text_document_range_formatting_async(lsp.DocumentRangeFormattingParams(
                ident, lsp.Range(anywhere, anywhere), lsp.FormattingOptions(4, True))),
            c.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(ident)),
            c.text_document_document_symbol_async(lsp.DocumentSymbolParams(ident)),
            c.text_document_folding_range_async(lsp.FoldingRangeParams(ident)),
            c.text_document_inlay_hint_async(lsp.InlayHintParams(ident, whole))):
        await asyncio.wait_for(request, 20)  # an error answer raises, and fails the test
    c.text_document_did_close(lsp.DidCloseTextDocumentParams(ident))


# ---------------------------------------------------------- the frame reader

from hypothesis import HealthCheck, settings  # noqa: E402

from lcnotation.lsp.frames import FrameReader, Malformed, frame, message_of  # noqa: E402

_frames = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

_bodies = st.dictionaries(st.sampled_from(["jsonrpc", "id", "method", "params", "text"]),
                          st.one_of(st.integers(), st.text(max_size=20),
                                    st.just("Content-Length: 12\r\n\r\n")), max_size=5)


def _chunks(data: bytes, cuts: List[int]) -> List[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, last = [], 0
    for p in points + [len(data)]:
        out.append(data[last:p])
        last = p
    return out


def _read(chunks: List[bytes]) -> list:
    reader = FrameReader()
    events: list = []
    for chunk in chunks:
        events += reader.feed(chunk)
    return events + reader.end()


@_frames
@given(st.lists(_bodies, max_size=5), st.lists(st.integers(0, 10_000), max_size=8))
def test_frames_come_back_whole_however_the_bytes_arrive(bodies, cuts) -> None:
    data = b"".join(frame(b) for b in bodies)
    events = _read(_chunks(data, cuts))
    assert [json.loads(e) for e in events] == bodies


_plain_bodies = st.dictionaries(st.sampled_from(["jsonrpc", "id", "method", "text"]),
                                st.one_of(st.integers(), st.text(max_size=20)), max_size=4)


# (A body that spells a header in its text may be taken for one after junk:
# the reader then answers one more frame as malformed, and finds the next.)
@_frames
@given(st.binary(max_size=300), st.lists(_plain_bodies, min_size=2, max_size=4),
       st.lists(st.integers(0, 10_000), max_size=6))
def test_after_any_junk_the_reader_finds_the_frames_again(junk, bodies, cuts) -> None:
    junk = junk.replace(b"Content-Length", b"Content-Lengt")
    data = junk + b"".join(frame(b) for b in bodies)
    events = _read(_chunks(data, cuts))
    assert all(isinstance(e, (bytes, Malformed)) for e in events)
    read = [e for e in events if isinstance(e, bytes)]
    # The first frame may be taken for the junk's body; every later one is read.
    assert [json.loads(e) for e in read[-(len(bodies) - 1):]] == bodies[1:]


@_frames
@given(st.binary(max_size=400), st.lists(st.integers(0, 10_000), max_size=6))
def test_any_bytes_give_frames_or_malformed_and_an_answer(data, cuts) -> None:
    for event in _read(_chunks(data, cuts)):
        if isinstance(event, bytes):
            message, error = message_of(event)
            assert (message is None) != (error is None)
            if error is not None:
                assert error["error"]["code"] in (-32700, -32600, -32602)
        else:
            assert isinstance(event, Malformed) and event.message
