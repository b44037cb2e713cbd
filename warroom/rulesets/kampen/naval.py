"""Ships at sea in the advanced game (K-digest 6.1, 8.1-8.3): who controls a sea area, interception, and the
sea battle's fire, hits, sinkings and card losses. Pure functions over a `Fleet`; the dice and the random
draws of ship cards come in as arguments (chance nodes in the flow), so every result replays exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from warroom.rulesets.kampen.cards import Roll, ShipData, ShipType

GERMANY, NORWAY, ALLIES = "germany", "norway", "allies"
MINED = frozenset({"I", "II"})


@dataclass(slots=True)
class ShipCard:
    """One ship card on the board: its key (ship#copy), owner, and whether it lies face up."""

    key: str
    owner: str
    face_up: bool = False
    fighting: bool = False  # intercepted, intercepting or joined: it fights this round's sea battle (8.2)
    moved: int = 0  # sea areas sailed this round (8.1)
    found: bool = False  # intercepted by the enemy this round (an interceptor that found nothing is not)


@dataclass(slots=True)
class Fleet:
    """Every ship card in every sea area (the raid box is the area 'raid')."""

    at: dict[str, list[ShipCard]] = field(default_factory=dict)

    def ships(self, sea: str, owner: str | None = None) -> list[ShipCard]:
        return [s for s in self.at.get(sea, []) if owner is None or s.owner == owner]

    def place(self, sea: str, card: ShipCard) -> None:
        self.at.setdefault(sea, []).append(card)

    def remove(self, sea: str, key: str) -> ShipCard:
        ships = self.at[sea]
        card = next(s for s in ships if s.key == key)
        ships.remove(card)
        if not ships:
            del self.at[sea]
        return card

    def clone(self) -> Fleet:
        return Fleet({sea: [ShipCard(s.key, s.owner, s.face_up, s.fighting, s.moved, s.found) for s in ships]
                      for sea, ships in self.at.items()})

    def where(self, key: str) -> str:
        """The sea area (or 'raid') a ship card lies in; '' when it is not at sea."""
        return next((sea for sea, ships in self.at.items() if any(s.key == key for s in ships)), "")

    def card(self, key: str) -> ShipCard:
        return next(s for ships in self.at.values() for s in ships if s.key == key)

    def all(self) -> list[tuple[str, ShipCard]]:
        return [(sea, s) for sea, ships in sorted(self.at.items()) for s in ships]


def ship_type(data: ShipData, key: str) -> ShipType:
    return data.types[data.ships[key.split("#", 1)[0]].type]


def control(fleet: Fleet, sea: str) -> str:
    """The only country with ship cards in the sea area controls it (8.2); '' when none or several.

    assumption: (8.2 open questions) face-down false ships count, as nobody can tell them apart; Eidsvoll &
    Norge fights on the Allied side, so beside Allied ships it leaves the Allies in control, and alone it gives
    Norway control (which no card asks for)."""
    owners = {s.owner for s in fleet.ships(sea)}
    if GERMANY in owners:
        return GERMANY if len(owners) == 1 else ""
    if ALLIES in owners:
        return ALLIES
    return owners.pop() if owners else ""


def may_enter(owner: str, sea: str) -> bool:
    """Allied ships never enter the mined sea areas I and II (5.1)."""
    return not (owner == ALLIES and sea in MINED)


def successes(table: Roll, faces: Iterable[int], outcome: str = "success") -> int:
    """How many dice of a roll give `outcome` on a designed table (interception, reconnaissance ...)."""
    return sum(1 for f in faces if table.outcome(f) == outcome)


def intercepted(targets: Sequence[ShipCard], hits: int, draws: Sequence[int]) -> list[ShipCard]:
    """The enemy ship cards an interception finds: one per hit, each drawn at random (`draws[i]` is a 1-based
    pick among the cards not yet drawn), never more than there are (8.1)."""
    left = list(targets)
    found = []
    for pick in draws[:min(hits, len(left))]:
        found.append(left.pop(pick - 1))
    return found


def fire_order(data: ShipData, ships: Iterable[ShipCard]) -> list[ShipCard]:
    """Best ships fire first (8.2 step 4): by type rank, then in the order they lie."""
    return sorted(ships, key=lambda s: ship_type(data, s.key).rank)


@dataclass(frozen=True, slots=True)
class Hit:
    target: str  # the ship card's key
    outcome: str  # "sink" | "chase"


def volley(data: ShipData, shooters: Sequence[ShipCard], faces: Sequence[int], targets: Sequence[ShipCard],
           draws: Sequence[int], first_sunk: str = "") -> list[Hit]:
    """One side's fire (8.2 steps 4-5): each shooter's die, best first; a sink or chase sets aside an enemy
    card drawn at random among those not yet set aside (`draws`, 1-based picks, one per hit); once no target
    is left the remaining dice are not rolled (Example 4). `first_sunk` (Eidsvoll & Norge) is always the
    first card sunk."""
    left = list(targets)
    hits: list[Hit] = []
    pick = iter(draws)
    for shooter, face in zip(fire_order(data, shooters), faces, strict=False):
        if not left:
            break
        outcome = ship_type(data, shooter.key).outcome(face)
        if not outcome:
            continue
        drawn = next(pick)  # every hit uses its draw, so the i-th draw always picks among len(targets) - i cards
        chosen = next((s for s in left if s.key == first_sunk), None) if outcome == "sink" else None
        if chosen is None:
            chosen = left[drawn - 1]
        left.remove(chosen)
        hits.append(Hit(chosen.key, outcome))
    return hits


def card_losses(data: ShipData, sunk: Iterable[str]) -> dict[str, int]:
    """Cards each owner loses for its sunk ships (8.2 step 6): 2 for a battleship or carrier, 1 for a heavy
    cruiser or smaller ship, none for Eidsvoll & Norge."""
    out: dict[str, int] = {}
    for key in sunk:
        ship = data.ships[key.split("#", 1)[0]]
        out[ship.owner] = out.get(ship.owner, 0) + data.types[ship.type].card_loss
    return out


def lose_cards(draw: list[str], used: list[str], n: int) -> int:
    """Move `n` cards from the top of a deck to the bottom, face up; returns how many there were to move."""
    moved = min(n, len(draw))
    for _ in range(moved):
        used.append(draw.pop(0))
    return moved
