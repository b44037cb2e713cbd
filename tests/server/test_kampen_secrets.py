"""Kampen om Norge on the club server keeps every secret (issue 13, part 6).

Games of every variant are played at random through each country's own link. At many positions every URL is
fetched as every link (each country, the organiser, and a hot-seat screen before and after it is handed over),
and the bytes are searched for the card ids that link may not know: the other players' hands, every face-down
deck, the 9 April cards not chosen or not yet played, and the ship cards lying face down at sea or in hand. The
answer each player gets to their own move is searched too. A card id that was ever shown openly (played, in a
used pile, face up at sea, or named by an open log entry) is no secret any more and is left out.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from depth import deep
from fastapi.testclient import TestClient
from support import auth, client

from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.kampen.state import KampenState
from warroom.server.portable import ANY_SIDE
from warroom.server.service import Campaigns

KEY = re.compile(r"[a-z0-9_]+#\d+")


@pytest.fixture()
def url(database_url: str) -> str:
    """SQLite only: what a link may see does not depend on the database (the event store is tested on both)."""
    return database_url


@pytest.fixture()
def portal() -> Iterator[BlockingPortal]:
    """One event loop (in a thread of its own) that every client of a test sends its requests through, as every
    browser's requests reach one loop in a real server. A TestClient used outside a `with` block starts a thread and
    a new event loop for each request: some 3 ms of CPU a request, and these tests send thousands."""
    with start_blocking_portal() as loop:
        yield loop


def seats_of(st: KampenState) -> dict[str, str]:
    two = int(st.params.get("seats", 2)) == 2
    return {"germany": "germany", "norway": "norway", "allies": "norway" if two else "allies"}


def secret_keys(st: KampenState, seat: str | None) -> set[str]:
    """Every card id the player of `seat` (None: a spectator) cannot see now."""
    seats = seats_of(st)
    theirs = [c for c in st.sc.countries if seats[c] != seat]
    out: set[str] = set()
    for c in st.sc.countries:
        out.update(st.draw[c])  # no deck's order is shown, not even to its owner; nor a card face down in it
    for c in theirs:
        out.update(st.hands[c], st.april_deck[c], st.ships_hand[c])
    if "allies" in theirs:
        out.update(st.reserve)
    mine = {c for c in st.sc.countries if seats[c] == seat}
    for _sea, card in st.fleet.all():
        seen = card.face_up or card.owner in mine or ("allies" in mine and card.key in st.spotted)
        if not seen:
            out.add(card.key)
    return out


OPEN_VERBS = ("play", "exchange", "discard", "join", "raid", "withdraw")
"""Moves that show their card to everyone, by the rulebook: a card played, exchanged or discarded goes face up
under its deck (2.4, 4.3, 4.4); a ship joining a sea battle, raiding or withdrawn is shown (7.2, 8.2). A landing
is declared with a face-down card: which one stays Germany's secret (the view shows its sea and beach only)."""


def open_keys(st: KampenState) -> set[str]:
    """Card ids shown openly now or by a move in the log (read here from the rules' own record, not from what
    the server shows): the used piles, the cards face up at sea, the open moves, and a ship the enemy chases."""
    out = {k for c in st.sc.countries for k in st.used[c]}
    out.update(card.key for _sea, card in st.fleet.all() if card.face_up)
    ships = st.sc.cards.ships.ships
    for e in st.log:
        verb, *words = e.action.split()
        if verb in OPEN_VERBS:
            out.update(KEY.findall(e.action))
        elif verb == "ship" and ships[words[0].split("#")[0]].owner != e.side:  # chased by the enemy (8.2)
            out.add(words[0])
    return out


CARD_MARK = re.compile(rb"#|%23")
"""Where a card id can be in a body: at a `#`, or its URL form `%23`."""
DIGITS = re.compile(rb"[0-9]*")
NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")


def leaks(body: bytes, hidden: Iterable[str]) -> list[str]:
    """The ids in `hidden` that are in `body`, as they are or URL-quoted, anywhere (even inside a longer word)."""
    hidden = set(hidden)
    if not all(KEY.fullmatch(k) for k in hidden):  # an id of another shape: search for each one
        return sorted(k for k in hidden if k.encode() in body or quote(k).encode() in body)
    # An id `name#n` is in the body exactly where some mark has a tail of `name` before it and a head of `n` after
    # it: every such pair is tried, one look through the body instead of two for each hidden id.
    found: set[str] = set()
    for mark in CARD_MARK.finditer(body):
        start = mark.start()
        while start and body[start - 1] in NAME_BYTES:
            start -= 1
        before = body[start:mark.start()].decode()
        digits = DIGITS.match(body, mark.end())
        assert digits is not None  # it matches everywhere, if only an empty run
        after = digits.group().decode()
        for i in range(len(before)):
            for j in range(1, len(after) + 1):
                found.add(f"{before[i:]}#{after[:j]}")
    return sorted(found & hidden)


