"""The advanced game at sea (K-digest 5-6, 8): ship cards, interception, movement at sea, sea battles, sea
control for placement (8.3) and the Allies' ships at deck-out. The 9 April round is `april.py`.

The steps here join the flow table of `steps.py` (`flow_steps()` at the end). Ship cards lie face down in the
sea areas (`KampenState.fleet`); every random draw of a card (interception, hits, Kystfort) is part of a chance
node, so a game replays exactly from its log. The sea rules' arithmetic is in `naval.py`; the dice tables and
ship types in `ships.toml`. Decisions the rulebook leaves open are marked `assumption:` where they are made.

Sides at sea: Germany against the Allied side, which is the Allies' ships and Norway's Eidsvoll & Norge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import warroom.rulesets.kampen.decks as decks
import warroom.rulesets.kampen.manoeuvre as manoeuvre
import warroom.rulesets.kampen.naval as naval
import warroom.rulesets.kampen.steps as steps
from warroom.core.dice import MixedDice, Roll, shuffled
from warroom.core.flow import Step, goto
from warroom.core.state import CHANCE
from warroom.rulesets.kampen.actions import (
    DONE,
    Done,
    Exchange,
    Intercept,
    Join,
    Place,
    Play,
    Recall,
    Sail,
    Sea,
    Ship,
    Withdraw,
)
from warroom.rulesets.kampen.cards import STEPS, ShipType
from warroom.rulesets.kampen.coast import COAST, SEAS
from warroom.rulesets.kampen.deckout import allied_ships
from warroom.rulesets.kampen.describe import ship_name
from warroom.rulesets.kampen.effects import (
    advanced_met,
    allowed,
    card_of,
    deck_now,
    german_airfields,
    has_target,
    in_effect,
    roll_table,
    timings_now,
)
from warroom.rulesets.kampen.naval import ShipCard
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState, Played, SeaBattle, held

St = KampenState
RAID = "raid"


# ----- small facts -----------------------------------------------------------------------------------------------
def side(owner: str) -> str:
    """The side a country's ships fight on: Germany, or the Allied side (the Allies and Norway)."""
    return GERMANY if owner == GERMANY else ALLIES


def foe(s: str) -> str:
    return ALLIES if s == GERMANY else GERMANY


def rules(st: St) -> dict[str, Any]:
    advanced: dict[str, Any] = st.sc.rules["advanced"]
    return advanced


def stype(st: St, key: str) -> ShipType:
    return naval.ship_type(st.sc.cards.ships, key)


def on_side(st: St, sea: str, s: str) -> list[ShipCard]:
    return [c for c in st.fleet.ships(sea) if side(c.owner) == s]


def seat(st: St, sea: str, s: str) -> str:
    """Who speaks for a side in a sea area: Germany, or the Allies when they have ships there, else Norway."""
    if s == GERMANY:
        return GERMANY
    return ALLIES if st.fleet.ships(sea, ALLIES) or not st.fleet.ships(sea, NORWAY) else NORWAY


def exits(st: St, sea: str, owner: str) -> list[str]:
    """The sea areas a ship may sail to from `sea`: adjacent ones its owner may enter; from the raid box, VI-VIII
    once the raiders are recalled (7.2)."""
    if sea == RAID:
        return list(rules(st)["raid_from"]) if st.flags.recalled else []
    near = st.sc.board.seas[sea].adjacent
    return [s for s in SEAS if s in near and naval.may_enter(owner, s)]


def eidsvoll(st: St) -> str:
    """The key of the ship card that is sunk when chased (Eidsvoll & Norge), '' if it is not at sea."""
    for _sea, card in st.fleet.all():
        if stype(st, card.key).chased_is_sunk:
            return card.key
    return ""


def lose_cards(st: St, country: str, n: int, why: str) -> None:
    """Cards from the top of a deck to its bottom, face up (8.2 step 6, 7.2 raids, 5.1 telegraph); a deck that
    runs out has its consequences at once (2.4)."""
    if n <= 0 or not st.draw[country]:
        return
    moved = naval.lose_cards(st.draw[country], st.used[country], n)
    st.note(f"{st.sc.names[country]} lose {moved} card{'s' * (moved > 1)} from their deck ({why})")
    if not st.draw[country]:
        decks.deck_out(st, country)


def sink(st: St, key: str) -> None:
    sea = st.fleet.where(key)
    st.fleet.remove(sea, key)
    st.landings = [x for x in st.landings if x[0] != key]
    owner = st.sc.cards.ships.ships[key.split("#", 1)[0]].owner
    st.note(f"{ship_name(st, key)} is sunk in sea area {sea}")
    lose_cards(st, owner, stype(st, key).card_loss, f"{ship_name(st, key)} sunk")


