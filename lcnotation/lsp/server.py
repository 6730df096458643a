"""The language server: lcnotation's linter, fixes, formatter and checker, live.

Built on pygls (``pip install 'lcnotation[lsp]'``); started by ``lcn server``.
Every answer comes from the modules ``lcn`` itself uses: findings from
:func:`lcnotation.tools.lint.lint_game` (through :class:`~.analysis.Linter`,
which lints again only the games that changed), fixes from the findings,
fix-all from :func:`~lcnotation.tools.lint.fix_text`, formatting from
:func:`~lcnotation.lostcities.text.formatter.format_games` (as ``lcn fmt``), hover from
the game state the checker replays.

The server keeps its own copy of each open document, and pygls none
(:class:`_Protocol`): pygls' copy splits lines at characters the LSP does
not count as line ends (form feed, U+2028...), which put edits in the wrong
place, and it even changed the positions of the change it was given before
passing it on.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Generator, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from ..lostcities.lint import all_comments, colors_of
from ..core.version import __version__
from ..lostcities.text.ast import Comment, Span
from ..core.diagnostics import NotationError, Severity
from ..tools.config import ConfigCache, ConfigError, config_for_file
from ..core.files import decode_source
from ..lostcities.reformat import format_source
from ..core.lineends import majority_line_end_of
from ..core.suppression import find_suppression
from ..core.lint import LintConfig
from ..tools.lint import fix_text
from ..core.findings import Finding
from .analysis import Analysis, GamePart, Linter, NotationLinter, Scored, score_labels
from ..lostcities.describe import describe_move
from ..lostcities.notation import game_symbol, ignore_edit_in
from ..lostcities.text.reader import GameText
from ..core.notation import FormatRefused, Notation, Symbol
from ..tools.notations import DEFAULT, notation_for
from .describe import code_href, describe_code
from ..core.positions import LineIndex
from .tokens import TOKEN_MODIFIERS, TOKEN_TYPES, encode, game_tokens

__all__ = ["LcnLanguageServer", "make_server", "FIX_ALL"]

log = logging.getLogger(__name__)

#: The code action kind of "fix everything that can be fixed" (fix on save).
FIX_ALL = "source.fixAll.lcn"

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error,
             Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFO: lsp.DiagnosticSeverity.Information}


def _spec_base() -> Optional[str]:
    """None: each code's link is the one ``lcn explain`` gives
    (:func:`~lcnotation.lsp.describe.code_href`), installed or not."""
    return None


@dataclass
class Document:
    """An open document: its text, the version the client gave it, its linter."""

    uri: str
    text: str
    version: Optional[int]
    linter: "Linter | NotationLinter"
    encoding: str
    analysis: Optional[Analysis] = None
    _index: Optional[LineIndex] = None
    #: Each game's score and errors (for the inlay hints).
    scores: Scored = field(default_factory=dict)

    @property
    def index(self) -> LineIndex:
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text, self.encoding)
        return self._index

    def lint(self) -> Analysis:
        if self.analysis is None or self.analysis.text is not self.text:
            self.analysis = self.linter.lint(self.text)
        return self.analysis

    def range(self, start: int, end: int) -> lsp.Range:
        index = self.index
        return lsp.Range(lsp.Position(*index.position(start)), lsp.Position(*index.position(end)))

    def offset(self, position: lsp.Position) -> int:
        return self.index.offset(position.line, position.character)

    @property
    def path(self) -> str:
        """The file's path, "-" for a document that is not a file."""
        return (to_fs_path(self.uri) or "-") if self.uri.startswith("file:") else "-"


@dataclass
class Settings:
    """What the client may switch (initialization options or the ``lcn`` settings)."""

    inlay_hints: bool = True

    def update(self, values: Any) -> None:
        if isinstance(values, dict):
            hints = values.get("inlayHints")
            if isinstance(hints, bool):
                self.inlay_hints = hints


