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

import functools
import gc
import logging
import os
import signal
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
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
from .analysis import GAME_LIMIT, Analysis, GamePart, Linter, NotationLinter, Scored, score_labels
from ..lostcities.describe import describe_move
from ..lostcities.notation import game_symbol, ignore_edit_in
from ..lostcities.text.reader import GameText
from ..core.notation import FormatRefused, Notation, Symbol
from ..tools.notations import DEFAULT, notation_for
from .describe import code_href, describe_code
from ..core.positions import LineIndex
from .tokens import TOKEN_MODIFIERS, TOKEN_TYPES, encode, game_tokens
from .transport import one_line_logging, serve_stdio, serve_tcp, stop_on_signals

__all__ = ["LcnLanguageServer", "make_server", "FIX_ALL", "MAX_DIAGNOSTICS", "guarded",
           "config_stamp"]

log = logging.getLogger(__name__)

#: The code action kind of "fix everything that can be fixed" (fix on save).
FIX_ALL = "source.fixAll.lcn"

#: The most diagnostics published for one document (the first ones, and one
#: more that says how many are not shown): a document of junk has a finding
#: a line, and a million diagnostics a keystroke is more than an editor shows.
MAX_DIAGNOSTICS = 2000

#: A document longer than this (characters) is kept out of the garbage
#: collector's full collections once opened (:func:`gc.freeze`).
_FREEZE_FROM = 1 << 20

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error,
             Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFO: lsp.DiagnosticSeverity.Information}


@dataclass
class Document:
    """An open document: its text, the version the client gave it, its linter,
    and where its lines are (:class:`~lcnotation.core.positions.LineIndex`,
    edited with the text, not rebuilt)."""

    uri: str
    text: str
    version: Optional[int]
    linter: "Linter | NotationLinter"
    encoding: str
    analysis: Optional[Analysis] = None
    _index: Optional[LineIndex] = None
    #: Each game's score and errors (for the inlay hints).
    scores: Scored = field(default_factory=dict)
    #: How many characters at the start and at the end of the text are
    #: still those the analysis read (None: all of them, or no analysis).
    _unchanged: Optional[Tuple[int, int]] = None

    @property
    def index(self) -> LineIndex:
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text, self.encoding)
        return self._index

    def replace(self, start: int, end: int, text: str) -> None:
        """Put ``text`` in place of the characters ``start`` to ``end``."""
        index = self.index
        length = len(self.text)
        start = max(0, min(start, length))
        end = max(start, min(end, length))
        prefix, suffix = self._unchanged or (length, length)
        self._unchanged = (min(prefix, start), min(suffix, length - end))
        index.edit(start, end, text)
        self.text = index.text

    def replace_all(self, text: str) -> None:
        self.text = text
        self._unchanged = (0, 0)

    def lint(self) -> Analysis:
        if self.analysis is None or self.analysis.text is not self.text:
            unchanged = None if self.analysis is None else self._unchanged
            self.analysis = self.linter.lint(self.text, unchanged)
        self._unchanged = None
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
        except (RecursionError, MemoryError, ValueError, OSError) as exc:
            where = f" for {path}" if path else ""
            return LintConfig(), (f"cannot read the configuration{where}: "
                                  f"{type(exc).__name__}: {str(exc)[:200]}")


