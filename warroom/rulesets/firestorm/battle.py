"""Battle resolution tables (Firestorm core rules sections 6.1, 7.1-7.3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from warroom.rulesets.firestorm.model import Rules

VP_RANGE = range(0, 7)
"""A side's Flames of War victory points in a tabletop battle (core 7.1)."""

ATTACKER = "attacker"
DEFENDER = "defender"
DRAW = "draw"


def tabletop_winner(attacker_vp: int, defender_vp: int) -> str:
    """Tabletop result (core 7.1): a side is defeated when the other scored at least 3 and more.

    If nobody is defeated the defender holds.

    >>> tabletop_winner(4, 3), tabletop_winner(3, 3), tabletop_winner(2, 1), tabletop_winner(1, 5)
    ('attacker', 'defender', 'defender', 'defender')
    """
    if attacker_vp >= 3 and attacker_vp > defender_vp:
        return ATTACKER
    return DEFENDER


def gw_winner(attacker_total: int, defender_total: int) -> str:
    """General's Wargame (core 7.2): the higher total wins; equal totals are a draw (defender holds)."""
    if attacker_total > defender_total:
        return ATTACKER
    if defender_total > attacker_total:
        return DEFENDER
    return DRAW


def gw_destroy_needs(difference: int, rules: Rules) -> tuple[int, int]:
    """Roll-to-destroy targets from the GW difference table: (vs loser's troops, vs winner's).

    0 means no roll. A difference beyond the table uses its last row (core ambiguity 3).
    """
    need = (0, 0)
    for min_diff, vs_loser, vs_winner in rules.gw_destroy:
        if difference >= min_diff:
            need = (vs_loser, vs_winner)
    return need


def fow_destroy_need(own_vp: int, rules: Rules) -> int:
    """Roll needed to destroy each enemy troop, by the rolling side's tabletop VP; 0 = no roll."""
    for min_vp, need in rules.fow_destroy:
        if own_vp >= min_vp:
            return need
    return 0


def table_entry(rows: Sequence[Sequence[Any]], face: int) -> str:
    """The entry of a d6 table given as (highest face, text) rows, in ascending order."""
    for top, text in rows:
        if face <= int(top):
            return str(text)
    return str(rows[-1][1]) if rows else ""


def out_of_supply_effect(face: int, rules: Rules) -> str:
    """The tabletop Out-of-Supply table (core 6.1)."""
    return table_entry(rules.out_of_supply, face)


@dataclass(slots=True)
class Battle:
    """One open battle arrow and everything committed to it."""

    kind: str  # normal | exploit | pz21 | caumont
    attacker: str
    defender: str
    frm: str
    to: str
    max_ft: int = 2
    required: str = ""  # a troop the attacker must commit (21. Pz, a must-attack Panzer)
    att: tuple[str, ...] = ()
    dfn: tuple[str, ...] = ()
    mode: str = "gw"
    att_supplied: bool = True
    def_supplied: bool = True
    modifiers: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    variable: list[tuple[str, str]] = field(default_factory=list)  # (side, item) needing a d6
    att_total: int = 0
    def_total: int = 0
    att_vp: int = -1
    def_vp: int = -1
    winner: str = ""
    targets: list[tuple[str, str, int]] = field(default_factory=list)  # (unit, owner, need)
    destroyed: list[str] = field(default_factory=list)
    retreating: list[str] = field(default_factory=list)
    survivors: list[str] = field(default_factory=list)
    advanced: int = 0
    notes: list[str] = field(default_factory=list)
    from_reserve: list[str] = field(default_factory=list)  # Caen Tactical Reserve troops that joined
    supply_faces: dict[str, int] = field(default_factory=dict)  # side -> its tabletop Out-of-Supply die
    no: int = 0  # its number in the turn, once parked (battles played in parallel)
    parked: bool = False  # went to the table while the turn went on (parallel.py)
    parked_at: int = 0  # the log position at which it went to the table (its results are from then on)

    def clone(self) -> Battle:
        """An independent copy: the same values, fresh containers."""
        return replace(
            self, modifiers={k: list(v) for k, v in self.modifiers.items()}, variable=list(self.variable),
            targets=list(self.targets), destroyed=list(self.destroyed), retreating=list(self.retreating),
            survivors=list(self.survivors), notes=list(self.notes), from_reserve=list(self.from_reserve),
            supply_faces=dict(self.supply_faces),
        )