def draw_dice(n_dice: int, n_cards: int) -> MixedDice:
    """`n_dice` six-sided dice, then the random order of `n_cards` cards (as many picks as may be needed)."""
    picks = min(n_dice, n_cards)
    return MixedDice((6,) * n_dice + tuple(range(n_cards, n_cards - picks, -1)))


def window(name: str, phase: str, actor: Callable[[St], str], offer: Callable[[St], list[Play]],
           on_play: Callable[[St, Play], None], nxt: Callable[[St], str],
           skip: Callable[[St], bool] = lambda st: False) -> Step[St]:
    """A step where one country may play one card (then `on_play`) or pass; `nxt` decides what follows. It is
    skipped when `skip` says so, which must depend only on what every country can see."""

    def close(st: St, closed: bool) -> None:
        windows = st.flags.windows
        st.flags.windows = windows | {name} if closed else windows - {name}

    def apply(st: St, action: Done | Play) -> None:
        close(st, True)
        if isinstance(action, Play):
            on_play(st, action)

    return Step(name, phase, actor=actor, legal=lambda st: [*offer(st), DONE], apply=apply,
                on_begin=lambda st: close(st, skip(st)), end_if=lambda st: name in st.flags.windows, next=nxt)


def cards_for(st: St, country: str, step: str, effect: str) -> list[Play]:
    """`country`'s cards with a use of `effect` at `step` now (the 9 April steps take the orange timings)."""
    out = []
    for key in dict.fromkeys(st.hands[country]):
        found = manoeuvre.use_at(st, key, step, STEPS[step].timings)
        if found is not None and found[1].effect == effect:
            out.append(Play(key))
    return out


def put_to_sea(st: St, country: str, action: Ship) -> None:
    st.ships_hand[country].remove(action.key)
    face_up = stype(st, action.key).face_up
    st.fleet.place(action.sea, ShipCard(action.key, country, face_up))
    st.note(f"{st.sc.names[country]} put {ship_name(st, action.key) if face_up else 'a ship card'} into sea area "
            f"{action.sea}")


# ----- interception (8.1; 7.1 without moving on) ---------------------------------------------------------------------
def can_intercept(st: St, sea: str, country: str) -> bool:
    """Whether the side has a ship there able to intercept and the enemy has cards there not yet found.

    assumption: (6.1) Eidsvoll & Norge's "except at the invasion in the 9 April round" covers the whole 9 April
    round, whose interception (7.1) is where the invasion fleets are met."""
    s = side(country)
    own = [c for c in on_side(st, sea, s) if not stype(st, c.key).false_ship]
    able = any(stype(st, c.key).intercept or (st.april and stype(st, c.key).intercept_april9) for c in own)
    return able and any(not c.found for c in on_side(st, sea, foe(s)))


def icept_seat(st: St) -> str:
    pending: tuple[str, tuple[str, ...]] | None = st.flags.icept
    return pending[1][0] if pending and pending[1] else ""


def legal_icept(st: St) -> list[Any]:
    sea = held(st.flags.icept)[0]
    return [Intercept(), DONE] if can_intercept(st, sea, icept_seat(st)) else [DONE]


def next_seat(st: St) -> None:
    sea, seats = held(st.flags.icept)
    st.flags.icept = (sea, seats[1:])


def apply_icept(st: St, action: Intercept | Done) -> None:
    """An interception attempt: the side's ships there show themselves and will fight; one die per enemy ship
    card there (Germany finds Eidsvoll & Norge without a roll).

    assumption: (8.1 open questions) every enemy card not yet found counts for the dice, false ships included,
    and so do enemy ships that tried to intercept here and found nothing (they showed themselves, and the
    second side uses the same procedure); one die finds one card; the interceptor's own false ships are shown
    up and removed, since a false sighting cannot join a battle."""
    sea = held(st.flags.icept)[0]
    country = icept_seat(st)
    if isinstance(action, Done):
        next_seat(st)
        return
    s = side(country)
    tried = st.flags.intercepted_by
    st.flags.intercepted_by = tried | {(sea, s)}
    for card in on_side(st, sea, s):
        if stype(st, card.key).false_ship:
            st.fleet.remove(sea, card.key)
            st.note(f"A German false ship is shown up in sea area {sea} and removed")
        else:
            card.face_up = True
            card.fighting = True
    targets = [c.key for c in on_side(st, sea, foe(s)) if not c.found]
    found_free = [k for k in targets if s == GERMANY and stype(st, k).chased_is_sunk]
    for key in found_free:  # Germany always finds Eidsvoll & Norge if it tries (8.1)
        found(st, sea, key)
    targets = [k for k in targets if k not in found_free]
    st.note(f"{st.sc.names[country]} try to intercept in sea area {sea}: {len(targets)} dice")
    if targets:
        st.flags.icept_roll = (sea, country, tuple(targets))
    else:
        next_seat(st)


