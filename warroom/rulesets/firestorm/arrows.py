"""Battle arrows (core 5.1), with every campaign rule that bars one.

An arrow starts in an area the attacker holds with one of its ground troops and points into an adjacent enemy
area. Campaign rules bar some: a beach whose landing failed (Caen 3.2), the Panzer Units that must attack
(Lorraine 4.1), turn 1 in Lorraine (across the Moselle, into Luxembourg or back into an Allied area), a closed map
and a pass-through area (Norway 3.4, 11.34), and the areas of a battle still at the table (battles in parallel).

One "why not" serves both the list of legal arrows and the refusal: `arrow_options` keeps exactly the candidates
for which `start_problem` and `target_problem` find nothing, and a refused arrow is answered by the same two.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.lorraine as lorraine
import warroom.rulesets.firestorm.norway as norway
import warroom.rulesets.firestorm.parallel as parallel
from warroom.rulesets.firestorm.actions import Arrow
from warroom.rulesets.firestorm.battle import Battle

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def attack_froms(st: FirestormState, side: str) -> list[str]:
    """Areas `side` controls that hold one of its ground troops (battle arrow, core 5.1)."""
    troops = st.sc.troops
    control = st.control
    froms = {where for u, where in st.loc.items()
             if where in control and control[where] == side and troops[u].side == side}
    return sorted(froms)


def open_battle(st: FirestormState, kind: str, attacker: str, frm: str, to: str, max_ft: int = 2,
                required: str = "") -> None:
    """Open a battle arrow. A German attack from a Panzer Unit's area must use it (Lorraine 4.1)."""
    sc = st.sc
    b = Battle(kind, attacker, sc.other(attacker), frm, to, max_ft=max_ft,
               required=required or lorraine.required(st, attacker, kind, frm))
    st.battle = b
    if st.record_events:
        st.note(f"{sc.side_names[attacker]} attack {st.area_label(to)} from {st.area_label(frm)}")


@dataclass(slots=True)
class ArrowBar:
    """What bars a battle arrow of one side at this moment, worked out once for a whole list of arrows."""

    side: str
    holding: tuple[str, ...]
    """The areas the side holds with one of its ground troops, in order."""
    froms: tuple[str, ...] | None
    """A step's own starting areas (Caen's D-Day attacks), or None for any."""
    why_froms: str
    forced: tuple[str, ...]
    """Lorraine 4.1: the Panzer Units' areas the Germans must attack from (empty when the rule does not bind)."""
    landings: bool
    """Caen 3.2: a beach whose landing failed makes no attack for a while."""
    locked: frozenset[str]
    """Areas of battles at the table."""
    moselle: bool
    """Lorraine, turn 1: the Allies attack only across the Moselle, into the open targets or their own areas."""
    bars: bool
    """Whether `barred_target` has anything to check (a pass-through area, a table, the Moselle rule)."""


def arrow_bar(st: FirestormState, side: str, froms: tuple[str, ...] | None = None, why_froms: str = "",
              locked: frozenset[str] | None = None) -> ArrowBar:
    """The bars on `side`'s arrows now. `froms` limits the start (with `why_froms` as its reason); `locked`
    replaces the areas at a table (e.g. with none, to ask whether only the tables bar an attack)."""
    sc = st.sc
    locked = parallel.locked_areas(st) if locked is None else locked
    forced = tuple(lorraine.forced_froms(st, side, locked)) if froms is None else ()
    moselle = sc.has("t1_moselle_restriction") and st.turn == 1 and side == sc.sides[0]
    return ArrowBar(side=side, holding=tuple(attack_froms(st, side)), froms=froms, why_froms=why_froms,
                    forced=forced, landings=froms is None and side == sc.sides[0] and bool(st.flags.no_attack_from),
                    locked=locked, moselle=moselle, bars=bool(sc.no_stop or locked or moselle))


