"""The advisor, the forecast and the analysis on the club server: the JSON API, the panels a campaign page polls,
the analysis page and the organiser's switches (`server.insight` does the work in the background).

Who may read what:
- advice: a side's general (or a hot-seat link), for its own side, when its player is to decide, unless the
  organiser switched the advisor off; anyone else gets 403, and 409 when it is not the side's decision;
- the forecast: every member, unless the organiser hid it (then the organiser alone);
- the analysis: every member, once the campaign is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, StrictBool

from warroom.ai.analysis import Analysis
from warroom.ai.rollout import camp_names
from warroom.core.errors import IllegalActionError
from warroom.server.errors import ForbiddenError
from warroom.server.insight import Insight, advice_side, payload
from warroom.server.service import Campaigns
from warroom.server.store import CampaignRow, Grant
from warroom.server.svg import win_graph
from warroom.server.web import Member, OrganiserActing, templates


class Switches(BaseModel):
    model_config = ConfigDict(extra="forbid")
    advisor: StrictBool | None = None  # may the sides ask the plan advisor?
    forecast: StrictBool | None = None  # does the page show the forecast?


def add_insight(app: FastAPI, campaigns: Campaigns, insight: Insight,
                errors: Callable[[str], dict[int | str, Any]]) -> None:
    """`errors(media_type)`: the error answers the API documents, under a route's media type."""
    router = APIRouter(responses=errors("application/json"))
    page_errors = errors("text/html")  # a page's errors are documented under its own media type

    def reading(who: Grant) -> tuple[CampaignRow, Any]:
        row = campaigns.store.campaign(who.campaign_id)
        return row, campaigns.position(row)

    def ask(row: CampaignRow, kind: str, side: str = "", retry: bool = False) -> dict[str, Any]:
        def job_payload() -> dict[str, Any]:
            """What a new job reads: the log of the very position in its key. The log is read after the row was,
            so the row is read again: if the campaign moved meanwhile, the log may be of a later position (another
            seat's, whose advice must not answer this asker), and the asker is told to reload."""
            log = campaigns.store.log(row.id)
            now = campaigns.store.campaign(row.id)
            if (now.epoch, now.seq) != (row.epoch, row.seq):
                raise IllegalActionError("the campaign moved on since this page was drawn: reload it")
            return payload(row, log, kind, side)

        return insight.ask((row.id, row.epoch, row.seq, kind, side), kind, job_payload, retry)  # read for a new job

    def advice_job(who: Grant, side: str, retry: bool = False, read: tuple[CampaignRow, Any] | None = None
                   ) -> dict[str, Any]:
        row, st = read or reading(who)
        return ask(row, "advice", advice_side(st, row, who, side or None), retry)

    def forecast_job(who: Grant, retry: bool = False, read: tuple[CampaignRow, Any] | None = None) -> dict[str, Any]:
        row, st = read or reading(who)
        if not row.forecast and who.role != "organiser":
            raise ForbiddenError("the organiser has hidden the forecast in this campaign")
        if st.is_terminal():
            raise IllegalActionError("the campaign is over: see its analysis")
        return ask(row, "forecast", retry=retry)

    def analysis_job(who: Grant, retry: bool = False) -> dict[str, Any]:
        row, st = reading(who)
        if not st.is_terminal():
            raise IllegalActionError("the analysis reads a finished campaign: this one is still being played")
        return ask(row, "analysis", retry=retry)

    @router.get("/api/campaigns/{cid}/advice")
    def advice(cid: str, who: Member, side: str = "", retry: bool = False) -> dict[str, Any]:
        """The plan advisor for the caller's side at the current position: started when first asked, then its
        progress, then its answer (`warroom advise`'s JSON). A job that failed stays failed until asked again
        with `retry=true`."""
        return advice_job(who, side[:40], retry)

    @router.get("/api/campaigns/{cid}/forecast")
    def forecast(cid: str, who: Member, retry: bool = False) -> dict[str, Any]:
        """Each outcome level's chance from the current position, and "what result do we need?" for every battle
        waiting for its result from the table (`warroom forecast`'s JSON; `retry` as for advice)."""
        return forecast_job(who, retry)

    @router.get("/api/campaigns/{cid}/analysis")
    def analysis(cid: str, who: Member, retry: bool = False) -> dict[str, Any]:
        """The analysis of a finished campaign (`warroom analyse`'s JSON; `retry` as for advice)."""
        return analysis_job(who, retry)

    @router.post("/api/campaigns/{cid}/switches")
    def switches(cid: str, body: Switches, who: OrganiserActing) -> dict[str, bool]:
        """The organiser switches the plan advisor on or off, and shows or hides the forecast. Advice being
        worked out when the advisor goes off is dropped."""
        campaigns.store.switch(cid, body.advisor, body.forecast)
        if body.advisor is False:
            insight.drop(cid, ("advice",))
        row = campaigns.store.campaign(cid)
        return {"advisor": row.advisor, "forecast": row.forecast}

    @router.get("/c/{cid}/insight/{kind}", response_class=HTMLResponse, responses=page_errors)
    def panel(request: Request, cid: str, kind: str, who: Member, retry: bool = False) -> Response:
        """A campaign page's panel, as HTML to drop in: the advice or the forecast, or how far it got."""
        read = reading(who)  # once, for the panel and its job
        st = read[1]
        context: dict[str, Any] = {"kind": kind, "names": dict(st.sc.side_names),
                                   "camps": camp_names(st.sc, st.params)}
        try:
            if kind == "advice":
                context["job"] = advice_job(who, "", retry, read)
            elif kind == "forecast":
                context["job"] = forecast_job(who, retry, read)
            else:
                return HTMLResponse("<p>No such panel.</p>", status_code=404)
        except (ForbiddenError, IllegalActionError) as exc:
            context["job"] = {"status": "refused", "error": str(exc)}
        return templates.TemplateResponse(request, "insight_panel.html", context)

    @router.get("/c/{cid}/analysis", response_class=HTMLResponse, responses=page_errors)
    def analysis_page(request: Request, cid: str, who: Member, retry: bool = False) -> Response:
        """The analysis of a finished campaign: the win-probability graph, the costliest decisions, the luck."""
        row, st = reading(who)
        job = analysis_job(who, retry)
        names = camp_names(st.sc, st.params)
        graph = ""
        if job["status"] == "done":
            graph = win_graph(Analysis.from_json(job["result"]), lambda camp: names.get(camp, camp))
        return templates.TemplateResponse(request, "analysis.html", {
            "cid": cid, "title": row.title, "job": job, "graph": graph, "camps": names})

    app.include_router(router)

