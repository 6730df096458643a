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

It prints figures and asserts nothing::

    python bench/lsp_latency.py                 # 1, 100 and 2,000 games
    python bench/lsp_latency.py --games 5000 --edits 50
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


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


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
        times = []
        for version in range(2, edits + 2):
            new = other if version % 2 == 0 else original
            del client.diagnostics[uri]
            t0 = time.perf_counter()
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version, uri),
                [lsp.TextDocumentContentChangePartial(range=lsp.Range(at, end), text=new)]))
            await _published(client, uri)
            times.append(time.perf_counter() - t0)
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
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 2000])
    parser.add_argument("--edits", type=int, default=20, help="changes per size")
    args = parser.parse_args()
    for n in args.games:
        asyncio.run(_measure(n, args.edits))


if __name__ == "__main__":
    main()
