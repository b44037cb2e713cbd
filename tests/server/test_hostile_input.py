"""Never a 500, whatever is sent, and bounded resources (issue 11, parts 2 and 3).

Every probe of the issue is replayed here: a lone surrogate in any JSON string, NaN and Infinity where a
number belongs, an import with bad parameters, huge bodies; then the server key, the rate limits and the
body limit applied while the body streams.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import SERVE_START_SECONDS, auth, browser_on, client, new_campaign

from warroom.server.guards import ServerSettings
from warroom.server.web import KEY_HEADER


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def raw(c: TestClient, path: str, text: str, headers: dict[str, str] | None = None) -> Any:
    """POST `text` as it is: JSON that Python's encoder would never write (NaN, a lone surrogate escape)."""
    return c.post(path, content=text.encode(), headers={"Content-Type": "application/json", **(headers or {})})


SURROGATE = '"\\ud800"'


def test_a_lone_surrogate_in_any_json_string_is_a_422_naming_the_field(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, mode="tabletop")
    boss, general = links["organiser"], links["Allies general"]
    probes = [
        ("/api/campaigns", f'{{"scenario": {SURROGATE}}}', None, "scenario"),
        ("/api/campaigns", f'{{"scenario": "caen", "title": {SURROGATE}}}', None, "title"),
        ("/api/campaigns", f'{{"scenario": "caen", "bots": {{{SURROGATE}: "random"}}}}', None, "bots"),
        ("/api/campaigns", f'{{"scenario_toml": {SURROGATE}}}', None, "scenario_toml"),
        (f"/api/campaigns/{cid}/act", f'{{"action": {SURROGATE}}}', general, "action"),
        (f"/api/campaigns/{cid}/act", f'{{"action": "pass", "key": {SURROGATE}}}', general, "key"),
        (f"/api/campaigns/{cid}/report", f'{{"attacker_vp": 1, "defender_vp": 1, "key": {SURROGATE}}}', general,
         "key"),
        (f"/api/campaigns/{cid}/decide", f'{{"attacker_vp": 1, "defender_vp": 1, "key": {SURROGATE}}}', boss, "key"),
        (f"/api/campaigns/{cid}/undo", f'{{"count": 1, "seq": 0, "waiting": {SURROGATE}}}', boss, "waiting"),
        (f"/api/campaigns/{cid}/tokens", f'{{"role": {SURROGATE}}}', boss, "role"),
        (f"/api/campaigns/{cid}/tokens", f'{{"role": "general", "side": {SURROGATE}}}', boss, "side"),
    ]
    for path, body, secret, field in probes:
        r = raw(c, path, body, auth(secret) if secret else None)
        assert r.status_code == 422, (path, body, r.status_code, r.text)
        assert r.json()["detail"].startswith(field), r.text
    save = {"format": "warroom-save", "format_version": 1, "scenario": "caen", "scenario_version": "1.0.0",
            "params": {"mode": "gw"}, "seed": 0, "log": [], "club": {"title": "x"}}
    for field in ("title", "scenario_toml"):
        text = json.dumps(save).replace('"club": {"title": "x"}', f'"club": {{"{field}": {SURROGATE}}}')
        r = raw(c, "/api/campaigns/import", text)
        assert r.status_code == 422 and field in r.json()["detail"], r.text
    r = raw(c, "/api/campaigns/import", json.dumps(save).replace('"scenario": "caen"', f'"scenario": {SURROGATE}'))
    assert r.status_code == 422 and "scenario" in r.json()["detail"]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_a_422_naming_the_field(url: str, number: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, mode="tabletop")
    boss, general = links["organiser"], links["Allies general"]
    for path, template, secret, field in [
        ("report", '{"attacker_vp": %s, "defender_vp": 1}', general, "attacker_vp"),
        ("report", '{"attacker_vp": 1, "defender_vp": 1, "battle": %s}', general, "battle"),
        ("report", '{"attacker_vp": 1, "defender_vp": 1, "seq": %s}', general, "seq"),
        ("confirm", '{"battle": %s}', general, "battle"),
        ("dispute", '{"battle": %s}', general, "battle"),
        ("decide", '{"attacker_vp": 2, "defender_vp": %s}', boss, "defender_vp"),
        ("act", '{"action": "pass", "seq": %s}', general, "seq"),
        ("undo", '{"count": %s, "seq": 1}', boss, "count"),
    ]:
        r = raw(c, f"/api/campaigns/{cid}/{path}", template % number, auth(secret))
        assert r.status_code == 422, (path, number, r.status_code, r.text)
        assert r.json()["detail"].startswith(field), (path, r.text)


