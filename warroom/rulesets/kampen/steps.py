"""The Kampen om Norge flow table: the opening shuffle and hands (basic game) or the 9 April round (advanced
game, `april.py`), then rounds of Germany, Norway and the Allies, each in four phases: movement, combat,
reinforcement, new cards (digest 4; the advanced game adds sea movement and sea battles, 8).

The land battle's card steps (1-3) run the combat handlers of `effects.py`; the movement, phase-1c,
removal, retreat and reinforcement cards are in `manoeuvre.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Protocol

import warroom.rulesets.kampen.coast as coast
import warroom.rulesets.kampen.combat as combat
import warroom.rulesets.kampen.effects as effects
import warroom.rulesets.kampen.manoeuvre as manoeuvre
from warroom.core.dice import Dice, Roll
from warroom.core.events import BattleResolved
from warroom.core.flow import Step, goto
from warroom.core.state import CHANCE
from warroom.rulesets.kampen.actions import (
    DONE,
    Discard,
    Done,
    Exchange,
    Fight,
    Move,
    Place,
    Play,
    Refuse,
    Remove,
    Retreat,
)
from warroom.rulesets.kampen.deckout import (
    KampenFlow,
    after_losses_taken,
    removals_due,
    resume_after_losses,
    ships_leaving,
)
from warroom.rulesets.kampen.decks import (
    apply_reshuffle,
    apply_shuffle,
    begin_reshuffle,
    begin_shuffle,
    deal,
    deck_out,
    fill_hand,
)
from warroom.rulesets.kampen.land import (
    can_place,
    legal_moves,
    legal_places,
    move_problem,
    place_problem,
    random_move,
    random_place,
)
from warroom.rulesets.kampen.losses import (
    apply_answer,
    apply_loss,
    legal_losses,
    losses_proposed,
    removal_actor,
)
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, Battle, KampenState, held
from warroom.rulesets.kampen.victory import check_elimination

St = KampenState


def faces(values: Sequence[int]) -> str:
    return " ".join(f"[{v}]" for v in values)


# ----- round ------------------------------------------------------------------------------------------------
def begin_round(st: St) -> None:
    st.cards_used = 0
    st.arrived = {}
    st.attacks = {}
    st.battle = None
    st.placed = set()
    st.flags.new_round()
    for _sea, card in st.fleet.all():
        card.moved = 0
    name = st.sc.names[st.country]
    st.note(f"--- {name}{chr(39) if name.endswith('s') else chr(39) + 's'} round ---")


def apply_move(st: St, action: Done | Play | Move) -> None:
    if isinstance(action, Done):
        st.flags.move_done = True
        return
    if isinstance(action, Play):
        manoeuvre.start_effect(st, action)
        return
    assert isinstance(action, Move)
    st.add(action.frm, st.country, -action.n)
    manoeuvre.arrive(st, action.frm, action.to, action.n)


def after_move(st: St) -> str:
    if st.flags.effect:
        return "card_effect"
    if st.flags.invading:
        return "invasion_exchange"
    if st.country == GERMANY and not st.april:
        return "sabotage"
    return after_movement(st)


def after_movement(st: St) -> str:
    """After all movement: the sea battles (advanced game, 8.2 phase 2a), then the land battles."""
    if st.advanced and not st.flags.sea_done:
        return "sea_combat"
    return "combat" if st.attacks else "reinforce"


def legal_invasion_exchange(st: St) -> list[Any]:
    return [*(Exchange(card) for card in dict.fromkeys(st.hands[st.country])), DONE]


def apply_invasion_exchange(st: St, action: Exchange | Done) -> None:
    if isinstance(action, Done):
        st.flags.invading = False
        st.flags.landing = combat.battalions_from_symbols(st.symbols)
        st.note(f"The Allies' invasion: {st.symbols} symbols buy {st.flags.landing} battalions")
        st.symbols = 0
        return
    exchange_card(st, action)


def apply_landing(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    st.flags.landing -= 1
    manoeuvre.arrive(st, "", action.area, 1, by_sea_or_air=True)


# ----- phase 1c: Norwegian sabotage in the German round ----------------------------------------------------------
def legal_sabotage(st: St) -> list[Any]:
    return [*manoeuvre.playable_sabotage(st), DONE]


def apply_sabotage(st: St, action: Done | Play) -> None:
    if isinstance(action, Done):
        st.flags.sabotage_done = True
        return
    assert isinstance(action, Play)
    manoeuvre.play_sabotage(st, action)


def after_sabotage(st: St) -> str:
    if st.flags.sabotage:
        return "sabotage_target"
    return after_movement(st)


def legal_sabotage_target(st: St) -> list[Any]:
    return manoeuvre.sabotage_choices(st, manoeuvre.sabotage_use(st))


def legal_counter(st: St) -> list[Any]:
    return [*manoeuvre.counter_cards(st), DONE]


def apply_counter(st: St, action: Play | Done) -> None:
    if isinstance(action, Play):
        manoeuvre.counter(st, action)
    else:
        manoeuvre.carry_out_sabotage(st)


def legal_flight(st: St) -> list[Any]:
    return [Retreat(a) for a in manoeuvre.flight_areas(st, st.flags.fleeing)]


def apply_flight(st: St, action: Retreat) -> None:
    assert isinstance(action, Retreat)
    manoeuvre.flee(st, action.to)


# ----- combat -----------------------------------------------------------------------------------------------
def legal_fights(st: St) -> list[Any]:
    return [Fight(a) for a in sorted(st.attacks)]


def apply_fight(st: St, action: Fight) -> None:
    assert isinstance(action, Fight)
    attack = st.attacks.pop(action.area)
    st.battle = Battle(action.area, attack)
    st.flags.evacuation_offered = False
    st.note(f"Battle of {st.name(action.area)}: {attack.total} {st.sc.names[attack.country]} battalions attack "
            f"({attack.over_water} across water) against {defenders_here(st)}")


def defenders_here(st: St) -> str:
    b = st.battle
    assert b is not None
    return ", ".join(f"{st.at(b.area, d)} {st.sc.names[d]}" for d in st.enemies(b.attack.country)
                     if st.at(b.area, d)) or "nobody"


# ----- the battle's card steps (4.2 steps 1-3) -----------------------------------------------------------------------
def card_seats(st: St, step: str) -> list[str]:
    """Who is asked at a card step, in order: the attacker (steps 1 and 3); the defenders, Norway before the
    Allies (step 2), and the Allies in every German attack (their Jagerfly needs no battalions there).

    Who is asked depends only on what everyone can see (who fights, who holds any cards), never on which
    cards a country holds: a seat that is skipped would tell the others it holds nothing playable."""
    b = st.battle
    assert b is not None
    if step != "defend_cards":
        seats = [b.attack.country]
    else:
        seats = [d for d in st.enemies(b.attack.country)
                 if st.at(b.area, d) or (d == ALLIES and b.attack.country == GERMANY)]
    return [c for c in seats if st.hands[c]]


def begin_cards(step: str) -> Any:
    def begin(st: St) -> None:
        assert st.battle is not None
        st.battle.seats = card_seats(st, step)
    return begin


def legal_cards(step: str) -> Any:
    def legal(st: St) -> list[Any]:
        assert st.battle is not None
        return [*effects.playable(st, st.battle.seats[0], step), DONE]
    return legal


def sample_cards(step: str) -> Any:
    def sample(st: St, rng: Random) -> Any:
        assert st.battle is not None
        return effects.random_play(st, st.battle.seats[0], step, rng)
    return sample


class Seated(Protocol):
    seats: list[str]


def card_window(battle: Callable[[St], Seated | None], play: Callable[[St, str, Play], None]
                ) -> Callable[[St, Any], None]:
    """The apply of a battle's card step (land or sea): the seat to act passes, or plays a card and stays
    seated while it holds cards."""
    def apply(st: St, action: Done | Play) -> None:
        b = battle(st)
        assert b is not None
        seat = b.seats[0]
        if isinstance(action, Done):
            b.seats.pop(0)
            return
        assert isinstance(action, Play)
        play(st, seat, action)
        if not st.hands[seat]:
            b.seats.pop(0)
    return apply


def apply_card(step: str) -> Callable[[St, Any], None]:
    return card_window(lambda st: st.battle, lambda st, seat, action: effects.play(st, seat, action, step))


def card_step(name: str, nxt: str) -> Step[St]:
    return Step(name, "combat", actor=lambda st: st.battle.seats[0] if st.battle and st.battle.seats else "",
                legal=legal_cards(name), apply=apply_card(name), on_begin=begin_cards(name), sample=sample_cards(name),
                end_if=lambda st: st.battle is None or not st.battle.seats or bool(st.flags.bluff),
                next=lambda st: "bluff_roll" if st.flags.bluff else nxt)


def apply_bluff(st: St, roll: Roll) -> None:
    """Bloff/trusler (9 April): on a success the Norwegian defenders withdraw as beaten defenders and the
    attackers take the area without a battle; with no retreat open, or on a failure, nothing happens and the
    attacker may play on (docs/kampen-cards.md, `bluff`)."""
    assert isinstance(roll, Roll) and st.battle is not None
    table = st.sc.cards.ships.rolls[st.flags.bluff]
    st.flags.bluff = ""
    success = table.outcome(roll.values[0]) == "success"
    if success and retreat_areas(st):
        st.battle.winner = "attacker"
        st.flags.bluffed = True
    st.note(f"Bluff at {st.name(st.battle.area)}: {faces(roll.values)}, "
            + ("the Norwegians withdraw" if st.flags.bluffed else "no effect"))
    if st.flags.bluffed:
        resolved(st, st.battle, "bluff")


def begin_attack_roll(st: St) -> None:
    """The dice of both sides, from the battalions and the cards in effect (4.2 steps 4-5)."""
    b = st.battle
    assert b is not None
    attack = b.attack
    att_cards, def_cards, ignore_water = effects.dice(st, b)
    water = 0 if ignore_water else attack.over_water
    b.att_dice = combat.attack_dice(combat.Attackers(attack.total - water, water), att_cards)
    b.def_dice = combat.defence_dice(sum(st.at(b.area, d) for d in st.enemies(attack.country)), def_cards)
    st.flags.chance = Dice(b.att_dice)


def apply_attack_roll(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll) and st.battle is not None
    b = st.battle
    b.att_faces = roll.values
    b.att_rolled = True
    st.flags.chance = Dice(b.def_dice)


def resolved(st: St, b: Battle, how: str) -> None:
    """The typed event of a battle's result (the adapters list a game's battles from these)."""
    defenders = tuple(d for d in st.enemies(b.attack.country) if st.at(b.area, d))
    st.emit(BattleResolved(st.round, b.area, st.name(b.area), b.attack.country, defenders, how, b.winner))


def apply_defence_roll(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll) and st.battle is not None
    b = st.battle
    b.def_faces = roll.values
    defenders = [d for d in st.enemies(b.attack.country) if st.at(b.area, d)]
    b.att_losses = min(combat.kills(b.def_faces), b.attack.total)
    b.def_losses = min(combat.kills(b.att_faces), sum(st.at(b.area, d) for d in defenders))
    att_total, def_total = sum(b.att_faces), sum(b.def_faces)
    b.winner = "attacker" if combat.attacker_wins(att_total, def_total) else "defender"
    names = st.sc.names
    st.note(f"Battle of {st.name(b.area)}: {names[b.attack.country]} {faces(b.att_faces)} = {att_total} against "
            f"{faces(b.def_faces)} = {def_total}; {b.att_losses} attacking and {b.def_losses} defending battalions "
            f"eliminated; the {b.winner} wins")
    resolved(st, b, "dice")
    b.att_to_remove = b.att_losses
    settle_attacker_losses(b)
    b.allied_lost = b.att_losses if b.attack.country == ALLIES else 0
    if len(defenders) == 1:
        st.add(b.area, defenders[0], -b.def_losses)
        if defenders[0] == ALLIES:
            b.allied_lost += b.def_losses
        b.def_losses = 0


def attacker_groups(b: Battle) -> list[str]:
    """Where the attacker's battalions in this battle came from; the battle area stands for those that
    arrived by sea or air."""
    return sorted(b.attack.origins) + ([b.area] if b.attack.by_sea_or_air else [])


def settle_attacker_losses(b: Battle) -> None:
    """Take the attacker's losses at once when there is nothing to choose: one group, or every battalion lost;
    otherwise the attacker chooses which (4.2 step 6), one at a time (step `attacker_losses`)."""
    if b.att_to_remove and (len(attacker_groups(b)) <= 1 or b.att_to_remove >= b.attack.total):
        while b.att_to_remove:
            remove_attacker(b, attacker_groups(b)[0])


def remove_attacker(b: Battle, group: str) -> None:
    if group == b.area:
        b.attack.by_sea_or_air -= 1
    else:
        b.attack.origins[group] -= 1
        if not b.attack.origins[group]:
            del b.attack.origins[group]
    b.att_to_remove -= 1


def apply_attacker_loss(st: St, action: Remove) -> None:
    b = st.battle
    assert b is not None and isinstance(action, Remove)
    remove_attacker(b, action.area)
    settle_attacker_losses(b)


# ----- step 6: Kystevakuering saves eliminated Allied battalions ----------------------------------------------------
def rescue_open(st: St) -> bool:
    b = st.battle
    return b is not None and b.allied_lost > 0 and bool(st.hands[ALLIES]) and effects.allied_coast(
        st, b.area) and manoeuvre.any_safe_coast(st, b.area)  # asked whatever the Allies hold


def legal_rescue(st: St) -> list[Any]:
    return [*manoeuvre.battle_cards(st, ALLIES, "removal", "save_eliminated"), DONE]


def apply_rescue(st: St, action: Done | Play) -> None:
    b = st.battle
    assert b is not None
    if isinstance(action, Done):
        b.allied_lost = 0
        return
    assert isinstance(action, Play)
    use = manoeuvre.play_card(st, ALLIES, action.card, "removal")
    st.flags.rescue = min(use.count("battalions", 1), b.allied_lost)
    b.allied_lost = 0


def legal_rescue_target(st: St) -> list[Any]:
    b = st.battle
    assert b is not None
    n = st.flags.rescue
    return [Place(a, k) for a in manoeuvre.safe_coast(st, b.area) for k in range(1, n + 1)]


def apply_rescue_target(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    st.add(action.area, ALLIES, action.n)
    st.flags.rescue = 0
    st.note(f"{action.n} eliminated Allied battalion{'s' * (action.n > 1)} taken off by sea to "
            f"{st.name(action.area)}")


def after_losses(st: St) -> str:
    if rescue_open(st):
        return "rescue"
    return after_removal(st)


def after_removal(st: St) -> str:
    b = st.battle
    assert b is not None
    if st.flags.rescue:
        return "rescue_target"
    open_sea = bool(st.hands[ALLIES]) and effects.allied_coast(st, b.area) and manoeuvre.any_safe_coast(st, b.area)
    if b.winner == "defender" and b.attack.country == ALLIES and b.attack.total and not st.flags.evacuation_offered \
            and open_sea:
        st.flags.evacuation_offered = True  # beaten Allied attackers may leave by sea instead of going back
        return "evacuation"
    if b.winner == "attacker" and any(st.at(b.area, d) for d in st.enemies(b.attack.country)):
        if st.at(b.area, ALLIES) and open_sea and not st.flags.evacuation_offered:
            st.flags.evacuation_offered = True
            return "evacuation"
        if not any(st.at(b.area, d) for d in st.enemies(b.attack.country)):
            return "battle_end"
        return "retreat" if retreat_areas(st) else "surrounded"
    return "battle_end"


# ----- step 8: Kystevakuering takes beaten Allied defenders off by sea ----------------------------------------------
def apply_evacuation(st: St, action: Done | Play) -> None:
    if isinstance(action, Done):
        st.flags.evacuating = False
        return
    assert isinstance(action, Play)
    manoeuvre.play_card(st, ALLIES, action.card, "retreat")
    st.flags.evacuating = True


def apply_evacuation_target(st: St, action: Place) -> None:
    b = st.battle
    assert b is not None and isinstance(action, Place)
    if b.attack.country == ALLIES:  # the beaten attack leaves by sea instead of going back
        n = b.attack.total
        b.attack.origins.clear()
        b.attack.by_sea_or_air = 0
    else:
        n = st.at(b.area, ALLIES)
        st.add(b.area, ALLIES, -n)
    st.add(action.area, ALLIES, n)
    st.flags.evacuating = False
    st.note(f"{n} Allied battalion{'s' * (n > 1)} leave {st.name(b.area)} by sea for {st.name(action.area)}")


def retreat_countries(st: St) -> list[str]:
    b = st.battle
    assert b is not None
    return [d for d in st.enemies(b.attack.country) if st.at(b.area, d)]


def retreat_areas(st: St) -> list[str]:
    """Where beaten defenders may go together (4.2 step 8): a neighbour with no enemy battalions, no battle
    still to fight and no attack launched from it this round; Germans and Allies never across water.

    assumption: (J20) in a joint defence the area must suit every retreating country; when only water
    crossings are open, the Norwegians may take one and the Allies, who cannot follow, are lost."""
    b = st.battle
    assert b is not None
    board = st.sc.board
    countries = retreat_countries(st)
    origins = st.flags.origins
    free = [n for n in board.neighbours(b.area)
            if not st.hostile(n, countries[0]) and n not in st.attacks and n not in origins]
    if countries == [NORWAY]:
        return free  # Norwegians may retreat across a fjord or lake (2.3)
    by_land = [n for n in free if not board.crosses_water(b.area, n)]
    if by_land or NORWAY not in countries:
        return by_land
    return free


def retreat_actor(st: St) -> str:
    countries = retreat_countries(st)
    return NORWAY if NORWAY in countries else countries[0]


def legal_retreats(st: St) -> list[Any]:
    return [Retreat(a) for a in retreat_areas(st)]


def apply_retreat(st: St, action: Retreat) -> None:
    assert isinstance(action, Retreat) and st.battle is not None
    b = st.battle
    board = st.sc.board
    for c in retreat_countries(st):
        n = st.at(b.area, c)
        st.add(b.area, c, -n)
        if c != NORWAY and board.crosses_water(b.area, action.to):
            st.note(f"{n} {st.sc.names[c]} battalions cannot cross the water to {st.name(action.to)} and are lost")
        else:
            st.add(action.to, c, n)
            st.note(f"{n} {st.sc.names[c]} battalions retreat from {st.name(b.area)} to {st.name(action.to)}")
    end_battle(st)


def surrounded(st: St) -> None:
    b = st.battle
    assert b is not None
    for c in retreat_countries(st):
        n = st.at(b.area, c)
        st.add(b.area, c, -n)
        st.note(f"{st.name(b.area)} is surrounded: {n} {st.sc.names[c]} battalions are lost")
    end_battle(st)


def end_battle(st: St) -> None:
    """The winner holds the area: attacking survivors enter it, or go back to where they came from."""
    b = st.battle
    if b is None:
        return
    c = b.attack.country
    if b.winner == "attacker":
        st.add(b.area, c, b.attack.total)
        st.arrived[b.area] = st.arrived.get(b.area, 0) + b.attack.total
    else:
        for frm, n in b.attack.origins.items():
            st.add(frm, c, n)
        if b.attack.by_sea_or_air:
            return  # they withdraw like defenders: the step `landed_retreat` decides where
    st.battle = None
    check_elimination(st)


def landed_retreat_areas(st: St) -> list[str]:
    """Beaten attackers that came by sea or air withdraw like defenders (4.2 step 8): to a neighbour with no
    enemy battalions and no battle still to fight; Germans and Allies never across water."""
    b = st.battle
    assert b is not None
    board = st.sc.board
    c = b.attack.country
    return [n for n in board.neighbours(b.area) if not st.hostile(n, c) and n not in st.attacks
            and (c == NORWAY or not board.crosses_water(b.area, n))]


def apply_landed_retreat(st: St, action: Retreat) -> None:
    b = st.battle
    assert b is not None and isinstance(action, Retreat)
    n = b.attack.by_sea_or_air
    st.add(action.to, b.attack.country, n)
    st.note(f"{n} {st.sc.names[b.attack.country]} battalions that landed withdraw to {st.name(action.to)}")
    st.battle = None
    check_elimination(st)


def landed_lost(st: St) -> None:
    b = st.battle
    assert b is not None
    st.note(f"{b.attack.by_sea_or_air} {st.sc.names[b.attack.country]} battalions that landed have nowhere to "
            "go and are lost")
    st.battle = None
    check_elimination(st)


def after_battle_end(st: St) -> str:
    if st.battle is not None:
        return "landed_retreat" if landed_retreat_areas(st) else "landed_lost"
    return next_after_battle(st)


def next_after_battle(st: St) -> str:
    if st.terminal:
        return "over"
    if st.attacks:
        return "pick"
    return "april_mobilise" if st.april else "reinforce"


# ----- reinforcement ----------------------------------------------------------------------------------------
def begin_reinforce(st: St) -> None:
    st.symbols = 0
    st.flags.exchanging = True


def legal_exchanges(st: St) -> list[Any]:
    return [*(Exchange(card) for card in dict.fromkeys(st.hands[st.country])), *manoeuvre.reinforce_cards(st), DONE]


def apply_exchange(st: St, action: Exchange | Play | Done) -> None:
    if isinstance(action, Done):
        st.flags.exchanging = False
        free = st.sc.rules["german_free_battalions"] if st.country == GERMANY else 0
        bought = combat.battalions_from_symbols(st.symbols)
        st.to_place = bought + free
        if st.country == ALLIES and not st.allies_landed and not st.advanced:
            st.first_groups = list(st.sc.allies_first["groups"])
            st.allies_landed = True
        if st.symbols or free:
            st.note(f"{st.sc.names[st.country]}: {st.symbols} reinforcement symbols buy {bought} battalions"
                    + (f", plus {free} free" if free else ""))
        return
    exchange_card(st, action)


def exchange_card(st: St, action: Play | Exchange) -> None:
    """A card traded for its reinforcement symbols: its printed functions are ignored (4.3)."""
    if isinstance(action, Play):  # Transportfly: some new battalions may go to German-held airfields
        use = manoeuvre.play_card(st, st.country, action.card, "reinforce")
        st.flags.airfield_places = st.flags.airfield_places + use.count("battalions", 1)
        return
    assert isinstance(action, Exchange)
    card = action.card
    st.spend(st.country, card)
    st.symbols += st.sc.symbols_of(card)


def submarine_seat(st: St) -> str:
    seats: tuple[str, ...] = st.flags.submarine
    return seats[0] if seats else ""


def legal_submarine(st: St) -> list[Any]:
    seat = submarine_seat(st)
    return [*(p for c, p in manoeuvre.submarines(st) if c == seat), DONE]


def apply_submarine(st: St, action: Play | Done) -> None:
    """Ubåt: a transport is torpedoed, and the country in its round places fewer new battalions."""
    enemy = submarine_seat(st)
    st.flags.submarine = st.flags.submarine[1:] if st.to_place else ()
    if isinstance(action, Play):
        use = manoeuvre.play_card(st, enemy, action.card, "opponent_reinforce")
        cut = min(st.to_place, use.count("battalions", 1))
        st.to_place -= cut
        st.note(f"{cut} new {st.sc.names[st.country]} battalion{'s' * (cut > 1)} lost at sea")
        st.flags.submarine = st.flags.submarine if st.to_place else ()


def apply_place(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    st.add(action.area, st.country, action.n)
    if st.first_groups:
        st.first_groups.pop(0)
        st.flags.first_areas = (*st.flags.first_areas, action.area)
    else:
        st.to_place -= 1
        st.placed.add(action.area)
        if st.country == GERMANY and st.advanced:
            if coast.german_places(st, action.area):
                coast.count_german_place(st, action.area)
            else:
                st.flags.airfield_places -= 1  # placed through Transportfly
        elif st.country == GERMANY and not st.sc.board.coast(action.area) & {"I", "II"}:
            st.flags.airfield_places -= 1  # placed through Transportfly
    st.note(f"{st.sc.names[st.country]} place {action.n} new battalion{'s' * (action.n > 1)} in "
            f"{st.name(action.area)}")


def placing_done(st: St) -> bool:
    """Placing ends when nothing is left to place, or nowhere is left to put it (the Allies' first groups
    first: when they cannot land, the battalions bought with cards may still be placed)."""
    if st.first_groups and not can_place(st):
        st.note(f"The Allies have nowhere to land {sum(st.first_groups)} of their first battalions")
        st.first_groups = []
    if st.to_place and not st.first_groups and not can_place(st):
        st.note(f"{st.sc.names[st.country]} have nowhere to place {st.to_place} battalions; they are not placed")
        st.to_place = 0
    return not st.to_place and not st.first_groups


# ----- new cards --------------------------------------------------------------------------------------------
def must_discard(st: St) -> bool:
    c = st.country
    return c in st.sc.rules["must_play"] and st.cards_used == 0 and bool(st.hands[c]) and bool(st.draw[c])


def legal_discards(st: St) -> list[Any]:
    return [Discard(card) for card in dict.fromkeys(st.hands[st.country])]


def apply_discard(st: St, action: Discard) -> None:
    assert isinstance(action, Discard)
    c = st.country
    st.spend(c, action.card)
    st.note(f"{st.sc.names[c]} used no card this round: one goes under the deck and one is drawn")
    if st.draw[c]:
        st.hands[c].append(st.draw[c].pop(0))
        if not st.draw[c]:
            deck_out(st, c)


def new_cards(st: St) -> None:
    if not st.terminal:
        fill_hand(st, st.country)


def after_new_cards(st: St) -> str:
    if st.terminal:
        return "over"
    if st.flags.reshuffle and st.used[NORWAY]:
        return "reshuffle"
    if removals_due(st):
        return "deck_removal"
    return "ship_withdrawal" if ships_leaving(st) else "round_end"


def legal_removals(st: St) -> list[Any]:
    return [Remove(a) for a in sorted(st.troops) if st.at(a, ALLIES)]


def apply_removal(st: St, action: Remove) -> None:
    assert isinstance(action, Remove)
    st.add(action.area, ALLIES, -1)
    st.removing -= 1
    if not legal_removals(st):
        st.removing = 0
    check_elimination(st)


def end_round(st: St) -> None:
    order = st.sc.countries
    st.country = order[(order.index(st.country) + 1) % len(order)]
    st.round += 1


def begin_sabotage(st: St) -> None:
    st.flags.sabotage_done = not manoeuvre.sabotage_window(st)


def begin_combat(st: St) -> None:
    st.flags.origins = frozenset(a for x in st.attacks.values() for a in x.origins)


def begin_bluff(st: St) -> None:
    st.flags.chance = Dice(1)


def after_bluff(st: St) -> str:
    bluffed, st.flags.bluffed = st.flags.bluffed, False
    return "retreat" if bluffed else "attack_cards"


def begin_evacuation(st: St) -> None:
    st.flags.evacuating = None


def begin_submarine(st: St) -> None:
    st.flags.submarine = manoeuvre.submarine_seats(st) if st.to_place else ()


def build_flow(advanced: Sequence[Step[St]], after_april_place: Callable[[St], str]) -> KampenFlow:
    """The flow table: the basic game's rows here, the advanced game's (`sea.flow_steps`, `april.flow_steps`)
    given by the package, which sits above both (`kampen.flow`); `after_april_place` is where the 9 April round
    goes once its battalions are placed."""
    steps: list[Step[St]] = [
        Step("shuffle", "setup", actor=lambda st: CHANCE, apply=apply_shuffle, on_begin=begin_shuffle,
             end_if=lambda st: not st.shuffling, next=lambda st: "april_open" if st.advanced else "deal"),
        Step("deal", "setup", on_begin=deal, next=goto("round_start")),
        Step("round_start", "movement", on_begin=begin_round,
             next=lambda st: "sea_move" if st.advanced else "move"),
        Step("move", "movement", actor=lambda st: st.country, legal=legal_moves, apply=apply_move, problem=move_problem,
             sample=random_move, end_if=lambda st: bool(st.flags.move_done or st.flags.effect or st.flags.invading),
             next=after_move),
        Step("card_effect", "movement", actor=lambda st: st.country,
             legal=lambda st: manoeuvre.targets(st, manoeuvre.effect_use(st)), apply=manoeuvre.apply_target,
             end_if=lambda st: not st.flags.effect,
             next=lambda st: "drop_answer" if st.flags.drop else "move"),
        Step("drop_answer", "movement", actor=lambda st: st.flags.drop_seat,
             legal=lambda st: [*manoeuvre.diverters(st), DONE], apply=manoeuvre.answer_drop,
             end_if=lambda st: not st.flags.drop or bool(st.flags.scatter),
             next=lambda st: "drop_scatter" if st.flags.scatter else "move"),
        Step("drop_scatter", "movement", actor=lambda st: st.flags.drop_seat,
             legal=manoeuvre.scatter_choices, apply=manoeuvre.scatter, end_if=lambda st: not st.flags.scatter,
             next=goto("move")),
        Step("invasion_exchange", "movement", actor=lambda st: st.country, legal=legal_invasion_exchange,
             apply=apply_invasion_exchange, end_if=lambda st: not st.flags.invading,
             next=goto("invasion_landing")),
        Step("invasion_landing", "movement", actor=lambda st: st.country,
             legal=lambda st: [Place(a) for a in manoeuvre.invasion_areas(st)], apply=apply_landing,
             end_if=lambda st: not st.flags.landing, next=goto("move")),
        Step("sabotage", "movement", actor=lambda st: NORWAY, legal=legal_sabotage, apply=apply_sabotage,
             sample=manoeuvre.random_sabotage,
             on_begin=begin_sabotage,
             end_if=lambda st: bool(st.flags.sabotage_done or st.flags.sabotage),
             next=after_sabotage),
        Step("sabotage_target", "movement", actor=lambda st: NORWAY, legal=legal_sabotage_target,
             apply=manoeuvre.aim_sabotage, end_if=lambda st: held(st.flags.sabotage)[2] is not None,
             next=goto("sabotage_counter")),
        Step("sabotage_counter", "movement", actor=lambda st: GERMANY, legal=legal_counter, apply=apply_counter,
             on_begin=lambda st: None if st.hands[GERMANY] else manoeuvre.carry_out_sabotage(st),
             end_if=lambda st: not st.flags.sabotage,
             next=lambda st: "flight" if st.flags.fleeing else "sabotage"),
        Step("flight", "movement", actor=lambda st: NORWAY, legal=legal_flight, apply=apply_flight,
             end_if=lambda st: not st.flags.fleeing, next=goto("sabotage")),
        Step("combat", "combat", on_begin=begin_combat, next=goto("pick")),
        Step("pick", "combat", actor=lambda st: st.country, legal=legal_fights, apply=apply_fight,
             on_begin=lambda st: apply_fight(st, Fight(next(iter(st.attacks)))) if len(st.attacks) == 1 else None,
             end_if=lambda st: st.battle is not None, next=goto("attack_cards")),
        card_step("attack_cards", "defend_cards"),
        Step("bluff_roll", "combat", actor=lambda st: CHANCE, apply=apply_bluff,
             on_begin=begin_bluff, end_if=lambda st: not st.flags.bluff, next=after_bluff),
        card_step("defend_cards", "react_cards"),
        card_step("react_cards", "attack_roll"),
        Step("attack_roll", "combat", actor=lambda st: CHANCE, apply=apply_attack_roll, on_begin=begin_attack_roll,
             end_if=lambda st: st.battle is not None and st.battle.att_rolled, next=goto("defence_roll")),
        Step("defence_roll", "combat", actor=lambda st: CHANCE, apply=apply_defence_roll,
             end_if=lambda st: st.battle is not None and bool(st.battle.winner), next=goto("attacker_losses")),
        Step("attacker_losses", "combat", actor=lambda st: st.battle.attack.country if st.battle else "",
             legal=lambda st: [Remove(g) for g in attacker_groups(st.battle)] if st.battle else [],
             apply=apply_attacker_loss, end_if=lambda st: st.battle is None or not st.battle.att_to_remove,
             next=goto("losses")),
        Step("rescue", "combat", actor=lambda st: ALLIES, legal=legal_rescue, apply=apply_rescue,
             end_if=lambda st: st.battle is not None and not st.battle.allied_lost, next=after_removal),
        Step("rescue_target", "combat", actor=lambda st: ALLIES, legal=legal_rescue_target,
             apply=apply_rescue_target, end_if=lambda st: not st.flags.rescue, next=after_removal),
        Step("evacuation", "combat", actor=lambda st: ALLIES,
             legal=lambda st: [*manoeuvre.battle_cards(st, ALLIES, "retreat", "evacuate_retreat"), DONE],
             apply=apply_evacuation, on_begin=begin_evacuation,
             end_if=lambda st: st.flags.evacuating is not None,
             next=lambda st: "evacuation_target" if st.flags.evacuating else after_removal(st)),
        Step("evacuation_target", "combat", actor=lambda st: ALLIES,
             legal=lambda st: [Place(a) for a in manoeuvre.safe_coast(st, st.battle.area if st.battle else "")],
             apply=apply_evacuation_target, end_if=lambda st: not st.flags.evacuating, next=after_removal),
        Step("losses", "combat", actor=removal_actor, legal=legal_losses, apply=apply_loss,
             end_if=lambda st: st.battle is not None and (st.battle.def_losses == 0 or losses_proposed(st)),
             next=lambda st: "losses_answer" if losses_proposed(st) else after_losses(st)),
        Step("losses_answer", "combat", actor=lambda st: ALLIES, legal=lambda st: [DONE, Refuse()],
             apply=apply_answer, end_if=lambda st: st.battle is not None and not st.battle.proposal,
             next=lambda st: "losses_forced" if st.battle is not None and st.battle.def_losses else after_losses(st)),
        Step("losses_forced", "combat", actor=removal_actor, legal=legal_losses, apply=apply_loss,
             end_if=lambda st: st.battle is not None and st.battle.def_losses == 0, next=after_losses),
        Step("retreat", "combat", actor=retreat_actor, legal=legal_retreats, apply=apply_retreat,
             end_if=lambda st: st.battle is None, next=next_after_battle),
        Step("surrounded", "combat", on_begin=surrounded, next=next_after_battle),
        Step("battle_end", "combat", on_begin=end_battle, next=after_battle_end),
        Step("landed_retreat", "combat", actor=lambda st: st.battle.attack.country if st.battle else "",
             legal=lambda st: [Retreat(a) for a in landed_retreat_areas(st)], apply=apply_landed_retreat,
             end_if=lambda st: st.battle is None, next=next_after_battle),
        Step("landed_lost", "combat", on_begin=landed_lost, next=next_after_battle),
        Step("reinforce", "reinforcement", actor=lambda st: st.country, legal=legal_exchanges, apply=apply_exchange,
             on_begin=begin_reinforce, end_if=lambda st: not st.flags.exchanging, next=goto("submarine")),
        Step("submarine", "reinforcement", actor=submarine_seat, legal=legal_submarine, apply=apply_submarine,
             on_begin=begin_submarine,
             end_if=lambda st: not st.flags.submarine, next=goto("place")),
        Step("place", "reinforcement", actor=lambda st: st.country, legal=legal_places, apply=apply_place,
             problem=place_problem, sample=random_place,
             end_if=placing_done, next=lambda st: after_april_place(st) if st.april else (
                 "discard" if must_discard(st) else "new_cards")),
        Step("discard", "new cards", actor=lambda st: st.country, legal=legal_discards, apply=apply_discard,
             end_if=lambda st: st.cards_used > 0 or st.terminal, next=goto("new_cards")),
        Step("new_cards", "new cards", on_begin=new_cards, next=after_new_cards),
        Step("reshuffle", "new cards", actor=lambda st: CHANCE, apply=apply_reshuffle, on_begin=begin_reshuffle,
             end_if=lambda st: not st.flags.reshuffle, next=after_new_cards),
        Step("deck_removal", "new cards", actor=lambda st: ALLIES, legal=legal_removals, apply=apply_removal,
             end_if=lambda st: not st.removing or st.terminal,
             next=lambda st: after_losses_taken(st) if st.flags.resume else after_new_cards(st)),
        Step("resume", "new cards", next=resume_after_losses),
        Step("round_end", "new cards", on_begin=end_round, next=goto("round_start")),
        Step("over", "over", end_if=lambda st: False),
        *advanced,
    ]
    return KampenFlow(steps)