@dataclass
class _Configs:
    """The configuration of each file, as ``lcn lint`` finds it
    (:func:`~lcnotation.tools.config.config_for_file`), each configuration
    file read once until a pyproject.toml changes."""

    cache: ConfigCache = field(default_factory=ConfigCache)

    def for_path(self, path: Optional[str]) -> Tuple[LintConfig, Optional[str]]:
        """The configuration for a file, and the error that made it the default one."""
        try:
            return config_for_file(path or "-", None, self.cache), None
        except ConfigError as exc:
            return LintConfig(), str(exc)


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, but the documents are the server's alone (see the module
    docstring): opening, changing and closing go straight to its handlers."""

    def _user(self, method: str, params: object) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams
                                    ) -> Generator[Any, Any, None]:
        yield from self._user(lsp.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams
                                      ) -> Generator[Any, Any, None]:
        yield from self._user(lsp.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams
                                     ) -> Generator[Any, Any, None]:
        yield from self._user(lsp.TEXT_DOCUMENT_DID_CLOSE, params)


class LcnLanguageServer(LanguageServer):
    """pygls' server with lcnotation's documents, settings and configurations."""

    def __init__(self) -> None:
        super().__init__("lcn", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        self.documents: Dict[str, Document] = {}
        self.settings = Settings()
        self.configs = _Configs()
        self.spec_base = _spec_base()
        self.config_errors_shown: set[str] = set()

    # ------------------------------------------------------------ client

    @property
    def encoding(self) -> str:
        kind = self.workspace.position_encoding
        return str(kind.value if isinstance(kind, lsp.PositionEncodingKind) else kind or "utf-16")

    def client_pulls(self) -> bool:
        td = self.client_capabilities.text_document
        return td is not None and td.diagnostic is not None

    # ------------------------------------------------------------ documents

    def open(self, uri: str, text: str, version: Optional[int]) -> Document:
        doc = Document(uri, text, version, self.linter_for(uri, self.config_for(uri)),
                       self.encoding)
        self.documents[uri] = doc
        return doc

    def linter_for(self, uri: str, config: LintConfig) -> "Linter | NotationLinter":
        """The linter of a document: Lost Cities' incremental one, or the whole
        text through its notation (by the file's extension or its settings)."""
        path = (to_fs_path(uri) or uri) if uri.startswith("file:") else uri
        notation = notation_for(path, config.notation)
        config = replace(config, notation=notation.name)
        return Linter(config) if notation.name == DEFAULT else NotationLinter(notation, config)

    def config_for(self, uri: str) -> LintConfig:
        path = (to_fs_path(uri) or None) if uri.startswith("file:") else None
        config, error = self.configs.for_path(path)
        if error is not None and error not in self.config_errors_shown:
            self.config_errors_shown.add(error)
            self.window_show_message(lsp.ShowMessageParams(
                lsp.MessageType.Error, f"lcn: {error}; using the default configuration"))
        return config

    def reload_configs(self) -> None:
        """Read the configurations again and re-lint every open document."""
        self.configs = _Configs()
        self.config_errors_shown.clear()
        for doc in self.documents.values():
            config = self.config_for(doc.uri)
            if replace(config, notation=doc.linter.config.notation) != doc.linter.config:
                doc.linter = self.linter_for(doc.uri, config)
                doc.analysis = None
            self.publish(doc)
        if self.client_pulls():
            refresh = self.client_capabilities.workspace
            if refresh and refresh.diagnostics and refresh.diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)

    def diagnostics(self, doc: Document) -> List[lsp.Diagnostic]:
        return [self.diagnostic(doc, f) for f in doc.lint().findings]

    def diagnostic(self, doc: Document, finding: Finding) -> lsp.Diagnostic:
        d = finding.diagnostic
        href = code_href(d.code, self.spec_base)
        return lsp.Diagnostic(
            # From the offsets: a span at the end of a game may give a column
            # past its line's end, where its offset is the next line's start.
            range=doc.range(*_offsets(doc, d.span)),
            message=d.message, severity=_SEVERITY[d.severity], code=d.code, source="lcn",
            code_description=lsp.CodeDescription(href))

    def publish(self, doc: Document) -> None:
        if not self.client_pulls():
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                doc.uri, self.diagnostics(doc), doc.version))


def _offsets(doc: Document, span: Span) -> Tuple[int, int]:
    """Where ``span`` is in the document: a finding about a whole line (S107)
    has no offsets, only its line."""
    if span.start >= 0:
        return span.start, span.end
    index = doc.index
    line = min(max(span.line, 1), index.line_count) - 1
    return index.starts[line], index.starts[line]


def _apply(doc: Document, changes: Sequence[lsp.TextDocumentContentChangeEvent]) -> None:
    for change in changes:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            start = doc.offset(change.range.start)
            end = max(start, doc.offset(change.range.end))
            doc.text = doc.text[:start] + change.text + doc.text[end:]
        else:
            doc.text = change.text


