"""The club server's web app (docs/server-plan.md 6): a JSON API over `service.Campaigns`.

A request proves who it is with its invitation secret (`Authorization: Bearer <secret>`). Every error a
client can cause is a 4xx with a message: 403 forbidden (role or side), 404 unknown campaign or link,
409 illegal action or a conflict with someone who acted first, 413 upload too large, 422 unreadable. When the
database is too busy to answer in time (SQLite's write lock or a free connection waited for too long) the
answer is 503 with `Retry-After`, and the request may be sent again (an action with its key is applied once).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field
from sqlalchemy import exc as sa_exc

from warroom.core.errors import IllegalActionError, SaveError
from warroom.core.log import GameRecord
from warroom.server.db import engine_for, migrate
from warroom.server.service import BadRequestError, Campaigns, ForbiddenError, Invitation
from warroom.server.store import ConflictError, EventStore, Grant, NotFoundError

STREAM_SECONDS = 300
"""How long one event stream lasts; the browser's EventSource reconnects by itself."""
MAX_UPLOAD = 2_000_000
"""The largest import accepted, in bytes."""


class NewCampaign(BaseModel):
    scenario: str = Field(default="", max_length=100)
    title: str = Field(default="", max_length=200)
    mode: str = Field(default="gw", max_length=20)
    bots: dict[str, str] = Field(default_factory=dict)  # side -> "heuristic" | "random": the server plays it
    hotseat: bool = False  # one more link that plays every side
    parallel: bool = True  # tabletop battles are played at the same time (ignored for the General's Wargame)
    scenario_toml: str | None = Field(default=None, max_length=MAX_UPLOAD)  # an uploaded one-file scenario


class Act(BaseModel):
    action: str = Field(min_length=1, max_length=200)
    key: str | None = Field(default=None, max_length=100)  # idempotency key: a retry applies nothing twice
    seq: int | None = None  # the position the client saw; another position is a conflict


def campaigns_of(request: Request) -> Campaigns:
    service: Campaigns = request.app.state.campaigns
    return service


Service = Annotated[Campaigns, Depends(campaigns_of)]


def member(cid: str, request: Request, service: Service,
           authorization: Annotated[str | None, Header()] = None) -> Grant:
    """The holder of the invitation secret the request carries (`Authorization: Bearer <secret>`, or the
    campaign's cookie set by its join link), who must belong to campaign `cid`."""
    secret = authorization.removeprefix("Bearer ").strip() if authorization and authorization.startswith("Bearer ") \
        else request.cookies.get(cookie_name(cid))
    if not secret:
        raise HTTPException(401, "open your invitation link first, or send its secret as "
                                 "'Authorization: Bearer <secret>'")
    who = service.store.grant(secret)
    if who.campaign_id != cid:
        service.store.campaign(cid)  # 404 for an unknown campaign
        raise ForbiddenError("this link belongs to another campaign")
    return who


def read_record(data: bytes) -> GameRecord:
    """An uploaded save; anything unreadable is the client's error (422), never a 500."""
    try:
        return GameRecord.from_json(data.decode("utf-8", errors="replace"))
    except SaveError:
        raise
    except Exception as exc:
        raise SaveError(f"not a warroom save: {exc}") from exc


def invitation_json(i: Invitation) -> dict[str, str]:
    """A new link as the API returns it, once: its secret is never shown again."""
    return {"label": i.label, "role": i.role, "side": i.side, "token": i.token_id, "secret": i.secret}


def cookie_name(cid: str) -> str:
    return f"wr_{cid}"


Member = Annotated[Grant, Depends(member)]


def organiser(who: Member) -> Grant:
    if who.role != "organiser":
        raise ForbiddenError("only the organiser may do this")
    return who


Organiser = Annotated[Grant, Depends(organiser)]


class NewLink(BaseModel):
    role: str = Field(max_length=20)
    side: str = Field(default="", max_length=40)


class Undo(BaseModel):
    count: int = Field(ge=1, le=10_000)
    seq: int  # the position the organiser's preview was made at


class Result(BaseModel):
    attacker_vp: int = Field(ge=0, le=6)
    defender_vp: int = Field(ge=0, le=6)
    battle: int = Field(default=0, ge=0, le=1000)  # a battle at the table; 0: the battle being fought now
    key: str | None = Field(default=None, max_length=100)  # idempotency key
    seq: int | None = None  # the position the sender saw: a result for another question is a conflict


class WhichBattle(BaseModel):
    battle: int = Field(default=0, ge=0, le=1000)


BUSY_RETRY_SECONDS = 1
"""The `Retry-After` of a 503 when the database was too busy."""


def database_busy(exc: Exception) -> bool:
    """Whether `exc` says the database was too busy, not broken: SQLite's write lock waited for in vain
    ("database is locked"), or no pooled connection came free in time."""
    if isinstance(exc, sa_exc.TimeoutError):
        return True
    return isinstance(exc, sa_exc.OperationalError) and any(
        words in str(exc.orig) for words in ("database is locked", "database table is locked", "database is busy"))


