"""Battle resolution tables (Firestorm core rules sections 6.1, 7.1-7.3)."""

from __future__ import annotations

from dataclasses import dataclass, field

from warroom.rulesets.firestorm.model import Rules

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


def out_of_supply_effect(face: int, rules: Rules) -> str:
    """The tabletop Out-of-Supply table (core 6.1)."""
    for top, effect in rules.out_of_supply:
        if face <= top:
            return effect
    return rules.out_of_supply[-1][1]


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

    def clone(self) -> Battle:
        return Battle(
            self.kind, self.attacker, self.defender, self.frm, self.to, self.max_ft, self.required,
            self.att, self.dfn, self.mode, self.att_supplied, self.def_supplied,
            {k: list(v) for k, v in self.modifiers.items()}, list(self.variable), self.att_total,
            self.def_total, self.att_vp, self.def_vp, self.winner, list(self.targets),
            list(self.destroyed), list(self.retreating), list(self.survivors), self.advanced,
            list(self.notes),
        )
