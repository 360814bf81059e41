"""The language server, end to end: a real LSP client (pytest-lsp) drives ``python -m inplace_lint lsp``.

Most tests run the server against the fake analysis (tests/data/fake_analysis, via PYTHONPATH) so the
findings, fixes and evidence are known exactly; ``test_real_analysis_seed`` uses the real analysis.
pytest-asyncio runs in strict mode: every test is marked (``pytestmark``) and the shared client lives on a
module-scoped event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import textwrap
from concurrent.futures import Future
from pathlib import Path
from typing import List, Optional

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

DATA = Path(__file__).parent / "data"
FAKE_DIR = DATA / "fake_analysis"
SERVER = [sys.executable, "-m", "inplace_lint", "lsp"]
TIMEOUT = 120.0  # waits end as soon as the answer comes: only a hang, never a slow machine, reaches it

SEED = textwrap.dedent("""\
    import torch
    def fn(a):
        b = a ** 2
        for i in range(5):
            b *= b
        return b
    """)
# the call is the evidence the default level needs: it passes fn a tensor that requires grad
SEED += "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _env(fake: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if fake:
        env["PYTHONPATH"] = str(FAKE_DIR)
    return env


def real_analysis_available() -> bool:
    import subprocess

    code = "import inplace_lint.rules.report as a; assert not getattr(a, '__fake__', False); a.analyze_module"
    return subprocess.run([sys.executable, "-c", code], env=_env(False), capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    (root / "setup.cfg").write_text("[inplace-lint]\nselect = AGI\n", encoding="utf-8")
    return root


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=SERVER, server_env=_env(fake=True)),
    scope="module",
)
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


# --- helpers -----------------------------------------------------------------------------------------

_versions: dict = {}


def open_doc(client: LanguageClient, workspace: Path, name: str, text: str) -> str:
    path = workspace / name
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    _versions[uri] = 1
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        )
    )
    return uri


def change_doc(client: LanguageClient, uri: str, text: str) -> None:
    _versions[uri] += 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_for(client: LanguageClient, uri: str, predicate, timeout: float = TIMEOUT):
    """Wait until the published diagnostics of ``uri`` satisfy ``predicate``; return them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        diagnostics = client.diagnostics.get(uri)
        if diagnostics is not None and predicate(list(diagnostics)):
            return list(diagnostics)
        await asyncio.sleep(0.02)
    raise AssertionError(f"diagnostics for {uri} never matched; last: {client.diagnostics.get(uri)}")


def apply_text_edits(text: str, edits: List[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions, all against ``text``) as an editor would."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return before + index
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(line)

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_of(edit: types.WorkspaceEdit, uri: str) -> List[types.TextEdit]:
    if edit.document_changes:
        return [
            e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits
        ]
    return list((edit.changes or {}).get(uri, []))


async def code_actions(
    client: LanguageClient, uri: str, rng: types.Range, diagnostics=(), only: Optional[List[str]] = None
) -> List[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
        )
    )
    return list(result or [])


# --- tests -------------------------------------------------------------------------------------------


async def test_diagnostic_for_the_seed(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace, "seed.py", SEED)
    (diagnostic,) = await diagnostics_for(client, uri, lambda d: len(d) == 1)
    assert diagnostic.code == "AGI001"
    assert diagnostic.source == "inplace-lint"
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert diagnostic.range == types.Range(
        start=types.Position(line=4, character=8), end=types.Position(line=4, character=14)
    )
    assert diagnostic.code_description.href.endswith("/docs/rules/AGI001.md")
    (related,) = diagnostic.related_information
    assert related.location.uri == uri
    assert related.location.range.start == types.Position(line=4, character=8)
    assert "saved `b` here for backward" in related.message


async def test_quick_fix_and_noqa_actions(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace, "actions.py", SEED)
    (diagnostic,) = await diagnostics_for(client, uri, lambda d: len(d) == 1)
    actions = await code_actions(client, uri, diagnostic.range, [diagnostic])
    titles = [a.title for a in actions]
    # Without ``only`` (the light bulb), fix-all is listed too since a safe fix exists.
    assert titles == [
        "Write 'b = b * b'",
        "Suppress AGI001 with `# noqa: AGI001`",
        "inplace-lint: apply all safe fixes",
    ]
    fix, suppress, fix_all = actions
    assert fix_all.kind == "source.fixAll.inplace-lint"
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred is True
    assert fix.diagnostics[0].code == "AGI001"
    assert suppress.kind == types.CodeActionKind.QuickFix and not suppress.is_preferred
    # VS Code declares documentChanges: the edit is versioned so a stale one is refused.
    assert fix.edit.document_changes[0].text_document.version == 1

    suppressed = apply_text_edits(SEED, edits_of(suppress.edit, uri))
    assert suppressed.splitlines()[4] == "        b *= b  # noqa: AGI001"
    fixed = apply_text_edits(SEED, edits_of(fix.edit, uri))
    assert fixed == SEED.replace("b *= b", "b = b * b")
    change_doc(client, uri, fixed)
    await diagnostics_for(client, uri, lambda d: d == [])
    change_doc(client, uri, suppressed)
    await asyncio.sleep(0.3)
    assert list(client.diagnostics[uri]) == []


