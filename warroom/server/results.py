"""Tabletop results waiting on the club server: which questions a campaign asks, and whether a result that
was reported still answers one (docs/server-plan.md 5). Pure functions of a position; the service stores.

The questions come from the campaign's rule system (`RuleSystem.tabletop`). A result belongs to a battle at the
table (its number: battles are played in parallel) or to the battle being fought now (0). Battle numbers restart
every turn, so a result names its battle by number and by the position the battle went to the table at
(`asked_at`), and belongs to one undo epoch.
"""

from __future__ import annotations

from typing import Any

from warroom import rulesets
from warroom.core.state import REPORT
from warroom.core.system import Question, Tabletop
from warroom.server.store import ConflictError, PendingReport, battle_label


def tabletop(st: Any) -> Tabletop | None:
    return rulesets.of(st).tabletop


def asked(st: Any) -> dict[int, Question]:
    """Battle number -> question of every result asked for now (none in a system without tabletop battles)."""
    table = tabletop(st)
    return table.questions(st) if table is not None else {}


def asked_at(st: Any, no: int) -> int | None:
    """The position battle `no` went to the table at (None for the battle being fought now, or none)."""
    q = asked(st).get(no) if no else None
    return q.asked_at if q is not None else None


def only_results_since(st: Any, seq: int) -> bool:
    """Whether nothing but results of battles at the table happened after position `seq`."""
    table = tabletop(st)
    return table is not None and table.only_results_since(st, seq)


def still_valid(st: Any, epoch: int, no: int, pending: PendingReport) -> bool:
    """A waiting result still answers its question in undo epoch `epoch`: its battle (the same trip to the
    table) still waits, or (0) the flow has not moved on since it was reported."""
    if pending.epoch != epoch:
        return False
    if no:
        q = asked(st).get(no)
        return q is not None and q.asked_at is not None and (
            q.asked_at == pending.asked_at if pending.asked_at is not None else q.asked_at <= pending.seq)
    return st.current_player() == REPORT and only_results_since(st, pending.seq)


def check_seen(st: Any, seq: int, epoch: int, battle: int, seen: int | None, seen_epoch: int | None) -> None:
    """A result sent with the position its sender saw (`seen`, in undo epoch `seen_epoch`) must still answer
    the same question: no undo since; for the battle being fought now nothing may have happened since but
    results of other battles; for a battle at the table, it must have gone to the table by then."""
    if seen_epoch is not None and seen_epoch != epoch:
        raise ConflictError("the organiser undid decisions since you looked: reload")
    if seen is None:
        return
    if battle:
        q = asked(st).get(battle)
        if q is not None and q.asked_at is not None and q.asked_at <= seen:
            return
    elif seen <= seq and only_results_since(st, seen):
        return
    raise ConflictError(f"{battle_label(battle)} is not the battle you saw: the campaign moved on; reload")


def pending_view(st: Any, p: PendingReport) -> dict[str, Any]:
    """A waiting result as the pages show it."""
    names = st.sc.side_names
    other = next((s for s in st.sc.sides if s != p.by_side), "")
    return {"attacker_vp": p.attacker_vp, "defender_vp": p.defender_vp, "by": p.by_side, "disputed": p.disputed,
            "by_name": names.get(p.by_side, p.by_side),
            "waiting_for": "the organiser" if p.disputed else names.get(other, "")}
