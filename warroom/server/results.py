"""Tabletop results waiting on the club server: which questions a campaign asks, and whether a result that
was reported still answers one (docs/server-plan.md 5). Pure functions of a position; the service stores.

A result belongs to a battle at the table (its number: battles are played in parallel) or to the battle being
fought now (0). Battle numbers restart every turn, so a result names its battle by number and by the position
the battle went to the table at (`asked_at`), and belongs to one undo epoch.
"""

from __future__ import annotations

from typing import Any

from warroom.core.state import REPORT
from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.state import FirestormState
from warroom.server.store import ConflictError, PendingReport, battle_label


def asked(st: FirestormState) -> dict[int, Battle | None]:
    """Battle number -> battle (None for a D-Day roll) of every result asked for now."""
    out: dict[int, Battle | None] = {}
    if st.current_player() == REPORT and st.step != "await_reports":
        out[0] = st.battle
    for b in st.parked:
        if not b.winner:
            out[b.no] = b
    return out


def asked_at(st: FirestormState, no: int) -> int | None:
    """The position battle `no` went to the table at (None for the battle being fought now, or none)."""
    return next((b.parked_at for b in st.parked if b.no == no and not b.winner), None) if no else None


def only_results_since(st: FirestormState, seq: int) -> bool:
    """Whether nothing but results of battles at the table happened after position `seq`."""
    return seq <= len(st.log) and all(e.side == REPORT and e.action.count(" ") == 3 for e in st.log[seq:])


def still_valid(st: FirestormState, epoch: int, no: int, pending: PendingReport) -> bool:
    """A waiting result still answers its question in undo epoch `epoch`: its battle (the same trip to the
    table) still waits, or (0) the flow has not moved on since it was reported."""
    if pending.epoch != epoch:
        return False
    if no:
        return any(b.no == no and not b.winner and (
            b.parked_at == pending.asked_at if pending.asked_at is not None else b.parked_at <= pending.seq)
            for b in st.parked)
    return st.current_player() == REPORT and only_results_since(st, pending.seq)


def check_seen(st: FirestormState, seq: int, epoch: int, battle: int, seen: int | None,
               seen_epoch: int | None) -> None:
    """A result sent with the position its sender saw (`seen`, in undo epoch `seen_epoch`) must still answer
    the same question: no undo since; for the battle being fought now nothing may have happened since but
    results of other battles; for a battle at the table, it must have gone to the table by then."""
    if seen_epoch is not None and seen_epoch != epoch:
        raise ConflictError("the organiser undid decisions since you looked: reload")
    if seen is None:
        return
    if battle:
        if any(b.no == battle and b.parked_at <= seen for b in st.parked):
            return
    elif seen <= seq and only_results_since(st, seen):
        return
    raise ConflictError(f"{battle_label(battle)} is not the battle you saw: the campaign moved on; reload")


def battle_title(st: FirestormState, b: Battle | None, no: int) -> str:
    """"Battle 2: Allies attack B2 Creully from A2 Gold Beach", or what the result asked for now is."""
    title = f"{st.sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}" \
        if b is not None else "the tabletop roll asked for now"
    return (f"Battle {no}: " if no else "") + title


def pending_view(st: FirestormState, p: PendingReport) -> dict[str, Any]:
    """A waiting result as the pages show it."""
    return {"attacker_vp": p.attacker_vp, "defender_vp": p.defender_vp, "by": p.by_side, "disputed": p.disputed,
            "by_name": st.sc.side_names.get(p.by_side, p.by_side),
            "waiting_for": "the organiser" if p.disputed else st.sc.side_names.get(st.sc.other(p.by_side), "")}