async def test_noqa_action_merges_with_an_existing_comment(client: LanguageClient, workspace: Path):
    text = SEED.replace("b *= b", "b *= b  # noqa: E501")
    uri = open_doc(client, workspace, "merge.py", text)
    (diagnostic,) = await diagnostics_for(client, uri, lambda d: len(d) == 1)
    actions = await code_actions(
        client, uri, diagnostic.range, [diagnostic], only=[types.CodeActionKind.QuickFix]
    )
    suppress = [a for a in actions if a.title.startswith("Suppress")][0]
    assert (
        apply_text_edits(text, edits_of(suppress.edit, uri)).splitlines()[4]
        == "        b *= b  # noqa: E501, AGI001"
    )


async def test_unsafe_fix_is_offered_but_not_preferred_and_fix_all_is_safe_only(
    client: LanguageClient, workspace: Path
):
    text = "import torch\nb *= b\nx.mul_(y)\nc *= c\n"
    uri = open_doc(client, workspace, "fixall.py", text)
    diagnostics = await diagnostics_for(client, uri, lambda d: len(d) == 3)
    unsafe_diag = [d for d in diagnostics if d.range.start.line == 2][0]
    actions = await code_actions(client, uri, unsafe_diag.range, [unsafe_diag])
    assert actions[0].title == "Write 'x = x.mul(y)' (unsafe)" and not actions[0].is_preferred

    fix_all = await code_actions(client, uri, unsafe_diag.range, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in fix_all] == ["source.fixAll.inplace-lint"]
    assert (
        apply_text_edits(text, edits_of(fix_all[0].edit, uri))
        == "import torch\nb = b * b\nx.mul_(y)\nc = c * c\n"
    )
    quick_only = await code_actions(client, uri, unsafe_diag.range, only=[types.CodeActionKind.QuickFix])
    assert all(a.kind == types.CodeActionKind.QuickFix for a in quick_only)


async def test_rapid_edits_end_with_diagnostics_for_the_final_text(client: LanguageClient, workspace: Path):
    header = "import torch\ndef fn(a):\n    b = a ** 2\n"
    uri = open_doc(client, workspace, "rapid.py", header)
    await diagnostics_for(client, uri, lambda d: d == [])
    text = header
    for _ in range(50):
        text += "    b *= b\n"
        change_doc(client, uri, text)
    final = await diagnostics_for(client, uri, lambda d: len(d) == 50)
    assert [d.range.start.line for d in final] == list(range(3, 53))
    await asyncio.sleep(0.5)  # nothing stale arrives afterwards
    assert len(client.diagnostics[uri]) == 50


async def test_incremental_changes_in_utf16(client: LanguageClient, workspace: Path):
    text = "import torch\ns = '😀'; b *= b\n"
    uri = open_doc(client, workspace, "emoji.py", text)
    (diagnostic,) = await diagnostics_for(client, uri, lambda d: len(d) == 1)
    # '😀' is one code point but two UTF-16 units: the range must say character 10, not 9.
    assert diagnostic.range.start == types.Position(line=1, character=10)
    _versions[uri] += 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=1, character=10), end=types.Position(line=1, character=16)
                    ),
                    text="b = b * b",
                )
            ],
        )
    )
    await diagnostics_for(client, uri, lambda d: d == [])


async def test_syntax_errors_clear_diagnostics_and_are_logged(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace, "typing.py", SEED)
    await diagnostics_for(client, uri, lambda d: len(d) == 1)
    change_doc(client, uri, SEED.replace("for i in range(5):", "for i in range(5"))
    await diagnostics_for(client, uri, lambda d: d == [])
    assert any("typing.py" in m.message and "cannot parse" in m.message for m in client.log_messages)
    change_doc(client, uri, SEED)
    await diagnostics_for(client, uri, lambda d: len(d) == 1)


async def test_save_and_close(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace, "save.py", SEED)
    await diagnostics_for(client, uri, lambda d: len(d) == 1)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await asyncio.sleep(0.2)
    assert len(client.diagnostics[uri]) == 1
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await diagnostics_for(client, uri, lambda d: d == [])


async def test_hover_on_noqa_comment(client: LanguageClient, workspace: Path):
    text = "import torch\nx = 1  # noqa: AGI001, E501\ny = 2  # noqa: E501\n"
    uri = open_doc(client, workspace, "hover.py", text)
    await diagnostics_for(client, uri, lambda d: d == [])
    column = text.splitlines()[1].index("AGI001") + 2
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=1, character=column),
        )
    )
    assert hover is not None
    assert "**AGI001**" in hover.contents.value and "saved for backward" in hover.contents.value
    assert "AGI002" not in hover.contents.value
    for position in (
        types.Position(line=2, character=12),
        types.Position(line=0, character=3),
        types.Position(line=40, character=0),
    ):
        assert (
            await client.text_document_hover_async(
                types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
            )
        ) is None