def _edit(doc: Document, new: str) -> List[lsp.TextEdit]:
    """The one edit that turns the document's text into ``new`` (none when equal)."""
    old = doc.text
    if new == old:
        return []
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return [lsp.TextEdit(doc.range(start, len(old) - end), new[start:len(new) - end])]


def formatted(text: str, path: str, config: LintConfig) -> Optional[str]:
    """The text ``lcn fmt`` writes for ``text`` (:func:`~lcnotation.lostcities.reformat.format_source`);
    None where it refuses (syntax errors, mixed line ends, a game a dialect
    cannot write)."""
    try:
        source = decode_source(text.encode("utf-8", "surrogatepass"))
        if source.newline is None:
            return None
        new = format_source(source.text, path, config.dialect).text
        return source.encode(new).decode("utf-8")
    except (NotationError, FormatRefused, UnicodeError):
        return None


def make_server() -> LcnLanguageServer:
    """A server with every feature registered."""
    server = LcnLanguageServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: LcnLanguageServer, params: lsp.InitializeParams) -> None:
        ls.settings.update(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: LcnLanguageServer, params: lsp.InitializedParams) -> None:
        ws = ls.client_capabilities.workspace
        watch = ws.did_change_watched_files if ws is not None else None
        if watch is not None and watch.dynamic_registration:
            ls.client_register_capability(lsp.RegistrationParams([lsp.Registration(
                "lcn-pyproject", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                lsp.DidChangeWatchedFilesRegistrationOptions(
                    [lsp.FileSystemWatcher("**/pyproject.toml")]))]), None)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LcnLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.publish(ls.open(item.uri, item.text, item.version))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LcnLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return
        _apply(doc, params.content_changes)
        doc.version = params.text_document.version
        ls.publish(doc)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LcnLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        if ls.documents.pop(params.text_document.uri, None) is not None \
                and not ls.client_pulls():
            ls.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: LcnLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith("pyproject.toml") for c in params.changes):
            ls.reload_configs()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(ls: LcnLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict):
            ls.settings.update(settings.get("lcn", settings))
        ws = ls.client_capabilities.workspace
        if ws is not None and ws.inlay_hint is not None and ws.inlay_hint.refresh_support:
            ls.workspace_inlay_hint_refresh(None)

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                    lsp.DiagnosticOptions(inter_file_dependencies=False,
                                          workspace_diagnostics=False, identifier="lcn"))
    def pull(ls: LcnLanguageServer,
             params: lsp.DocumentDiagnosticParams) -> lsp.DocumentDiagnosticReport:
        doc = ls.documents.get(params.text_document.uri)
        items = [] if doc is None else ls.diagnostics(doc)
        return lsp.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
    def code_actions(ls: LcnLanguageServer,
                     params: lsp.CodeActionParams) -> Optional[List[lsp.CodeAction]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        only = params.context.only

        def wanted(kind: str) -> bool:
            return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)

        actions: List[lsp.CodeAction] = []
        notation = _notation_of(doc)
        if wanted(lsp.CodeActionKind.QuickFix) and notation is not None:
            start, end = doc.offset(params.range.start), doc.offset(params.range.end)
            for f in doc.lint().findings:
                span = f.diagnostic.span
                if span.start <= end and span.end >= start:
                    actions += _quick_fixes(ls, doc, None, f)
        elif wanted(lsp.CodeActionKind.QuickFix):
            start, end = doc.offset(params.range.start), doc.offset(params.range.end)
            for part in doc.lint().games:
                if part.offset > end or part.end + 1 < start:
                    continue
                for f in part.findings:
                    span = f.diagnostic.span
                    if span.start <= end and span.end >= start:
                        actions += _quick_fixes(ls, doc, part, f)
        if wanted(FIX_ALL):
            fixed, applied, _ = fix_text(doc.text, doc.path, doc.linter.config)
            if applied:
                actions.append(lsp.CodeAction(
                    f"Fix all lcn findings ({applied} fix{'es' if applied != 1 else ''})",
                    kind=FIX_ALL,
                    edit=lsp.WorkspaceEdit(changes={doc.uri: _edit(doc, fixed)})))
        return actions

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: LcnLanguageServer,
                   params: lsp.DocumentFormattingParams) -> Optional[List[lsp.TextEdit]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        notation = _notation_of(doc)
        if notation is not None:
            try:
                return _edit(doc, notation.format_text(doc.text, doc.path,
                                                       doc.linter.config).text)
            except FormatRefused as exc:
                ls.window_show_message(lsp.ShowMessageParams(
                    lsp.MessageType.Warning, f"lcn: {exc}"))
                return None
        new = formatted(doc.text, doc.path, doc.linter.config)
        return None if new is None else _edit(doc, new)

    @server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(ls: LcnLanguageServer, params: lsp.DocumentRangeFormattingParams
                         ) -> Optional[List[lsp.TextEdit]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        start, end = doc.offset(params.range.start), doc.offset(params.range.end)
        games = [g for g in doc.lint().games if g.offset <= end and g.end >= start
                 and g.text.strip()]
        if not games:
            return []
        first, last = games[0], games[-1]
        piece = doc.text[first.offset:last.end]
        new = formatted(piece, doc.path, doc.linter.config)
        if new is None:
            return None
        if last is not doc.lint().games[-1] and not new.endswith("\n\n"):
            new += majority_line_end_of(new)  # the blank line between two games
        if new == piece:
            return []
        return [lsp.TextEdit(doc.range(first.offset, last.end), new)]

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LcnLanguageServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        at = doc.offset(params.position)
        notation = _notation_of(doc)
        if notation is not None:
            shown = notation.describe(doc.text, at, doc.linter.config)
            return None if shown is None else lsp.Hover(
                lsp.MarkupContent(lsp.MarkupKind.Markdown, shown.markdown),
                doc.range(shown.start, shown.end))
        part = doc.lint().game_at(at)
        if part is None:
            return None
        found = _hover(ls, doc, part, at)
        if found is None:
            return None
        text, start, end = found
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text),
                         doc.range(start, end))

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: LcnLanguageServer,
                params: lsp.DocumentSymbolParams) -> Optional[List[lsp.DocumentSymbol]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        notation = _notation_of(doc)
        if notation is not None:
            return [_symbol(doc, s) for s in notation.symbols(doc.text)]
        parts = [part for part in doc.lint().games if part.text.strip()]
        return [_symbol(doc, game_symbol(number, part.game,
                                         GameText(part.text, part.line, part.offset)))
                for number, part in enumerate(parts, 1)]

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding(ls: LcnLanguageServer,
                params: lsp.FoldingRangeParams) -> Optional[List[lsp.FoldingRange]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        index = doc.index
        out = []
        for part in doc.lint().games:
            body = part.text.rstrip()
            if not body:
                continue
            first, last = index.line_of(part.offset), index.line_of(part.offset + len(body))
            if last > first:
                out.append(lsp.FoldingRange(first, last, kind=lsp.FoldingRangeKind.Region))
            for c in _all_comments(part):
                if c.span is not None and c.span.end_line > c.span.line:
                    out.append(lsp.FoldingRange(c.span.line - 1, c.span.end_line - 1,
                                                kind=lsp.FoldingRangeKind.Comment))
        return out

    legend = lsp.SemanticTokensLegend(list(TOKEN_TYPES), list(TOKEN_MODIFIERS))

    # pygls builds the capability (full and range) from the legend.
    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)
    def tokens_full(ls: LcnLanguageServer,
                    params: lsp.SemanticTokensParams) -> Optional[lsp.SemanticTokens]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        return lsp.SemanticTokens(_tokens(doc, 0, len(doc.text)))

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, legend)
    def tokens_range(ls: LcnLanguageServer,
                     params: lsp.SemanticTokensRangeParams) -> Optional[lsp.SemanticTokens]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        return lsp.SemanticTokens(_tokens(doc, doc.offset(params.range.start),
                                          doc.offset(params.range.end)))

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions())
    def inlay_hints(ls: LcnLanguageServer,
                    params: lsp.InlayHintParams) -> Optional[List[lsp.InlayHint]]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None or not ls.settings.inlay_hints:
            return None
        start, end = doc.offset(params.range.start), doc.offset(params.range.end)
        return [lsp.InlayHint(lsp.Position(*doc.index.position(at)), label, padding_left=True)
                for at, label in score_labels(doc.lint().games, colors_of(doc.linter.config),
                                              doc.scores, end) if start <= at <= end]

    return server