def config_stamp(path: Optional[str]) -> Tuple[Tuple[str, int, int], ...]:
    """What the configuration files that may apply to ``path`` look like
    now: each ``pyproject.toml`` from its folder up, with its modification
    time and size.  A few ``stat`` calls: cheap enough for every change, so
    that an edited configuration is noticed without file watching (which
    some editors do not offer)."""
    if path is None:
        return ()
    found = []
    here = os.path.dirname(os.path.abspath(path))
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        try:
            st = os.stat(candidate)
        except OSError:
            pass
        else:
            found.append((candidate, st.st_mtime_ns, st.st_size))
        parent = os.path.dirname(here)
        if parent == here:
            return tuple(found)
        here = parent


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, but the documents are the server's alone (see the module
    docstring): opening, changing and closing go straight to its handlers.

    The notifications are plain functions, not generators as pygls' own are:
    pygls keeps a future for each generator it runs on a notification, and
    never drops it (2 KB for each keystroke)."""

    @property
    def shut_down(self) -> bool:
        """Whether the client sent ``shutdown``."""
        return bool(self._shutdown)

    def __init__(self, server: "LcnLanguageServer", converter: Any) -> None:
        super().__init__(server, converter)
        # In place of pygls' own, which are generators (see the class docstring).
        for method in (lsp.INITIALIZED, lsp.TEXT_DOCUMENT_DID_OPEN,
                       lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.TEXT_DOCUMENT_DID_CLOSE):
            self.fm.add_builtin_feature(method, functools.partial(self._user, method))
        self.fm.add_builtin_feature(lsp.SET_TRACE, self._set_trace)
        self.fm.add_builtin_feature(lsp.EXIT, self._exit)

    def _user(self, method: str, params: object) -> None:
        handler = self.fm.features.get(method)
        if handler is not None:
            handler(params)

    def _set_trace(self, params: lsp.SetTraceParams) -> None:
        self.trace = params.value

    def _exit(self, *args: object) -> None:
        """The LSP's exit: status 0 after ``shutdown``, 1 without (the
        transport ends the process; pygls' own exit swallowed the status)."""
        server = self._server
        if isinstance(server, LcnLanguageServer):
            server.exit_code = 0 if self._shutdown else 1


