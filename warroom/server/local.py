"""The club server running in a background thread on a free loopback port, and a small JSON client for it:
for tests, benchmarks and scripts that talk to a real server over HTTP."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI

from warroom.server.app import create_app
from warroom.server.guards import ServerSettings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def running(url: str, start_timeout: float = 10.0, settings: ServerSettings | None = None,
            prepare: Callable[[FastAPI], None] | None = None, **config: Any) -> Iterator[str]:
    """Serve the database at `url` until the block ends; yields the server's base URL. `settings` are the
    server owner's (default: as `warroom serve` on 127.0.0.1); `prepare` may adjust the app before it serves (a test
    makes the background jobs small); `config` goes to uvicorn (e.g. `access_log=False`)."""
    import uvicorn

    port = free_port()
    options: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 1, **config}
    app = create_app(url, settings=settings)
    if prepare is not None:
        prepare(app)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **options))
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


def call(base: str, method: str, path: str, secret: str | None = None, body: dict[str, Any] | None = None
         ) -> tuple[int, Any]:
    """One JSON request to the server at `base`, with an invitation secret; (status, decoded body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if secret:
        request.add_header("Authorization", f"Bearer {secret}")
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def play_to_a_table(base: str, cid: str, links: dict[str, str], limit: int = 300) -> dict[str, Any]:
    """Generals take their first legal action (results asked for in turn, such as Caen's D-Day rolls, are
    settled 3-3 by the organiser) until a battle at the table waits for its result; returns that result's
    entry of the view. `links` maps link labels to secrets, as a new campaign's links are labelled."""
    for _ in range(limit):
        status, view = call(base, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
        if status != 200:
            raise RuntimeError(f"the view failed: {status} {view}")
        numbered = [r for r in view["results"] if r["battle"]]
        if numbered:
            return dict(numbered[0])
        for result in view["results"]:
            call(base, "POST", f"/api/campaigns/{cid}/decide", links["organiser"],
                 {"battle": result["battle"], "attacker_vp": 3, "defender_vp": 3})
        for label, secret in links.items():
            if label.endswith("general"):
                _, mine = call(base, "GET", f"/api/campaigns/{cid}/view", secret)
                if mine["legal"]:
                    status, body = call(base, "POST", f"/api/campaigns/{cid}/act", secret,
                                        {"action": mine["legal"][0], "seq": mine["seq"]})
                    if status != 200:
                        raise RuntimeError(f"{mine['legal'][0]!r} failed: {status} {body}")
                    break
    raise RuntimeError("no battle went to the table")
