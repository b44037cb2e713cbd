"""Card effects in a land battle (docs/kampen-cards.md sections 4-5): which cards a country may play at a
battle's card step, the cancel chain, and the dice the cards in effect add.

Every number comes from `cards.toml`; this module holds only the handlers' rules.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

import warroom.rulesets.kampen.naval as naval
from warroom.core.flow import draw_until
from warroom.rulesets.kampen.actions import DONE, Done, Play
from warroom.rulesets.kampen.cards import APRIL_TIMINGS, STEPS, Card, CardUse, Roll
from warroom.rulesets.kampen.state import Played

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import Battle, KampenState

BATTLE_STEPS = ("attack_cards", "defend_cards", "react_cards")
"""The three card steps of a land battle (4.2 steps 1-3)."""
IN_BATTLE = frozenset({"extra_dice", "ignore_water", "cancel", "bluff"})
"""The handlers of the land-battle card steps."""
ALLIED_SEAS = frozenset({"III", "IV", "V", "VI", "VII"})
GERMAN_SEAS = frozenset({"I", "II"})


def card_of(st: KampenState, key: str) -> Card:
    return st.sc.cards.cards[key.split("#", 1)[0]]


def german_airfields(st: KampenState) -> list[str]:
    return [a for a in sorted(st.sc.board.airfields) if st.at(a, "germany")]


def timings_now(st: KampenState, base: tuple[str, ...]) -> tuple[str, ...]:
    """The timing symbols a step accepts now: in the 9 April round the orange ones (6.2).

    assumption: everyone acts within the one 9 April round, so the orange triangle and square both fit any
    step a 9 April card's use names; the step alone says when (Example 4 plays the triangle Stupbombefly in
    the defender's card step)."""
    if not st.april:
        return base
    return APRIL_TIMINGS


def deck_now(st: KampenState) -> str:
    """Which cards are in the hands: 9 April cards during the 9 April round, else play cards."""
    return "april9" if st.april else "play"


def allowed(st: KampenState, use: CardUse) -> bool:
    """An advanced use only in the advanced game."""
    return not use.advanced or st.advanced


def allied_coast(st: KampenState, area: str) -> bool:
    """Whether `area` is on the Allies' coast: facing sea areas III-VII, and neither I nor II."""
    seas = st.sc.board.coast(area)
    return not seas.isdisjoint(ALLIED_SEAS) and seas.isdisjoint(GERMAN_SEAS)


def requirement_met(st: KampenState, b: Battle, need: str) -> bool:
    return land_requirement(st, b.area, need)


def land_requirement(st: KampenState, area: str, need: str) -> bool:
    board = st.sc.board
    if need == "air_range":
        return board.in_air_range(area, german_airfields(st))
    if need == "allied_coast":
        return allied_coast(st, area)
    if need == "point_city":
        return area in board.point_cities
    return False


def advanced_met(st: KampenState, card: Card, area: str = "", sea: str = "") -> bool:
    """The extra requirements printed at a card's bottom (5.2), checked in the advanced game only, for the
    land area or sea area the card acts on (docs/kampen-cards.md section 3)."""
    if not st.advanced:
        return True
    fleet = st.fleet
    data = st.sc.cards.ships

    def allied_ships(s: str) -> list[str]:
        return [c.key for c in fleet.ships(s, "allies")]

    def carrier(s: str) -> bool:
        return any(naval.ship_type(data, k).id == "carrier" for k in allied_ships(s))

    seas = st.sc.board.coast(area) if area else frozenset({sea})
    for need in card.advanced_requires:
        if need == "allied_sea_control":
            ok = any(naval.control(fleet, s) == "allies" for s in seas)
        elif need == "allied_ship_on_coast":
            ok = any(allied_ships(s) for s in seas)
        elif need == "carrier_or_battalions":
            if area:
                ok = st.at(area, "allies") > 0 or any(carrier(s) for s in seas)
            else:
                ok = carrier(sea) or any(st.at(a, "allies") for a in st.sc.board.coastal({sea}))
        else:
            ok = False
        if not ok:
            return False
    return True


def side_of(b: Battle, country: str) -> str:
    return "attacker" if country == b.attack.country else "defender"


def in_effect(played: list[Played]) -> list[bool]:
    """Which played cards still work: cancels resolve from the last card backwards; a cancel in effect
    removes the latest earlier enemy card of its target types still in effect (Example 3's chain)."""
    effective = [True] * len(played)
    for i in range(len(played) - 1, -1, -1):
        p = played[i]
        if not effective[i] or p.use.effect != "cancel":
            continue
        targets = set(p.use.names("targets"))
        for j in range(i - 1, -1, -1):
            q = played[j]
            if effective[j] and q.side != p.side and q.type in targets:
                effective[j] = False
                break
    return effective


def has_target(played: list[Played], side: str, use: CardUse) -> bool:
    targets = set(use.names("targets"))
    live = in_effect(played)
    return any(ok and q.side != side and q.type in targets for q, ok in zip(played, live, strict=True))