def _tokens(doc: Document, start: int, end: int) -> List[int]:
    text = doc.text
    found = []
    for part in doc.lint().games:
        if part.end < start or part.offset > end:
            continue
        found += [t for t in game_tokens(part, text) if t[1] >= start and t[0] <= end]
    return encode(found, doc.index)


def _all_comments(part: GamePart) -> List[Comment]:
    return list(all_comments(part.game))


def _notation_of(doc: Document) -> Optional[Notation]:
    """The notation of a document read whole (not Lost Cities), or None."""
    return doc.linter.notation if isinstance(doc.linter, NotationLinter) else None


def _quick_fixes(ls: LcnLanguageServer, doc: Document, part: Optional[GamePart],
                 f: Finding) -> List[lsp.CodeAction]:
    d = f.diagnostic
    diagnostic = ls.diagnostic(doc, f)
    actions = []
    if f.fix is not None:
        actions.append(lsp.CodeAction(
            f.fix.description, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic],
            is_preferred=True, edit=lsp.WorkspaceEdit(changes={doc.uri: [
                lsp.TextEdit(doc.range(e.start, e.end), e.replacement) for e in f.fix.edits]})))
    notation = _notation_of(doc)
    if part is None and notation is not None:
        found = notation.ignore_edit(doc.text, d.line, d.code)
        edit = None if found is None else lsp.TextEdit(doc.range(found.start, found.end),
                                                        found.replacement)
        if edit is not None:
            actions.append(lsp.CodeAction(
                f"Ignore {d.code} on this line", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic], edit=lsp.WorkspaceEdit(changes={doc.uri: [edit]})))
    elif part is not None and d.code != "S100":
        edit = _ignore_edit(doc, part, d.line, d.code)
        if edit is not None:
            actions.append(lsp.CodeAction(
                f"Ignore {d.code} on this line", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic], edit=lsp.WorkspaceEdit(changes={doc.uri: [edit]})))
    return actions


