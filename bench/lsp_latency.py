"""How long the language server takes from a keystroke to its diagnostics.

A document of N generated games (1, 100 and 2,000 by default, each a whole
round of about 60 to 70 moves with headers) is opened in ``lcn server``,
started as an editor starts it (stdio, a VS Code client profile).  Then one
character of a move in the middle game is changed, back and forth, and the
time from sending ``textDocument/didChange`` to receiving the
``textDocument/publishDiagnostics`` that answers it is measured (the server
lints again only the game that changed).  For comparison it also prints the
time to open the document (every game linted) and ``lint_text`` on the whole
text in this process.

It also measures what the server must bound (issue 26 items 6-8):

- ``junk``: ``"x\\n" * 1_000_000`` (2 MB, one "game" of a million bad
  lines): open, and one edit in its middle;
- ``match``: a valid 4.3 MB match (6,600 games): open, and an edit;
- ``longline``: ``"{é} " + "x " * n`` on one line (positions on a long
  non-ASCII line), n = 20,000;
- ``leak``: the server's resident memory after 6,000 rounds of
  didOpen/didChange/didClose.

It prints figures and asserts nothing::

    python bench/lsp_latency.py                 # 1, 100 and 2,000 games
    python bench/lsp_latency.py --games 5000 --edits 50
    python bench/lsp_latency.py --cases junk match longline leak --games
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import time
from typing import List

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from lcnotation import format_games, generate_games
from lcnotation.tools.lint import lint_text

SERVER = ClientServerConfig([sys.executable, "-m", "lcnotation", "server"])


async def _published(client: LanguageClient, uri: str) -> None:
    """Wait until diagnostics for ``uri`` arrive (the caller removed the old ones)."""
    while uri not in client.diagnostics:
        await asyncio.sleep(0.0005)


async def _edited(client: LanguageClient, uri: str, at: lsp.Position, end: lsp.Position,
                  edits: int, changed: str, original: str) -> List[float]:
    """The seconds from each of ``edits`` changes of the character between
    ``at`` and ``end`` (to ``changed``, then back to ``original``, in turns)
    to the diagnostics it brings."""
    times = []
    for version in range(2, edits + 2):
        new = changed if version % 2 == 0 else original
        del client.diagnostics[uri]
        t0 = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version, uri),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(at, end), text=new)]))
        await _published(client, uri)
        times.append(time.perf_counter() - t0)
    return times


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


async def _started() -> LanguageClient:
    client = await SERVER.start()
    capabilities = client_capabilities("visual-studio-code")
    capabilities.workspace.did_change_watched_files = None  # no registration asked
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
    return client


async def _stopped(client: LanguageClient) -> None:
    await client.shutdown_session()
    # (pygls' stop() can wait for ever once the server has exited)
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(client.stop(), 5)


async def _open_and_edit(name: str, text: str, edits: int) -> None:
    """Open ``text``, then change one character in its middle ``edits`` times."""
    client = await _started()
    try:
        uri = f"file:///bench/{name}.lcn"
        t0 = time.perf_counter()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "lcn", 1, text)))
        await _published(client, uri)
        opened = time.perf_counter() - t0
        middle = len(text) // 2
        at = _position(text, middle)
        end = lsp.Position(at.line, at.character + 1)
        original = text[middle]
        times = await _edited(client, uri, at, end, edits, "y", original)
        shown = len(client.diagnostics[uri])
    finally:
        await _stopped(client)
    print(f"{name:>9} {len(text) / 1e6:6.2f} MB  open {opened * 1000:9.1f} ms  "
          f"edit median {statistics.median(times) * 1000:8.1f} ms "
          f"(max {max(times) * 1000:8.1f} ms)  {shown} diagnostics", flush=True)


def _positions() -> None:
    """The position of every finding on one long non-ASCII line (in this process)."""
    from lcnotation.core.positions import LineIndex
    from lcnotation.lsp.analysis import Linter

    for n in (2_500, 5_000, 10_000, 20_000):
        text = "{é} " + "x " * n + "\n"
        starts = [f.diagnostic.span.start for f in Linter().lint(text).findings]
        t0 = time.perf_counter()
        index = LineIndex(text, "utf-16")
        for start in starts:
            index.position(start)
        took = time.perf_counter() - t0
        print(f"longline n={n:>6}: {len(starts)} positions in {took * 1000:7.1f} ms", flush=True)


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _leak(rounds: int) -> None:
    """The server's memory before and after ``rounds`` of open, change, close."""
    client = await _started()
    try:
        server = client._server
        assert server is not None
        text = format_games(generate_games(1, seed=13))
        at = _position(text, text.index("1. ") + 4)
        end = lsp.Position(at.line, at.character + 1)

        async def rounds_of(n: int, first: int) -> None:
            for k in range(first, first + n):
                uri = f"file:///bench/leak{k}.lcn"
                client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                    lsp.TextDocumentItem(uri, "lcn", 1, text)))
                client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(2, uri),
                    [lsp.TextDocumentContentChangePartial(range=lsp.Range(at, end),
                                                          text="5")]))
                client.text_document_did_close(lsp.DidCloseTextDocumentParams(
                    lsp.TextDocumentIdentifier(uri)))
                if k % 200 == 0:  # let the server catch up
                    await client.text_document_hover_async(lsp.HoverParams(
                        lsp.TextDocumentIdentifier(uri), lsp.Position(0, 0)))
            await client.text_document_hover_async(lsp.HoverParams(
                lsp.TextDocumentIdentifier("file:///bench/none.lcn"), lsp.Position(0, 0)))
            client.diagnostics.clear()

        await rounds_of(500, 0)  # warm up: caches, imports
        before = _rss_kb(server.pid)
        await rounds_of(rounds, 500)
        after = _rss_kb(server.pid)
    finally:
        await _stopped(client)
    print(f"     leak {rounds} rounds open/change/close: RSS {before / 1024:.1f} MB -> "
          f"{after / 1024:.1f} MB ({(after - before) / 1024:+.1f} MB)", flush=True)


