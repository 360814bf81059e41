"""The language server's transports (stdio, TCP), sturdier than pygls' own loops.

* A header whose ``Content-Length`` is not a number (``abc``, ``-5``), or is absurdly large, skips that
  message: the reader resyncs at the next ``Content-Length`` header (pygls' loop then read every later
  message's header as part of the one before, and never answered again, not even ``shutdown``/``exit``).
* ``exit`` without ``shutdown`` ends the server with exit status 1, as the protocol says (pygls' stdio loop
  swallowed the status: always 0).
* TCP serves one client at a time, and says so to a client that connects while another is served; a
  client that connects and leaves (or sends ``exit``) ends its session only, and the server waits for the
  next one (pygls' server shut down when any connection closed, and a second client took over the
  first one's replies).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from typing import Callable, Optional

logger = logging.getLogger("inplace_lint.adapters.lsp")

# Bigger than any real document's message (a 10 MB file is about 10 MB of JSON); a larger length is read
# as a broken header, never allocated.
MAX_MESSAGE_BYTES = 256 * 1024 * 1024
# search, not match: a skipped message's body (no line break after it) runs into the next header's line
_CONTENT_LENGTH = re.compile(rb"content-length:[ \t]*([^\r\n]*)", re.IGNORECASE)
SECOND_CLIENT_WAIT = 1.0  # seconds a client waits for the one before it to leave, then is turned away
BUSY_MESSAGE = "inplace-lint: another client is using this language server; it serves one at a time"


class Stats:
    """What a reader skipped (for the log and the tests)."""

    def __init__(self) -> None:
        self.bad_headers = 0


async def read_messages(reader, protocol, stop: threading.Event,
                        error_handler: Optional[Callable] = None, stats: Optional[Stats] = None) -> None:
    """Read JSON-RPC messages from ``reader`` and hand each to ``protocol`` until EOF or ``stop``."""
    from pygls.exceptions import JsonRpcException

    stats = stats or Stats()
    pending_header: Optional[bytes] = None
    while not stop.is_set():
        line = pending_header if pending_header is not None else await reader.readline()
        pending_header = None
        if not line:
            return
        match = _CONTENT_LENGTH.search(line)
        if match is None:
            continue  # another header (Content-Type), or what is left of a skipped message
        raw = match.group(1).strip()
        length = int(raw) if raw.isdigit() else None
        while True:  # the rest of this message's headers, up to the empty line
            line = await reader.readline()
            if not line:
                return
            if not line.strip():
                break
            if _CONTENT_LENGTH.search(line):  # a header without its empty line: start again from there
                pending_header = line
                break
        if pending_header is not None:
            continue
        if length is None or length > MAX_MESSAGE_BYTES:
            stats.bad_headers += 1
            logger.error("inplace-lint: a message with Content-Length %r was skipped", raw.decode("latin-1"))
            continue
        body = await reader.readexactly(length)
        if len(body) < length:
            return
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
            protocol.handle_message(message)
        except Exception as error:  # pygls' own loop does the same: log, tell the client, go on
            logger.exception("Unable to handle message")
            if error_handler is not None:
                error_handler(error, JsonRpcException)


def serve_io(server) -> int:
    """Serve over stdin/stdout until ``exit`` or end of input; the exit status."""
    from pygls.io_ import StdinAsyncReader, StdoutWriter

    server._stop_event = threading.Event()  # pygls' shutdown() sets it
    reader = StdinAsyncReader(sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    status = None
    try:
        asyncio.run(read_messages(reader, server.protocol, server._stop_event, server.report_server_error))
    except BrokenPipeError:
        logger.error("Connection to the client is lost! Shutting down the server.")
    except SystemExit as exit:  # pygls' exit handler: 0 after shutdown, else 1
        status = exit.code if isinstance(exit.code, int) else 1
    except KeyboardInterrupt:
        status = 130
    finally:
        server.shutdown()
    if status is None:  # the client went away without exit
        status = 0 if getattr(server.protocol, "_shutdown", False) else 1
    return status


def _frame(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def serve_tcp(server, host: str, port: int, ready: Optional[Callable[[int], None]] = None) -> int:
    """Serve TCP clients one at a time, forever (until Ctrl-C); the exit status."""
    stop = threading.Event()
    server._stop_event = stop
    session: list = []  # the lock, made inside the event loop

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            # a client that just left (a port probe) may not have been noticed yet: wait for it a moment
            await asyncio.wait_for(session[0].acquire(), SECOND_CLIENT_WAIT)
        except asyncio.TimeoutError:
            logger.warning("inplace-lint: a second client was turned away (one at a time)")
            notice = {"jsonrpc": "2.0", "method": "window/showMessage",
                      "params": {"type": 1, "message": BUSY_MESSAGE}}
            try:
                writer.write(_frame(notice))
                await writer.drain()
                writer.close()
            except (ConnectionError, OSError):
                pass
            return
        server.begin_session()
        server.protocol.set_writer(writer)
        try:
            await read_messages(reader, server.protocol, stop, server.report_server_error)
        except (SystemExit, ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ValueError):
            pass  # exit, a client gone, or a header line past the reader's limit: this session ends
        finally:
            server.end_session()
            session[0].release()
            try:
                writer.close()
            except (ConnectionError, OSError):
                pass

    async def main() -> None:
        session.append(asyncio.Lock())
        listener = await asyncio.start_server(connection, host, port, limit=MAX_MESSAGE_BYTES)
        if ready is not None:
            ready(listener.sockets[0].getsockname()[1])
        logger.info("Serving on %s", ", ".join(str(s.getsockname()) for s in listener.sockets))
        async with listener:
            await listener.serve_forever()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    finally:
        server.shutdown()
    return 0