def found(st: St, sea: str, key: str) -> None:
    if stype(st, key).false_ship:
        st.fleet.remove(sea, key)
        st.note(f"A ship card found in sea area {sea} was a false ship: it is removed")
        return
    card = st.fleet.card(key)
    card.face_up = True
    card.fighting = True
    card.found = True
    st.note(f"{ship_name(st, key)} is intercepted in sea area {sea}")


def begin_icept_roll(st: St) -> None:
    _sea, _country, targets = held(st.flags.icept_roll)
    st.flags.chance = draw_dice(len(targets), len(targets))


def apply_icept_roll(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    rolled, st.flags.icept_roll = st.flags.icept_roll, None
    assert rolled is not None
    sea, _country, targets = rolled
    n = len(targets)
    hits = naval.successes(st.sc.cards.ships.rolls["interception"], roll.values[:n])
    keys = shuffled(list(targets), Roll(roll.values[n:]))[:hits]
    st.note(f"Interception in sea area {sea}: {steps.faces(roll.values[:n])}, {hits} found")
    real = []
    for key in keys:
        found(st, sea, key)
        if st.fleet.where(key):
            real.append(key)
    german = [k for k in real if st.fleet.card(k).owner == GERMANY]
    if german and st.april and st.hands[GERMANY]:
        st.flags.smoke_keys = tuple(german)  # Germany may answer with a smoke screen
    next_seat(st)


def smoke_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, GERMANY, action.card, "interception")
    st.flags.smoke = use.count("ships", 1)


def legal_smoke(st: St) -> list[Any]:
    return [*(Withdraw(k) for k in st.flags.smoke_keys if st.fleet.card(k).fighting), DONE]


def apply_smoke(st: St, action: Withdraw | Done) -> None:
    if isinstance(action, Withdraw):
        card = st.fleet.card(action.key)
        card.face_up = False
        card.fighting = False
        card.found = False
        st.flags.smoke -= 1
        st.note("A German ship slips away behind a smoke screen")
    else:
        st.flags.smoke = 0
    if not st.flags.smoke:
        st.flags.smoke_keys = ()


def after_icept(st: St) -> str:
    if st.flags.icept_roll:
        return "icept_roll"
    if st.flags.smoke_keys:
        return "smoke"
    if icept_seat(st):
        return "icept_ask"
    st.flags.icept = None
    if st.april:
        return "april_icept"
    settle_group(st)
    return "sea_move"


def begin_april_icept(st: St) -> None:
    """7.1: in every sea area where both sides have ship cards, Germany, then the Allied side, may intercept."""
    todo = st.flags.icept_seas
    if todo is None:
        todo = tuple(s for s in SEAS if on_side(st, s, GERMANY) and on_side(st, s, ALLIES))
    if todo:
        sea = todo[0]
        st.flags.icept = (sea, (GERMANY, seat(st, sea, ALLIES)))
        st.flags.icept_seas = todo[1:]
    else:
        st.flags.icept_seas = ()


# ----- 8.1 movement at sea ---------------------------------------------------------------------------------------
def legal_sea_move(st: St) -> list[Any]:
    """Phase 1a (8.1): sail one ship card or a sea area's whole free stack one area, then on; place the Home
    Fleet; recall the raiders; done once no Home Fleet ship waits.

    assumption: a Home Fleet ship put into a sea area has made its move for the round, and enemy ships there
    may be intercepted as on entering it (it enters Norwegian waters)."""
    c = st.country
    sailing: tuple[str, tuple[str, ...]] | None = st.flags.sailing
    if sailing:
        return [*(Sail(sailing[0], to) for to in exits(st, sailing[0], c)), DONE]
    out: list[Any] = [Ship(k, s) for k in st.ships_hand[c] for s in rules(st)["home_fleet_seas"]]
    for sea in sorted(st.fleet.at):
        free = free_ships(st, sea, c)
        for to in exits(st, sea, c) if free else []:
            out.extend(Sail(sea, to, card.key) for card in free)
            if len(free) > 1:
                out.append(Sail(sea, to))
    if c == GERMANY and st.fleet.ships(RAID) and not st.flags.recalled and hand_symbols(st) >= rules(
            st)["raid_recall_symbols"]:
        out.append(Recall())
    if not st.ships_hand[c]:
        out.append(DONE)
    return out


def has_ships(st: St, country: str) -> bool:
    """Whether a country has ship cards at sea, in the raid box or waiting to be put to sea (known to all)."""
    return bool(st.ships_hand[country]) or any(card.owner == country for _sea, card in st.fleet.all())


def free_ships(st: St, sea: str, country: str) -> list[ShipCard]:
    return [card for card in st.fleet.ships(sea, country) if not card.fighting and card.moved == 0]


