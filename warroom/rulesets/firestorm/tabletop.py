"""Battles at the table (core 7.1; Caen 3.1, mixed mode; battles in parallel, `parallel.py`): the results a
campaign asks for now, and the action that reports one. The club server and the terminal ask through this."""

from __future__ import annotations

from warroom.core.state import REPORT, Action
from warroom.core.system import Question, Tabletop
from warroom.rulesets.firestorm.actions import Report
from warroom.rulesets.firestorm.battle import VP_RANGE, Battle
from warroom.rulesets.firestorm.state import FirestormState


def title(st: FirestormState, b: Battle | None, no: int) -> str:
    """"Battle 2: Allies attack B2 Creully from A2 Gold Beach", or what the result asked for now is."""
    text = f"{st.sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}" \
        if b is not None else "the tabletop roll asked for now"
    return (f"Battle {no}: " if no else "") + text


def question(st: FirestormState, b: Battle | None, no: int) -> Question:
    if b is None:
        return Question(no, title(st, b, no))
    return Question(no, title(st, b, no), b.attacker, b.defender, b.frm, b.to, b.parked_at if no else None)


def questions(st: FirestormState) -> dict[int, Question]:
    """Battle number -> question, for every result asked for now: the battle being fought (or a D-Day roll) at a
    `REPORT` decision, and each battle waiting at the table (its result may come in at any decision)."""
    out: dict[int, Question] = {}
    if st.current_player() == REPORT and st.step != "await_reports":
        out[0] = question(st, st.battle, 0)
    for b in st.parked:
        if not b.winner:
            out[b.no] = question(st, b, b.no)
    return out


def reported(action: Action) -> tuple[int, int, int] | None:
    return (action.battle, action.attacker_vp, action.defender_vp) if isinstance(action, Report) else None


def only_results_since(st: FirestormState, seq: int) -> bool:
    """Whether nothing but results of battles at the table happened after position `seq`."""
    return seq <= len(st.log) and all(e.side == REPORT and isinstance(p := st.parse_action(e.action), Report)
                                      and p.battle != 0 for e in st.log[seq:])


TABLETOP = Tabletop(vp=VP_RANGE, questions=questions, report=lambda no, a, d: Report(a, d, no), reported=reported,
                    only_results_since=only_results_since)
