"""Small things a club notices (issue 11, part 5): error pages for browsers, API docs that work offline,
`make run` installing only what serving needs, and `warroom serve` on a busy port or another address."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support import SERVE_START_SECONDS

from warroom.server.app import create_app
from warroom.server.local import free_port

ROOT = Path(__file__).parents[2]


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def test_a_browser_gets_error_pages_in_the_sites_style_and_the_api_keeps_json(url: str) -> None:
    c = TestClient(create_app(url), raise_server_exceptions=False)
    made = c.post("/api/campaigns", json={"scenario": "caen"}).json()
    cid = made["id"]
    general = next(link for link in made["links"] if link["label"] == "Allies general")
    boss = next(link for link in made["links"] if link["role"] == "organiser")
    c.post(f"/api/campaigns/{cid}/tokens/{general['token']}/revoke",
           headers={"Authorization": f"Bearer {boss['secret']}"})
    browser = TestClient(c.app, raise_server_exceptions=False)
    pages = {
        "/join/not-a-link": 404,  # a bad link
        f"/join/{general['secret']}": 404,  # a revoked one
        f"/c/{cid}": 401,  # no cookie
        "/c/nope": 401,
        "/no/such/page": 404,
    }
    for path, status in pages.items():
        r = browser.get(path)
        assert r.status_code == status, (path, r.status_code)
        assert r.headers["content-type"].startswith("text/html"), path
        assert "<header>" in r.text and 'id="error-message"' in r.text and '"detail"' not in r.text, path
    bad_upload = browser.post("/import", files={"save": ("x.json", b"{not a save", "application/json")})
    assert bad_upload.status_code == 422 and "not a warroom save" in bad_upload.text
    assert bad_upload.headers["content-type"].startswith("text/html")
    no_file = browser.post("/import", data={})
    assert no_file.status_code == 422 and "choose a campaign file" in no_file.text
    assert browser.post("/new", data={"scenario": "waterloo"}).headers["content-type"].startswith("text/html")
    browser.get(f"/join/{boss['secret']}")
    unreadable = browser.get(f"/c/{cid}/battle?no=x")
    assert unreadable.status_code == 422 and unreadable.headers["content-type"].startswith("text/html")
    assert "no: " in unreadable.text
    stranger = TestClient(c.app, raise_server_exceptions=False)
    for path in (f"/api/campaigns/{cid}/view", "/api/campaigns/nope/view", "/api/nothing"):
        r = stranger.get(path)
        assert r.headers["content-type"] == "application/json" and "detail" in r.json(), path


def test_the_api_docs_work_offline(url: str) -> None:
    c = TestClient(create_app(url))
    docs = c.get("/api/docs")
    assert docs.status_code == 200
    assets = re.findall(r'(?:href|src)="([^"]+)"', docs.text)
    assert assets and not [a for a in assets if "//" in a]  # nothing from another host
    for asset in assets:
        assert c.get(asset).status_code == 200, asset
    assert "url: '/api/openapi.json'" in docs.text and c.get("/api/openapi.json").status_code == 200


def test_make_run_installs_only_the_server_and_passes_host_and_port() -> None:
    planned = subprocess.run(["make", "-n", "-B", "run", "HOST=0.0.0.0", "PORT=8123"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    installs = [line for line in planned.splitlines() if "pip install" in line and " -e " in line]
    assert installs and not [line for line in installs if "dev" in line]
    assert "warroom serve --host 0.0.0.0 --port 8123" in planned
    tests = subprocess.run(["make", "-n", "-B", "test"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "-e '.[dev]'" in tests


def serve(*args: str, data: Path, key: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "WARROOM_DATA_DIR": str(data), "COLUMNS": "200"}
    env.pop("WARROOM_DATABASE_URL", None)
    env.pop("WARROOM_SERVER_KEY", None)
    if key is not None:
        env["WARROOM_SERVER_KEY"] = key
    return subprocess.Popen([sys.executable, "-c", "from warroom.cli.main import main; main()", "serve", *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(port: int) -> None:
    deadline = time.monotonic() + SERVE_START_SECONDS
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("the server did not start")


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str]]:
    """A `warroom serve --host 0.0.0.0` that printed its server key: its port and that key. One for the module:
    a server process costs some 2 CPU-s to start (its imports), and the busy-port test needs only some server on
    a port, which this one is, so the two tests share it instead of starting one each."""
    port = free_port()
    proc = serve("--host", "0.0.0.0", "--port", str(port), data=tmp_path_factory.mktemp("keyed"))
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline() + proc.stdout.readline()
        key = re.search(r"server key: (\S+)", banner)
        assert key is not None, banner
        wait_for(port)
        yield port, key[1]
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


@pytest.mark.xdist_group("keyed-server")  # one worker: one server for both
def test_a_second_server_on_a_busy_port_says_so_without_the_banner(tmp_path: Path,
                                                                   keyed_server: tuple[int, str]) -> None:
    port, _ = keyed_server  # listening on every address of this machine, so on 127.0.0.1 too
    second = serve("--port", str(port), data=tmp_path)
    out, err = second.communicate(timeout=30)
    assert second.returncode == 2
    assert "warroom server at" not in out and out.strip() == ""
    assert f"port {port}" in " ".join(err.split()) and "already in use" in " ".join(err.split())


@pytest.mark.xdist_group("keyed-server")  # one worker: one server for both
def test_serving_beyond_this_machine_needs_the_printed_key_unless_opened(tmp_path: Path,
                                                                         keyed_server: tuple[int, str]) -> None:
    import json
    import urllib.error
    import urllib.request

    def create(port: int, key: str | None) -> int:
        headers = {"Content-Type": "application/json", **({"X-Warroom-Key": key} if key else {})}
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/campaigns", data=b'{"scenario":"caen"}',
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            assert json.load(exc)["detail"]
            return exc.code

    port, key = keyed_server  # its key was printed: read from its banner
    assert create(port, None) == 401 and create(port, "guess") == 401 and create(port, key) == 201
    port = free_port()  # the keyed server keeps its port: the next two listen on another
    proc = serve("--host", "0.0.0.0", "--port", str(port), data=tmp_path / "b", key="from-the-env")
    try:
        wait_for(port)
        assert create(port, None) == 401 and create(port, "from-the-env") == 201
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert "from-the-env" not in out  # a key from the environment is not printed
    proc = serve("--host", "0.0.0.0", "--port", str(port), "--open", data=tmp_path / "c")
    try:
        wait_for(port)
        assert create(port, None) == 201
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_the_help_no_longer_promises_pages_to_come() -> None:
    from typer.testing import CliRunner

    from warroom.cli.main import app

    text = CliRunner().invoke(app, ["--help"]).output + CliRunner().invoke(app, ["serve", "--help"]).output
    assert "come next" not in text and "pages" in text
