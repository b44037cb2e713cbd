"""The 9 April round of the advanced game (K-digest 7), which replaces the basic setup: choosing 9 April cards
and drawing ships, deployment, interception (with `sea.py`), the air drops, sea battles, raids, landings
against Eidsvoll & Norge, mines, coastal forts and Norwegian resistance, the land battles, mobilisation,
reinforcement country by country, and the new hands of 7.4.

Decisions the rulebook leaves open are marked `assumption:` where they are made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import warroom.rulesets.kampen.decks as decks
import warroom.rulesets.kampen.manoeuvre as manoeuvre
import warroom.rulesets.kampen.naval as naval
import warroom.rulesets.kampen.steps as steps
from warroom.core.dice import Dice, MixedDice, Roll, shuffled
from warroom.core.flow import Step, goto
from warroom.core.state import CHANCE
from warroom.rulesets.kampen.actions import DONE, Choose, Done, Land, Move, Place, Play, Raid, Sail, Sea, Ship
from warroom.rulesets.kampen.cards import APRIL9_CHOOSE
from warroom.rulesets.kampen.coast import COAST, SEAS
from warroom.rulesets.kampen.describe import ship_name
from warroom.rulesets.kampen.sea import (
    RAID,
    St,
    cards_for,
    draw_dice,
    eidsvoll,
    exits,
    lose_cards,
    put_to_sea,
    rules,
    sink,
    start_battle,
    stype,
    window,
)
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY


def begin_opening(st: St) -> None:
    """After the play decks are shuffled: the 9 April decks and the ships are handed out (7.0)."""
    for c in st.sc.countries:
        st.april_deck[c] = st.sc.april_deck(c)
    st.ships_hand[GERMANY] = st.sc.ship_keys(GERMANY)
    st.ships_hand[NORWAY] = st.sc.ship_keys(NORWAY)
    st.april = True
    st.round = 0
    st.country = GERMANY
    st.flags.choosing = st.sc.countries
    st.note("--- The 9 April round ---")


def choosing(st: St) -> str:
    order: tuple[str, ...] = st.flags.choosing
    return order[0] if order else ""


def apply_choose(st: St, action: Choose) -> None:
    assert isinstance(action, Choose)
    c = choosing(st)
    st.april_deck[c].remove(action.card)
    st.hands[c].append(action.card)
    if len(st.hands[c]) >= APRIL9_CHOOSE[c] or not st.april_deck[c]:
        st.flags.choosing = st.flags.choosing[1:]
        st.note(f"{st.sc.names[c]} have chosen {len(st.hands[c])} 9 April cards")


def begin_allied_draw(st: St) -> None:
    st.flags.chance = MixedDice.shuffle(len(st.sc.ship_keys(ALLIES)))


def apply_allied_draw(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    order = shuffled(st.sc.ship_keys(ALLIES), roll)
    n = rules(st)["april_ships"]
    st.ships_hand[ALLIES], st.reserve = order[:n], order[n:]
    st.note(f"The Allies draw {n} of their {len(order)} ships; the rest wait for the Home Fleet")


def extra_ships(st: St, action: Play) -> None:
    """Skip til unnsetning: more Allied ships for the 9 April round, from those set aside."""
    use = manoeuvre.play_card(st, ALLIES, action.card, "april_select")
    n = min(use.count("ships", 1), len(st.reserve))
    st.ships_hand[ALLIES].extend(st.reserve[:n])
    del st.reserve[:n]


def begin_norway_deploy(st: St) -> None:
    r = rules(st)
    for area, n in r["norway_start"].items():
        st.add(area, NORWAY, int(n))
        st.note(f"Norway places {n} battalion{'s' * (int(n) > 1)} in {st.name(area)}")
    tasks = ["oslo"] * int(r["oslo_or_neighbour"]) + ["mob"] * int(r["mobilisation_points"])
    st.flags.deploy = (*tasks, *(["ship"] * len(st.ships_hand[NORWAY])))
    st.flags.mob_used = ()


def legal_norway_deploy(st: St) -> list[Any]:
    task = st.flags.deploy[0]
    board = st.sc.board
    if task == "oslo":
        return [Place(a) for a in ("oslo", *board.neighbours("oslo"))]
    if task == "mob":
        return [Place(a) for a in sorted(board.mobilisation_points) if a not in st.flags.mob_used]
    banned = set(rules(st)["eidsvoll_not_in"])
    return [Ship(k, s) for k in st.ships_hand[NORWAY] for s in SEAS if s not in banned]


def apply_norway_deploy(st: St, action: Ship | Place) -> None:
    task = st.flags.deploy[0]
    st.flags.deploy = st.flags.deploy[1:]
    if isinstance(action, Ship):
        put_to_sea(st, NORWAY, action)
        return
    assert isinstance(action, Place)
    st.add(action.area, NORWAY, 1)
    if task == "mob":
        st.flags.mob_used = (*st.flags.mob_used, action.area)
    st.note(f"Norway places a battalion in {st.name(action.area)}")


def legal_ship_deploy(country: str, seas: Callable[[St], list[str]]) -> Callable[[St], list[Any]]:
    def legal(st: St) -> list[Any]:
        open_seas = seas(st)  # once, not once a ship: the same for every ship in hand
        return [Ship(k, s) for k in st.ships_hand[country] for s in open_seas]
    return legal


def allied_seas(st: St) -> list[str]:
    return [s for s in SEAS if naval.may_enter(ALLIES, s)]


def recon_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, ALLIES, action.card, "april_deploy")
    st.flags.recon = str(use.params["roll"])


def begin_recon_roll(st: St) -> None:
    n = len(st.fleet.ships(st.flags.recon_sea, GERMANY))
    st.flags.chance = draw_dice(n, n)


def apply_recon_roll(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    sea, recon = st.flags.recon_sea, st.flags.recon
    st.flags.recon_sea = st.flags.recon = ""
    table = st.sc.cards.ships.rolls[recon]
    cards = [c.key for c in st.fleet.ships(sea, GERMANY)]
    hits = naval.successes(table, roll.values[:len(cards)])
    seen = shuffled(cards, Roll(roll.values[len(cards):]))[:hits]
    st.spotted.update(seen)
    st.note(f"Reconnaissance over sea area {sea}: {steps.faces(roll.values[:len(cards)])}; the Allies look at "
            f"{len(seen)} German ship card{'s' * (len(seen) != 1)}")


def feint_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, GERMANY, action.card, "april_deploy")
    st.flags.feint = use.count("ships", 1)


def legal_feint(st: St) -> list[Any]:
    out: list[Any] = []
    for sea, card in st.fleet.all():
        if card.owner == GERMANY and sea != RAID and card.key not in st.flags.feinted:
            out.extend(Sail(sea, to, card.key) for to in exits(st, sea, GERMANY))
    return [*out, DONE]


def apply_feint(st: St, action: Done | Sail) -> None:
    if isinstance(action, Done):
        st.flags.feint = 0
        return
    assert isinstance(action, Sail)
    card = st.fleet.remove(action.frm, action.key)
    st.fleet.place(action.to, card)
    st.flags.feinted |= {card.key}
    st.flags.feint -= 1
    st.note(f"Germany shift a ship card from sea area {action.frm} to {action.to}")


def redeploy_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, NORWAY, action.card, "april_deploy")
    st.flags.redeploy = use.count("battalions", 1)


def legal_redeploy(st: St) -> list[Any]:
    board = st.sc.board
    points = sorted(board.mobilisation_points | board.point_cities)
    out: list[Any] = [Move(a, p) for a in sorted(st.troops) if st.at(a, NORWAY) for p in points
                      if p != a and not st.at(p, NORWAY) and not st.at(p, GERMANY)]
    return [*out, DONE]


def apply_redeploy(st: St, action: Done | Move) -> None:
    if isinstance(action, Done):
        st.flags.redeploy = 0
        return
    assert isinstance(action, Move)
    st.add(action.frm, NORWAY, -1)
    st.add(action.to, NORWAY, 1)
    st.flags.redeploy -= 1
    st.note(f"Norway shift a battalion from {st.name(action.frm)} to {st.name(action.to)}")


def legal_raid(st: St) -> list[Any]:
    out: list[Any] = [Raid(c.key) for s in rules(st)["raid_from"] for c in st.fleet.ships(s, GERMANY)
                      if stype(st, c.key).raid_loss > 0]
    return [*out, DONE]


def apply_raid(st: St, action: Done | Raid) -> None:
    if isinstance(action, Done):
        st.flags.raided = True
        return
    assert isinstance(action, Raid)
    card = st.fleet.remove(st.fleet.where(action.key), action.key)
    card.face_up = True
    st.fleet.place(RAID, card)
    st.note(f"{ship_name(st, action.key)} goes raiding")
    lose_cards(st, ALLIES, stype(st, action.key).raid_loss, f"{ship_name(st, action.key)} raiding")


def legal_landing(st: St) -> list[Any]:
    """assumption: (7.2 open question) a false ship carries no battalion, so it cannot land."""
    declared = {x[0] for x in st.landings}
    out: list[Any] = []
    for sea in COAST:
        areas = sorted(st.sc.board.coastal({sea}))
        for card in st.fleet.ships(sea, GERMANY):
            if card.key not in declared and not stype(st, card.key).false_ship:
                out.extend(Land(card.key, a) for a in areas)
    return [*out, DONE]


def apply_landing(st: St, action: Done | Land) -> None:
    if isinstance(action, Done):
        st.flags.landing_done = True
        return
    assert isinstance(action, Land)
    st.landings.append((action.key, st.fleet.where(action.key), action.area))


def begin_landing_battles(st: St) -> None:
    """German ships landing from the sea area of Eidsvoll & Norge fight it first, unless it has fought (7.2)."""
    e = eidsvoll(st)
    sea = st.fleet.where(e) if e else ""
    ships = [k for k, s, _a in st.landings if s == sea]
    if e and ships and not st.flags.eidsvoll_fought:
        for key in ships:
            st.fleet.card(key).fighting = True
            st.fleet.card(key).face_up = True
        st.flags.landing_battle = True
        start_battle(st, sea, GERMANY, landing=True)


def mines_open(st: St) -> bool:
    return bool(st.hands[ALLIES]) and any(s in COAST and naval.may_enter(ALLIES, s) for _k, s, _a in st.landings)


def mines_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, ALLIES, action.card, "landing")
    st.flags.mines = str(use.params["roll"])


def begin_mines_roll(st: St) -> None:
    n = sum(1 for _k, s, _a in st.landings if s == st.flags.mines_sea)
    st.flags.chance = Dice(n)


def apply_mines_roll(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    sea, mines = st.flags.mines_sea, st.flags.mines
    st.flags.mines_sea = st.flags.mines = ""
    table = st.sc.cards.ships.rolls[mines]
    keys = [k for k, s, _a in st.landings if s == sea]
    st.note(f"Mines in sea area {sea}: {steps.faces(roll.values)}")
    for key, face in zip(keys, roll.values, strict=True):
        if table.outcome(face) == "sink":
            sink(st, key)


def fort_open(st: St) -> bool:
    cities = st.sc.board.point_cities
    return bool(st.hands[NORWAY]) and any(a in cities for _k, _s, a in st.landings)


def fort_play(st: St, action: Play) -> None:
    use = manoeuvre.play_card(st, NORWAY, action.card, "landing")
    st.flags.fort = str(use.params["roll"])


def begin_fort_roll(st: St) -> None:
    n = sum(1 for _k, _s, a in st.landings if a == st.flags.fort_city)
    st.flags.chance = MixedDice((6, n))


def apply_fort_roll(st: St, roll: Roll) -> None:
    """Kystfort (6.1): a sink result sinks one landing ship drawn at random and the rest land elsewhere; a bar
    result sends them all elsewhere on the same sea area."""
    assert isinstance(roll, Roll)
    city, fort = st.flags.fort_city, st.flags.fort
    st.flags.fort_city = st.flags.fort = ""
    outcome = st.sc.cards.ships.rolls[fort].outcome(roll.values[0])
    st.note(f"Kystfort at {st.name(city)}: {steps.faces(roll.values[:1])}, {outcome or 'no effect'}")
    here = [k for k, _s, a in st.landings if a == city]
    if outcome == "sink":
        sink(st, here[roll.values[1] - 1])
    if outcome in ("sink", "bar"):
        barred = st.flags.barred
        st.flags.barred = barred | {city}
        st.flags.diverting = tuple(k for k, _s, a in st.landings if a == city)


def legal_divert(st: St) -> list[Any]:
    barred = st.flags.barred
    out: list[Any] = []
    for key, sea, area in st.landings:
        if key in st.flags.diverting:
            out.extend(Land(key, a) for a in sorted(st.sc.board.coastal({sea})) if a not in barred and a != area)
    return out


def apply_divert(st: St, action: Land) -> None:
    assert isinstance(action, Land)
    st.landings = [(k, s, action.area if k == action.key else a) for k, s, a in st.landings]
    st.flags.diverting = tuple(k for k in st.flags.diverting if k != action.key)


def end_divert(st: St) -> str:
    """Landings with nowhere else to go on their sea area are given up (the ship stays at sea)."""
    stuck = set(st.flags.diverting)
    if stuck:
        st.landings = [x for x in st.landings if x[0] not in stuck]
        st.note(f"{len(stuck)} landing{'s' * (len(stuck) > 1)} find no other beach and are given up")
    st.flags.diverting = ()
    return "resistance" if st.flags.fort_closed else "kystfort"


def resistance_cities(st: St) -> list[str]:
    """Point cities where German battalions land and that Germany does not already hold (paratroops there
    already: no Norwegian can gather; assumption, so that enemies never share an area)."""
    cities = st.sc.board.point_cities
    return sorted({a for _k, _s, a in st.landings if a in cities and not st.at(a, GERMANY)})


def apply_resistance(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    table = st.sc.cards.ships.rolls["resistance"]
    for city, face in zip(resistance_cities(st), roll.values, strict=True):
        if table.outcome(face) == "success":
            st.add(city, NORWAY, 1)
            st.flags.mobilised = (*st.flags.mobilised, city)
            st.note(f"Resistance at {st.name(city)} [{face}]: Norway mobilises a battalion in time")
        else:
            st.note(f"Resistance at {st.name(city)} [{face}]: too late")
    st.flags.resisted = True


def land_battalions(st: St) -> None:
    """The surviving landings come ashore, one battalion per ship; into Norwegian-held areas they attack."""
    for key, _sea, area in st.landings:
        st.fleet.card(key).face_up = True  # the landing shows the ship (Example 4)
        manoeuvre.arrive(st, "", area, 1, by_sea_or_air=True)
    st.landings = []


def begin_mobilise(st: St) -> None:
    board = st.sc.board
    if st.holder(board.telegraph) == GERMANY:
        lose_cards(st, ALLIES, int(rules(st)["telegraph_cards"]),
                   f"Germany cut the telegraph at {st.name(board.telegraph)}")
    done = set(st.flags.mobilised)
    for city in sorted(board.point_cities):
        if city not in done and not st.at(city, GERMANY):
            st.add(city, NORWAY, 1)
            st.note(f"Norway mobilises a battalion in {st.name(city)}")
    free = [p for p in board.mobilisation_points if not st.at(p, GERMANY)]
    st.flags.mobilising = len(free) // 2
    st.placed = set()


def legal_mobilise(st: St) -> list[Any]:
    return [Place(p) for p in sorted(st.sc.board.mobilisation_points) if not st.at(p, GERMANY)
            and p not in st.placed]


def apply_mobilise(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    st.add(action.area, NORWAY, 1)
    st.placed.add(action.area)
    st.flags.mobilising -= 1
    st.note(f"Norway mobilises a battalion at {st.name(action.area)}")


def begin_april_reinforce(st: St) -> None:
    st.country = st.flags.reinforcing
    st.placed = set()
    st.flags.airfield_places = 0
    st.flags.sea_places = ()


def after_april_place(st: St) -> str:
    order = st.sc.countries
    i = order.index(st.country) + 1
    if i < len(order):
        st.flags.reinforcing = order[i]
        return "april_reinforce"
    return "april_end"


def end_april(st: St) -> None:
    """7.4: the 9 April cards leave, false ships go, everyone draws a hand, the Home Fleet waits to sail."""
    for c in st.sc.countries:
        st.hands[c] = [k for k in st.hands[c] if not st.sc.is_april(k)]
        st.april_deck[c] = []
    for sea, card in st.fleet.all():
        if stype(st, card.key).false_ship:
            st.fleet.remove(sea, card.key)
        elif sea != RAID:
            card.face_up = stype(st, card.key).face_up
    st.april = False
    st.spotted = set()  # assumption: a look at dawn tells nothing once the fleets have sailed
    st.ships_hand[ALLIES].extend(st.reserve)
    st.reserve = []
    st.allies_landed = True
    for c in st.sc.countries:
        decks.fill_hand(st, c)
    st.round = 1
    st.country = GERMANY
    st.note("The 9 April round is over: the false ships vanish and the Home Fleet is coming")


def close_forts(st: St) -> str:
    st.flags.fort_closed = True
    return "divert"


def aim_recon(st: St, action: Sea) -> None:
    assert isinstance(action, Sea)
    st.flags.recon_sea = action.sea


def aim_mines(st: St, action: Sea) -> None:
    assert isinstance(action, Sea)
    st.flags.mines_sea = action.sea


def aim_fort(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    st.flags.fort_city = action.area


def begin_raid(st: St) -> None:
    st.flags.raided = not any(st.fleet.ships(s, GERMANY) for s in rules(st)["raid_from"])


def begin_resistance(st: St) -> None:
    st.flags.chance = Dice(max(1, len(resistance_cities(st))))


def flow_steps() -> list[Step[St]]:
    return [
        # 7.0 opening
        Step("april_open", "9 April: opening", on_begin=begin_opening, next=goto("april_choose")),
        Step("april_choose", "9 April: opening", actor=choosing,
             legal=lambda st: [Choose(k) for k in st.april_deck[choosing(st)]], apply=apply_choose,
             end_if=lambda st: not choosing(st), next=goto("allied_draw")),
        Step("allied_draw", "9 April: opening", actor=lambda st: CHANCE, apply=apply_allied_draw,
             on_begin=begin_allied_draw, end_if=lambda st: bool(st.ships_hand[ALLIES]), next=goto("april_select")),
        window("april_select", "9 April: opening", lambda st: ALLIES,
               lambda st: cards_for(st, ALLIES, "april_select", "extra_ships"), extra_ships,
               goto("deploy_norway")),
        Step("deploy_norway", "9 April: deployment", actor=lambda st: NORWAY, legal=legal_norway_deploy,
             apply=apply_norway_deploy, on_begin=begin_norway_deploy, end_if=lambda st: not st.flags.deploy,
             next=goto("deploy_germany")),
        Step("deploy_germany", "9 April: deployment", actor=lambda st: GERMANY,
             legal=legal_ship_deploy(GERMANY, lambda st: list(SEAS)),
             apply=lambda st, a: put_to_sea(st, GERMANY, a), end_if=lambda st: not st.ships_hand[GERMANY],
             next=goto("april_recon")),
        window("april_recon", "9 April: deployment", lambda st: ALLIES,
               lambda st: cards_for(st, ALLIES, "april_deploy", "reconnaissance"), recon_play,
               lambda st: "recon_target" if st.flags.recon else "deploy_allies",
               skip=lambda st: not any(st.fleet.ships(s, GERMANY) for s in SEAS)),
        Step("recon_target", "9 April: deployment", actor=lambda st: ALLIES,
             legal=lambda st: [Sea(s) for s in SEAS if st.fleet.ships(s, GERMANY)],
             apply=aim_recon, end_if=lambda st: bool(st.flags.recon_sea),
             next=goto("recon_roll")),
        Step("recon_roll", "9 April: deployment", actor=lambda st: CHANCE, apply=apply_recon_roll,
             on_begin=begin_recon_roll, end_if=lambda st: not st.flags.recon_sea, next=goto("deploy_allies")),
        Step("deploy_allies", "9 April: deployment", actor=lambda st: ALLIES,
             legal=legal_ship_deploy(ALLIES, allied_seas), apply=lambda st, a: put_to_sea(st, ALLIES, a),
             end_if=lambda st: not st.ships_hand[ALLIES], next=goto("april_feint")),
        window("april_feint", "9 April: deployment", lambda st: GERMANY,
               lambda st: cards_for(st, GERMANY, "april_deploy", "redeploy_ships"), feint_play,
               lambda st: "feint_moves" if st.flags.feint else "april_redeploy"),
        Step("feint_moves", "9 April: deployment", actor=lambda st: GERMANY, legal=legal_feint, apply=apply_feint,
             end_if=lambda st: not st.flags.feint, next=goto("april_redeploy")),
        window("april_redeploy", "9 April: deployment", lambda st: NORWAY,
               lambda st: cards_for(st, NORWAY, "april_deploy", "redeploy"), redeploy_play,
               lambda st: "redeploy_moves" if st.flags.redeploy else "april_icept"),
        Step("redeploy_moves", "9 April: deployment", actor=lambda st: NORWAY, legal=legal_redeploy,
             apply=apply_redeploy, end_if=lambda st: not st.flags.redeploy, next=goto("april_icept")),
        # 7.2 raiding and landings
        Step("raid", "9 April: combat", actor=lambda st: GERMANY, legal=legal_raid, apply=apply_raid,
             on_begin=begin_raid,
             end_if=lambda st: bool(st.flags.raided), next=goto("landing")),
        Step("landing", "9 April: landing", actor=lambda st: GERMANY, legal=legal_landing, apply=apply_landing,
             end_if=lambda st: bool(st.flags.landing_done), next=goto("landing_battles")),
        Step("landing_battles", "9 April: landing", on_begin=begin_landing_battles,
             next=lambda st: "sea_join" if st.sea_battle is not None else "mines"),
        window("mines", "9 April: landing", lambda st: ALLIES,
               lambda st: cards_for(st, ALLIES, "landing", "mines"), mines_play,
               lambda st: "mines_target" if st.flags.mines else "kystfort", skip=lambda st: not mines_open(st)),
        Step("mines_target", "9 April: landing", actor=lambda st: ALLIES,
             legal=lambda st: [Sea(s) for s in sorted({s for _k, s, _a in st.landings}, key=SEAS.index)
                               if naval.may_enter(ALLIES, s)],
             apply=aim_mines, end_if=lambda st: bool(st.flags.mines_sea),
             next=goto("mines_roll")),
        Step("mines_roll", "9 April: landing", actor=lambda st: CHANCE, apply=apply_mines_roll,
             on_begin=begin_mines_roll, end_if=lambda st: not st.flags.mines_sea,
             next=lambda st: "over" if st.terminal else "kystfort"),
        window("kystfort", "9 April: landing", lambda st: NORWAY,
               lambda st: cards_for(st, NORWAY, "landing", "coastal_fort"), fort_play,
               lambda st: "kystfort_target" if st.flags.fort else close_forts(st),
               skip=lambda st: not fort_open(st)),
        Step("kystfort_target", "9 April: landing", actor=lambda st: NORWAY,
             legal=lambda st: [Place(a) for a in sorted({a for _k, _s, a in st.landings})
                               if a in st.sc.board.point_cities and a not in st.flags.barred],
             apply=aim_fort, end_if=lambda st: bool(st.flags.fort_city),
             next=goto("kystfort_roll")),
        Step("kystfort_roll", "9 April: landing", actor=lambda st: CHANCE, apply=apply_fort_roll,
             on_begin=begin_fort_roll, end_if=lambda st: not st.flags.fort_city,
             next=lambda st: "over" if st.terminal else ("divert" if st.flags.diverting else "kystfort")),
        Step("divert", "9 April: landing", actor=lambda st: GERMANY, legal=legal_divert, apply=apply_divert,
             end_if=lambda st: not st.flags.diverting or not legal_divert(st),
             next=end_divert),
        Step("resistance", "9 April: landing", actor=lambda st: CHANCE, apply=apply_resistance,
             on_begin=begin_resistance,
             end_if=lambda st: not resistance_cities(st) or bool(st.flags.resisted), next=goto("ashore")),
        Step("ashore", "9 April: landing", on_begin=land_battalions,
             next=lambda st: "combat" if st.attacks else "april_mobilise"),
        # 7.3 and 7.4
        Step("april_mobilise", "9 April: reinforcement", on_begin=begin_mobilise, next=goto("mobilise")),
        Step("mobilise", "9 April: reinforcement", actor=lambda st: NORWAY, legal=legal_mobilise,
             apply=apply_mobilise, end_if=lambda st: not st.flags.mobilising or not legal_mobilise(st),
             next=goto("april_reinforce")),
        Step("april_reinforce", "9 April: reinforcement", on_begin=begin_april_reinforce, next=goto("reinforce")),
        Step("april_end", "9 April: new cards", on_begin=end_april, next=goto("round_start")),
    ]
