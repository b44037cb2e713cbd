"""Land-combat arithmetic (K-digest 4.2): combat dice, eliminations and the winner.

Pure functions over counts and faces; the battle sequence (cards, rolls, removal, retreat) is in the flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CAP = 5
"""Battalion dice per side in one battle (Norway and the Allies defending together share one cap)."""
KILL_FACE = 6
"""Every die showing this eliminates one enemy battalion, card dice included (Example 3)."""


@dataclass(frozen=True, slots=True)
class Attackers:
    """The attacking battalions of one battle, by how they came: over land, or across a fjord or lake."""

    over_land: int = 0
    over_water: int = 0

    @property
    def total(self) -> int:
        return self.over_land + self.over_water


def attack_dice(attackers: Attackers, card_dice: int = 0) -> int:
    """The attacker's dice: dice come from at most 5 battalions, those of the counted battalions that crossed a
    fjord or lake give one die per two (rounded down), and card dice come on top.

    assumption: (K-digest J19) the cap comes first, then the halving, in the order the Norwegian rule states
    them: dice come from at most 5 battalions, and then the dice the attacker gets from its battalions are
    halved when the attack crosses water. So 10 battalions across a fjord get 2 dice, not 5. In a mixed attack
    the halving belongs to the battalions that cross water (the rule speaks of the attack that crosses), and the
    attacker counts its battalions over land first among the 5, as any player would. Example 1 (3 across Mjøsa
    give 1 die) holds under every order.

    >>> attack_dice(Attackers(over_water=3), card_dice=1), attack_dice(Attackers(over_water=10))
    (2, 2)
    >>> attack_dice(Attackers(over_land=4, over_water=5)), attack_dice(Attackers(over_land=7))
    (4, 5)
    """
    land = min(CAP, attackers.over_land)
    return land + min(CAP - land, attackers.over_water) // 2 + card_dice


def defence_dice(defenders: int, card_dice: int = 0) -> int:
    """The defender's dice: one per battalion (Norway and the Allies together), capped at 5, cards on top.

    >>> defence_dice(7), defence_dice(2, card_dice=2)
    (5, 4)
    """
    return min(CAP, defenders) + card_dice


def kills(faces: Sequence[int]) -> int:
    """Enemy battalions eliminated by a roll: one per 6.

    >>> kills((6, 1, 6, 3))
    2
    """
    return sum(1 for f in faces if f == KILL_FACE)


def attacker_wins(attack_total: int, defence_total: int) -> bool:
    """The higher total wins; the defender wins ties.

    >>> attacker_wins(7, 6), attacker_wins(6, 6)
    (True, False)
    """
    return attack_total > defence_total


def battalions_from_symbols(symbols: int) -> int:
    """Reinforcements bought with cards: one battalion per 3 symbols, the rest lost (K-digest 4.3).

    >>> [battalions_from_symbols(n) for n in (2, 3, 5, 6, 9)]
    [0, 1, 1, 2, 3]
    """
    return symbols // 3