def _ignore_edit(doc: Document, part: GamePart, line: int,
                 code: str) -> Optional[lsp.TextEdit]:
    """Add ``code`` to the line's ``lcn: ignore[...]`` comment, or write one at
    its end (:func:`~lcnotation.lostcities.notation.ignore_edit_in`)."""
    index = doc.index
    if line < 1 or line > index.line_count:
        return None
    found = ignore_edit_in(doc.text, GameText(part.text, part.line, part.offset),
                           _all_comments(part), line, index.starts[line - 1],
                           index.ends[line - 1], code)
    if found is None:
        return None
    return lsp.TextEdit(doc.range(found.start, found.end), found.replacement)


#: The kind an editor shows for each kind of outline entry.
_SYMBOL_KINDS = {"game": lsp.SymbolKind.Module, "section": lsp.SymbolKind.Namespace,
                 "header": lsp.SymbolKind.Property, "move": lsp.SymbolKind.Event}


def _symbol(doc: Document, symbol: Symbol) -> lsp.DocumentSymbol:
    """An outline entry as the protocol writes it: the game's whole range, its
    name selected at its start."""
    whole = doc.range(symbol.span.start, symbol.span.end)
    select = lsp.Range(whole.start, whole.start) if symbol.kind in ("game", "section") \
        else whole
    return lsp.DocumentSymbol(symbol.name, _SYMBOL_KINDS[symbol.kind], whole, select,
                              detail=symbol.detail,
                              children=[_symbol(doc, c) for c in symbol.children]
                              if symbol.kind in ("game", "section") else None)


def _hover(ls: LcnLanguageServer, doc: Document, part: GamePart,
           at: int) -> Optional[Tuple[str, int, int]]:
    game = part.game
    for i, move in enumerate(game.moves):
        s = move.span
        if s is not None and s.start <= at < s.end:
            return describe_move(game, i, colors_of(doc.linter.config)), s.start, s.end
    for c in _all_comments(part):
        s = c.span
        if s is None or not s.start <= at < s.end:
            continue
        found = find_suppression(c.text, s.start + 1, s.line, s)
        for named in (found.named or ()) if found is not None else ():
            if named.start <= at < named.end:
                text = describe_code(named.code, ls.spec_base)
                return None if text is None else (text, named.start, named.end)
        return None
    return None


def main(tcp: Optional[Tuple[str, int]] = None) -> None:
    """Run the server on standard input and output (or on ``tcp``)."""
    server = make_server()
    if tcp is None:
        # The protocol gets a stream of its own (pygls closes it at exit), and
        # anything printed by mistake goes to standard error, not into it.
        out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
        sys.stdout.flush()
        sys.stdout = sys.stderr
        server.start_io(sys.stdin.buffer, out)
    else:
        server.start_tcp(*tcp)
