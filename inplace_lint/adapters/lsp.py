"""The language server (``inplace-lint lsp``), on pygls 2.x.

What it does:

* Diagnostics on didOpen and didSave at once, and on didChange after a 30 ms pause per document (a
  newer edit cancels the pending run; a result is published only if the text it was computed from is
  still the document's text, so the latest version wins). Code ``AGI00x``, source ``inplace-lint``,
  severity Warning, the finding's exact range, a link to the rule's docs, and related information at the
  operation that saved the tensor for backward.
* Code actions: per diagnostic, the finding's fix as a quick fix (preferred only when the fix is safe) and
  "Suppress AGI00x with ``# noqa: AGI00x``" (merged into an existing ``# noqa`` comment); and
  ``source.fixAll.inplace-lint``, which applies safe fixes only.
* Hover on ``# noqa: AGI00x`` shows what the rule is about.

Text that does not parse (half-typed code) **clears** the document's diagnostics rather than keeping
stale ones whose ranges no longer match the text; the parse error is logged (``window/logMessage``).
Configuration is the CLI's: ``[tool.inplace-lint]`` / ``[inplace-lint]`` found from the file upward,
re-read when the file changes; excluded files get no diagnostics.

Linting runs on one worker thread, so the server keeps reading messages while a big file is analysed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from inplace_lint import __version__
from inplace_lint.engine.config import ConfigError, Settings, SettingsResolver
from inplace_lint.model.findings import Finding, Fix
from inplace_lint.syntax.lines import split_lines
from inplace_lint.syntax.noqa import NoqaMap, add_code_to_line, noqa_spans
from inplace_lint.model.records import Record, factory

logger = logging.getLogger("inplace_lint.adapters.lsp")

# Long enough to coalesce a burst (a paste, an undo, multi-cursor typing), short enough for the answer
# to follow the keystroke: a lint running when newer text arrives is superseded, never published. The
# first change after a quiet spell is linted at once (no keystroke follows it within this time, usually).
DEBOUNCE_SECONDS = 0.03
SOURCE = "inplace-lint"
FIX_ALL_KIND = "source.fixAll.inplace-lint"
_LINT_THREAD_STACK = 64 * 1024 * 1024  # deep but valid code recurses deeply in the analysis


class LintResult(Record):
    source: str
    findings: List[Finding] = factory(list)
    error: Optional[str] = None  # why the text could not be linted (logged, diagnostics cleared)
    config_error: Optional[str] = None
    settings: Optional[Settings] = None
    path: str = ""


def _make_executor() -> ThreadPoolExecutor:
    previous = threading.stack_size()
    try:
        threading.stack_size(_LINT_THREAD_STACK)
    except (ValueError, RuntimeError):  # platforms that refuse: keep the default stack
        pass
    try:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inplace-lint")
        executor.submit(lambda: None).result()  # start the worker now, with the large stack
    finally:
        threading.stack_size(previous)
    return executor


_ANSWERED = object()  # a request already answered with an error while it was being read


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, but a request whose params cannot be read gets an error response.

    pygls fails such a request while decoding it, before it knows the request id, and then answers
    nothing, which leaves the client waiting forever. Here the id is taken from the raw message.
    """

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), (int, str)):
                logger.warning("inplace-lint: unreadable %r request: %s", data.get("method"), error)
                self._send_response(data["id"], None, error.to_response_error())
                return _ANSWERED
            raise

    def handle_message(self, message):
        if message is _ANSWERED:
            return
        super().handle_message(message)


class InplaceLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "inplace-lint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=_Protocol,
        )
        self.resolver = SettingsResolver()
        self.pending: Dict[str, asyncio.Task] = {}
        self.results: Dict[str, LintResult] = {}
        self.memos: Dict[str, object] = {}  # per document: its last lint (engine.Memo)
        self.last_change: Dict[str, float] = {}  # per document: when its last change arrived (monotonic)
        self.reported_config_errors: set = set()
        self._executor: Optional[ThreadPoolExecutor] = None

    @property
    def executor(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = _make_executor()
        return self._executor

    def shutdown(self) -> None:
        for task in self.pending.values():
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        super().shutdown()

    def begin_session(self) -> None:
        """A new TCP client: a fresh protocol state (it has not shut down yet)."""
        self.protocol._shutdown = False

    def end_session(self) -> None:
        """A TCP client left: forget its documents and their lints; the server waits for the next one."""
        for task in self.pending.values():
            task.cancel()
        for store in (self.pending, self.results, self.memos, self.last_change):
            store.clear()
        self.reported_config_errors.clear()
        workspace = getattr(self.protocol, "_workspace", None)
        if workspace is not None:
            for uri in list(workspace.text_documents):
                workspace.remove_text_document(uri)

    # --- documents and linting ---------------------------------------------------------------------

    def open_document(self, uri: str):
        """The open document at ``uri``, or None (requests for unopened documents get empty answers)."""
        return self.workspace.text_documents.get(unquote(uri))

    def lint(self, uri: str, source: str) -> LintResult:
        """Lint ``source`` as the document ``uri`` (thread-safe; never raises)."""
        from inplace_lint.fixkit.apply import lint_text
        from inplace_lint.engine import program
        from inplace_lint.engine.core import LintError, Memo, lint_with_tree
        from inplace_lint.adapters.output import file_error_from

        path = _uri_to_path(uri)
        result = LintResult(source=source, path=path or uri)
        try:
            if path is not None:
                settings = self.resolver.for_path(Path(path), cache_folders=False)
            else:
                settings = self.resolver.for_path(Path.cwd(), cache_folders=False)
        except ConfigError as error:
            result.config_error = str(error)
            return result
        except OSError as error:
            settings = Settings()
            logger.warning("inplace-lint: cannot look for configuration of %s: %s", uri, error)
        result.settings = settings
        if path is not None and settings.is_excluded(Path(path), check_parents=True):
            return result
        try:
            memo = self.memos.setdefault(uri, Memo())
            if path is not None:
                # the other files of its program read this text, not the file on disk (unsaved edits)
                program.set_unsaved_text(path, source)

            def linter(text, path, options):
                return lint_with_tree(text, None, path, options, memo=memo)

            result.findings = lint_text(source, result.path, settings, linter)
        except LintError as error:
            result.error = file_error_from(result.path, error).render()
        except RecursionError:
            result.error = f"inplace-lint: {result.path}: cannot lint: the code nests too deeply"
        except Exception as error:  # an analysis bug must not take the server down
            logger.exception("inplace-lint: internal error on %s", uri)
            name = type(error).__name__
            result.error = f"inplace-lint: {result.path}: internal error ({name}: {error}); please report it"
        return result

    def current_result(self, uri: str) -> Optional[LintResult]:
        """The lint result for the document's current text (linting now if the cache is stale)."""
        document = self.open_document(uri)
        if document is None:
            return None
        source = document.source
        cached = self.results.get(uri)
        if cached is not None and cached.source == source:
            return cached
        result = self.lint(uri, source)
        self.results[uri] = result
        return result

    async def lint_and_publish(self, uri: str) -> None:
        document = self.open_document(uri)
        if document is None:
            return
        source, version = document.source, document.version
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self.executor, self.lint, uri, source)
        document = self.open_document(uri)
        if document is None or document.source != source:
            return  # the text moved on: a newer run will publish
        self.results[uri] = result
        self.publish(uri, version, result)

    def publish(self, uri: str, version: Optional[int], result: LintResult) -> None:
        if result.config_error:
            if result.config_error not in self.reported_config_errors:
                self.reported_config_errors.add(result.config_error)
                self.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Error,
                        message=f"inplace-lint: configuration error: {result.config_error}",
                    )
                )
        elif result.error:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=result.error))
        lines = split_lines(result.source)
        diagnostics = [self.diagnostic(uri, lines, finding) for finding in result.findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    def relint_dependents(self, paths, delay: float = 0) -> None:
        """Lint again the open documents whose findings read one of ``paths`` (another file they import
        from changed: edited, saved, closed, or changed on disk)."""
        from inplace_lint.engine import program

        changed = {os.path.abspath(p) for p in paths if p}
        if not changed:
            return
        for uri in list(self.workspace.text_documents):
            path = _uri_to_path(uri)
            if path is not None and os.path.abspath(path) not in changed and \
                    changed & {str(f) for f in program.last_dependencies(path)}:
                self.schedule(uri, delay)

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)start the lint of ``uri`` after ``delay`` seconds, cancelling any pending one."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.ensure_future(self._run_later(uri, delay))

    async def _run_later(self, uri: str, delay: float) -> None:
        task = asyncio.current_task()
        try:
            if delay:
                await asyncio.sleep(delay)
            await self.lint_and_publish(uri)
        except asyncio.CancelledError:
            pass
        except Exception:  # pragma: no cover - defensive: a failed publish must not kill the loop
            logger.exception("inplace-lint: failed to lint %s", uri)
        finally:
            if self.pending.get(uri) is task:
                del self.pending[uri]

    # --- positions ---------------------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        try:
            encoding = self.workspace.position_encoding
        except RuntimeError:
            encoding = None
        value = getattr(encoding, "value", encoding)
        return value or "utf-16"

    def to_client(self, lines: Sequence[str], line: int, column: int) -> types.Position:
        """1-based line, 0-based code-point column -> LSP position in the negotiated encoding."""
        index = line - 1
        if index >= len(lines):
            last = len(lines) - 1
            return types.Position(
                line=max(last, 0), character=_units(lines[last] if lines else "", self.encoding)
            )
        index = max(index, 0)
        return types.Position(line=index, character=_units(lines[index][: max(column, 0)], self.encoding))

    def from_client(self, lines: Sequence[str], position: types.Position) -> Tuple[int, int]:
        """LSP position -> (1-based line, 0-based code-point column)."""
        if position.line >= len(lines):
            return position.line + 1, 0
        text = lines[position.line]
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return position.line + 1, index
            units += _units(char, self.encoding)
        return position.line + 1, len(text)

    def lsp_range(self, lines: Sequence[str], start: Tuple[int, int], end: Tuple[int, int]) -> types.Range:
        return types.Range(start=self.to_client(lines, *start), end=self.to_client(lines, *end))

    # --- diagnostics and actions -------------------------------------------------------------------

    def diagnostic(self, uri: str, lines: Sequence[str], finding: Finding) -> types.Diagnostic:
        from inplace_lint.adapters.output import rule_url

        url = rule_url(finding.code)
        related = []
        evidence = finding.evidence
        if evidence.saving_line is not None:
            saving_uri, saving_lines = uri, lines
            if evidence.saving_path:  # the save is in another file of the program
                saving_uri, saving_lines = _file_uri(evidence.saving_path), _file_lines(evidence.saving_path)
            line, column = evidence.saving_line, evidence.saving_column or 0
            text = saving_lines[line - 1] if 0 < line <= len(saving_lines) else ""
            end_column = len(text.rstrip())
            if evidence.saving_op and text[column:].startswith(evidence.saving_op):
                end_column = column + len(evidence.saving_op)
            saving = f"`{evidence.saving_op}`" if evidence.saving_op else "this operation"
            related.append(
                types.DiagnosticRelatedInformation(
                    location=types.Location(
                        uri=saving_uri, range=self.lsp_range(saving_lines, (line, column), (line, end_column))
                    ),
                    message=f"{saving} saved `{evidence.tensor}` here for backward",
                )
            )
        if evidence.grad_source_line is not None and evidence.grad_source:  # why it requires grad
            line, column = evidence.grad_source_line, evidence.grad_source_column or 0
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            end_column = column + len(evidence.grad_source) if text[column:].startswith(evidence.grad_source) \
                else len(text.rstrip())
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=self.lsp_range(lines, (line, column), (line, end_column))),
                message=f"`{evidence.grad_source}` requires grad"))
        for other in finding.related:  # the write in another file
            other_lines = _file_lines(other.path)
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=_file_uri(other.path), range=self.lsp_range(
                    other_lines, (other.start.line, other.start.column), (other.end.line, other.end.column))),
                message=other.message))
        related = related or None
        return types.Diagnostic(
            range=self.lsp_range(
                lines, (finding.start.line, finding.start.column), (finding.end.line, finding.end.column)
            ),
            message=finding.message,
            severity=types.DiagnosticSeverity.Warning,
            code=finding.code,
            code_description=types.CodeDescription(href=url) if url else None,
            source=SOURCE,
            related_information=related,
        )

    def workspace_edit(
        self, uri: str, version: Optional[int], edits: List[types.TextEdit]
    ) -> types.WorkspaceEdit:
        capabilities = self.client_capabilities
        workspace = capabilities.workspace if capabilities else None
        edit_caps = workspace.workspace_edit if workspace else None
        if edit_caps is not None and edit_caps.document_changes:
            return types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                        edits=edits,
                    )
                ]
            )
        return types.WorkspaceEdit(changes={uri: edits})

    def fix_edits(self, lines: Sequence[str], fix: Fix) -> List[types.TextEdit]:
        return [
            types.TextEdit(
                range=self.lsp_range(lines, (e.start.line, e.start.column), (e.end.line, e.end.column)),
                new_text=e.replacement,
            )
            for e in fix.edits
        ]


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _file_uri(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


def _file_lines(path: str) -> List[str]:
    """Another file's lines (where a finding's other half is), for its positions; none if unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return split_lines(handle.read())
    except OSError:
        return []


def _uri_to_path(uri: str) -> Optional[str]:
    if not uri.startswith("file:"):
        return None
    try:
        return to_fs_path(uri)
    except Exception:
        return None


def _kind_requested(kind: str, only: Optional[Sequence[str]]) -> bool:
    if not only:
        return True
    return any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


def _overlaps(finding: Finding, start: Tuple[int, int], end: Tuple[int, int]) -> bool:
    f_start = (finding.start.line, finding.start.column)
    f_end = (finding.end.line, finding.end.column)
    return f_start <= end and start <= f_end


def _minimal_edit(old: str, new: str) -> Tuple[int, int, str]:
    """(start offset, end offset in ``old``, replacement) of the smallest single edit turning old into new."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return prefix, len(old) - suffix, new[prefix:len(new) - suffix]


def _offset_to_position(source: str, offset: int) -> Tuple[int, int]:
    """(1-based line, 0-based column) of ``offset`` in ``source``."""
    parts = split_lines(source[:offset])
    return len(parts), len(parts[-1])


def create_server() -> InplaceLintServer:
    server = InplaceLintServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: InplaceLintServer, params: types.DidOpenTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: InplaceLintServer, params: types.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        now = time.monotonic()
        quiet = now - ls.last_change.get(uri, float("-inf")) > DEBOUNCE_SECONDS and uri not in ls.pending
        ls.last_change[uri] = now
        ls.schedule(uri, 0 if quiet else DEBOUNCE_SECONDS)
        path, document = _uri_to_path(uri), ls.open_document(uri)
        if path is not None and document is not None:
            from inplace_lint.engine import program

            program.set_unsaved_text(path, document.source)
        ls.relint_dependents([path], DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: InplaceLintServer, params: types.DidSaveTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: InplaceLintServer, params: types.DidChangeWatchedFilesParams):
        ls.relint_dependents([_uri_to_path(change.uri) for change in params.changes])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: InplaceLintServer, params: types.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        path = _uri_to_path(uri)
        if path is not None:
            from inplace_lint.engine import program

            program.set_unsaved_text(path, None)  # the file on disk again, for the other files
            ls.relint_dependents([path])
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.results.pop(uri, None)
        ls.memos.pop(uri, None)
        ls.last_change.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    def code_action(ls: InplaceLintServer, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        document = ls.open_document(uri)
        result = ls.current_result(uri)
        if document is None or result is None:
            return []
        lines = split_lines(result.source)
        only = params.context.only
        actions: List[types.CodeAction] = []
        if _kind_requested(types.CodeActionKind.QuickFix.value, only) and result.findings:
            start = ls.from_client(lines, params.range.start)
            end = ls.from_client(lines, params.range.end)
            wanted = {
                (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
                for d in params.context.diagnostics
                if d.source == SOURCE
            }
            noqa_map = NoqaMap(result.source)
            suppress_seen = set()
            for finding in result.findings:
                diagnostic = ls.diagnostic(uri, lines, finding)
                key = (
                    finding.code,
                    diagnostic.range.start.line,
                    diagnostic.range.start.character,
                    diagnostic.range.end.line,
                    diagnostic.range.end.character,
                )
                if key not in wanted and not _overlaps(finding, start, end):
                    continue
                fix = finding.fix
                if fix is not None and fix.edits:
                    actions.append(
                        types.CodeAction(
                            title=fix.title + ("" if fix.applicability == "safe" else " (unsafe)"),
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            is_preferred=fix.applicability == "safe",
                            edit=ls.workspace_edit(uri, document.version, ls.fix_edits(lines, fix)),
                        )
                    )
                comment_line = noqa_map.comment_line_for(finding.line)
                if (comment_line, finding.code) in suppress_seen or comment_line > len(lines):
                    continue
                suppress_seen.add((comment_line, finding.code))
                old_line = lines[comment_line - 1]
                new_line = add_code_to_line(old_line, finding.code)
                if new_line is None:
                    continue
                edit = types.TextEdit(
                    range=ls.lsp_range(lines, (comment_line, 0), (comment_line, len(old_line))),
                    new_text=new_line,
                )
                actions.append(
                    types.CodeAction(
                        title=f"Suppress {finding.code} with `# noqa: {finding.code}`",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=ls.workspace_edit(uri, document.version, [edit]),
                    )
                )
        explicitly = bool(only) and _kind_requested(FIX_ALL_KIND, only)
        has_safe = any(
            f.fix is not None and f.fix.applicability == "safe" and f.fix.edits for f in result.findings
        )
        if (explicitly or (not only and has_safe)) and result.settings is not None and has_safe:
            action = _fix_all_action(ls, uri, document.version, result)
            if action is not None:
                actions.append(action)
        return actions

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: InplaceLintServer, params: types.HoverParams) -> Optional[types.Hover]:
        from inplace_lint.rules import RULES

        document = ls.open_document(params.text_document.uri)
        if document is None:
            return None
        lines = split_lines(document.source)
        if params.position.line >= len(lines):
            return None
        line_number, column = ls.from_client(lines, params.position)
        text = lines[line_number - 1]
        for start, end, codes in noqa_spans(text):
            if not (start <= column <= end):
                continue
            rules = [
                rule
                for code in sorted(RULES)
                for rule in [RULES[code]]
                if any(code.startswith(c) for c in codes)
            ]
            if not rules:
                return None
            body = "\n\n".join(
                f"**{r.code}** `{r.name}`: {r.summary}. [Documentation]({r.url})" for r in rules
            )
            return types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=body),
                range=ls.lsp_range(lines, (line_number, start), (line_number, end)),
            )
        return None

    return server