def playable(st: KampenState, country: str, step: str) -> list[Play]:
    """The cards `country` may play now at this card step of the battle (one per type per side and step).

    assumption: (4.2 steps 1-3) the one-card-per-type limit counts per card step, not per battle. The text
    prints it under steps 1 and 2 ("per battle"), but Example 3 says a Jagerbomber in step 3 could have
    stopped the Jagerfly that shot down Germany's step-1 Bombefly, and the two count as one type: a battle-wide
    limit would forbid exactly what the book offers. So a side may play a card of a type at step 1 and another
    of that type at step 3 (two Speidertropp: one to ignore the water, one to cancel a Bakhold), but never two
    of a type at one step. See docs/kampen-cards.md."""
    if st.battle is None:
        return []
    fits = Fits(st, country, step)
    out: list[Play] = []
    for key in dict.fromkeys(st.hands[country]):
        uses = fits.uses(key)
        out.extend([Play(key)] if len(uses) == 1 else [Play(key, i) for i in uses])
    return out


def random_play(st: KampenState, country: str, step: str, rng: Random) -> Play | Done:
    """One of `playable(st, country, step)` or `done`, each as likely as any other, drawn without listing them: a
    slot for each use of each distinct card in the hand and one for `done`, drawn again where that use does not
    fit now."""
    assert st.battle is not None
    fits = Fits(st, country, step)
    slots = [(key, i) for key in dict.fromkeys(st.hands[country]) for i in range(len(card_of(st, key).uses))]

    def pick(r: int) -> Play | Done | None:
        if r == len(slots):
            return DONE
        key, i = slots[r]
        uses = fits.uses(key)
        return None if i not in uses else Play(key) if len(uses) == 1 else Play(key, i)

    drawn: Play | Done = draw_until(rng, len(slots) + 1, pick)
    return drawn


class Fits:
    """Which uses of a card fit the battle's card step for `country` now (`playable`'s test, card by card)."""

    def __init__(self, st: KampenState, country: str, step: str) -> None:
        b = st.battle
        assert b is not None
        self.st, self.b, self.step = st, b, step
        self.timings = timings_now(st, STEPS[step].timings)
        self.side = side_of(b, country)
        self.present = st.at(b.area, country) > 0 if self.side == "defender" else True
        self.used_types = {p.type for p in b.played if p.side == self.side and p.step == step}

    def uses(self, key: str) -> list[int]:
        st, b = self.st, self.b
        card = card_of(st, key)
        if card.deck != deck_now(st) or card.type in self.used_types or not advanced_met(st, card, b.area):
            return []
        return [i for i, use in enumerate(card.uses)
                if use_fits(st, b, self.side, self.present, self.step, self.timings, use)]


def use_fits(st: KampenState, b: Battle, side: str, present: bool, step: str, timings: tuple[str, ...],
             use: CardUse) -> bool:
    if use.step != step or use.timing not in timings or not allowed(st, use) or use.effect not in IN_BATTLE:
        return False
    if not present and not use.anywhere:
        return False
    if not all(requirement_met(st, b, need) for need in use.requires):
        return False
    if use.effect == "bluff":
        return bluffable(st, b, use)
    return use.effect != "cancel" or has_target(b.played, side, use)


def bluffable(st: KampenState, b: Battle, use: CardUse) -> bool:
    """Bloff/trusler works against a few Norwegians defending alone (docs/kampen-cards.md, `bluff`)."""
    norwegians = st.at(b.area, "norway")
    return 0 < norwegians <= use.count("max_defenders", 2) and not st.at(b.area, "allies")


def chosen_use(st: KampenState, country: str, action: Play, step: str) -> int:
    """The index of the use a `Play` means: its own, or the one use that fits now."""
    if action.use is not None:
        return action.use
    b = st.battle
    assert b is not None
    card = card_of(st, action.card)
    side = side_of(b, country)
    present = st.at(b.area, country) > 0 if side == "defender" else True
    return next(i for i, use in enumerate(card.uses)
                if use_fits(st, b, side, present, step, timings_now(st, STEPS[step].timings), use))


def play(st: KampenState, country: str, action: Play, step: str) -> None:
    b = st.battle
    assert b is not None
    card = card_of(st, action.card)
    use = card.uses[chosen_use(st, country, action, step)]
    st.spend(country, action.card)
    b.played.append(Played(country, action.card, card.type, use.step, use, side_of(b, country)))
    st.note(f"{st.sc.names[country]} play {card.name}: {use.text}")
    if use.effect == "bluff":
        st.flags.bluff = str(use.params["roll"])


def roll_table(st: KampenState, use: CardUse) -> Roll:
    """The designed dice table a use names (`roll = "..."`, ships.toml)."""
    return st.sc.cards.ships.rolls[str(use.params["roll"])]


def dice(st: KampenState, b: Battle) -> tuple[int, int, bool]:
    """(attacker's card dice, defender's card dice, whether the attack ignores water) from the cards in
    effect. An `extra_dice` use gives `water_dice` when no attacker came over a land border."""
    from_land = b.attack.total - b.attack.over_water - b.attack.by_sea_or_air
    att = dfn = 0
    ignore_water = False
    for p, ok in zip(b.played, in_effect(b.played), strict=True):
        if not ok:
            continue
        if p.use.effect == "extra_dice":
            n = p.use.dice(no_land_route=from_land == 0)
            if p.side == "attacker":
                att += n
            else:
                dfn += n
        elif p.use.effect == "ignore_water" and p.side == "attacker":
            ignore_water = True
    return att, dfn, ignore_water