class LcnLanguageServer(LanguageServer):
    """pygls' server with lcnotation's documents, settings and configurations."""

    def __init__(self) -> None:
        super().__init__("lcn", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        self.documents: Dict[str, Document] = {}
        self.settings = Settings()
        self.configs = _Configs()
        self.config_errors_shown: set[str] = set()
        #: The configuration files each open document's folder saw last (:func:`config_stamp`).
        self.config_stamps: Dict[str, Tuple[Tuple[str, int, int], ...]] = {}
        #: The exit status, once the client sent ``exit``.
        self.exit_code: Optional[int] = None

    @property
    def shut_down(self) -> bool:
        protocol = self.protocol
        return isinstance(protocol, _Protocol) and protocol.shut_down

    # ------------------------------------------------------------ client

    @property
    def encoding(self) -> str:
        kind = self.workspace.position_encoding
        return str(kind.value if isinstance(kind, lsp.PositionEncodingKind) else kind or "utf-16")

    def client_pulls(self) -> bool:
        td = self.client_capabilities.text_document
        return td is not None and td.diagnostic is not None

    def say(self, kind: lsp.MessageType, message: str) -> None:
        """Show ``message`` in the editor (``window/showMessage``)."""
        self.window_show_message(lsp.ShowMessageParams(kind, f"lcn: {message}"))

    def failed(self, what: str, exc: BaseException) -> None:
        """A handler raised: log it, and say it in the editor (the document
        stays as the client sent it)."""
        text = f"{what} failed: {type(exc).__name__}: {str(exc)[:300]}"
        log.error("%s", text, exc_info=exc)
        try:
            self.say(lsp.MessageType.Error, f"{text} (the document is kept as it is)")
        except Exception:  # the client may be gone
            log.warning("cannot tell the client that %s failed", what)

    # ------------------------------------------------------------ documents

    def document(self, params: Any) -> Optional[Document]:
        """The open document a request is about, or None."""
        return self.documents.get(params.text_document.uri)

    def open(self, uri: str, text: str, version: Optional[int]) -> Document:
        """Register the document (before anything that may fail), then find its linter."""
        doc = Document(uri, text, version, Linter(), self.encoding)
        self.documents[uri] = doc
        doc.linter = self.linter_for(uri, self.config_for(uri))
        path = doc.path
        if path != "-":
            self.config_stamps[os.path.dirname(os.path.abspath(path))] = config_stamp(path)
        return doc

    def configs_changed(self, doc: Document) -> bool:
        """Whether a configuration file of ``doc`` changed since it was last
        looked at (then every document is linted again)."""
        path = doc.path
        if path == "-":
            return False
        folder = os.path.dirname(os.path.abspath(path))
        stamp = config_stamp(path)
        before = self.config_stamps.get(folder)
        self.config_stamps[folder] = stamp
        if before is None or before == stamp:
            return False
        self.config_stamps = {folder: stamp}
        self.reload_configs()
        return True

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
            self.say(lsp.MessageType.Error, f"{error}; using the default configuration")
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
        analysis = doc.lint()
        findings = analysis.findings
        out = [self.diagnostic(doc, f) for f in findings[:MAX_DIAGNOSTICS]]
        for part in analysis.unread:
            out.append(lsp.Diagnostic(
                range=doc.range(part.offset, part.offset), source="lcn",
                severity=lsp.DiagnosticSeverity.Information,
                message=f"this game is {len(part.text):,} characters long: the server "
                        f"checks games of up to {GAME_LIMIT:,} characters, and not this "
                        "one ('lcn lint' checks it)"))
        if len(findings) > MAX_DIAGNOSTICS:
            out.append(lsp.Diagnostic(
                range=doc.range(len(doc.text), len(doc.text)), source="lcn",
                severity=lsp.DiagnosticSeverity.Information,
                message=f"{len(findings) - MAX_DIAGNOSTICS:,} more findings are not shown: "
                        f"the server shows the first {MAX_DIAGNOSTICS:,} ('lcn lint' lists "
                        "them all)"))
        return out

    def diagnostic(self, doc: Document, finding: Finding) -> lsp.Diagnostic:
        d = finding.diagnostic
        href = code_href(d.code)
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


def guarded(handler: Callable[..., Any], request: bool) -> Callable[..., Any]:
    """``handler``, but an exception it raises is logged and shown in the
    editor, and answered -32603 for a request: nothing the client sent is
    dropped (a document whose linting fails stays open, as sent)."""

    @functools.wraps(handler)
    def run(ls: LcnLanguageServer, params: Any) -> Any:
        try:
            return handler(ls, params)
        except (JsonRpcException, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:
            ls.failed(handler.__name__.replace("_", " "), exc)
            if request:
                raise JsonRpcInternalError(f"lcn: {handler.__name__} failed: "
                                           f"{type(exc).__name__}: {str(exc)[:300]}") from None
            return None

    return run


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
            doc.replace(start, end, change.text)
        else:
            doc.replace_all(change.text)


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
    return _formatted(text, path, config)[0]


def _formatted(text: str, path: str, config: LintConfig) -> Tuple[Optional[str], str]:
    """:func:`formatted`, and why not when it refuses."""
    try:
        source = decode_source(text.encode("utf-8", "surrogatepass"))
        if source.newline is None:
            return None, "the document mixes line ends (S107; 'Fix all' makes them one)"
        new = format_source(source.text, path, config.dialect).text
        return source.encode(new).decode("utf-8"), ""
    except NotationError as exc:
        return None, f"{exc.line}:{exc.column}: {exc.message}"
    except FormatRefused as exc:
        return None, str(exc).replace(": not formatted: ", ": ", 1)
    except UnicodeError as exc:
        return None, str(exc)


# ---------------------------------------------------------------- handlers


def initialize(ls: LcnLanguageServer, params: lsp.InitializeParams) -> None:
    ls.settings.update(params.initialization_options)


def initialized(ls: LcnLanguageServer, params: lsp.InitializedParams) -> None:
    ws = ls.client_capabilities.workspace
    watch = ws.did_change_watched_files if ws is not None else None
    if watch is not None and watch.dynamic_registration:
        ls.client_register_capability(lsp.RegistrationParams([lsp.Registration(
            "lcn-pyproject", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            lsp.DidChangeWatchedFilesRegistrationOptions(
                [lsp.FileSystemWatcher("**/pyproject.toml")]))]), None)


def did_open(ls: LcnLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.publish(ls.open(item.uri, item.text, item.version))
    if len(item.text) > _FREEZE_FROM:
        # A large document's trees live until it closes (and hold no cycles):
        # out of the collector's sight, a keystroke no longer pays for a full
        # collection over them (0.8 s at 4 MB).
        gc.freeze()


def did_change(ls: LcnLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    doc = ls.document(params)
    if doc is None:
        return
    _apply(doc, params.content_changes)
    doc.version = params.text_document.version
    if not ls.configs_changed(doc):  # (which publishes every document)
        ls.publish(doc)


def did_save(ls: LcnLanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    doc = ls.document(params)
    if doc is not None:
        ls.configs_changed(doc)


def did_close(ls: LcnLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    if ls.documents.pop(params.text_document.uri, None) is not None \
            and not ls.client_pulls():
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(params.text_document.uri, []))


def watched(ls: LcnLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    if any(c.uri.endswith("pyproject.toml") for c in params.changes):
        ls.reload_configs()


def configuration(ls: LcnLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict):
        ls.settings.update(settings.get("lcn", settings))
    ws = ls.client_capabilities.workspace
    if ws is not None and ws.inlay_hint is not None and ws.inlay_hint.refresh_support:
        ls.workspace_inlay_hint_refresh(None)


def pull(ls: LcnLanguageServer,
         params: lsp.DocumentDiagnosticParams) -> lsp.DocumentDiagnosticReport:
    doc = ls.document(params)
    items = [] if doc is None else ls.diagnostics(doc)
    return lsp.RelatedFullDocumentDiagnosticReport(items=items)


def code_actions(ls: LcnLanguageServer,
                 params: lsp.CodeActionParams) -> Optional[List[lsp.CodeAction]]:
    doc = ls.document(params)
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


def formatting(ls: LcnLanguageServer,
               params: lsp.DocumentFormattingParams) -> Optional[List[lsp.TextEdit]]:
    doc = ls.document(params)
    if doc is None:
        return None
    notation = _notation_of(doc)
    if notation is not None:
        try:
            return _edit(doc, notation.format_text(doc.text, doc.path,
                                                   doc.linter.config).text)
        except FormatRefused as exc:
            ls.say(lsp.MessageType.Warning, str(exc))
            return None
    new, why = _formatted(doc.text, doc.path, doc.linter.config)
    if new is None:
        ls.say(lsp.MessageType.Warning, f"not formatted: {why}")
        return None
    return _edit(doc, new)


def range_formatting(ls: LcnLanguageServer, params: lsp.DocumentRangeFormattingParams
                     ) -> Optional[List[lsp.TextEdit]]:
    doc = ls.document(params)
    if doc is None:
        return None
    start, end = doc.offset(params.range.start), doc.offset(params.range.end)
    games = [g for g in doc.lint().games if g.offset <= end and g.end >= start
             and g.text.strip()]
    if not games:
        return []
    first, last = games[0], games[-1]
    piece = doc.text[first.offset:last.end]
    new, why = _formatted(piece, doc.path, doc.linter.config)
    if new is None:
        ls.say(lsp.MessageType.Warning, f"not formatted: {why}")
        return None
    if last is not doc.lint().games[-1] and not new.endswith("\n\n"):
        new += majority_line_end_of(new)  # the blank line between two games
    if new == piece:
        return []
    return [lsp.TextEdit(doc.range(first.offset, last.end), new)]


def hover(ls: LcnLanguageServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
    doc = ls.document(params)
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


def symbols(ls: LcnLanguageServer,
            params: lsp.DocumentSymbolParams) -> Optional[List[lsp.DocumentSymbol]]:
    doc = ls.document(params)
    if doc is None:
        return None
    notation = _notation_of(doc)
    if notation is not None:
        return [_symbol(doc, s) for s in notation.symbols(doc.text)]
    parts = [part for part in doc.lint().games if part.text.strip()]
    return [_symbol(doc, game_symbol(number, part.game,
                                     GameText(part.text, part.line, part.offset)))
            for number, part in enumerate(parts, 1)]


def folding(ls: LcnLanguageServer,
            params: lsp.FoldingRangeParams) -> Optional[List[lsp.FoldingRange]]:
    doc = ls.document(params)
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


def tokens_full(ls: LcnLanguageServer,
                params: lsp.SemanticTokensParams) -> Optional[lsp.SemanticTokens]:
    doc = ls.document(params)
    if doc is None:
        return None
    return lsp.SemanticTokens(_tokens(doc, 0, len(doc.text)))


def tokens_range(ls: LcnLanguageServer,
                 params: lsp.SemanticTokensRangeParams) -> Optional[lsp.SemanticTokens]:
    doc = ls.document(params)
    if doc is None:
        return None
    return lsp.SemanticTokens(_tokens(doc, doc.offset(params.range.start),
                                      doc.offset(params.range.end)))


def inlay_hints(ls: LcnLanguageServer,
                params: lsp.InlayHintParams) -> Optional[List[lsp.InlayHint]]:
    doc = ls.document(params)
    if doc is None or not ls.settings.inlay_hints:
        return None
    start, end = doc.offset(params.range.start), doc.offset(params.range.end)
    return [lsp.InlayHint(lsp.Position(*doc.index.position(at)), label, padding_left=True)
            for at, label in score_labels(doc.lint().games, colors_of(doc.linter.config),
                                          doc.scores, end) if start <= at <= end]


#: The legend of the semantic tokens (pygls builds the capability, full and
#: range, from it).
_LEGEND = lsp.SemanticTokensLegend(list(TOKEN_TYPES), list(TOKEN_MODIFIERS))

#: Every feature: (method, its options, its handler, whether it is a request).
_FEATURES: Tuple[Tuple[str, Any, Callable[..., Any], bool], ...] = (
    (lsp.INITIALIZE, None, initialize, True),
    (lsp.INITIALIZED, None, initialized, False),
    (lsp.TEXT_DOCUMENT_DID_OPEN, None, did_open, False),
    (lsp.TEXT_DOCUMENT_DID_CHANGE, None, did_change, False),
    (lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False), did_save, False),
    (lsp.TEXT_DOCUMENT_DID_CLOSE, None, did_close, False),
    (lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, watched, False),
    (lsp.WORKSPACE_DID_CHANGE_CONFIGURATION, None, configuration, False),
    (lsp.TEXT_DOCUMENT_DIAGNOSTIC,
     lsp.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False,
                           identifier="lcn"), pull, True),
    (lsp.TEXT_DOCUMENT_CODE_ACTION,
     lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]),
     code_actions, True),
    (lsp.TEXT_DOCUMENT_FORMATTING, None, formatting, True),
    (lsp.TEXT_DOCUMENT_RANGE_FORMATTING, None, range_formatting, True),
    (lsp.TEXT_DOCUMENT_HOVER, None, hover, True),
    (lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, symbols, True),
    (lsp.TEXT_DOCUMENT_FOLDING_RANGE, None, folding, True),
    (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, _LEGEND, tokens_full, True),
    (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, _LEGEND, tokens_range, True),
    (lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(), inlay_hints, True),
)


def make_server() -> LcnLanguageServer:
    """A server with every feature registered (each handler :func:`guarded`)."""
    server = LcnLanguageServer()
    for method, options, handler, request in _FEATURES:
        server.feature(method, options)(guarded(handler, request))
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
                text = describe_code(named.code)
                return None if text is None else (text, named.start, named.end)
        return None
    return None


def main(tcp: Optional[Tuple[str, int]] = None) -> int:
    """Run the server on standard input and output (or on ``tcp``, each
    connection with a server of its own); the exit status.  Raises
    :class:`~.transport.ListenError` when it cannot listen on ``tcp``."""
    one_line_logging()
    previous = stop_on_signals()
    try:
        if tcp is not None:
            return serve_tcp(tcp[0], tcp[1], make_server)
        # The protocol gets a descriptor of its own, and anything printed by
        # mistake goes to standard error, not into it.
        sys.stdout.flush()
        out = os.dup(sys.stdout.fileno())
        sys.stdout = sys.stderr
        try:
            return serve_stdio(make_server(), sys.stdin.fileno(), out)
        finally:
            os.close(out)
    finally:
        for s, handler in previous:
            signal.signal(s, handler)