def _fix_all_action(ls: InplaceLintServer, uri: str, version: Optional[int], result: LintResult):
    from inplace_lint.fixkit.apply import fix_text
    from inplace_lint.engine.core import LintError, lint_source

    try:
        outcome = fix_text(
            result.source, result.path, result.settings, unsafe=False, linter=lint_source,
            findings=result.findings,
        )
    except LintError:
        return None
    if outcome.source == result.source or outcome.fixed == 0:
        return None
    start, end, replacement = _minimal_edit(result.source, outcome.source)
    lines = split_lines(result.source)
    edit = types.TextEdit(
        range=ls.lsp_range(
            lines, _offset_to_position(result.source, start), _offset_to_position(result.source, end)
        ),
        new_text=replacement,
    )
    return types.CodeAction(
        title="inplace-lint: apply all safe fixes",
        kind=FIX_ALL_KIND,
        edit=ls.workspace_edit(uri, version, [edit]),
    )


def serve(tcp: bool = False, host: str = "127.0.0.1", port: int = 2087) -> int:
    """Run the server until the client says exit (stdio) or forever (TCP); the exit status (1 after an
    ``exit`` without ``shutdown``). The transports are inplace_lint.adapters.lsp_io's."""
    logging.basicConfig(
        level=os.environ.get("INPLACE_LINT_LOG_LEVEL", "WARNING").upper(),
        stream=sys.stderr,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    from inplace_lint.adapters import lsp_io

    server = create_server()
    if tcp:
        return lsp_io.serve_tcp(server, host, port)
    return lsp_io.serve_io(server)