def create_app(url: str, run_migrations: bool = True) -> FastAPI:
    if run_migrations:
        migrate(url)
    campaigns = Campaigns(EventStore(engine_for(url)))
    app = FastAPI(title="warroom", docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.campaigns = campaigns

    errors: dict[type[Exception], int] = {
        NotFoundError: 404, ForbiddenError: 403, ConflictError: 409, IllegalActionError: 409,
        BadRequestError: 422, SaveError: 422,
    }
    for kind, code in errors.items():
        def handler(_request: Request, exc: Exception, code: int = code) -> JSONResponse:
            return JSONResponse({"detail": str(exc)}, status_code=code)

        app.add_exception_handler(kind, handler)

    def busy(_request: Request, exc: Exception) -> JSONResponse:
        if not database_busy(exc):
            raise exc  # a real fault: the server's error handler logs it and answers 500
        return JSONResponse({"detail": "the server is busy: try again in a moment"},
                            status_code=503, headers={"Retry-After": str(BUSY_RETRY_SECONDS)})

    app.add_exception_handler(sa_exc.OperationalError, busy)
    app.add_exception_handler(sa_exc.TimeoutError, busy)

    @app.post("/api/campaigns", status_code=201)
    def create(body: NewCampaign) -> dict[str, Any]:
        params: dict[str, Any] = {"mode": body.mode}
        if body.mode != "gw" and body.parallel:
            params["parallel"] = True
        if body.bots:
            params["bots"] = body.bots
        cid, invitations = campaigns.create(body.scenario, body.title, params, hotseat=body.hotseat,
                                            scenario_toml=body.scenario_toml)
        return {"id": cid, "links": [invitation_json(i) for i in invitations]}

    @app.get("/api/campaigns/{cid}/view")
    def view(who: Member) -> JSONResponse:  # plain JSON already: no second pass through FastAPI's encoder
        return JSONResponse(campaigns.view(who))

    @app.post("/api/campaigns/{cid}/act")
    def act(body: Act, who: Member) -> dict[str, Any]:
        return campaigns.act(who, body.action, body.key, body.seq)

    @app.post("/api/campaigns/{cid}/report")
    def report(body: Result, who: Member) -> dict[str, Any]:
        return campaigns.report(who, body.battle, body.attacker_vp, body.defender_vp, body.key, body.seq)

    @app.post("/api/campaigns/{cid}/confirm")
    def confirm(who: Member, body: WhichBattle | None = None) -> dict[str, Any]:
        return campaigns.confirm(who, body.battle if body is not None else 0)

    @app.post("/api/campaigns/{cid}/dispute")
    def dispute(who: Member, body: WhichBattle | None = None) -> dict[str, Any]:
        return campaigns.dispute(who, body.battle if body is not None else 0)

    @app.post("/api/campaigns/{cid}/decide")
    def decide(body: Result, who: Member) -> dict[str, Any]:
        return campaigns.decide(who, body.attacker_vp, body.defender_vp, body.battle, body.seq)

    @app.get("/api/campaigns/{cid}/undo")
    def undo_preview(who: Member, count: int = 1) -> dict[str, Any]:
        return campaigns.undo_preview(who, count)

    @app.post("/api/campaigns/{cid}/undo")
    def undo(body: Undo, who: Member) -> dict[str, Any]:
        return campaigns.undo(who, body.count, body.seq)

    @app.get("/api/campaigns/{cid}/events")
    async def events(cid: str, who: Member, request: Request) -> StreamingResponse:
        """Server-sent events: the campaign's position number and its waiting results now, then each time
        either changes."""

        def now() -> dict[str, Any]:
            return {"seq": campaigns.store.campaign(cid).seq, "waiting": campaigns.store.pending_signature(cid)}

        async def stream() -> AsyncIterator[str]:
            last: dict[str, Any] = {}
            for _ in range(STREAM_SECONDS * 2):
                if await request.is_disconnected():
                    return
                state = await asyncio.to_thread(now)
                if state != last:
                    last = state
                    yield f"data: {json.dumps(state)}\n\n"
                await asyncio.sleep(0.5)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.get("/api/campaigns/{cid}/log")
    def log(cid: str, who: Member) -> dict[str, Any]:
        entries = campaigns.log(who)
        return {"log": [{"action": e.action, "side": e.side, "turn": e.turn, "phase": e.phase,
                         "dice": e.automatic} for e in entries]}

    @app.get("/api/campaigns/{cid}/export")
    def export(cid: str, who: Organiser) -> dict[str, Any]:  # the whole log: the organiser plays no side
        return campaigns.export(cid)

    @app.post("/api/campaigns/import", status_code=201)
    async def import_(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            raise HTTPException(413, f"the file is larger than {MAX_UPLOAD} bytes")
        cid, invitations = campaigns.import_record(read_record(body))
        return {"id": cid, "links": [invitation_json(i) for i in invitations]}

    @app.get("/api/campaigns/{cid}/tokens")
    def tokens(cid: str, who: Organiser) -> dict[str, Any]:
        return {"tokens": [{"token": g.token_id, "role": g.role, "side": g.side} for g in campaigns.store.tokens(cid)]}

    @app.post("/api/campaigns/{cid}/tokens", status_code=201)
    def reissue(body: NewLink, who: Organiser) -> dict[str, Any]:
        return invitation_json(campaigns.reissue(who, body.role, body.side))

    @app.post("/api/campaigns/{cid}/tokens/{token_id}/revoke", status_code=204)
    def revoke(cid: str, token_id: str, who: Organiser) -> None:
        campaigns.store.revoke(cid, token_id)

    from warroom.server.pages import add_pages

    add_pages(app)
    return app