def start_problem(st: FirestormState, bar: ArrowBar, frm: str) -> str:
    """Why no battle arrow of `bar.side` may start in `frm` now ('' if one may)."""
    sc = st.sc
    if frm not in sc.areas:
        return f"unknown area {frm!r}"
    if st.control[frm] != bar.side:
        return f"the battle arrow must start in an area you control ({frm} is not yours)"
    if bar.froms is not None and frm not in bar.froms:
        return bar.why_froms
    if frm not in bar.holding:
        return f"{frm} holds no ground Firestorm Troop to attack with"
    if bar.forced and frm not in bar.forced:
        return lorraine.start_problem(st, bar.forced)
    if bar.landings and st.flags.no_attack_from.get(frm, 0) >= st.turn:
        return (f"the troops on {st.area_label(frm)} are still held up by their landing: no attack from there "
                f"before turn {st.flags.no_attack_from[frm] + 1} (Caen 3.2, the Neptune table)")
    if st.flags.closed_maps and norway.closed(st, frm):
        return f"{st.area_label(frm)} is on a map whose fighting is over (Norway 3.4): no more battles there"
    if frm in bar.locked:
        return _at_table(st, frm)
    return ""


def target_problem(st: FirestormState, bar: ArrowBar, frm: str, to: str) -> str:
    """Why a battle arrow from `frm` (a good start) may not point into `to` ('' if it may)."""
    sc = st.sc
    if to not in sc.areas:
        return f"unknown area {to!r}"
    if to not in sc.adjacency[frm]:
        return f"{to} is not adjacent to {frm}"
    if st.control[to] == bar.side:
        return f"{to} is already yours; attack an enemy area"
    return barred_target(st, bar, frm, to)


def barred_target(st: FirestormState, bar: ArrowBar, frm: str, to: str) -> str:
    """Why a campaign rule bars the arrow from `frm` into its enemy neighbour `to` ('' if none does)."""
    sc = st.sc
    if to in sc.no_stop:
        return f"{st.area_label(to)} is a passage, not a battlefield: troops pass through it, nobody attacks it"
    if to in bar.locked:
        return _at_table(st, to)
    if bar.moselle and not (sc.rivers.get(frozenset((frm, to))) == "Moselle" or to in sc.rules.value("t1_open_targets")
                            or sc.areas[to].control == bar.side):
        opened = ", ".join(st.area_label(a) for a in sc.rules.value("t1_open_targets"))
        return (f"on turn 1 an Allied attack must cross the Moselle, go into {opened} or retake an area that began "
                "the campaign Allied (Lorraine, turn 1)")
    return ""


def _at_table(st: FirestormState, area: str) -> str:
    at_table = [b.no for b in st.parked if area in (b.frm, b.to)]
    return (f"battle {at_table[0] if at_table else '?'} is being played on the table there; its areas take no new "
            "battle arrow until its after-action is done")


def arrow_problem(st: FirestormState, bar: ArrowBar, action: Arrow) -> str:
    """Why `action` is not a legal battle arrow under `bar` ('' if it is)."""
    return start_problem(st, bar, action.frm) or target_problem(st, bar, action.frm, action.to)


def _arrows(st: FirestormState, bar: ArrowBar) -> Iterator[Arrow]:
    """The legal battle arrows under `bar`, one by one."""
    adjacency = st.sc.adjacency
    control = st.control
    side = bar.side
    starts = bar.froms if bar.froms is not None else bar.forced or bar.holding  # nowhere else could pass
    bars = bar.bars
    for frm in starts:
        if start_problem(st, bar, frm):
            continue
        for to in adjacency[frm]:  # the enemy neighbours (`target_problem`'s first tests), then the campaign bars
            if control[to] != side and not (bars and barred_target(st, bar, frm, to)):
                yield Arrow(frm, to)


def arrow_options(st: FirestormState, side: str, froms: tuple[str, ...] | None = None,
                  locked: frozenset[str] | None = None) -> list[Arrow]:
    """Every legal battle arrow of `side`: the arrows from its areas (or `froms`) that nothing bars."""
    return list(_arrows(st, arrow_bar(st, side, froms, locked=locked)))


def has_arrow(st: FirestormState, side: str, locked: frozenset[str] | None = None) -> bool:
    """Whether `side` has a legal battle arrow (found without listing them all)."""
    return next(_arrows(st, arrow_bar(st, side, locked=locked)), None) is not None