def hand_symbols(st: St) -> int:
    return sum(st.sc.symbols_of(k) for k in st.hands[st.country])


def apply_sea_move(st: St, action: Done | Ship | Recall | Sail) -> None:
    c = st.country
    if isinstance(action, Done):
        if st.flags.sailing:
            st.flags.sailing = None
        else:
            st.flags.sea_moved = True
        return
    if isinstance(action, Ship):  # the Home Fleet arrives (7.4)
        put_to_sea(st, c, action)
        arrived = st.fleet.card(action.key)
        arrived.moved = stype(st, action.key).move
        if on_side(st, action.sea, foe(side(c))):
            st.flags.icept = (action.sea, (c, seat(st, action.sea, foe(side(c)))))
        return
    if isinstance(action, Recall):
        st.flags.recalling = 0
        return
    assert isinstance(action, Sail)
    keys = sail_group(st, action)
    for key in keys:
        card = st.fleet.remove(action.frm, key)
        card.moved += 1
        card.face_up = stype(st, key).face_up  # a raider called home sails face down again
        st.fleet.place(action.to, card)
    st.note(f"{st.sc.names[c]} sail {len(keys)} ship card{'s' * (len(keys) > 1)} from sea area {action.frm} to "
            f"{action.to}")
    st.flags.sailing = (action.to, tuple(keys))
    if on_side(st, action.to, foe(side(c))):
        st.flags.icept = (action.to, (c, seat(st, action.to, foe(side(c)))))
    else:
        settle_group(st)


def sail_group(st: St, action: Sail) -> list[str]:
    """The ship cards a `Sail` moves: the group sailing on, the one card named, or the area's free stack."""
    sailing = st.flags.sailing
    if sailing:
        return list(sailing[1])
    if action.key:
        return [action.key]
    return [card.key for card in free_ships(st, action.frm, st.country)]


def settle_group(st: St) -> None:
    """After a group entered a sea area (and any interception): the cards that may sail on, if any: not found,
    not intercepting, and with movement left (8.1 step 3)."""
    sailing = st.flags.sailing
    if not sailing:
        return
    sea, keys = sailing
    on = tuple(k for k in keys if st.fleet.where(k) == sea and not st.fleet.card(k).fighting
               and st.fleet.card(k).moved < stype(st, k).move)
    st.flags.sailing = (sea, on) if on else None


def after_sea_move(st: St) -> str:
    if st.flags.icept:
        return "icept_ask"
    if st.flags.recalling is not None:
        return "recall_pay"
    return "move"


def apply_recall_pay(st: St, action: Exchange) -> None:
    assert isinstance(action, Exchange)
    st.spend(st.country, action.card)
    paid = held(st.flags.recalling) + st.sc.symbols_of(action.card)
    if paid >= rules(st)["raid_recall_symbols"]:
        st.flags.recalling = None
        st.flags.recalled = True
        st.note("Germany call the raiders home: they may sail from the raid box this round")
    else:
        st.flags.recalling = paid


# ----- 8.2 sea battles ---------------------------------------------------------------------------------------------
def battle_seas(st: St) -> list[str]:
    return [s for s in SEAS if any(c.fighting for c in on_side(st, s, GERMANY))
            and any(c.fighting for c in on_side(st, s, ALLIES))]


def attacker_side(st: St) -> str:
    """The side with the initiative: the country whose round it is; Germany on 9 April."""
    return side(st.country)


def after_sea_combat(st: St) -> str:
    if st.terminal:
        return "over"
    return "sea_pick" if battle_seas(st) else finish_sea_combat(st)


def finish_sea_combat(st: St) -> str:
    """No battle is left: ships that showed themselves but found nobody hide again."""
    for _sea, card in st.fleet.all():
        if card.fighting or card.found:
            card.fighting = card.found = False
            card.face_up = stype(st, card.key).face_up
    st.flags.sea_done = True
    st.flags.intercepted_by = frozenset()
    if st.april:
        return "raid"
    return steps.after_movement(st)


def start_sea_battle(st: St, action: Sea) -> None:
    assert isinstance(action, Sea)
    start_battle(st, action.sea, attacker_side(st), landing=False)


def start_battle(st: St, sea: str, attacker: str, landing: bool) -> None:
    st.sea_battle = SeaBattle(sea, attacker, landing=landing)
    e = eidsvoll(st)
    if e and st.fleet.where(e) == sea:  # it joins every battle in its area on the Allied side (8.2)
        st.fleet.card(e).fighting = True
    st.note(f"Sea battle in sea area {sea}: {fighters(st, GERMANY)} against {fighters(st, ALLIES)}")


