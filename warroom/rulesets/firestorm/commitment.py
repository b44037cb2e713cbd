"""Committing Firestorm Troops to a battle (core 5.2-5.6), with each campaign's extras and limits.

Each side commits up to two Firestorm Troops from its battle area: the attacker at least one ground troop, and
first. The extras count among the two: an air sortie (core 5.4; Norway 7.6-7.7), naval gunfire (Norway 7.1,
11.33) and Caen's German Defence troop (Caen 4.1); carpet bombing (Caen 4.5) comes on top of them. Caen's
Tactical Reserve joins from off the map (Caen 4.3), and a Lorraine Panzer Unit fights alone (Lorraine 4.1).

One "why not" serves both the legal commitments and the refusal. A commitment is refused for the first of: a
troop that cannot be committed (`troop_problem`), a wrong shape (`shape_problem`), an extra that is not on offer
(`extra_problem`), or a campaign rule on the whole group (`group_problem`). `commit_options` keeps exactly the
candidates that pass all four.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

import warroom.rulesets.firestorm.caen as caen
import warroom.rulesets.firestorm.lorraine as lorraine
import warroom.rulesets.firestorm.norway as norway
from warroom.rulesets.firestorm.actions import AIR, CARPET, DEFENCE, NAVAL, Commit, is_token

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState

T = TypeVar("T")

COUNTED = (AIR, NAVAL, DEFENCE)
"""The extras that count among a side's two Firestorm Troops."""
EXTRAS = frozenset((*COUNTED, CARPET))


@dataclass(slots=True)
class CommitBar:
    """What limits one side's commitment to the battle being fought, worked out once per decision."""

    side: str
    area: str
    """The side's battle area: the attacker's from-area, the defender's to-area."""
    attacking: bool
    present: tuple[str, ...]
    """The side's troops in its battle area."""
    reserve: tuple[str, ...]
    """The side's troops in Caen's Tactical Reserve, who may join."""
    limit: int
    required: str
    """A troop the attack must be made with (Caen's 21. Panzerdivision counter-attack), or ''."""
    must_lead: bool
    """Lorraine 4.1: a Panzer Unit must lead this attack."""
    panzers: bool
    """Lorraine 4.1 binds this commitment: a Panzer Unit fights alone, or must lead."""


def commit_bar(st: FirestormState, attacking: bool) -> CommitBar:
    """The limits on the attacker's (or the defender's) commitment to the current battle."""
    b = st.battle
    assert b is not None
    sc = st.sc
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    troops = sc.troops
    present = [u for u, where in st.loc.items() if where == area and troops[u].side == side]
    must_lead = attacking and b.required == lorraine.PANZER
    return CommitBar(side=side, area=area, attacking=attacking, present=tuple(present),
                     reserve=tuple(caen.troops_in_reserve(st, side)), limit=b.max_ft if attacking else 2,
                     required=b.required if attacking else "", must_lead=must_lead,
                     panzers=must_lead or sc.has("panzer_units"))


def extra_problem(st: FirestormState, bar: CommitBar, extra: str) -> str:
    """Why the extra `extra` is not on offer to the side of `bar` in this battle ('' if it is)."""
    sc = st.sc
    b = st.battle
    assert b is not None
    side = bar.side
    if extra == AIR:
        if side not in sc.air:
            return f"the {sc.side_names[side]} fly no air sorties in {sc.title}"
        if st.air_left[side] <= 0:
            return "no air sortie is left this turn"
        if sc.has("norway_air") and not norway.air_allowed(st, b, side):
            return ("no air sortie may fly over this map this turn (Norway 7.6-7.7: Stukas over Narvik need Bodø; "
                    "the RAF flies only where and when its sortie rules allow)")
        return ""
    if extra == NAVAL:
        if not sc.has("naval_gunfire"):
            return f"{sc.title} has no naval gunfire support (a Norway rule)"
        if norway.gunfire(st, b, side)[0] > 0:
            return ""
        return ("naval gunfire supports only Allied troops in Narvik-map battles, while a Cruiser Sqn or "
                "Destroyer Flot is in Narvik harbour (Norway 7.1, 11.33)")
    if extra == CARPET:
        if not sc.has("carpet_bombing"):
            return f"{sc.title} has no carpet bombing (a Caen rule)"
        if bar.attacking and st.carpet_left > 0 and side == sc.sides[0] and sc.has("carpet_bombing"):
            return ""
        return "carpet bombing is only for an Allied attack, once in each of the turns that allow it"
    if extra == DEFENCE:
        if not sc.has("german_defence"):
            return f"{sc.title} has no German Defence troop (a Caen rule)"
        most = sc.rules.value("defence_max_regular")
        if bar.attacking or side != sc.sides[1] or st.turn < sc.rules.value("defence_from_turn"):
            return "the German Defence troop defends German areas from turn 2, and not beside three German troops"
        if len(bar.present) >= most:
            return f"the German Defence troop is not added beside {most} German troops (Caen 4.1)"
        return ""
    return f"unknown extra {extra!r} (the extras are {', '.join((*COUNTED, CARPET))})"