class Table:
    """A game on the server, with a browser (its own cookies) per link; every client sends its requests through
    `portal`."""

    def __init__(self, url: str, params: dict[str, Any], portal: BlockingPortal,
                 bots: dict[str, str] | None = None) -> None:
        self.api = client(url)
        self.api.portal = portal
        made = self.api.post("/api/campaigns", json={"scenario": "kampen", "params": params, "hotseat": True,
                                                     "bots": bots or {}})
        assert made.status_code == 201, made.text
        self.cid = made.json()["id"]
        self.links = {(link["role"], link["side"]): link["secret"] for link in made.json()["links"]}
        self.campaigns: Campaigns = self.api.app.state.campaigns  # type: ignore[attr-defined]
        self.browsers: dict[tuple[str, str], TestClient] = {}
        for seat, secret in self.links.items():
            browser = TestClient(self.api.app, raise_server_exceptions=False)
            browser.portal = portal
            assert browser.get(f"/join/{secret}", follow_redirects=False).status_code == 303
            self.browsers[seat] = browser
        self.ever_open: set[str] = set()

    def state(self) -> KampenState:
        st = self.campaigns.state(self.cid)
        assert isinstance(st, KampenState)
        return st

    def fetch_all(self, st: KampenState) -> None:
        """Every URL as every link, searched for what that link may not know."""
        cid = self.cid
        actor = st.current_player()
        actor_seat = seats_of(st).get(actor, "")
        for (role, side), browser in self.browsers.items():
            secret = self.links[(role, side)]
            urls: list[tuple[str, str | None]] = []
            if side == ANY_SIDE:  # a hot-seat screen: nothing secret until it is handed over, then one player's
                urls += [(f"/c/{cid}", None), (f"/c/{cid}?seat=germany" if actor_seat != "germany" else
                                                f"/c/{cid}?seat=norway", None)]
                if actor_seat:
                    urls += [(f"/c/{cid}?seat={actor_seat}", actor_seat), (f"/api/campaigns/{cid}/view", actor_seat)]
                urls += [(f"/api/campaigns/{cid}/log", None)]
            else:
                reader = side or None
                urls += [(f"/c/{cid}", reader), (f"/api/campaigns/{cid}/view", reader),
                         (f"/api/campaigns/{cid}/log", reader), (f"/c/{cid}/battle", reader)]
                if role == "organiser":
                    urls += [(f"/c/{cid}/links", None), (f"/api/campaigns/{cid}/undo?count=1", None),
                             (f"/api/campaigns/{cid}/tokens", None)]
            for path, reader in urls:
                headers = auth(secret) if path.startswith("/api/") else {}
                got = browser.get(path, headers=headers)
                assert got.status_code in (200, 404, 409, 422), (path, got.status_code, got.text[:300])
                hidden = secret_keys(st, reader) - self.ever_open
                assert not leaks(got.content, hidden), (role, side, path, leaks(got.content, hidden))
            if role != "organiser":
                assert browser.get(f"/api/campaigns/{cid}/export", headers=auth(secret)).status_code == 403

    def play(self, rng: random.Random, actions: int, every: int) -> int:
        """Play at random through the links of the players to act; fetch everything every `every` actions."""
        played = 0
        st = self.state()
        for n in range(actions):
            self.ever_open |= open_keys(st)
            if n % every == 0:
                self.fetch_all(st)
            who = st.current_player()
            if who == TERMINAL:
                break
            assert who != CHANCE, "the server rolls every die"
            seat = seats_of(st)[who]
            legal = [a.to_str() for a in st.legal_actions()]
            done = self.api.post(f"/api/campaigns/{self.cid}/act", headers=auth(self.links[("general", seat)]),
                                 json={"action": rng.choice(legal)})
            assert done.status_code == 200, done.text
            hidden = secret_keys(st, seat) - self.ever_open - set(legal)  # what it chose it knew
            after = self.state()
            hidden &= secret_keys(after, seat)  # a card it just drew it now knows
            assert not leaks(done.content, hidden), leaks(done.content, hidden)
            played += 1
            st = after  # nobody acts in between: the position the next action starts from
        self.fetch_all(st)
        return played


ACTIONS = 260
FETCHED = deep(6)
"""Each random game's first `ACTIONS` actions, the answer to every one of them searched; every URL is fetched as
every link at `FETCHED` positions spread over them, and at the last. Fetching every URL as every link is some 30
requests, most of them drawing the board: at depth 1 the 8 positions (every 43rd action from the first, and the
last) cost each game about half a CPU-s less than the 11 it had (every 26th), and still span it from its first
position to past its 200th action, in each of the four variants (and the bot games' 5 positions each). A deeper run
fetches at more: 14 positions, the last among them, at depth 2, more than before."""


@pytest.mark.parametrize(("params", "seed"), [({"seats": 3}, 1), ({"seats": 2}, 2),
                                              ({"seats": 3, "advanced": True}, 3),
                                              ({"seats": 2, "advanced": True}, 4)])
def test_no_url_shows_any_link_a_card_it_may_not_know(url: str, portal: BlockingPortal, params: dict[str, Any],
                                                      seed: int) -> None:
    table = Table(url, params, portal)
    assert table.play(random.Random(seed), ACTIONS, max(1, ACTIONS // FETCHED)) > 200


@pytest.mark.parametrize(("params", "bots", "seed"), [
    ({"seats": 3, "advanced": True}, {"allies": "heuristic"}, 5),
    ({"seats": 2, "advanced": True}, {"germany": "heuristic"}, 6),  # the bot declares landings with hidden ships
    ({"seats": 2}, {"norway": "heuristic"}, 7),  # Norway's bot plays the Allies too
])
def test_the_servers_bot_plays_a_country_and_its_secret_moves_stay_secret(url: str, portal: BlockingPortal,
                                                                          params: dict[str, Any],
                                                                          bots: dict[str, str], seed: int) -> None:
    table = Table(url, params, portal, bots=bots)
    table.play(random.Random(seed), 120, 30)
    log = table.state().log
    seats = seats_of(table.state())
    assert any(seats[e.side] in bots for e in log if not e.automatic), "the bot has played"
    if "germany" in bots:
        assert any(e.action.startswith("land ") for e in log), "landings were declared"
    if "norway" in bots:
        assert any(e.side == "allies" for e in log if not e.automatic), "Norway's bot played the Allies' decisions"
