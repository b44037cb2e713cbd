"""Server-rendered pages (docs/server-plan.md 6): start a campaign, the join links, and the campaign page
with the map, the console built from `legal_actions()` and the log. A little plain JavaScript posts
actions to the JSON API and follows the others' moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from warroom.core.errors import SaveError
from warroom.scenarios import bundled_ids, load_scenario
from warroom.server.app import MAX_UPLOAD, Member, cookie_name, read_record
from warroom.server.briefing import briefing
from warroom.server.service import Campaigns, Invitation, scenario_of

templates = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))


def links_page(request: Request, title: str, invitations: list[Invitation]) -> Response:
    """The new campaign's invitation links, shown once."""
    links = [{"label": i.label, "secret": i.secret} for i in invitations]
    return templates.TemplateResponse(request, "links.html",
                                      {"title": title, "links": links, "base": str(request.base_url)},
                                      status_code=201)


def add_pages(app: FastAPI) -> None:
    def service(request: Request) -> Campaigns:
        campaigns: Campaigns = request.app.state.campaigns
        return campaigns

    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        scenarios = [load_scenario(s) for s in bundled_ids(system="firestorm")]
        info = [{"id": s.id, "title": s.title, "turns": len(s.turns)} for s in scenarios]
        return templates.TemplateResponse(request, "index.html", {"scenarios": info})

    @app.post("/new", response_class=HTMLResponse)
    async def new(request: Request) -> Response:
        form = await request.form()
        scenario = str(form.get("scenario", ""))[:100]
        params: dict[str, Any] = {"mode": str(form.get("mode", "gw"))[:20]}
        if params["mode"] != "gw" and form.get("one_at_a_time") != "on":
            params["parallel"] = True
        bots = {str(k)[4:]: str(v) for k, v in form.items() if str(k).startswith("bot_") and v}
        if bots:
            params["bots"] = bots
        upload = form.get("scenario_file")
        toml_text = None
        if upload is not None and not isinstance(upload, str) and upload.filename:
            data = await upload.read(MAX_UPLOAD + 1)
            if len(data) > MAX_UPLOAD:
                raise HTTPException(413, f"the scenario file is larger than {MAX_UPLOAD} bytes")
            toml_text = data.decode("utf-8", errors="replace")
        cid, invitations = service(request).create(scenario, str(form.get("title", ""))[:200], params,
                                                   hotseat=form.get("hotseat") == "on", scenario_toml=toml_text)
        return links_page(request, service(request).store.campaign(cid).title, invitations)

    @app.get("/c/{cid}/battle", response_class=HTMLResponse)
    def battle(request: Request, cid: str, who: Member, no: int = 0) -> Response:
        """The briefing of battle `no` at the table, or (0) of the battle being fought now."""
        campaigns = service(request)
        st = campaigns.state(cid)
        brief = briefing(st, campaigns.view(who), no)
        return templates.TemplateResponse(request, "battle.html", {"cid": cid, "brief": brief, "no": no})

    @app.post("/import", response_class=HTMLResponse)
    async def import_page(request: Request) -> Response:
        form = await request.form()
        upload = form.get("save")
        if upload is None or isinstance(upload, str):
            raise SaveError("choose a campaign file (JSON) to import")
        data = await upload.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            raise HTTPException(413, f"the file is larger than {MAX_UPLOAD} bytes")
        cid, invitations = service(request).import_record(read_record(data))
        return links_page(request, service(request).store.campaign(cid).title, invitations)

    @app.get("/join/{secret}")
    def join(request: Request, secret: str) -> Response:
        grant = service(request).store.grant(secret)
        response = RedirectResponse(f"/c/{grant.campaign_id}", status_code=303)
        response.set_cookie(cookie_name(grant.campaign_id), secret, httponly=True, samesite="strict",
                            max_age=365 * 24 * 3600)
        return response

    @app.get("/c/{cid}", response_class=HTMLResponse)
    def campaign(request: Request, cid: str, who: Member) -> Response:
        campaigns = service(request)
        page = campaigns.page(who)
        view, row = page["view"], page["row"]
        sc = scenario_of(row)
        you = f"{who.role}" + (f" of the {sc.side_names[who.side]}" if who.side else "")
        maps, chart = page["drawings"]
        details = {a["id"]: a for a in view["areas"]}
        context: dict[str, Any] = {
            "cid": cid, "title": row.title, "view": view, "legal": view["legal"],
            "names": sc.side_names, "you": you, "events": page["events"], "maps": maps,
            "map_names": {m: info["name"] for m, info in sc.maps.items()}, "chart": chart, "details": details,
            "results": view["results"], "organiser": who.role == "organiser",
            "troop_names": {t.id: t.name for t in sc.troops.values()},
        }
        return templates.TemplateResponse(request, "campaign.html", context)