def fighters(st: St, s: str) -> str:
    sb = st.sea_battle
    assert sb is not None
    return ", ".join(ship_name(st, c.key) for c in on_side(st, sb.sea, s) if c.fighting) or "nobody"


def join_seat(st: St) -> str:
    """The side whose ships were found (and which did not itself intercept) may add its other ships (8.2)."""
    sb = st.sea_battle
    if sb is None or sb.landing or st.flags.joined:
        return ""
    tried = st.flags.intercepted_by
    for s in (GERMANY, ALLIES):
        if (sb.sea, s) not in tried and (sb.sea, foe(s)) in tried:
            country = GERMANY if s == GERMANY else ALLIES
            if any(not c.fighting for c in st.fleet.ships(sb.sea, country)):
                return country
    return ""


def legal_join(st: St) -> list[Any]:
    sb = st.sea_battle
    assert sb is not None
    c = join_seat(st)
    return [*(Join(card.key) for card in st.fleet.ships(sb.sea, c) if not card.fighting
              and not stype(st, card.key).false_ship), DONE]


def apply_join(st: St, action: Done | Join) -> None:
    if isinstance(action, Done):
        st.flags.joined = True
        return
    assert isinstance(action, Join)
    card = st.fleet.card(action.key)
    card.fighting = True
    card.face_up = True
    st.note(f"{ship_name(st, action.key)} joins the battle")


def sea_card_seats(st: St, step: str) -> list[str]:
    """Asked at a sea battle's card step: the country in its round (steps 1 and 3), the defending side's
    country (step 2: Germany, or the Allies for the Allied side); only if it holds cards."""
    sb = st.sea_battle
    assert sb is not None
    defender = GERMANY if foe(sb.attacker) == GERMANY else ALLIES
    seats = [defender] if step == "sea_defend_cards" else [st.country]
    return [c for c in seats if st.hands[c]]


def role_of(sb: SeaBattle, country: str) -> str:
    return "attacker" if side(country) == sb.attacker else "defender"


def sea_playable(st: St, country: str, step: str) -> list[Play]:
    out: list[Play] = []
    for key in dict.fromkeys(st.hands[country]):
        fits = sea_uses(st, country, key, step)
        out.extend([Play(key)] if len(fits) == 1 else [Play(key, i) for i in fits])
    return out


def sea_uses(st: St, country: str, key: str, step: str) -> list[int]:
    """The uses of a card in hand that `country` may play at this card step of the sea battle: one card per
    type and side and step, only with ships in the battle (unless the use works anywhere)."""
    sb = st.sea_battle
    assert sb is not None
    role = role_of(sb, country)
    card = card_of(st, key)
    if card.deck != deck_now(st) or not advanced_met(st, card, sea=sb.sea) or any(
            p.side == role and p.step == step and p.type == card.type for p in sb.played):
        return []
    present = any(c.fighting for c in st.fleet.ships(sb.sea, country))
    timings = timings_now(st, STEPS[step].timings)
    return [i for i, use in enumerate(card.uses) if use.step == step and use.timing in timings
            and allowed(st, use) and use.effect in ("strike", "cancel") and (present or use.anywhere)
            and all(sea_requirement(st, sb.sea, need) for need in use.requires)
            and (use.effect != "cancel" or has_target(sb.played, role, use))]


def sea_requirement(st: St, sea: str, need: str) -> bool:
    if need == "sea_air_range":
        return st.sc.board.sea_in_air_range(sea, german_airfields(st))
    if need == "allied_sea_zone":
        return naval.may_enter(ALLIES, sea) and sea in COAST
    return False


def begin_sea_cards(step: str) -> Callable[[St], None]:
    def begin(st: St) -> None:
        assert st.sea_battle is not None
        st.sea_battle.seats = sea_card_seats(st, step)
    return begin


def play_sea_card(st: St, country: str, action: Play, step: str) -> None:
    sb = st.sea_battle
    assert sb is not None
    card = card_of(st, action.card)
    use = card.uses[action.use if action.use is not None else sea_uses(st, country, action.card, step)[0]]
    st.spend(country, action.card)
    sb.played.append(Played(country, action.card, card.type, step, use, role_of(sb, country)))
    st.note(f"{st.sc.names[country]} play {card.name}: {use.text}")


def apply_sea_card(step: str) -> Callable[[St, Any], None]:
    return steps.card_window(lambda st: st.sea_battle, lambda st, seat, action: play_sea_card(st, seat, action, step))


def sea_card_step(name: str, nxt: str) -> Step[St]:
    return Step(name, "combat", actor=lambda st: st.sea_battle.seats[0] if st.sea_battle and st.sea_battle.seats
                else "", legal=lambda st: [*sea_playable(st, st.sea_battle.seats[0] if st.sea_battle else "", name),
                                           DONE],
                apply=apply_sea_card(name), on_begin=begin_sea_cards(name),
                end_if=lambda st: st.sea_battle is None or not st.sea_battle.seats, next=goto(nxt))