@pytest.mark.parametrize(("params", "field"), [
    ({"mode": "nuke"}, "mode"), ({"mode": "mixed", "allotment": -5}, "allotment"),
    ({"mode": "mixed", "allotment": "abc"}, "allotment"), ({"mode": "gw", "allotment": 2}, "allotment"),
    ({"mode": "tabletop", "parallel": "yes"}, "parallel"), ({"mode": "gw", "bots": {"axis": "skynet"}}, "bots"),
    ({"mode": "gw", "bots": ["axis"]}, "bots"), ({"mode": "gw", "weather": "snow"}, "weather"),
    ([1, 2], "params"), ({"mode": 3.5}, "mode"),
])
def test_an_import_with_bad_params_is_a_422_naming_the_field(url: str, params: Any, field: str) -> None:
    c = client(url)
    save = {"format": "warroom-save", "format_version": 1, "scenario": "caen", "scenario_version": "1.0.0",
            "params": params, "seed": 0, "log": []}
    r = c.post("/api/campaigns/import", content=json.dumps(save).encode())
    assert r.status_code == 422, r.text
    assert field in r.json()["detail"], r.text


def test_a_validation_error_echoes_a_bounded_excerpt_of_the_input(url: str) -> None:
    c = client(url, ServerSettings(max_body=30_000_000, max_upload=30_000_000))  # let the body reach validation
    cid, links = new_campaign(c)
    big = "x" * 20_000_000
    for path, body in ((f"/api/campaigns/{cid}/act", {"action": big}), ("/api/campaigns", {"title": big}),
                       (f"/api/campaigns/{cid}/act", {"action": ["x"] * 100_000})):
        r = c.post(path, json=body, headers=auth(links["Allies general"]))
        assert r.status_code == 422 and len(r.content) < 2_000, (path, len(r.content))
    r = c.post(f"/api/campaigns/{cid}/act", headers=auth(links["Allies general"]),
               json={"action": "arrow " + "Q" * 5_000 + " B2"})
    assert r.status_code == 422 and len(r.content) < 2_000
    r = c.post("/api/campaigns", json={"scenario": "w" * 90})
    assert r.status_code == 422 and len(r.json()["detail"]) < 400


