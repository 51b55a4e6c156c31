"""How the language server is started: over stdio, or serving each client that connects over TCP with a
server of its own (`serve`, `serve_tcp`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading

from pygls.io_ import run_async

from spmdfix.lsp.server import create_server

logger = logging.getLogger(__name__)


def serve(tcp_port: int | None = None) -> None:
    """Run the language server until the client exits: over stdio, or on 127.0.0.1:`tcp_port`.

    Over stdio, anything the analysis might print goes to stderr, so it cannot corrupt the protocol stream.
    """
    if tcp_port is not None:
        serve_tcp("127.0.0.1", tcp_port)
        return
    server = create_server()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        server.start_io(stdin, stdout)
    finally:
        sys.stdout = saved


def serve_tcp(host: str, port: int) -> None:
    """Serve every client that connects to `host`:`port`, each with a server (documents, settings) of its
    own, until the process is stopped. A client that exits, or drops its connection, ends only its own
    session: the next one is served as the first was (pygls's `start_tcp` stops the process instead)."""

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server = create_server()
        stop = threading.Event()
        server.protocol.connection_stop = stop  # type: ignore[attr-defined]
        server.protocol.set_writer(writer)  # type: ignore[arg-type]
        try:
            await run_async(stop, reader, server.protocol, logger, server.report_server_error)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away mid-message: its session is over
        finally:
            for doc in server.documents.values():
                doc.cancel_timer()
            writer.close()

    async def main() -> None:
        listener = await asyncio.start_server(connection, host, port)
        async with listener:
            await listener.serve_forever()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