def set_aside(sb: SeaBattle) -> set[str]:
    return {h.target for h in sb.hits}


def targets_of(st: St, role: str) -> list[ShipCard]:
    """The enemy ships a side may still hit: fighting, not yet set aside."""
    sb = st.sea_battle
    assert sb is not None
    enemy = foe(sb.attacker) if role == "attacker" else sb.attacker
    gone = set_aside(sb)
    return [c for c in on_side(st, sb.sea, enemy) if c.fighting and c.key not in gone]


def begin_strikes(st: St) -> None:
    """Strike cards in effect roll after the card steps, in the order played (docs/kampen-cards.md)."""
    sb = st.sea_battle
    assert sb is not None
    if not st.flags.strikes_listed:
        st.flags.strikes_listed = True
        sb.strikes = [i for i, (p, ok) in enumerate(zip(sb.played, in_effect(sb.played), strict=True))
                      if ok and p.use.effect == "strike"]
    while sb.strikes and not targets_of(st, sb.played[sb.strikes[0]].side):
        sb.strikes.pop(0)
    st.flags.chance = draw_dice(1, len(targets_of(st, sb.played[sb.strikes[0]].side))) if sb.strikes else None


def apply_strike(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    sb = st.sea_battle
    assert sb is not None
    p = sb.played[sb.strikes.pop(0)]
    outcome = roll_table(st, p.use).outcome(roll.values[0])
    targets = targets_of(st, p.side)
    st.note(f"{card_of(st, p.card).name} rolls {steps.faces(roll.values[:1])}: {outcome or 'no effect'}")
    if outcome in ("sink", "chase"):
        first = eidsvoll(st) if outcome == "sink" and side(p.country) == GERMANY else ""
        chosen = next((c for c in targets if c.key == first), None) or targets[roll.values[1] - 1]
        sb.hits.append(naval.Hit(chosen.key, outcome))
    begin_strikes(st)


def shooters(st: St, role: str) -> list[ShipCard]:
    sb = st.sea_battle
    assert sb is not None
    own = sb.attacker if role == "attacker" else foe(sb.attacker)
    return [c for c in on_side(st, sb.sea, own) if c.fighting and not stype(st, c.key).false_ship]


def begin_fire(st: St) -> None:
    """Each side's ships fire in turn, best first; ships already hit still fire (8.2 steps 4-5)."""
    sb = st.sea_battle
    assert sb is not None
    while sb.fired < 2:
        role = "attacker" if sb.fired == 0 else "defender"
        guns, targets = shooters(st, role), targets_of(st, role)
        if guns and targets:
            st.flags.chance = draw_dice(len(guns), len(targets))
            return
        sb.fired += 1
    st.flags.chance = None


def apply_fire(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    sb = st.sea_battle
    assert sb is not None
    role = "attacker" if sb.fired == 0 else "defender"
    guns, targets = shooters(st, role), targets_of(st, role)
    faces = roll.values[:len(guns)]
    first = eidsvoll(st) if (sb.attacker if role == "attacker" else foe(sb.attacker)) == GERMANY else ""
    hits = naval.volley(st.sc.cards.ships, guns, faces, targets, roll.values[len(guns):], first_sunk=first)
    sb.hits.extend(hits)
    order = naval.fire_order(st.sc.cards.ships, guns)
    st.note(f"{'Germany' if side(guns[0].owner) == GERMANY else 'The Allied side'} fire: "
            + ", ".join(f"{ship_name(st, g.key)} [{f}]" for g, f in zip(order, faces, strict=False))
            + (": " + ", ".join(f"{ship_name(st, h.target)} {'sunk' if h.outcome == 'sink' else 'chased'}"
                                for h in hits) if hits else ": no hits"))
    sb.fired += 1
    begin_fire(st)


def sailors_open(st: St) -> bool:
    """Evakuerte matroser may answer German ships sunk in a 9 April battle off the coast (asked whatever
    Germany holds)."""
    sb = st.sea_battle
    assert sb is not None
    lost = any(h.outcome == "sink" and st.fleet.card(h.target).owner == GERMANY for h in sb.hits)
    return st.april and lost and sb.sea in COAST and bool(st.hands[GERMANY])


def sailors_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, GERMANY, action.card, "sea_removal")
    st.flags.sailors = use.count("battalions", 1)


def legal_sailors(st: St) -> list[Any]:
    sb = st.sea_battle
    assert sb is not None
    n = st.flags.sailors
    areas = [a for a in sorted(st.sc.board.coastal({sb.sea})) if not st.hostile(a, GERMANY)]
    return [Place(a, n) for a in areas] or [DONE]


def apply_sailors(st: St, action: Place | Done) -> None:
    st.flags.sailors = 0
    if isinstance(action, Place):
        st.add(action.area, GERMANY, action.n)
        st.note(f"Sailors of the sunk ships come ashore in {st.name(action.area)} as a German battalion")


def settle_hits(st: St) -> None:
    """Step 6-7: sunk ships leave (with their card losses); Eidsvoll & Norge chased is sunk; the chased wait for
    the enemy to send them away."""
    sb = st.sea_battle
    assert sb is not None
    for hit in sb.hits:
        owner = st.fleet.card(hit.target).owner
        if hit.outcome == "sink" or stype(st, hit.target).chased_is_sunk or not exits(st, sb.sea, owner):
            sink(st, hit.target)
        else:
            sb.chased.append(hit.target)
    sb.hits = []


def chase_seat(st: St) -> str:
    sb = st.sea_battle
    if sb is None or not sb.chased:
        return ""
    sea = sb.sea
    return seat(st, sea, foe(side(st.fleet.card(sb.chased[0]).owner)))


def legal_chase(st: St) -> list[Any]:
    sb = st.sea_battle
    assert sb is not None
    key = sb.chased[0]
    return [Ship(key, s) for s in exits(st, sb.sea, st.fleet.card(key).owner)]


def apply_chase(st: St, action: Ship) -> None:
    """assumption: (8.2 open question) a chased ship goes only where its owner could sail, never into the raid
    box; a German ship chased in Eidsvoll & Norge's fight before landing (7.2) lands nothing. A ship chased in
    the 9 April sea battles may still land from a coastal sea area it is chased into (not from VIII)."""
    assert isinstance(action, Ship)
    sb = st.sea_battle
    assert sb is not None
    sb.chased.pop(0)
    card = st.fleet.remove(sb.sea, action.key)
    card.fighting = card.found = False
    card.face_up = stype(st, action.key).face_up
    st.fleet.place(action.sea, card)
    st.landings = [x for x in st.landings if x[0] != action.key]
    st.note(f"{ship_name(st, action.key)} is chased into sea area {action.sea}")


def end_sea_battle(st: St) -> None:
    """Step 8: the survivors hide again."""
    sb = st.sea_battle
    assert sb is not None
    for card in st.fleet.ships(sb.sea):
        if card.fighting:
            if stype(st, card.key).chased_is_sunk:
                st.flags.eidsvoll_fought = True
            card.fighting = card.found = False
            card.face_up = stype(st, card.key).face_up
    st.sea_battle = None
    st.flags.joined = False
    st.flags.strikes_listed = False


def after_sea_battle(st: St) -> str:
    if st.terminal:
        return "over"
    if st.flags.landing_battle:
        st.flags.landing_battle = False
        return "landing_battles"
    return "sea_combat"


# ----- 5.2 the Allies' ships when their deck runs out -----------------------------------------------------------
def legal_withdraw(st: St) -> list[Any]:
    """At most one smaller ship and one heavy cruiser; the rest battleships or carriers, while there are any."""
    ships = allied_ships(st)
    taken = st.flags.withdrawn
    big = [k for k in ships if stype(st, k).id in ("battleship", "carrier")]
    small = [k for k in ships if stype(st, k).id in ("smaller", "heavy_cruiser") and stype(st, k).id not in taken]
    keys = big + small or ships
    return [Withdraw(k) for k in keys]


def forget(st: St, key: str) -> None:
    """A ship card that left the board mid-round (withdrawn at once when the Allied deck ran out) is dropped from
    whatever the round still holds it for: the sea battle's hits and chases, the group sailing, the cards an
    interception is rolling for."""
    sb = st.sea_battle
    if sb is not None:
        sb.chased = [k for k in sb.chased if k != key]
        sb.hits = [h for h in sb.hits if h.target != key]
    sailing = st.flags.sailing
    if sailing:
        st.flags.sailing = (sailing[0], tuple(k for k in sailing[1] if k != key))
    rolling = st.flags.icept_roll
    if rolling:
        st.flags.icept_roll = (rolling[0], rolling[1], tuple(k for k in rolling[2] if k != key))


def apply_withdraw(st: St, action: Withdraw) -> None:
    assert isinstance(action, Withdraw)
    if action.key in st.ships_hand[ALLIES]:
        st.ships_hand[ALLIES].remove(action.key)
    else:
        st.fleet.remove(st.fleet.where(action.key), action.key)
        forget(st, action.key)
    st.flags.withdrawn = (*st.flags.withdrawn, stype(st, action.key).id)
    st.flags.ships_out -= 1
    st.note(f"{ship_name(st, action.key)} leaves Norwegian waters")
    if not allied_ships(st):
        st.flags.ships_out = 0


# ----- 8.3 advanced placement -----------------------------------------------------------------------------------------
# ----- the flow -----------------------------------------------------------------------------------------------------


def clear_smoke(st: St) -> str:
    st.flags.smoke_keys = ()
    return after_icept(st)


def no_ships_to_move(st: St) -> None:
    if not has_ships(st, st.country):
        st.flags.sea_moved = True


def flow_steps() -> list[Step[St]]:
    return [
        # 7.1 and 8.1 interception
        Step("april_icept", "9 April: interception", on_begin=begin_april_icept,
             next=lambda st: "icept_ask" if st.flags.icept else "move"),
        Step("icept_ask", "movement", actor=icept_seat, legal=legal_icept, apply=apply_icept,
             end_if=lambda st: bool(st.flags.icept_roll) or not icept_seat(st) or bool(
                 st.flags.smoke_keys), next=after_icept),
        Step("icept_roll", "movement", actor=lambda st: CHANCE, apply=apply_icept_roll, on_begin=begin_icept_roll,
             end_if=lambda st: not st.flags.icept_roll, next=after_icept),
        window("smoke", "movement", lambda st: GERMANY,
               lambda st: cards_for(st, GERMANY, "interception", "smoke_screen"), smoke_play,
               lambda st: "smoke_target" if st.flags.smoke else clear_smoke(st)),
        Step("smoke_target", "movement", actor=lambda st: GERMANY, legal=legal_smoke, apply=apply_smoke,
             end_if=lambda st: not st.flags.smoke, next=after_icept),
        # 8.1 movement at sea
        Step("sea_move", "movement", actor=lambda st: st.country, legal=legal_sea_move, apply=apply_sea_move,
             on_begin=no_ships_to_move,
             end_if=lambda st: bool(st.flags.sea_moved or st.flags.icept
                                    or st.flags.recalling is not None), next=after_sea_move),
        Step("recall_pay", "movement", actor=lambda st: st.country,
             legal=lambda st: [Exchange(k) for k in dict.fromkeys(st.hands[st.country])], apply=apply_recall_pay,
             end_if=lambda st: st.flags.recalling is None, next=goto("sea_move")),
        # 8.2 sea battles
        Step("sea_combat", "combat", next=after_sea_combat),
        Step("sea_pick", "combat", actor=lambda st: st.country,
             legal=lambda st: [Sea(s) for s in battle_seas(st)], apply=start_sea_battle,
             on_begin=lambda st: start_battle(st, battle_seas(st)[0], attacker_side(st), False) if len(
                 battle_seas(st)) == 1 else None, end_if=lambda st: st.sea_battle is not None, next=goto("sea_join")),
        Step("sea_join", "combat", actor=join_seat, legal=legal_join, apply=apply_join,
             end_if=lambda st: not join_seat(st), next=goto("sea_attack_cards")),
        sea_card_step("sea_attack_cards", "sea_defend_cards"),
        sea_card_step("sea_defend_cards", "sea_react_cards"),
        sea_card_step("sea_react_cards", "sea_strike"),
        Step("sea_strike", "combat", actor=lambda st: CHANCE, apply=apply_strike, on_begin=begin_strikes,
             end_if=lambda st: st.sea_battle is not None and not st.sea_battle.strikes, next=goto("sea_fire")),
        Step("sea_fire", "combat", actor=lambda st: CHANCE, apply=apply_fire, on_begin=begin_fire,
             end_if=lambda st: st.sea_battle is not None and st.sea_battle.fired >= 2,
             next=lambda st: "sailors" if sailors_open(st) else "sea_settle"),
        window("sailors", "combat", lambda st: GERMANY,
               lambda st: cards_for(st, GERMANY, "sea_removal", "sailors_ashore"), sailors_play,
               lambda st: "sailors_target" if st.flags.sailors else "sea_settle"),
        Step("sailors_target", "combat", actor=lambda st: GERMANY, legal=legal_sailors, apply=apply_sailors,
             end_if=lambda st: not st.flags.sailors, next=goto("sea_settle")),
        Step("sea_settle", "combat", on_begin=settle_hits,
             next=lambda st: "over" if st.terminal else "sea_chase"),
        Step("sea_chase", "combat", actor=chase_seat, legal=legal_chase, apply=apply_chase,
             end_if=lambda st: not chase_seat(st), next=goto("sea_end")),
        Step("sea_end", "combat", on_begin=end_sea_battle, next=after_sea_battle),
        # 5.2
        Step("ship_withdrawal", "new cards", actor=lambda st: ALLIES, legal=legal_withdraw, apply=apply_withdraw,
             end_if=lambda st: not st.flags.ships_out,
             next=lambda st: "resume" if st.flags.resume else "round_end"),
    ]
