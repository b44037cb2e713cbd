"""Battles at the table (core 7.1; Caen 3.1, mixed mode; battles in parallel, `parallel.py`): the results a
campaign asks for now, and the action that reports one. The club server and the terminal ask through this."""

from __future__ import annotations

from collections.abc import Hashable

from warroom.core.state import REPORT, Action
from warroom.core.system import Question, Tabletop
from warroom.rulesets.firestorm.actions import Report
from warroom.rulesets.firestorm.battle import ATTACKER, VP_RANGE, Battle, fow_destroy_need, tabletop_winner
from warroom.rulesets.firestorm.dday import dday_row, landing, row_effect
from warroom.rulesets.firestorm.state import FirestormState


def title(st: FirestormState, b: Battle | None, no: int) -> str:
    """"Battle 2: Allies attack B2 Creully from A2 Gold Beach", or the D-Day landing a result is asked for."""
    text = f"{st.sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}" \
        if b is not None else landing(st) if st.step.startswith("dday_") else "the tabletop roll asked for now"
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


def effect(st: FirestormState, q: Question, attacker_vp: int, defender_vp: int) -> tuple[str, Hashable, str]:
    """Who wins, what a result changes and that in words. A battle (core 7.1, 7.3): who is defeated, and the roll
    each side needs to destroy the other's troops, which its own VP set; nothing else reads the numbers. A D-Day
    landing fought at the table (Caen 3.2; ambiguity 7): what the row of its table that the Allied VP pick does."""
    if q.attacker is None or q.defender is None:
        key, words = row_effect(st, dday_row(st, Report(attacker_vp, defender_vp)))
        return "", key, words
    rules = st.sc.rules
    winner = tabletop_winner(attacker_vp, defender_vp)
    needs = fow_destroy_need(attacker_vp, rules), fow_destroy_need(defender_vp, rules)
    names = st.sc.side_names
    won = q.attacker if winner == ATTACKER else q.defender
    rolls = [f"{names[side]} {need}+" if need < 6 else f"{names[side]} 6"
             for side, need in zip((q.attacker, q.defender), needs, strict=True) if need]
    return winner, (winner, *needs), f"{names[won]} win; " + \
        (f"to destroy Firestorm troops: {', '.join(rolls)}" if rolls else "no roll to destroy")


TABLE_RESULTS = ((6, 1), (5, 2), (4, 3), (3, 4), (2, 5), (1, 6))
"""assumption: a result the table still owes is, for a forecast's rollouts, one of Flames of War's usual scores,
each as likely: the engine cannot know how a game on the table will go, and these span a clear win to a clear
loss for either side."""


def for_bots(st: FirestormState) -> None:
    """assumption: in a forecast's rollouts every battle not yet at the table is resolved by the General's
    Wargame, the rulebook's own way of fighting a battle without one (core 7.2)."""
    if st.mode != "gw":
        st.params = {**st.params, "mode": "gw"}  # its own parameters: a copy shares its original's
        st.mode = "gw"


TABLETOP = Tabletop(vp=VP_RANGE, questions=questions, report=lambda no, a, d: Report(a, d, no), reported=reported,
                    only_results_since=only_results_since, effect=effect, results=TABLE_RESULTS, for_bots=for_bots)