def troop_problem(st: FirestormState, bar: CommitBar, unit: str) -> str:
    """Why `unit` cannot be one of the side's committed troops ('' if it can)."""
    sc = st.sc
    if unit not in sc.troops:
        return f"unknown unit {unit!r}"
    if sc.troops[unit].side != bar.side:
        return f"{unit} is not one of your troops"
    if unit not in bar.present and unit not in bar.reserve:
        return f"{unit} is in {st.loc[unit]}, not in the battle area {bar.area}"
    return ""


def shape_problem(bar: CommitBar, units: tuple[str, ...]) -> str:
    """Why the list itself is wrong: a repeat, too many, or no ground troop first for an attack."""
    n = len(units)
    if n > 1 and len(set(units)) != n:
        return "a troop or extra is listed twice"
    if n - (CARPET in units) > bar.limit:
        return f"at most {bar.limit} Firestorm Troops may be committed"
    if bar.attacking:
        for u in units:
            if u not in EXTRAS:
                return ""
        return "the attacker's first troop must be a ground troop from the attacking area"
    return ""


def group_problem(st: FirestormState, bar: CommitBar, units: tuple[str, ...]) -> str:
    """Why a campaign rule forbids this group, each of whose troops and extras could be committed."""
    if bar.panzers:
        panzer = lorraine.commit_problem(st, units, bar.must_lead)
        if panzer:
            return panzer
    if bar.required and not bar.must_lead and bar.required not in units:
        return f"this attack must be made with {bar.required}"
    joining = sum(1 for u in units if u in bar.reserve) if bar.reserve else 0
    if joining:
        why = caen.joining_problem(st, bar.area, joining)
        if why:
            return why
    if DEFENCE in units and len(bar.present) + joining >= st.sc.rules.value("defence_max_regular"):
        return (f"the German Defence troop is not added beside {st.sc.rules.value('defence_max_regular')} German "
                "troops, counting those who join from the Tactical Reserve (Caen 4.1)")
    return ""


def commit_problem(st: FirestormState, bar: CommitBar, units: tuple[str, ...]) -> str:
    """Why `units` may not be committed ('' if they may): the first rule the commitment breaks."""
    for u in units:
        if not is_token(u):
            why = troop_problem(st, bar, u)
            if why:
                return why
    why = shape_problem(bar, units)
    if why:
        return why
    for u in units:
        if is_token(u):
            why = extra_problem(st, bar, u)
            if why:
                return why
    return group_problem(st, bar, units)


def commit_candidates(units: list[T], extras: list[T], attacking: bool) -> list[tuple[T, ...]]:
    """The groups a side may name, in the order they are offered, before any rule but their shape: the attacker one
    or two of `units`, or one with an extra; the defender none, one or two of `units` and `extras`. (The
    simulation kernel names troops and extras by number, and offers the same groups in the same order.)"""
    candidates: list[tuple[T, ...]]
    if attacking:
        candidates = [(u,) for u in units]
        candidates.extend(combinations(units, 2))
        for extra in extras:
            candidates.extend((u, extra) for u in units)
    else:
        items = units + extras
        candidates = [()]
        candidates.extend((u,) for u in items)
        candidates.extend(combinations(items, 2))
    return candidates


def commit_options(st: FirestormState, attacking: bool) -> list[Commit]:
    """Every legal commitment: the candidates made of troops and extras on offer that break no rule.

    The attacker names one or two troops, the second of which may be an extra; the defender names none, one or
    two; carpet bombing may come on top of any attack."""
    bar = commit_bar(st, attacking)
    units = bar.present + bar.reserve
    extras = [e for e in ((AIR, NAVAL) if attacking else COUNTED) if not extra_problem(st, bar, e)]
    candidates = commit_candidates(list(units), extras, attacking)
    # without a Panzer Unit rule, a required troop, a reserve or a Defence troop, `group_problem` finds nothing
    grouped = bar.panzers or bool(bar.required) or bool(bar.reserve) or DEFENCE in extras
    out = [_commit(c) for c in candidates if not shape_problem(bar, c) and not (grouped and group_problem(st, bar, c))]
    if attacking and not extra_problem(st, bar, CARPET):
        out.extend([_commit((*c.units, CARPET)) for c in out])
    return out


_COMMITS: dict[tuple[str, ...], Commit] = {}


def _commit(units: tuple[str, ...]) -> Commit:
    """Interned `Commit` values (each is sorted into canonical order once)."""
    got = _COMMITS.get(units)
    if got is None:
        got = _COMMITS[units] = Commit(units)
    return got
