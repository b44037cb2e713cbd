"""The club server's web app (docs/server-plan.md 6): a JSON API over `service.Campaigns`, and the pages.

A request proves who it is with its invitation secret (`Authorization: Bearer <secret>`). Every error a
client can cause is a 4xx with a short message naming the field or rule at fault, never a 500: 401 no link
(or no server key where creating needs one), 403 forbidden (role or side), 404 unknown campaign or link, 409
illegal action or a conflict with someone who acted first, 413 body too large (refused while it streams),
422 unreadable, 429 over the rate limit (with `Retry-After`). The JSON API answers JSON; pages answer a page.
When the database is too busy to answer in time (SQLite's write lock or a free connection waited for too
long) the answer is 503 with `Retry-After`, and the request may be sent again (an action with its key is
applied once).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.models import Schema
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi_offline import FastAPIOffline
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from warroom.core.errors import IllegalActionError, SaveError, shown
from warroom.server.db import engine_for, migrate
from warroom.server.errors import BadRequestError, ForbiddenError, KeyRequiredError, TooLargeError, readable
from warroom.server.guards import MAX_UPLOAD, BodyLimit, RateLimits, ServerSettings, TooManyRequestsError
from warroom.server.insight import Insight
from warroom.server.insight_routes import add_insight
from warroom.server.pages import add_pages
from warroom.server.portable import read_export
from warroom.server.service import Campaigns, Invitation, Seen
from warroom.server.store import ConflictError, EventStore, NotFoundError
from warroom.server.web import (
    TITLES_AND_MEANINGS,
    Actor,
    Creator,
    Member,
    MissingLinkError,
    Organiser,
    OrganiserActing,
    carries_key,
    error_response,
    rendered_error,
)

LOG = logging.getLogger("warroom.server")
STREAM_SECONDS = 300
"""How long one event stream lasts; the browser's EventSource reconnects by itself."""
LINK_CHECK_TICKS = 20
"""An event stream checks every 20 half-seconds that its link still works."""
STATIC = Path(__file__).with_name("static")
"""The pages' own files: the favicon, and the browser libraries (static/vendor, see scripts/vendor-web.sh)."""
UPLOAD_PATHS = ("/api/campaigns", "/api/campaigns/import", "/new", "/import")
"""Where a scenario or campaign file may be sent: these take bodies up to the upload limit."""


def _text(value: str) -> str:
    try:
        return readable(value, "text")
    except BadRequestError as exc:
        raise ValueError(str(exc).removeprefix("text: ")) from exc


Text = Annotated[str, AfterValidator(_text)]
"""A string field that can be stored and shown: JSON lets a lone surrogate ("\\ud800") or a NUL through."""


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewCampaign(Body):
    scenario: Text = Field(default="", max_length=100)
    title: Text = Field(default="", max_length=200)
    mode: Text | None = Field(default=None, max_length=20)  # Firestorm: gw (the default), tabletop or mixed
    params: dict[Text, bool | int | Text] = Field(default_factory=dict, max_length=8)  # the rules' own, e.g.
    # Kampen om Norge's {"seats": 3, "advanced": true}
    bots: dict[Text, Text] = Field(default_factory=dict, max_length=8)  # side -> "heuristic" | "random"
    hotseat: bool = False  # one more link that plays every side
    parallel: bool = True  # tabletop battles are played at the same time (ignored for the General's Wargame)
    scenario_toml: Text | None = Field(default=None, max_length=MAX_UPLOAD)  # a one-file scenario


class Act(Body):
    action: Text = Field(min_length=1, max_length=200)
    key: Text | None = Field(default=None, max_length=100)  # idempotency key: a retry applies nothing twice
    seq: int | None = Field(default=None, ge=0, le=10**9)  # the position the client saw; another is a conflict
    epoch: int | None = Field(default=None, ge=0, le=10**9)  # ... and its undo epoch (the view's `epoch`)


class NewLink(Body):
    role: Text = Field(max_length=20)
    side: Text = Field(default="", max_length=40)


class Undo(Body):
    count: int = Field(ge=1, le=10_000)
    seq: int = Field(ge=0, le=10**9)  # the position the organiser's preview was made at
    waiting: Text | None = Field(default=None, max_length=10_000)  # the preview's waiting results
    epoch: int | None = Field(default=None, ge=0, le=10**9)  # the preview's undo epoch


