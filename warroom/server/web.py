"""What the JSON API and the pages share: who a request is (its invitation secret), the guards on writing
requests, and answers to errors, as JSON for the API and as a page in the site's style for a browser.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.requests import cookie_parser
from starlette.types import Scope

from warroom.server.errors import ForbiddenError, KeyRequiredError
from warroom.server.guards import RateLimits, ServerSettings
from warroom.server.service import Campaigns
from warroom.server.store import Grant, NotFoundError


def acting_as(request: Request) -> dict[str, str]:
    """What every page may put in its addresses and requests to act as the link it was drawn for (`?as=`; see
    `chosen_secret`): the tag, and the query string to append ('?as=...' or '&as=...'), empty without one."""
    tag = getattr(request.state, "acting_as", "")
    return {"acting_as": tag, "as_q": f"?as={tag}" if tag else "", "as_amp": f"&as={tag}" if tag else ""}


def version(markup: str) -> str:
    """A short digest of a rendered part of a page: a page following the campaign swaps in only the parts whose
    digest changed (play.js.html). A part never holds another: a refresh gets a part the page shows unchanged back
    empty (parts.html), so an inner part unchanged would change its outer part's digest and leave it empty there."""
    text = str(markup)
    if ' data-v="' in text:
        raise ValueError("a live part of a page may not hold another part (templates/parts.html)")
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).hexdigest()


templates = Jinja2Templates(directory=str(Path(__file__).with_name("templates")), context_processors=[acting_as])
templates.env.filters["version"] = version
templates.env.auto_reload = False  # the templates are the package's own files: no stat() of each on every page
KEY_HEADER = "X-Warroom-Key"
KEY_COOKIE = "wr_server_key"
KEY_NEEDED = ("creating or importing campaigns on this server needs its server key (ask the server's owner; send it "
              f"as the {KEY_HEADER} header, or enter it on the start page)")
MAX_MESSAGE = 600
"""The longest error message answered: a message never echoes a large input back."""


def is_api(path: str) -> bool:
    return path.startswith("/api/")


def plain(message: str) -> str:
    """`message` as it can be sent: valid UTF-8 (a lone surrogate becomes '?') and at most `MAX_MESSAGE` long."""
    text = message.encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


TITLES = {400: "Bad request", 401: "Who are you?", 403: "Not yours to do", 404: "Not found", 405: "Not here",
          409: "Not now", 413: "Too large", 422: "Cannot read that", 429: "Slow down", 500: "Server error",
          503: "Busy"}
"""The heading of an error page, by status."""
TITLES_AND_MEANINGS = {
    400: "the request cannot be read", 401: "no invitation link (or no server key where creating needs one)",
    403: "the link's role or side may not do this", 404: "unknown campaign, link or page",
    409: "illegal now, or someone acted first: reload", 413: "the request body is over its limit",
    422: "a field is missing or wrong (the answer names it)", 429: "over the rate limit: see Retry-After",
    503: "the database is busy: try again (see Retry-After)",
}
"""What each error status means, as the API documentation and the pages' documentation say it."""


def error_page(status: int, message: str) -> bytes:
    """An error as a page in the site's style, with a way back."""
    template = templates.env.get_template("error.html")
    return template.render(status=status, title=TITLES.get(status, "Error"), message=plain(message)).encode()


def rendered_error(path: str, status: int, message: str) -> tuple[str, bytes]:
    """(content type, body) of an error answer for `path`: JSON for the API, a page for everything else."""
    if is_api(path):
        return "application/json", json.dumps({"detail": plain(message)}).encode()
    return "text/html; charset=utf-8", error_page(status, message)


