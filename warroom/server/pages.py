"""Server-rendered pages (docs/server-plan.md 6): start a campaign, the join links and the page that manages
them, and the campaign page with the map, the console built from `legal_actions()` and the log. A little
plain JavaScript posts actions to the JSON API and follows the others' moves."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from warroom import rulesets
from warroom.core.errors import SaveError
from warroom.core.system import Capability
from warroom.scenarios import bundled_ids, load_game, load_scenario
from warroom.server.briefing import briefing
from warroom.server.errors import BadRequestError, KeyRequiredError, TooLargeError
from warroom.server.portable import ANY_SIDE, read_export, seat_label, seats_in_order
from warroom.server.results import asked
from warroom.server.service import Campaigns, Invitation, scenario_of
from warroom.server.store import Grant, NotFoundError
from warroom.server.web import (
    KEY_COOKIE,
    TITLES_AND_MEANINGS,
    Creator,
    Member,
    Organiser,
    campaigns_of,
    client_address,
    cookie_name,
    held_links,
    holding,
    limits_of,
    link_tag,
    settings_of,
    templates,
)
from warroom.server.words import asking

BOARDS: dict[str, str] = {
    "firestorm": "warroom.server.firestorm_board:page",
    "kampen": "warroom.server.kampen_board:page",
    "narvik": "warroom.server.narvik_board:page",
}
"""The campaign page of each rule system the club hosts (by the registry's id), as an entry point
`page(campaigns, grant, shown, seat) -> (template, context)`: loaded only when such a page is drawn."""


def links_page(request: Request, title: str, invitations: list[Invitation], cid: str) -> Response:
    """The new campaign's invitation links, shown once."""
    links = [{"label": i.label, "secret": i.secret} for i in invitations]
    return templates.TemplateResponse(request, "links.html",
                                      {"title": title, "links": links, "base": str(request.base_url), "cid": cid},
                                      status_code=201)


async def uploaded(request: Request, field: str, what: str) -> bytes | None:
    """The file sent in form field `field`, at most the upload limit; None when none was chosen."""
    form = await request.form()
    upload = form.get(field)
    if not isinstance(upload, UploadFile) or not upload.filename:
        return None
    limit = settings_of(request).max_upload
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise TooLargeError(f"the {what} is larger than {limit:,} bytes")
    return data


def page_errors() -> dict[int | str, dict[str, Any]]:
    """The error answers every page documents (OpenAPI): a page in the site's style saying what went wrong."""
    html = {"text/html": {"schema": {"type": "string"}}}
    return {code: {"description": meaning, "content": html} for code, meaning in TITLES_AND_MEANINGS.items()}


def held_roles(request: Request, campaigns: Campaigns, cid: str, row: Any = None,
               who: Grant | None = None) -> list[dict[str, Any]]:
    """The links of campaign `cid` this browser holds, still live: each one's tag, label, and whether the page acts
    as it (`row`: the campaign's row, and `who`: the grant of the link the page acts as, when the caller has read
    them already; a browser holding one link then costs no query)."""
    current = getattr(request.state, "acting_as", "")
    sc = scenario_of(row) if row is not None else None
    params = row.params if row is not None else {}
    out = []
    for secret in held_links(request, cid):
        try:
            grant = who if who is not None and current and link_tag(secret) == current else \
                campaigns.store.grant(secret)
        except NotFoundError:
            continue  # revoked since
        if grant.campaign_id != cid:
            continue
        if sc is None:
            row = campaigns.store.campaign(cid)
            sc, params = scenario_of(row), row.params
        tag = link_tag(secret)
        out.append({"tag": tag, "label": seat_label(sc, grant.role, grant.side, params), "current": tag == current})
    return out


LOG = logging.getLogger("warroom.server")
HELD_COOKIE = re.compile(r"wr_([0-9a-f]{16})")
"""A campaign's cookie (`web.cookie_name`): the links of that campaign this browser holds."""
MAX_HOME = 50
"""The most campaigns the home page lists (the latest joined cookies first are not known: by campaign id)."""


def home_rows(request: Request, campaigns: Campaigns) -> list[dict[str, Any]]:
    """Each campaign this browser holds links to: its title, where it stands, who is to act, the results awaited at
    the table, its latest events, and a way into it as each held link. Read as the first live link held allows."""
    out = []
    for name in sorted(request.cookies)[:MAX_HOME * 2]:
        match = HELD_COOKIE.fullmatch(name)
        if match is None:
            continue
        cid = match.group(1)
        try:
            roles = held_roles(request, campaigns, cid)
            if not roles:
                continue
            grant = campaigns.store.grant(next(s for s in held_links(request, cid)
                                               if link_tag(s) == roles[0]["tag"]))
            row = campaigns.store.campaign(cid)
            st = campaigns.position(row)
            out.append({"cid": cid, "title": row.title, "where": standing(st), "asking": asking(st),
                        "at_table": [q.title for q in asked(st).values()], "roles": roles,
                        "events": campaigns.events(grant, 4, row), "over": st.is_terminal(),
                        "reports": finished_turns(st), "as": roles[0]["tag"]})
        except NotFoundError:
            continue  # the campaign is gone
        except Exception as exc:
            LOG.warning("the home page could not read campaign %s: %s", cid, exc)
            out.append({"cid": cid, "title": f"campaign {cid}", "where": "", "roles": [], "asking": "",
                        "broken": str(exc)[:200] or type(exc).__name__, "at_table": [], "events": [], "over": False})
        if len(out) >= MAX_HOME:
            break
    return out


def finished_turns(st: Any) -> list[int]:
    """The turns of a Firestorm campaign that are over (each has an after-action report)."""
    if rulesets.of(st).id != "firestorm":
        return []
    return list(range(1, (len(st.sc.turns) if st.is_terminal() else st.turn - 1) + 1))


def standing(st: Any) -> str:
    """'Turn 2 of 5, battle' or 'Round 3, movement': where a game stands, as its header says."""
    if hasattr(st, "round"):
        return f"Round {st.round}, {st.phase()}"
    return f"Turn {st.turn} of {len(st.sc.turns)}, {st.phase()}"


def add_pages(app: FastAPI) -> None:
    pages = APIRouter(responses=page_errors(), default_response_class=HTMLResponse)
    service = campaigns_of

    @pages.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        scenarios = [load_scenario(s) for s in bundled_ids(system="firestorm")]
        info = [{"id": s.id, "title": s.title, "turns": len(s.turns)} for s in scenarios]
        games = [{"id": s.id, "title": s.title, "sides": s.side_names}
                 for s in (load_game(g) for g in bundled_ids(system="kampen"))]
        settings = settings_of(request)
        locked = not settings.key_matches(request.cookies.get(KEY_COOKIE))
        return templates.TemplateResponse(request, "index.html", {"scenarios": info, "games": games,
                                                                  "locked": locked})

    @pages.get("/organise", response_class=HTMLResponse)
    def organise(request: Request) -> Response:
        """The organiser's home: every campaign this browser holds links to, where each stands and who is to act."""
        return templates.TemplateResponse(request, "home.html", {"campaigns": home_rows(request, service(request))})

    @pages.post("/server-key", response_class=HTMLResponse)
    async def server_key(request: Request) -> Response:
        """The server key typed on the start page: kept in this browser (a cookie) for creating campaigns."""
        form = await request.form()
        key = form.get("key")
        settings = settings_of(request)
        response = RedirectResponse("/", status_code=303)
        if settings.server_key is None:
            return response  # an open server: nothing to remember
        limits_of(request).hit("create", client_address(request), "try server keys")  # no guessing at speed
        if not isinstance(key, str) or not settings.key_matches(key):
            raise KeyRequiredError("that is not this server's key (ask the server's owner for it)")
        response.set_cookie(KEY_COOKIE, settings.server_key, httponly=True, samesite="strict",
                            max_age=365 * 24 * 3600)
        return response

    @pages.post("/new", response_class=HTMLResponse, dependencies=[Creator])
    async def new(request: Request) -> Response:
        form = await request.form()
        scenario = str(form.get("scenario", ""))[:100]
        params: dict[str, Any] = {}
        if "mode" in form:  # a Firestorm campaign's battles
            params["mode"] = str(form.get("mode"))[:20]
            if params["mode"] != "gw" and form.get("one_at_a_time") != "on":
                params["parallel"] = True
        if "players" in form:  # a game of Kampen om Norge
            players = str(form.get("players"))[:10]
            params["seats"] = int(players) if players.isdigit() else players  # the rules refuse what is not 2 or 3
            params["advanced"] = form.get("advanced") == "on"
        bots = {str(k)[4:]: str(v) for k, v in form.items() if str(k).startswith("bot_") and v}
        if params.get("seats") == 2 and "allies" in bots and bots.pop("allies") != bots.get("norway"):
            raise BadRequestError("with two players Norway's player also plays the Allies: to have the bot play "
                                  "the Allies, choose it for Norway (or start a three-player game)")
        if bots:
            params["bots"] = bots
        data = await uploaded(request, "scenario_file", "scenario file")
        toml_text = data.decode("utf-8", errors="replace") if data is not None else None
        cid, invitations = await asyncio.to_thread(  # a bot's first moves may take a moment: not on the event loop
            service(request).create, scenario, str(form.get("title", ""))[:200], params,
            hotseat=form.get("hotseat") == "on", scenario_toml=toml_text)
        return links_page(request, service(request).store.campaign(cid).title, invitations, cid)

    @pages.get("/c/{cid}/battle", response_class=HTMLResponse)
    def battle(request: Request, cid: str, who: Member, no: int = 0) -> Response:
        """The briefing of battle `no` at the table, or (0) of the battle being fought now."""
        campaigns = service(request)
        st = campaigns.state(cid)
        if not rulesets.of(st).can(Capability.TABLETOP):
            raise NotFoundError(f"{rulesets.of(st).name} has no battle briefings: its battles are fought on the "
                                "campaign's own page")
        brief = briefing(st, campaigns.view(who), no)
        return templates.TemplateResponse(request, "battle.html", {"cid": cid, "brief": brief, "no": no})

    @pages.post("/import", response_class=HTMLResponse, dependencies=[Creator])
    async def import_page(request: Request) -> Response:
        data = await uploaded(request, "save", "campaign file")
        if data is None:
            raise SaveError("choose a campaign file (an export, or a save of 'warroom play') to import")
        exported = read_export(data, settings_of(request).max_upload)
        cid, invitations = await asyncio.to_thread(service(request).import_record, exported)  # a replay takes time
        return links_page(request, service(request).store.campaign(cid).title, invitations, cid)

    @pages.get("/join/{secret}", status_code=303, responses={303: {
        "description": "to the campaign's page, signed in", "content": {"text/html": {"schema": {"type": "string"}}}}})
    def join(request: Request, secret: str) -> Response:
        grant = service(request).store.grant(secret)
        cid = grant.campaign_id
        response = RedirectResponse(f"/c/{cid}?as={link_tag(secret)}", status_code=303,
                                    headers={"Content-Type": "text/html; charset=utf-8"})
        response.set_cookie(cookie_name(cid), holding(held_links(request, cid), secret), httponly=True,
                            samesite="strict", max_age=365 * 24 * 3600)  # the links joined before are kept
        return response

    @pages.get("/c/{cid}/report", response_class=HTMLResponse)
    def report(request: Request, cid: str, who: Member, turn: int = 1) -> Response:
        """The after-action report of a finished turn, for a forum post: its events and the score in words, and
        each land map as it stood at the turn's end (what every side may see)."""
        campaigns = service(request)
        row = campaigns.store.campaign(cid)
        now = campaigns.position(row)
        if rulesets.of(now).id != "firestorm":
            raise NotFoundError("after-action reports are made for Firestorm campaigns")
        st = campaigns.position_after_turn(row, turn)
        sc = st.sc
        maps = campaigns.drawing_after_turn(row, turn, st)
        vp = {sc.side_names[s]: st.total_vp(s) for s in sc.sides}
        lines = [text for t, text in st.events if t == turn and not text.startswith("===")]
        header = f"{row.title}: after-action report, turn {turn} ({sc.turn(turn).name})"
        score = ", ".join(f"{name} {points} VP" for name, points in vp.items())
        post = "\n".join([header, "", *lines, "", f"At the end of turn {turn}: {score}."]
                         + ([f"Result: {st.outcome_text()}."] if st.is_terminal() and turn == len(sc.turns) else []))
        return templates.TemplateResponse(request, "report.html", {
            "cid": cid, "title": row.title, "turn": turn, "turns": finished_turns(now),
            "header": header, "post": post, "maps": maps, "score": score})

    @pages.get("/c/{cid}/links", response_class=HTMLResponse)
    def manage_links(request: Request, cid: str, who: Organiser) -> Response:
        """The organiser's page for the campaign's links: each live link, revoke it, issue a new one."""
        campaigns = service(request)
        row = campaigns.store.campaign(cid)
        sc = scenario_of(row)
        seats = [{"role": role, "side": side, "label": seat_label(sc, role, side, row.params)}
                 for role, side in seats_in_order(sc, [("general", ANY_SIDE)], row.params)]
        return templates.TemplateResponse(request, "manage_links.html", {
            "cid": cid, "title": row.title, "links": campaigns.links(who), "seats": seats})

    @pages.get("/c/{cid}", response_class=HTMLResponse)
    def campaign(request: Request, cid: str, who: Member, seat: str = "") -> Response:
        """The campaign page, drawn by its rule system's board (`BOARDS`); `seat` is the player a hot-seat
        screen was handed over to."""
        campaigns = service(request)
        shown = campaigns.page(who)
        row, st = shown["row"], shown["state"]
        sc = st.sc
        you = seat_label(sc, who.role, who.side, row.params)
        template, context = rulesets.resolve(BOARDS[rulesets.of(st).id])(campaigns, who, shown, seat[:40])
        organising = who.role == "organiser"
        insight = {"advice": who.role == "general" and row.advisor and bool(shown["view"]["legal"]),
                   "forecast": (row.forecast or organising) and not st.is_terminal(),
                   "analysis": st.is_terminal(), "switches": {"advisor": row.advisor, "forecast": row.forecast}}
        tag = getattr(request.state, "acting_as", "")  # the page redraws itself as its own link, whatever the
        url = request.url.include_query_params(**{"as": tag}) if tag else request.url  # browser joins since
        here = url.path + (f"?{url.query}" if url.query else "")
        context = {"cid": cid, "title": row.title, "view": shown["view"], "you": you, "events": shown["events"],
                   "here": here, "roles": held_roles(request, campaigns, cid, row, who), "reports": finished_turns(st),
                   "battles": shown["battles"], "organiser": organising, "insight": insight,
                   "game_word": "campaign" if rulesets.of(st).can(Capability.TABLETOP) else "game", **context}
        response = templates.TemplateResponse(request, template, context)
        response.headers["Vary"] = "X-Warroom-Parts"  # the parts a refresh says it shows come back empty: no cache
        if "x-warroom-parts" in request.headers:  # may answer a plain load with a refresh's reply, nor keep one
            response.headers["Cache-Control"] = "no-store"
        return response

    app.include_router(pages)
