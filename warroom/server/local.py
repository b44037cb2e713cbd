"""The club server running in a background thread on a free loopback port: for tests, benchmarks and
scripts that talk to a real server over HTTP."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from warroom.server.app import create_app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def running(url: str, start_timeout: float = 10.0, **config: Any) -> Iterator[str]:
    """Serve the database at `url` until the block ends; yields the server's base URL. `config` goes to
    uvicorn (e.g. `access_log=False`)."""
    import uvicorn

    port = free_port()
    options: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 1, **config}
    server = uvicorn.Server(uvicorn.Config(create_app(url), host="127.0.0.1", port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