async def test_requests_for_unopened_documents(client: LanguageClient, workspace: Path):
    uri = (workspace / "never_opened.py").as_uri()
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=1))
    assert await code_actions(client, uri, rng) == []
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=rng.start)
    )
    assert hover is None


def _send_raw(client: LanguageClient, body: bytes) -> None:
    client.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


async def test_malformed_and_unknown_requests_do_not_kill_the_server(client: LanguageClient, workspace: Path):
    with pytest.raises(JsonRpcException):
        await client.protocol.send_request_async("inplace-lint/noSuchMethod", {"x": 1})
    # Params the server cannot read: an error response, nothing more. (Sent as raw JSON: the client
    # library refuses to serialize them.)
    future: Future = Future()
    client.protocol._request_futures["malformed-1"] = future
    request = {
        "jsonrpc": "2.0",
        "id": "malformed-1",
        "method": "textDocument/codeAction",
        "params": {"textDocument": 42},
    }
    _send_raw(client, json.dumps(request).encode())
    with pytest.raises(JsonRpcException):
        await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT)
    _send_raw(client, b"{this is not json}")
    client.protocol.notify("inplace-lint/noSuchNotification", {"x": 1})
    # Still alive and answering.
    uri = open_doc(client, workspace, "alive.py", SEED)
    await diagnostics_for(client, uri, lambda d: len(d) == 1)


async def test_configuration_is_the_clis(client: LanguageClient, workspace: Path):
    sub = workspace / "ignored"
    sub.mkdir()
    (sub / "pyproject.toml").write_text("[tool.inplace-lint]\nignore = ['AGI001']\n", encoding="utf-8")
    uri = open_doc(client, workspace, "ignored/seed.py", SEED)
    await diagnostics_for(client, uri, lambda d: d == [])
    (sub / "pyproject.toml").write_text("[tool.inplace-lint]\nignore = []\n", encoding="utf-8")
    change_doc(client, uri, SEED + "\n")
    await diagnostics_for(client, uri, lambda d: len(d) == 1)


# --- separate servers --------------------------------------------------------------------------------


async def _start(fake: bool, capabilities: str, root: Path) -> LanguageClient:
    lsp_client = await ClientServerConfig(server_command=SERVER, server_env=_env(fake)).start()
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(capabilities), root_uri=root.as_uri())
    )
    return lsp_client


async def test_clean_shutdown(tmp_path: Path):
    lsp_client = await _start(True, "neovim", tmp_path)
    try:
        await lsp_client.shutdown_session()
        assert lsp_client._server.returncode == 0
    finally:
        await lsp_client.stop()


@pytest.mark.skipif(not real_analysis_available(), reason="inplace_lint.analysis has not landed yet")
async def test_real_analysis_seed(tmp_path: Path):
    (tmp_path / "setup.cfg").write_text("[inplace-lint]\nselect = AGI\n", encoding="utf-8")
    lsp_client = await _start(False, "neovim", tmp_path)
    try:
        _versions.clear()
        uri = open_doc(lsp_client, tmp_path, "seed.py", SEED)
        (diagnostic,) = await diagnostics_for(lsp_client, uri, lambda d: len(d) == 1)
        assert diagnostic.code == "AGI001"
        assert (diagnostic.range.start.line, diagnostic.range.start.character) == (4, 8)
        actions = await code_actions(lsp_client, uri, diagnostic.range, [diagnostic])
        suppress = [a for a in actions if a.title == "Suppress AGI001 with `# noqa: AGI001`"]
        assert len(suppress) == 1
        quick_fixes = [a for a in actions if a is not suppress[0]]
        if quick_fixes:  # the real fixes may not have landed yet: then only the noqa action is checked
            fixed = apply_text_edits(SEED, edits_of(quick_fixes[0].edit, uri))
            change_doc(lsp_client, uri, fixed)
            if quick_fixes[0].is_preferred:
                await diagnostics_for(lsp_client, uri, lambda d: d == [])
        else:
            change_doc(lsp_client, uri, apply_text_edits(SEED, edits_of(suppress[0].edit, uri)))
            await diagnostics_for(lsp_client, uri, lambda d: d == [])
        await lsp_client.shutdown_session()
    finally:
        await lsp_client.stop()


async def test_tcp_transport(tmp_path: Path):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = await asyncio.create_subprocess_exec(
        *SERVER,
        "--tcp",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        env=_env(fake=True),
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.05)
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"capabilities": {}, "rootUri": None},
            }
        ).encode()
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        header = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        response = json.loads(await reader.readexactly(length))
        assert response["id"] == 1
        assert response["result"]["serverInfo"]["name"] == "inplace-lint"
        assert (
            "source.fixAll.inplace-lint"
            in response["result"]["capabilities"]["codeActionProvider"]["codeActionKinds"]
        )
        writer.close()
    finally:
        server.terminate()
        await server.wait()
