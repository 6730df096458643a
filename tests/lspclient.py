"""What the language server tests need on the client's side.

A client keeps its own copy of each document and applies the server's
edits to it; these helpers do that the way an editor does, counting
columns in the negotiated code units.  They are written without
lcnotation.lsp (an independent oracle for its positions).
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp import make_test_lsp_client

#: What the server asked each client to register (client/registerCapability).
REGISTERED: Dict[int, List[lsp.Registration]] = {}


def _client() -> LanguageClient:
    client = make_test_lsp_client()
    registered = REGISTERED.setdefault(id(client), [])

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        registered.extend(params.registrations)

    return client


SERVER = ClientServerConfig([sys.executable, "-m", "lcnotation", "server"],
                            client_factory=_client)

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def lines(text: str) -> List[str]:
    """The lines of ``text`` with their line ends (LSP line ends only)."""
    found = _LINE.findall(text)
    if not found or found[-1].endswith(("\n", "\r")):
        found.append("")
    return found


def width(text: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


def offset_of(text: str, position: lsp.Position, encoding: str) -> int:
    all_lines = lines(text)
    before = sum(len(line) for line in all_lines[:position.line])
    line = all_lines[position.line].rstrip("\r\n")
    for i in range(len(line) + 1):
        if width(line[:i], encoding) >= position.character:
            return before + i
    return before + len(line)


def position_of(text: str, offset: int, encoding: str) -> lsp.Position:
    all_lines = lines(text)
    start = 0
    for number, line in enumerate(all_lines):
        if offset < start + len(line) or number == len(all_lines) - 1:
            return lsp.Position(number, width(text[start:offset], encoding))
        start += len(line)
    raise AssertionError("unreachable")


def apply_edits(text: str, edits: Iterable[lsp.TextEdit], encoding: str = "utf-16") -> str:
    """``text`` with the (non-overlapping) ``edits`` applied, as an editor does."""
    placed = sorted(((offset_of(text, e.range.start, encoding),
                      offset_of(text, e.range.end, encoding), e.new_text) for e in edits),
                    reverse=True)
    for start, end, new in placed:
        text = text[:start] + new + text[end:]
    return text


def capabilities(profile: str, encodings: Optional[Sequence[str]] = None
                 ) -> lsp.ClientCapabilities:
    """A bundled client profile, optionally saying which position encodings it speaks."""
    caps = client_capabilities(profile)
    if encodings is not None:
        caps.general = lsp.GeneralClientCapabilities(
            position_encodings=[lsp.PositionEncodingKind(e) for e in encodings])
    return caps


class Session:
    """A client talking to the server, with helpers for the usual requests."""

    def __init__(self, client: LanguageClient, encoding: str = "utf-16") -> None:
        self.client = client
        self.encoding = encoding
        self.texts: Dict[str, str] = {}
        self.versions: Dict[str, int] = {}

    async def open(self, uri: str, text: str) -> None:
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.diagnostics.pop(uri, None)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "lcn", 1, text)))

    async def published(self, uri: str, timeout: float = 20) -> Sequence[lsp.Diagnostic]:
        """The diagnostics published for ``uri`` since it was last opened or changed."""
        async def wait() -> Sequence[lsp.Diagnostic]:
            # Polled: the client stores a notification's diagnostics after it
            # wakes those waiting for the notification.
            while uri not in self.client.diagnostics:
                await asyncio.sleep(0.002)
            return self.client.diagnostics[uri]
        return await asyncio.wait_for(wait(), timeout)

    def change(self, uri: str, start: int, end: int, new: str) -> None:
        """Replace characters ``start:end`` of the document, as an incremental change."""
        text = self.texts[uri]
        rng = lsp.Range(position_of(text, start, self.encoding),
                        position_of(text, end, self.encoding))
        self.texts[uri] = text[:start] + new + text[end:]
        self.versions[uri] += 1
        self.client.diagnostics.pop(uri, None)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangePartial(range=rng, text=new)]))

    def replace_all(self, uri: str, text: str) -> None:
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.diagnostics.pop(uri, None)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    async def pull(self, uri: str) -> List[lsp.Diagnostic]:
        report = await self.client.text_document_diagnostic_async(
            lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri)))
        assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
        return list(report.items)

    def at(self, uri: str, needle: str, nth: int = 0) -> lsp.Position:
        """The position of the ``nth`` ``needle`` in the document."""
        text = self.texts[uri]
        i = -1
        for _ in range(nth + 1):
            i = text.index(needle, i + 1)
        return position_of(text, i, self.encoding)

    def text_at(self, uri: str, rng: lsp.Range) -> str:
        text = self.texts[uri]
        return text[offset_of(text, rng.start, self.encoding):
                    offset_of(text, rng.end, self.encoding)]


def codes(diagnostics: Iterable[lsp.Diagnostic]) -> List[Tuple[str, int, int]]:
    return [(str(d.code), d.range.start.line, d.range.start.character) for d in diagnostics]
