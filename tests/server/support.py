"""What the server tests share: a client of the real app, another browser on it, a link's header, a new campaign's
links."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anyio.from_thread import BlockingPortal
from fastapi.testclient import TestClient

from warroom.server.app import create_app
from warroom.server.guards import ServerSettings

SERVE_START_SECONDS = 60.0
"""How long a `warroom serve` process started by a test may take to answer. On a loaded two-core machine its
imports alone took 14 s, and the 10 s the tests allowed failed them; they poll, so a quick start waits no longer."""


PORTAL: list[BlockingPortal] = []
"""The event loop (in a thread of its own) of this test process's server tests, while they run (tests/server/
conftest.py starts it). A TestClient used outside a `with` block otherwise starts a thread and a new event loop for
each request, some 3 ms of CPU a request; one loop for every request is also how a real server serves them. A
client used in a `with` block runs its app's lifespan on a loop of its own, as before."""


def on_loop(c: TestClient) -> TestClient:
    """`c`, sending its requests through the server tests' event loop when there is one."""
    if PORTAL:
        c.portal = PORTAL[-1]
    return c


def client(url: str, settings: ServerSettings | None = None) -> TestClient:
    """A new server (a new app) on the database at `url`: another process, or the same one after a restart. A 500
    is answered as a 500, not raised into the test."""
    return on_loop(TestClient(create_app(url, settings=settings), raise_server_exceptions=False))


def browser_on(c: TestClient) -> TestClient:
    """Another browser (cookies of its own) on the server `c` talks to. One server serves every browser, as it
    does in a club; making an app costs more than most requests (FastAPI builds every route's models)."""
    return on_loop(TestClient(c.app, raise_server_exceptions=False))


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def new_campaign(c: TestClient, scenario: str = "caen", mode: str = "gw", **body: Any) -> tuple[str, dict[str, str]]:
    """A new campaign: its id and its links' secrets by label ("organiser", "Allies general" ...)."""
    r = c.post("/api/campaigns", json={"scenario": scenario, "mode": mode, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"], {link["label"]: link["secret"] for link in r.json()["links"]}


def caen_as_one_file(new_id: str) -> str:
    """Caen's scenario and map as one uploadable file, under another id."""
    folder = Path(__file__).parents[2] / "warroom" / "scenarios" / "data" / "caen"
    scenario = (folder / "scenario.toml").read_text().replace('id = "caen"', f'id = "{new_id}"', 1)
    return (folder / "map.toml").read_text() + "\n" + scenario