def test_a_body_over_the_limit_is_refused_with_413(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    settings = ServerSettings()
    r = c.post(f"/api/campaigns/{cid}/act", headers=auth(links["Allies general"]),
               json={"action": "pass", "pad": "x" * settings.max_body})
    assert r.status_code == 413 and "larger than" in r.json()["detail"]
    r = c.post("/api/campaigns/import", content=b"{" + b" " * (10 * settings.max_upload) + b"}")
    assert r.status_code == 413 and len(r.content) < 500
    page = c.post("/import", files={"save": ("big.json", b"x" * (settings.max_upload + 100), "application/json")})
    assert page.status_code == 413 and page.headers["content-type"].startswith("text/html")


# ----- the server key --------------------------------------------------------------------------------------
SAVE = json.dumps({"format": "warroom-save", "format_version": 1, "scenario": "caen", "scenario_version": "1.0.0",
                   "params": {"mode": "gw"}, "seed": 0, "log": []}).encode()


def test_creating_and_importing_need_the_server_key_when_the_owner_set_one(url: str) -> None:
    c = client(url, ServerSettings(server_key="club-key-123"))
    assert c.post("/api/campaigns", json={"scenario": "caen"}).status_code == 401
    assert c.post("/api/campaigns", json={"scenario": "caen"}, headers={KEY_HEADER: "wrong"}).status_code == 401
    assert c.post("/api/campaigns/import", content=SAVE).status_code == 401
    made = c.post("/api/campaigns", json={"scenario": "caen"}, headers={KEY_HEADER: "club-key-123"})
    assert made.status_code == 201
    assert c.post("/api/campaigns/import", content=SAVE, headers={KEY_HEADER: "club-key-123"}).status_code == 201
    # playing needs no key: the links are the players' keys
    general = next(link["secret"] for link in made.json()["links"] if link["label"] == "Allies general")
    assert c.get(f"/api/campaigns/{made.json()['id']}/view", headers=auth(general)).status_code == 200
    # in the browser: the start page asks for the key once and remembers it
    page = browser_on(c)  # a browser of its own on the same server
    assert "needs its key" in page.get("/").text
    refused = page.post("/new", data={"scenario": "caen", "mode": "gw"})
    assert refused.status_code == 401 and refused.headers["content-type"].startswith("text/html")
    assert page.post("/server-key", data={"key": "nope"}).status_code == 401
    assert page.post("/server-key", data={"key": "club-key-123"}, follow_redirects=False).status_code == 303
    assert "needs its key" not in page.get("/").text
    assert page.post("/new", data={"scenario": "caen", "mode": "gw"}).status_code == 201


def test_without_a_key_anyone_may_create_as_on_loopback(url: str) -> None:
    c = client(url)
    assert c.post("/api/campaigns", json={"scenario": "caen"}).status_code == 201
    assert "needs its key" not in c.get("/").text


# ----- rate limits -----------------------------------------------------------------------------------------
def test_creating_is_rate_limited_per_client_address(url: str) -> None:
    c = client(url, ServerSettings(create_limit="3/minute"))
    codes = [c.post("/api/campaigns", json={"scenario": "caen"}).status_code for _ in range(3)]
    assert codes == [201] * 3
    refused = c.post("/api/campaigns/import", content=SAVE)
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 61
    assert "too many" in refused.json()["detail"]
    assert c.post("/new", data={"scenario": "caen"}).status_code == 429


def test_acting_is_rate_limited_per_link(url: str) -> None:
    c = client(url, ServerSettings(act_limit="4/minute"))
    cid, links = new_campaign(c)
    general, other = auth(links["Allies general"]), auth(links["Germans general"])
    codes = [c.post(f"/api/campaigns/{cid}/act", headers=general, json={"action": "arrow Q9 Q8"}).status_code
             for _ in range(5)]
    assert codes == [422] * 4 + [429]
    assert c.get(f"/api/campaigns/{cid}/view", headers=general).status_code == 200  # reading is not limited
    assert c.post(f"/api/campaigns/{cid}/act", headers=other, json={"action": "arrow Q9 Q8"}).status_code == 422


# ----- bodies bounded while they stream: measured on a real server process -----------------------------------
def peak_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def send_body(port: int, path: str, size: int, chunked: bool) -> tuple[bytes, int]:
    """POST `size` bytes to `path`, stopping as soon as the server answers; (the answer, bytes sent)."""
    import select
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n{framing}\r\n\r\n".encode())
    chunk, sent, answer = b" " * 65536, 0, b""
    try:
        while sent < size and not select.select([sock], [], [], 0)[0]:
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
            sent += len(chunk)
        if chunked and sent >= size:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server answered and closed while we were still sending
    try:
        while data := sock.recv(65536):
            answer += data
    except OSError:
        pass
    sock.close()
    return answer, sent


def test_the_server_memory_stays_bounded_under_a_body_ten_times_the_limit(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys
    import time
    import urllib.request

    from warroom.server.local import free_port

    port, limits = free_port(), ServerSettings()
    env = {**os.environ, "WARROOM_DATA_DIR": str(tmp_path)}
    env.pop("WARROOM_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", "from warroom.cli.main import main; main()", "serve", "--port",
                             str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + SERVE_START_SECONDS
        while True:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/campaigns", data=b'{"scenario":"caen"}',
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=5) as r:
                    assert r.status == 201
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError("the server did not start") from None
                time.sleep(0.05)
        before = peak_rss_kb(proc.pid)
        for path, limit in (("/api/campaigns/import", limits.max_upload), ("/api/campaigns", limits.max_upload),
                            ("/api/campaigns/x/act", limits.max_body)):
            for chunked in (True, False):
                answer, _ = send_body(port, path, 10 * limit, chunked)
                assert answer.startswith(b"HTTP/1.1 413"), (path, chunked, answer[:80])
        grown = peak_rss_kb(proc.pid) - before
        assert grown < 10 * limits.max_upload / 1024 / 2, f"the server's peak memory grew by {grown} kB"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ----- what PostgreSQL refuses and SQLite takes: refused for both, before the database -----------------------
@pytest.mark.every_database
def test_nul_characters_and_overlong_names_are_4xx_on_every_database(url: str) -> None:
    from support import caen_as_one_file

    c = client(url)
    cid, links = new_campaign(c, mode="tabletop")
    general = auth(links["Allies general"])
    for path, body in (("/api/campaigns", {"scenario": "caen", "title": "a\u0000b"}),
                       (f"/api/campaigns/{cid}/act", {"action": "pass", "key": "k\u0000"}),
                       (f"/api/campaigns/{cid}/act", {"action": "arrow A1\u0000 A2"}),
                       (f"/api/campaigns/{cid}/report", {"attacker_vp": 1, "defender_vp": 1, "key": "\u0000"})):
        r = c.post(path, json=body, headers=general)
        assert r.status_code == 422, (path, body, r.status_code, r.text)
    assert c.post("/new", data={"scenario": "caen", "title": "a\u0000b"}).status_code == 422
    save = {"format": "warroom-save", "format_version": 1, "scenario": "caen", "scenario_version": "1.0.0",
            "params": {"mode": "gw"}, "seed": 0, "log": [], "club": {"title": "a\u0000b"}}
    assert c.post("/api/campaigns/import", content=json.dumps(save).encode()).status_code == 422
    page = browser_on(c)
    page.get(f"/join/{links['organiser']}")
    for path in ("/c/a%00b", "/c/a%00b/links", "/c/" + "f" * 200):
        assert page.get(path).status_code in (401, 404), path
    for path in ("/api/campaigns/a%00b/view", "/api/campaigns/" + "a" * 300 + "/view"):
        assert c.get(path, headers=general).status_code == 404, path
    boss = auth(links["organiser"])
    assert c.post(f"/api/campaigns/{cid}/tokens/a%00/revoke", headers=boss).status_code == 404
    base = caen_as_one_file("club_nul")
    uploads = {
        "a NUL in a title (a TOML escape)": base.replace('title = "Firestorm: Caen"', 'title = "a\\u0000b"', 1),
        "an id longer than its column": caen_as_one_file("x" * 150),
        "a side id that is every side": base.replace('"allies"', '"*"'),
        "a side id longer than its column": base.replace('"allies"', '"' + "a" * 41 + '"'),
        "a side id that is the dice": base.replace('"allies"', '"chance"'),
    }
    for what, toml in uploads.items():
        r = c.post("/api/campaigns", json={"scenario_toml": toml})
        assert r.status_code == 422, (what, r.status_code, r.text[:300])
    long_title = base.replace('title = "Firestorm: Caen"', 'title = "' + "T" * 300 + '"', 1)
    made = c.post("/api/campaigns", json={"scenario_toml": long_title})
    assert made.status_code == 201  # the campaign's title is cut to fit
    organiser = next(link["secret"] for link in made.json()["links"] if link["role"] == "organiser")
    assert c.get(f"/api/campaigns/{made.json()['id']}/export", headers=auth(organiser)).json()["club"]["title"] == \
        "T" * 200


@pytest.mark.parametrize("body", [b"[" * 50_000 + b"]" * 50_000, b'{"a":' * 30_000 + b"1" + b"}" * 30_000,
                                  b'{"format": ' + b"9" * 5_000 + b"}", b"\xff\xfe not utf-8"])
def test_a_pathological_save_is_a_422(url: str, body: bytes) -> None:
    c = client(url)
    r = c.post("/api/campaigns/import", content=body)
    assert r.status_code == 422 and "not a warroom save" in r.json()["detail"], r.text[:200]
    page = c.post("/import", files={"save": ("x.json", body, "application/json")})
    assert page.status_code == 422 and page.headers["content-type"].startswith("text/html")


def test_the_server_key_form_never_fails(url: str) -> None:
    open_server = client(url)
    r = open_server.post("/server-key", data={"key": "€ and more"}, follow_redirects=False)
    assert r.status_code == 303 and "set-cookie" not in r.headers  # nothing to remember on an open server
    keyed = client(url, ServerSettings(server_key="the-club-key-1"))
    assert keyed.post("/server-key", data={"key": "€"}).status_code == 401
    assert keyed.post("/server-key", data={}).status_code == 401
    guesses = client(url, ServerSettings(server_key="the-club-key-1", create_limit="3/minute"))
    codes = [guesses.post("/server-key", data={"key": f"guess-{i}"}).status_code for i in range(4)]
    assert codes == [401, 401, 401, 429]  # no guessing at speed
    codes = [guesses.post("/api/campaigns", json={"scenario": "caen"}, headers={KEY_HEADER: "guess"}).status_code
             for _ in range(2)]
    assert codes == [429, 429]


def test_without_the_key_an_upload_is_refused_after_reading_little(url: str) -> None:
    from support import caen_as_one_file

    c = client(url, ServerSettings(server_key="the-club-key-1"))
    big = {"scenario_toml": caen_as_one_file("club_big") + "\n# " + "x" * 200_000}
    assert c.post("/api/campaigns", json=big).status_code == 413  # not buffered up to the upload limit
    assert c.post("/api/campaigns", json=big, headers={KEY_HEADER: "the-club-key-1"}).status_code == 201