def error_response(request: Request, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    if is_api(request.url.path):
        return JSONResponse({"detail": plain(message)}, status_code=status, headers=headers)
    return HTMLResponse(error_page(status, message), status_code=status, headers=headers)


# ----- who is asking -------------------------------------------------------------------------------------------
def campaigns_of(request: Request) -> Campaigns:
    service: Campaigns = request.app.state.campaigns
    return service


def settings_of(request: Request) -> ServerSettings:
    settings: ServerSettings = request.app.state.settings
    return settings


def limits_of(request: Request) -> RateLimits:
    limits: RateLimits = request.app.state.limits
    return limits


Service = Annotated[Campaigns, Depends(campaigns_of)]


def cookie_name(cid: str) -> str:
    return f"wr_{cid}"


class MissingLinkError(Exception):
    """A request that carries no invitation secret (HTTP 401)."""


MAX_HELD = 8
"""How many of one campaign's links a browser holds at once (the oldest is let go first)."""
AS_HEADER = "X-Warroom-As"


def link_tag(secret: str) -> str:
    """A short public name for a held link, to say which of its links a browser acts as (`?as=`): derived from
    the secret one way, so that it tells nothing about it."""
    return hashlib.sha256(b"warroom-as:" + secret.encode("utf-8", "replace")).hexdigest()[:12]


def held_links(request: Request, cid: str) -> list[str]:
    """The secrets of campaign `cid` this browser holds (its cookie: '.'-separated, the latest joined last)."""
    raw = request.cookies.get(cookie_name(cid), "")
    return [s for s in raw.split(".") if s and len(s) <= 100][-MAX_HELD:]


def holding(held: list[str], secret: str) -> str:
    """The cookie value once `secret` is joined: it comes last (acted as by default), the oldest let go."""
    return ".".join([*[s for s in held if s != secret][-(MAX_HELD - 1):], secret])


TAG = re.compile(r"[0-9a-f]{12}")


def chosen_secret(request: Request, cid: str) -> str | None:
    """The held link a request names by its `?as=` (or `X-Warroom-As` header), None when it names none. A page
    carries its link's tag in every address and request, so that two tabs of one browser can act as two roles at
    once."""
    tag = request.query_params.get("as") or request.headers.get(AS_HEADER)
    if not tag:
        return None
    if TAG.fullmatch(tag):
        for secret in held_links(request, cid):
            if hmac.compare_digest(link_tag(secret).encode(), tag.encode()):
                return secret
    raise MissingLinkError("this browser does not hold the link this page acted as (was it replaced, or are the "
                           "cookies cleared?): open that invitation link again")


def member(cid: str, request: Request, service: Service,
           authorization: Annotated[str | None, Header()] = None) -> Grant:
    """The holder of the invitation secret the request carries (`Authorization: Bearer <secret>`, or one of the
    links this browser joined, kept in the campaign's cookie: the one `?as=` names, else the latest still valid),
    who must belong to campaign `cid`."""
    if authorization and authorization.startswith("Bearer "):
        who = service.store.grant(authorization.removeprefix("Bearer ").strip())
    else:
        chosen = chosen_secret(request, cid)
        candidates = [chosen] if chosen is not None else held_links(request, cid)[::-1]
        if not candidates:
            raise MissingLinkError("open your invitation link first (it signs this browser in), or send its secret "
                                   "as 'Authorization: Bearer <secret>'")
        for i, secret in enumerate(candidates):
            try:
                who = service.store.grant(secret)
            except NotFoundError:
                if i == len(candidates) - 1:
                    raise  # none of the links held works any more: the last one tried says so
                continue
            request.state.acting_as = link_tag(secret)
            break
    if who.campaign_id != cid:
        service.store.campaign(cid)  # 404 for an unknown campaign
        raise ForbiddenError("this link belongs to another campaign")
    return who


Member = Annotated[Grant, Depends(member)]


def must_organise(who: Grant) -> Grant:
    if who.role != "organiser":
        raise ForbiddenError("only the organiser may do this")
    return who


def organiser(who: Member) -> Grant:
    return must_organise(who)


Organiser = Annotated[Grant, Depends(organiser)]


# ----- guards on writing requests ---------------------------------------------------------------------------
def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def carries_key(scope: Scope, settings: ServerSettings) -> bool:
    """Whether a request (its raw ASGI scope, before anything is read) carries the server key, when there is
    one: the header, or the start page's cookie."""
    if settings.server_key is None:
        return True
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
    presented = headers.get(KEY_HEADER.lower()) or cookie_parser(headers.get("cookie", "")).get(KEY_COOKIE)
    return settings.key_matches(presented)


def may_create(request: Request, key: Annotated[str | None, Header(alias=KEY_HEADER)] = None) -> None:
    """Creating or importing a campaign: the server key when the owner set one (header `X-Warroom-Key`, or
    the cookie the start page sets), and the per-address rate limit."""
    limits_of(request).hit("create", client_address(request), "create or import campaigns")  # wrong keys count too
    if not settings_of(request).key_matches(key or request.cookies.get(KEY_COOKIE)):
        raise KeyRequiredError(KEY_NEEDED)


def acting(request: Request, who: Member) -> Grant:
    """A request that changes a campaign: the link's rate limit, and the campaign's."""
    limits = limits_of(request)
    limits.hit("act", who.token_id, "act in this campaign")
    limits.hit("campaign", who.campaign_id, "this campaign (from all its links together)")
    return who


Creator = Depends(may_create)
Actor = Annotated[Grant, Depends(acting)]


def organiser_acting(who: Actor) -> Grant:
    return must_organise(who)


OrganiserActing = Annotated[Grant, Depends(organiser_acting)]
