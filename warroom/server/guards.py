"""Guards at the club server's door (issue 11): request bodies bounded while they stream, a per-client rate
limit on everything that writes, and the server key that creating and importing campaigns need once the
server is reachable from other machines.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from warroom.server.config import ACT_LIMIT, CAMPAIGN_LIMIT, CREATE_LIMIT

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MIN_KEY = 12
MAX_KEY = 200
MAX_UPLOAD = 1_000_000
"""The default limit of an uploaded scenario or campaign file, in bytes (the largest bundled scenario file is
about 30 kB)."""


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What the server owner chooses (`warroom serve` flags and environment variables).

    `server_key`: None lets anyone who reaches the server create and import campaigns (the default on
    127.0.0.1, where only this machine can); otherwise they must present it. `create_limit`, `act_limit` and
    `campaign_limit` are rate limits in the `limits` notation ("20/minute;200/day"): creating and importing
    per client address, acting (actions, results, undo, links) per invitation link and per campaign.
    `max_body` bounds every request body, `max_upload` an uploaded scenario or campaign file."""

    server_key: str | None = None
    create_limit: str = CREATE_LIMIT
    act_limit: str = ACT_LIMIT
    campaign_limit: str = CAMPAIGN_LIMIT
    max_body: int = 64_000
    max_upload: int = MAX_UPLOAD

    def __repr__(self) -> str:  # printed into a log or a traceback, the settings never show the key
        return (f"ServerSettings(server_key={'set' if self.server_key else None}, create_limit={self.create_limit!r}, "
                f"act_limit={self.act_limit!r}, campaign_limit={self.campaign_limit!r}, max_body={self.max_body}, "
                f"max_upload={self.max_upload})")

    def key_matches(self, presented: str | None) -> bool:
        """Whether `presented` is the server key (compared in constant time); always true without a key."""
        if self.server_key is None:
            return True
        return presented is not None and hmac.compare_digest(presented.encode("utf-8", "replace"),
                                                             self.server_key.encode())


def key_problem(key: str) -> str | None:
    """Why `key` cannot be a server key, or None: it travels in a header and a cookie, so it is printable
    ASCII without spaces, and long enough not to be guessed.

    >>> key_problem("correct-horse-battery"), key_problem("short")
    (None, 'at least 12 characters')
    """
    if len(key) < MIN_KEY:
        return f"at least {MIN_KEY} characters"
    if len(key) > MAX_KEY or not all("!" <= c <= "~" for c in key):
        return f"at most {MAX_KEY} printable ASCII characters, no spaces"
    return None


def needs_key(host: str) -> bool:
    """Whether a server listening on `host` is reachable from other machines, so that creating campaigns
    should need the server key (unless its owner opens it explicitly)."""
    return host not in LOOPBACK


# ----- rate limits -----------------------------------------------------------------------------------------------
class TooManyRequestsError(Exception):
    """A client over its rate limit (HTTP 429 with `Retry-After`)."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many requests to {what} from you: try again in {retry_after} s")
        self.retry_after = retry_after


class RateLimits:
    """Moving-window limits kept in this process's memory (`limits`), one set per kind of request."""

    def __init__(self, **kinds: str) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[str, list[RateLimitItem]] = {kind: parse_many(text) for kind, text in kinds.items() if text}

    def hit(self, kind: str, who: str, what: str) -> None:
        """Count one request of `kind` by client `who`; `TooManyRequestsError` when it is over a limit (a
        request refused by a longer window still counts in the shorter ones before it)."""
        for item in self._items.get(kind, ()):
            if not self._limiter.hit(item, kind, who):
                reset = self._limiter.get_window_stats(item, kind, who).reset_time
                raise TooManyRequestsError(what, max(1, int(reset - time.time()) + 1))


# ----- bodies bounded while they stream ------------------------------------------------------------------------
class BodyTooLarge(Exception):
    """Raised into the app when the body it is reading passes its limit."""


class BodyLimit:
    """ASGI middleware: a request body longer than `limit_for(scope)` bytes is refused with 413 after
    reading at most the limit (and one network chunk), never buffered whole. A declared `Content-Length`
    over the limit is refused before any of the body is read."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[Scope], int],
                 answer: Callable[[str, int, str], tuple[str, bytes]]) -> None:
        self.app = app
        self.limit_for = limit_for
        self.answer = answer  # (path, status, message) -> (content type, body): JSON for the API, else a page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if (declared is None or declared == b"0") and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body at all (HTTP/1.1): nothing to count
            return
        limit = self.limit_for(scope)
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self.too_large(scope, send, limit)
            return
        seen = 0
        over = False
        started = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if over:
                return  # whatever the app answers to a body cut short gives way to the 413
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except Exception:
            if not over:
                raise
        if over and not started:
            await self.too_large(scope, send, limit)

    async def too_large(self, scope: Scope, send: Send, limit: int) -> None:
        kind, body = self.answer(scope["path"], 413, f"the request is larger than {limit:,} bytes, this server's "
                                                    "limit for it")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