class Result(Body):
    attacker_vp: int = Field(ge=0, le=6)
    defender_vp: int = Field(ge=0, le=6)
    battle: int = Field(default=0, ge=0, le=1000)  # a battle at the table; 0: the battle being fought now
    key: Text | None = Field(default=None, max_length=100)  # idempotency key
    seq: int | None = Field(default=None, ge=0, le=10**9)  # the position the sender saw
    epoch: int | None = Field(default=None, ge=0, le=10**9)  # ... and its undo epoch


class WhichBattle(Body):
    battle: int = Field(default=0, ge=0, le=1000)
    attacker_vp: int | None = Field(default=None, ge=0, le=6)  # the result the sender was shown, if given:
    defender_vp: int | None = Field(default=None, ge=0, le=6)  # another one waiting now is a conflict
    epoch: int | None = Field(default=None, ge=0, le=10**9)  # ... and the undo epoch of the sender's view

    def seen(self) -> Seen:
        return Seen(self.attacker_vp, self.defender_vp, self.epoch)


BUSY_RETRY_SECONDS = 1
"""The `Retry-After` of a 503 when the database was too busy."""


def database_busy(exc: Exception) -> bool:
    """Whether `exc` says the database was too busy, not broken: SQLite's write lock waited for in vain
    ("database is locked"), or no pooled connection came free in time."""
    if isinstance(exc, sa_exc.TimeoutError):
        return True
    return isinstance(exc, sa_exc.OperationalError) and any(
        words in str(exc.orig) for words in ("database is locked", "database table is locked", "database is busy"))