async def _measure(games: int, edits: int) -> List[float]:
    text = format_games(generate_games(games, seed=13))
    client = await SERVER.start()
    try:
        capabilities = client_capabilities("visual-studio-code")
        capabilities.workspace.did_change_watched_files = None  # no registration asked
        await client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
        uri = f"file:///bench/{games}.lcn"
        t0 = time.perf_counter()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "lcn", 1, text)))
        await _published(client, uri)
        opened = time.perf_counter() - t0
        # a rank in the middle game: "R3-D" <-> "R5-D" (one character, same lines)
        found = re.compile(r"\n[0-9]+\. ").search(text, len(text) // 2)
        middle = found.end() if found else text.index("1. ") + 3
        at = _position(text, middle + 1)
        end = lsp.Position(at.line, at.character + 1)
        original = text[middle + 1]
        other = "5" if original != "5" else "6"
        times = await _edited(client, uri, at, end, edits, other, original)
        await client.shutdown_session()
    finally:
        # (pygls' stop() can wait for ever once the server has exited)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(client.stop(), 5)
    t0 = time.perf_counter()
    lint_text(text)
    whole = time.perf_counter() - t0
    print(f"{games:>6} games {len(text) / 1e6:6.2f} MB  open {opened * 1000:8.1f} ms  "
          f"change->diagnostics median {statistics.median(times) * 1000:7.1f} ms "
          f"(max {max(times) * 1000:7.1f} ms)  lint_text whole {whole * 1000:8.1f} ms",
          flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="*", default=[1, 100, 2000])
    parser.add_argument("--edits", type=int, default=20, help="changes per size")
    parser.add_argument("--cases", nargs="*", default=[],
                        choices=["junk", "match", "longline", "leak"])
    parser.add_argument("--rounds", type=int, default=6000, help="rounds for 'leak'")
    args = parser.parse_args()
    for n in args.games:
        asyncio.run(_measure(n, args.edits))
    edits = min(args.edits, 5)
    for case in args.cases:
        if case == "junk":
            asyncio.run(_open_and_edit("junk", "x\n" * 1_000_000, edits))
        elif case == "match":
            asyncio.run(_open_and_edit("match", format_games(generate_games(6600, seed=13)),
                                       edits))
        elif case == "longline":
            _positions()
            asyncio.run(_open_and_edit("longline", "{é} " + "x " * 10_000 + "\n", edits))
        else:
            asyncio.run(_leak(args.rounds))


if __name__ == "__main__":
    main()