def invalid_fields(errors: Sequence[Any]) -> str:
    """A validation failure in a few words per field: where, what was wrong, and a bounded excerpt of what
    was sent (never the whole input, which may be megabytes, or a NaN that JSON cannot carry)."""
    parts = []
    for error in list(errors)[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        got = f" (got {shown(error['input'], 30)})" if "input" in error and not isinstance(error["input"], dict) \
            else ""
        parts.append(f"{where}: {error.get('msg', 'invalid')}{got}")
    more = len(errors) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


class Problem(BaseModel):
    """Every error the API answers: a short message naming the field or rule at fault."""

    detail: str


def api_errors(media_type: str = "application/json") -> dict[int | str, dict[str, Any]]:
    """The error answers every API operation documents (OpenAPI), all `Problem`s, under the route's media type.

    They name `Problem` by its schema's place in the document, not as a model: for each model answer of each
    route FastAPI builds a pydantic adapter when the app is made (some 270 here, all the same, read only to write
    the document), and that was half of what making the app cost. `with_problem` puts the schema in its place;
    the document reads as it did with the model."""
    return {code: {"description": meaning, "content": {media_type: {"schema": {"$ref": PROBLEM_REF}}}}
            for code, meaning in TITLES_AND_MEANINGS.items()}


PROBLEM_REF = "#/components/schemas/Problem"


def with_problem(app: FastAPI) -> None:
    """The app's OpenAPI document with the `Problem` schema that `api_errors` refers to, written as FastAPI
    writes a response model's."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        document = made()
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        if "Problem" not in schemas:
            schema = Problem.model_json_schema(ref_template="#/components/schemas/{model}", mode="serialization")
            schemas["Problem"] = jsonable_encoder(Schema(**schema), by_alias=True, exclude_none=True)  # as FastAPI
            document["components"]["schemas"] = dict(sorted(schemas.items()))  # writes its models, in its order
        return document

    app.openapi = openapi  # type: ignore[method-assign]


ERROR_STATUS: dict[type[Exception], int] = {
    NotFoundError: 404, ForbiddenError: 403, ConflictError: 409, IllegalActionError: 409, BadRequestError: 422,
    SaveError: 422, TooLargeError: 413, KeyRequiredError: 401, MissingLinkError: 401,
}


def invitation_json(i: Invitation) -> dict[str, str]:
    """A new link as the API returns it, once: its secret is never shown again."""
    return {"label": i.label, "role": i.role, "side": i.side, "token": i.token_id, "secret": i.secret}


def settle_heap() -> None:
    """Sets aside what a server process holds from its start (the modules, the rule systems' data, the app) from
    the cycle collector's full passes, once the app is made and before it serves. Those objects live as long as
    the process, yet each full pass walked all of them: some 50-100 ms with every request held at the
    interpreter's lock, the largest share of page p95 under load (`bench/server_load.py`). Garbage is
    collected first, so nothing unreachable is set aside; what is set aside and later dropped is still freed by
    its reference count. For a process that serves: a test process making many apps does not call it."""
    gc.collect()
    gc.freeze()


def create_app(url: str, run_migrations: bool = True, settings: ServerSettings | None = None) -> FastAPI:
    """The app over the database at `url` (migrated first), guarded as `settings` say (default: open to
    whoever reaches it, as on 127.0.0.1)."""
    if run_migrations:
        migrate(url)
    settings = settings or ServerSettings()
    campaigns = Campaigns(EventStore(engine_for(url)))

    def position(cid: str) -> tuple[int, int]:
        """A campaign's (undo epoch, log length) now: the background jobs for any other position are dropped."""
        row = campaigns.store.campaign(cid)
        return row.epoch, row.seq

    insight = Insight(position)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        insight.close()  # the background workers stop with the server

    app = FastAPIOffline(title="warroom", docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json",
                         static_url="/api/docs-assets", lifespan=lifespan)
    app.state.campaigns = campaigns
    app.state.insight = insight
    app.state.settings = settings
    app.state.limits = RateLimits(create=settings.create_limit, act=settings.act_limit,
                                  campaign=settings.campaign_limit)

    def limit_for(scope: Scope) -> int:
        """A campaign file alone, or a scenario file with a form or JSON around it, or a small request. Where
        creating needs the server key, a request without it gets no more than a small request: it will be
        refused anyway, after reading little."""
        path = scope["path"]
        if scope["method"] != "POST" or path not in UPLOAD_PATHS or not carries_key(scope, settings):
            return settings.max_body
        return settings.max_upload if path == "/api/campaigns/import" else settings.max_upload + settings.max_body

    app.add_middleware(BodyLimit, limit_for=limit_for, answer=rendered_error)

    for kind, code in ERROR_STATUS.items():
        def handler(request: Request, exc: Exception, code: int = code) -> Response:
            return error_response(request, code, str(exc))

        app.add_exception_handler(kind, handler)

    def too_many(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TooManyRequestsError)
        return error_response(request, 429, str(exc), {"Retry-After": str(exc.retry_after)})

    def unreadable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(request, 422, invalid_fields(exc.errors()))

    def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return error_response(request, exc.status_code, str(exc.detail), dict(exc.headers or {}))

    def busy(request: Request, exc: Exception) -> Response:
        if not database_busy(exc):
            raise exc  # a real fault: the server's error handler logs it and answers 500
        return error_response(request, 503, "the server is busy: try again in a moment",
                              {"Retry-After": str(BUSY_RETRY_SECONDS)})

    app.add_exception_handler(TooManyRequestsError, too_many)
    app.add_exception_handler(RequestValidationError, unreadable)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(sa_exc.OperationalError, busy)
    app.add_exception_handler(sa_exc.TimeoutError, busy)

    api = APIRouter(responses=api_errors())

    @api.post("/api/campaigns", status_code=201, dependencies=[Creator])
    def create(body: NewCampaign) -> dict[str, Any]:
        params: dict[str, Any] = dict(body.params)
        if body.mode is not None:
            params["mode"] = body.mode
            if body.mode != "gw" and body.parallel:
                params["parallel"] = True
        if body.bots:
            params["bots"] = body.bots
        cid, invitations = campaigns.create(body.scenario, body.title, params, hotseat=body.hotseat,
                                            scenario_toml=body.scenario_toml)
        return {"id": cid, "links": [invitation_json(i) for i in invitations]}

    @api.get("/api/campaigns/{cid}/view")
    def view(who: Member) -> JSONResponse:  # plain JSON already: no second pass through FastAPI's encoder
        return JSONResponse(campaigns.view(who))

    @api.post("/api/campaigns/{cid}/act")
    def act(body: Act, who: Actor) -> dict[str, Any]:
        return campaigns.act(who, body.action, body.key, body.seq, body.epoch)

    @api.post("/api/campaigns/{cid}/report")
    def report(body: Result, who: Actor) -> dict[str, Any]:
        return campaigns.report(who, body.battle, body.attacker_vp, body.defender_vp, body.key, body.seq, body.epoch)

    @api.post("/api/campaigns/{cid}/confirm")
    def confirm(who: Actor, body: WhichBattle | None = None) -> dict[str, Any]:
        return campaigns.confirm(who, body.battle, body.seen()) if body is not None else campaigns.confirm(who)

    @api.post("/api/campaigns/{cid}/dispute")
    def dispute(who: Actor, body: WhichBattle | None = None) -> dict[str, Any]:
        return campaigns.dispute(who, body.battle, body.seen()) if body is not None else campaigns.dispute(who)

    @api.post("/api/campaigns/{cid}/decide")
    def decide(body: Result, who: Actor) -> dict[str, Any]:
        return campaigns.decide(who, body.attacker_vp, body.defender_vp, body.battle, body.seq, body.epoch, body.key)

    @api.get("/api/campaigns/{cid}/undo")
    def undo_preview(who: Actor, count: Annotated[int, Query(ge=1, le=10_000)] = 1) -> dict[str, Any]:
        return campaigns.undo_preview(who, count)

    @api.post("/api/campaigns/{cid}/undo")
    def undo(body: Undo, who: Actor) -> dict[str, Any]:
        return campaigns.undo(who, body.count, body.seq, body.waiting, body.epoch)

    @api.get("/api/campaigns/{cid}/events", response_class=StreamingResponse, responses={200: {
        "description": "server-sent events: {seq, epoch, waiting} now and at each change",
        "content": {"text/event-stream": {"schema": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "epoch": {"type": "integer"}, "waiting": {"type": "string"}}}}}}})
    async def events(cid: str, who: Member, request: Request,
                     seq: Annotated[int | None, Query(ge=0, le=10**9)] = None,
                     epoch: Annotated[int | None, Query(ge=0, le=10**9)] = None,
                     waiting: Annotated[str | None, Query(max_length=10_000)] = None) -> StreamingResponse:
        """Server-sent events: the campaign's position (undo epoch and number) and its waiting results now, then
        each time any of them changes. The stream ends when its link is revoked. A page that already shows a
        position names it (`seq`, `epoch` and `waiting`, all three): the stream then starts with the first change
        from it."""

        def now() -> dict[str, Any]:
            seq, epoch, waiting = campaigns.store.position(cid)
            return {"seq": seq, "epoch": epoch, "waiting": waiting}

        async def stream() -> AsyncIterator[str]:
            last: dict[str, Any] | None = {} if seq is None or epoch is None or waiting is None else {
                "seq": seq, "epoch": epoch, "waiting": waiting}
            for tick in range(STREAM_SECONDS * 2):
                if await request.is_disconnected():
                    return
                if tick and tick % LINK_CHECK_TICKS == 0 and not await asyncio.to_thread(campaigns.store.is_live,
                                                                                         who.token_id):
                    return
                state = await asyncio.to_thread(now)
                if state != last:
                    last = state
                    yield f"data: {json.dumps(state)}\n\n"
                await asyncio.sleep(0.5)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @api.get("/api/campaigns/{cid}/log")
    def log(cid: str, who: Member) -> dict[str, Any]:
        entries = campaigns.log(who)
        return {"log": [{"action": e.action, "side": e.side, "turn": e.turn, "phase": e.phase,
                         "dice": e.automatic} for e in entries]}

    @api.get("/api/campaigns/{cid}/export")
    def export(cid: str, who: Organiser) -> dict[str, Any]:  # the whole log: the organiser plays no side
        return campaigns.export(cid)

    @api.post("/api/campaigns/import", status_code=201, dependencies=[Creator],
              openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                  "type": "object", "description": "a campaign export, or a save written by `warroom play --save`"}}}}})
    async def import_(request: Request) -> dict[str, Any]:
        exported = read_export(await request.body(), settings.max_upload)
        cid, invitations = await asyncio.to_thread(campaigns.import_record, exported)
        return {"id": cid, "links": [invitation_json(i) for i in invitations]}

    @api.get("/api/campaigns/{cid}/tokens")
    def tokens(cid: str, who: Organiser) -> dict[str, Any]:
        return {"tokens": campaigns.links(who)}

    @api.post("/api/campaigns/{cid}/tokens", status_code=201)
    def reissue(body: NewLink, who: OrganiserActing) -> dict[str, Any]:
        return invitation_json(campaigns.reissue(who, body.role, body.side))

    @api.post("/api/campaigns/{cid}/tokens/{token_id}/revoke", status_code=204)
    def revoke(cid: str, token_id: str, who: OrganiserActing) -> None:
        campaigns.revoke(who, token_id)

    app.include_router(api)
    add_insight(app, campaigns, insight, api_errors)
    add_pages(app)
    app.mount("/static", StaticFiles(directory=STATIC, follow_symlink=False), name="static")
    with_problem(app)
    return app
