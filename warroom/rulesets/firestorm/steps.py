"""The Firestorm flow table: Planning -> Battle (repeated) -> Strategic, as data.

Each step is a row: who acts, what is legal, what it does, and which step follows.
Campaign rules switched on by the scenario's `hooks` (Caen's D-Day, Lorraine's Panzer Units, ...)
are named functions called from these rows, never `if campaign == ...` branches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import warroom.rulesets.firestorm.caen as caen
import warroom.rulesets.firestorm.campaign as campaign
import warroom.rulesets.firestorm.dday as dday
import warroom.rulesets.firestorm.lorraine as lorraine
import warroom.rulesets.firestorm.norway as norway
import warroom.rulesets.firestorm.parallel as parallel
import warroom.rulesets.firestorm.strategic as strategic
from warroom.core.dice import d3
from warroom.core.events import BattleResolved, TurnEnded
from warroom.core.flow import Step, goto
from warroom.core.state import REPORT, Action
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    NAVAL,
    PASS,
    TOKEN_LABELS,
    WRONG_KIND,
    Arrow,
    Commit,
    Mode,
    Move,
    Pass,
    Place,
    Report,
    is_token,
)
from warroom.rulesets.firestorm.after_action import (
    advance_options,
    advance_problem,
    apply_advance,
    apply_retreat,
    battle_of,
    begin_advance,
    legal_retreat,
    prune_retreat,
    retreat_actor,
    retreat_problem,
)
from warroom.rulesets.firestorm.arrows import arrow_bar, arrow_options, arrow_problem, has_arrow, open_battle
from warroom.rulesets.firestorm.battle import (
    ATTACKER,
    DEFENDER,
    Battle,
    fow_destroy_need,
    gw_destroy_needs,
    gw_winner,
    out_of_supply_effect,
    table_entry,
    tabletop_winner,
)
from warroom.rulesets.firestorm.chance import chance_step
from warroom.rulesets.firestorm.commitment import commit_bar, commit_options, commit_problem
from warroom.rulesets.firestorm.fleet import NavalState
from warroom.rulesets.firestorm.legality import explain
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.moves import after_move, can_move, move_options, move_problem, pass_problem
from warroom.rulesets.firestorm.placement import legal_place, place_problem, placeable, placer
from warroom.rulesets.firestorm.state import OFFMAP, POOL, RESERVE, FirestormRules, FirestormState
from warroom.rulesets.firestorm.view import build_view

St = FirestormState


# ----- helpers ------------------------------------------------------------------------------------
def faces(values: tuple[int, ...]) -> str:
    return " ".join(f"[{v}]" for v in values)


def side_name(st: St, side: str) -> str:
    return st.sc.side_names[side]


# ----- planning ------------------------------------------------------------------------------------
def begin_turn(st: St) -> None:
    """Turn start: air sorties, carpet bombing, and new units due in the Planning Phase."""
    sc = st.sc
    t = sc.turn(st.turn)
    if st.record_events:
        st.note(f"=== Turn {st.turn}: {t.name} ===")
    for side, air in sc.air.items():
        st.air_left[side] = air.sorties[st.turn - 1]
    st.carpet_left = t.carpet
    st.moved = set()
    st.returned = set()
    st.arrived = {}
    st.battle_no = 0
    st.battles_left = 0
    st.battles_total = 0
    allotment = st.params.get("allotment")
    if st.mode == "mixed" and allotment is not None:
        st.flags.tabletop_left = dict.fromkeys(sc.sides, int(allotment))
    for arrival in t.arrivals:
        if arrival.when == "planning" and st.loc[arrival.unit] == OFFMAP:
            st.loc[arrival.unit] = POOL
            st.arrived[arrival.unit] = arrival.areas
    st.placing = [u for u in st.arrived]
    norway.refresh_fjords(st)
    prune_placing(st)


def prune_placing(st: St) -> None:
    """Units with nowhere to go wait in the pool (Caen 4.1: landings obey stacking).

    Placing only fills areas, so a unit with no room now has none later in the same step.
    """
    ready = set(placeable(st, st.placing))
    waiting = [u for u in st.placing if u not in ready]
    for unit in waiting:
        st.placing.remove(unit)
    if st.record_events and len(waiting) == 1:
        st.note(f"{st.name(waiting[0])} has no room to be placed and waits in the Reinforcement Pool")
    elif st.record_events and waiting:
        st.note(f"No room to place {len(waiting)} troops; they wait in the Reinforcement Pool: "
                f"{', '.join(st.name(u) for u in waiting)}")


def apply_place(st: St, action: Place) -> None:
    assert isinstance(action, Place)
    if action.area == caen.SPOT:
        caen.enter(st, action.unit)
    else:
        st.loc[action.unit] = action.area
    st.placing.remove(action.unit)
    if action.unit not in st.arrived:
        st.returned.add(action.unit)
    where = caen.NAME if action.area == caen.SPOT else st.area_label(action.area)
    if st.record_events:
        st.note(f"{side_name(st, st.sc.troops[action.unit].side)} place {st.name(action.unit)} in {where}")
    prune_placing(st)


def battles_dice(st: St) -> int:
    t = st.sc.turn(st.turn)
    if "dday" in t.special and st.sc.has("dday"):
        return 0
    return t.battles_d3


def resolve_battles(st: St, values: tuple[int, ...]) -> None:
    t = st.sc.turn(st.turn)
    extra = sum(d3(v) for v in values)
    st.battles_left = st.battles_total = t.battles_base + extra
    if values:
        if st.record_events:
            count = f"{len(values)}D3" if len(values) > 1 else "D3"
            d3s = " + ".join(str(d3(v)) for v in values)
            st.note(f"Number of battles: {t.battles_base} + {count} (d6 {faces(values)} -> {d3s}) "
                    f"= {st.battles_total}")
    elif st.battles_total and st.record_events:
        st.note(f"Number of battles: {st.battles_total}")


def after_planning(st: St) -> str:
    t = st.sc.turn(st.turn)
    if "dday" in t.special and st.sc.has("dday"):
        return "dday_tonga"
    return after_normal_battle(st)


def next_battle(st: St) -> str:
    """Between battles: a reported battle's after-action first (battles in parallel), then the next
    battle, then the wait for battles still at the table, then the Strategic Phase."""
    if st.parked and parallel.ready(st) is not None:
        return "resume"
    if st.battles_left > 0 and not tables_bar_an_attack(st):
        return "initiative"
    return "await_reports" if st.parked else "strategic_start"


def tables_bar_an_attack(st: St) -> bool:
    """Battles in parallel: a side has no battle arrow only because areas are at a table.

    assumption: (issue 4 review) the next initiative then waits for results instead of passing the attack
    to the other side or spending the battle unfought, which one-at-a-time play would never do: the turn's
    battles keep their rulebook count and their attackers, and only their timing follows the tables.
    """
    if not st.parked:
        return False
    return any(not has_arrow(st, side) and has_arrow(st, side, locked=frozenset()) for side in st.sc.sides)


# ----- battle: initiative and arrow -----------------------------------------------------------------
def resolve_initiative(st: St, values: tuple[int, ...]) -> None:
    """Initiative (core 4): each side rolls d6 plus its turn bonus; ties go to the turn's tie side."""
    sc = st.sc
    t = sc.turn(st.turn)
    a, b = sc.sides
    st.battle_no += 1
    norway.refresh_fjords(st)
    totals = {a: values[0], b: values[1]}
    totals[t.initiative_side] += t.initiative_bonus
    winner = a if totals[a] > totals[b] else b if totals[b] > totals[a] else t.tie_side
    bonus = f" (+{t.initiative_bonus} {side_name(st, t.initiative_side)})" if t.initiative_bonus else ""
    if totals[a] == totals[b]:
        bonus += f": tie {totals[a]}-{totals[b]}, {side_name(st, t.tie_side)} win ties"
    if st.record_events:
        st.note(f"Battle {st.battle_no}/{st.battles_total}: initiative {side_name(st, a)} [{values[0]}] vs "
                f"{side_name(st, b)} [{values[1]}]{bonus} -> {side_name(st, winner)}")
    st.flags.may_pass = False
    if not has_arrow(st, winner):
        other = sc.other(winner)
        if has_arrow(st, other):
            if st.record_events:
                st.note(f"{side_name(st, winner)} have no legal attack; {side_name(st, other)} may attack instead")
            winner = other
            st.flags.may_pass = True  # core 4 suggestion: the other side may, not must, attack
        else:
            st.note("Neither side can attack; the battle counts toward the turn's total")
            winner = ""
    st.attacker = winner


def legal_arrow(st: St) -> Sequence[Any]:
    arrows: list[Any] = list(arrow_options(st, st.attacker))
    if st.flags.may_pass:
        arrows.append(PASS)
    return arrows


def arrow_step_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal choice of the side that won the initiative ('' if it is)."""
    if isinstance(action, Pass):
        return "" if st.flags.may_pass else ("the side that wins the initiative attacks when it can; only a side "
                                             "given the attack because the winner had none may decline (core 4)")
    if not isinstance(action, Arrow):
        return WRONG_KIND
    return arrow_problem(st, arrow_bar(st, st.attacker), action)


def apply_arrow(st: St, action: Pass | Arrow) -> None:
    if isinstance(action, Pass):
        if st.record_events:
            st.note(f"{side_name(st, st.attacker)} decline to attack; the battle counts toward the turn's total")
        st.attacker = ""
        return
    assert isinstance(action, Arrow)
    open_battle(st, "normal", st.attacker, action.frm, action.to)


# ----- battle: commitment, supply and resolution ------------------------------------------------------
def legal_attack_commit(st: St) -> Sequence[Any]:
    return commit_options(st, True)


def legal_defend_commit(st: St) -> Sequence[Any]:
    return commit_options(st, False)


def commit_step_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal commitment of the side now committing ('' if it is)."""
    if not isinstance(action, Commit):
        return WRONG_KIND
    return commit_problem(st, commit_bar(st, st.step == "attack_commit"), action.units)


def apply_commit(st: St, action: Commit, attacking: bool) -> None:
    assert isinstance(action, Commit)
    b = battle_of(st)
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    for u in action.units:
        if u == AIR:
            st.air_left[side] -= 1
        elif u == CARPET:
            st.carpet_left -= 1
        elif not is_token(u) and st.loc[u] == RESERVE:
            caen.join(st, b, u, area)
    if attacking:
        b.att = action.units
    else:
        b.dfn = action.units
        b.att_supplied, b.def_supplied = campaign.battle_supply(st, b)
    if st.record_events:
        st.note(f"{side_name(st, side)} commit {describe_units(st, action.units, side)}")


def apply_defend_commit(st: St, action: Commit) -> None:
    apply_commit(st, action, False)
    st.flags.committed = True


def describe_units(st: St, units: Sequence[str], side: str) -> str:
    if not units:
        return "no troops"
    sc = st.sc
    out = []
    for u in units:
        if u in TOKEN_LABELS:
            air = sc.air.get(side)
            out.append(f"{air.name} sortie" if u == AIR and air else TOKEN_LABELS[u])
        else:
            out.append(st.name(u))
    return " + ".join(out)


def can_claim_tabletop(st: St, side: str) -> bool:
    """Mixed mode: a side may claim a battle for the tabletop while its allotment for the turn lasts
    (Caen 3.1 mini-campaign; no `allotment` parameter means no limit)."""
    left = st.flags.tabletop_left
    return left is None or left.get(side, 0) > 0


def mode_actor(st: St) -> str:
    return str(st.flags.mode_chooser)


def legal_mode(st: St) -> Sequence[Any]:
    return [Mode("gw"), Mode("tabletop")]


def mode_problem(st: St, action: Action) -> str:
    """Any way of fighting may be chosen (its text form admits only the two); nothing else is taken now."""
    return "" if isinstance(action, Mode) and action in legal_mode(st) else WRONG_KIND


def begin_mode(st: St) -> None:
    """Mixed mode: the attacker may claim the battle for the tabletop, then the defender (Caen 3.1)."""
    b = battle_of(st)
    b.mode = "gw" if st.mode == "mixed" else st.mode
    st.flags.mode_chooser = ""
    if st.mode == "mixed":
        offer_claim(st, [b.attacker, b.defender])
    st.flags.mode_set = not st.flags.mode_chooser
    for label, ok, side in (("attacker", b.att_supplied, b.attacker), ("defender", b.def_supplied, b.defender)):
        if not ok and st.record_events:
            st.note(f"The {label} ({side_name(st, side)}) is out of supply")


def offer_claim(st: St, sides: list[str]) -> None:
    """Hand the choice to the first of `sides` that may still claim a tabletop battle."""
    st.flags.mode_chooser = next((s for s in sides if can_claim_tabletop(st, s)), "")


def apply_mode(st: St, action: Mode) -> None:
    assert isinstance(action, Mode)
    b = battle_of(st)
    chooser = mode_actor(st)
    if action.mode == "tabletop":
        b.mode = "tabletop"
        left = st.flags.tabletop_left
        if left is not None:
            left[chooser] -= 1
        if st.record_events:
            st.note(f"{side_name(st, chooser)} claim this battle for the tabletop")
        st.flags.mode_set = True
        return
    if chooser == b.attacker:
        offer_claim(st, [b.defender])
    else:
        st.flags.mode_chooser = ""
    st.flags.mode_set = not st.flags.mode_chooser


def after_mode(st: St) -> str:
    return "gw_roll" if battle_of(st).mode == "gw" else "tabletop_prep"


def gw_dice(st: St) -> int:
    """Two battle dice plus one for every variable bonus (Caen German Defence, Lorraine infantry/air)."""
    b = battle_of(st)
    sc = st.sc
    b.variable = []
    for side, units in ((b.attacker, b.att), (b.defender, b.dfn)):
        for u in units:
            if u == AIR:
                if sc.air[side].variable:
                    b.variable.append((side, u))
            elif u == DEFENCE or (u in sc.troops and sc.troops[u].variable):
                b.variable.append((side, u))
    return 2 + len(b.variable)


def item_bonus(st: St, side: str, item: str, terrain: str, face: int) -> int:
    """The GW bonus of a committed troop or extra (an interception-only sortie counts only against
    enemy aircraft, Norway 7.7)."""
    sc = st.sc
    b = st.battle
    if item == AIR:
        if sc.has("norway_air") and b is not None and not norway.air_counts(st, b, side):
            return 0
        return sc.air[side].gw_bonus(terrain, face)
    if item == NAVAL:
        return norway.gunfire(st, b, side)[0] if b is not None else 0
    if item == DEFENCE:
        return int(sc.rules.value("defence_variable")[face - 1])
    return sc.troops[item].gw_bonus(terrain, face)


def resolve_gw(st: St, values: tuple[int, ...]) -> None:
    """The General's Wargame: d6 + troop bonuses + situation modifiers; a tie is a draw (core 7.2)."""
    b = battle_of(st)
    sc = st.sc
    terrain = sc.areas[b.to].terrain
    var_faces = {(side, item): values[2 + i] for i, (side, item) in enumerate(b.variable)}
    mods: dict[str, list[tuple[str, int]]] = {b.attacker: [], b.defender: []}
    for side, units in ((b.attacker, b.att), (b.defender, b.dfn)):
        for u in units:
            if u == CARPET:
                mods[side].append(("carpet bombing", int(sc.rules.value("carpet_gw"))))
                continue
            face = var_faces.get((side, u), 0)
            label = describe_units(st, [u], side) + (f" (roll [{face}])" if face else "")
            mods[side].append((label, item_bonus(st, side, u, terrain, face)))
    for label, value in campaign.defence_modifiers(st, b):
        mods[b.defender].append((label, value))
    if not b.att_supplied:
        mods[b.attacker].append(("out of supply", sc.rules.oos_gw))
    if not b.def_supplied:
        mods[b.defender].append(("out of supply", sc.rules.oos_gw))
    b.modifiers = mods
    b.att_total = values[0] + sum(v for _, v in mods[b.attacker])
    b.def_total = values[1] + sum(v for _, v in mods[b.defender])
    b.winner = gw_winner(b.att_total, b.def_total)

    def detail(side: str, die: int, total: int) -> str:
        parts = " ".join(f"{v:+d} {label}" for label, v in mods[side])
        return f"{side_name(st, side)} [{die}] {parts} = {total}".replace("  ", " ")

    if st.record_events:
        st.note(f"General's Wargame: {detail(b.attacker, values[0], b.att_total)}; "
                f"{detail(b.defender, values[1], b.def_total)} -> {winner_text(st, b)}")
        resolved(st, b, "General's Wargame")


def resolved(st: St, b: Battle, how: str) -> None:
    """The typed event of a battle's result (the adapters list a campaign's battles from these)."""
    winner = b.winner if b.winner in (ATTACKER, DEFENDER) else ""
    st.emit(BattleResolved(st.turn, b.to, st.sc.areas[b.to].name, b.attacker, (b.defender,), how, winner))


def winner_text(st: St, b: Battle) -> str:
    if b.winner == ATTACKER:
        return f"{side_name(st, b.attacker)} win"
    if b.winner == DEFENDER:
        return f"{side_name(st, b.defender)} hold"
    return "draw: the defender holds"


def tabletop_dice(st: St) -> int:
    """Tabletop set-up dice: one Out-of-Supply die per unsupplied side, the weather die when aircraft
    fly (Lorraine), and one die per committed troop whose force is rolled on a table (Caen German
    Defence troop, Lorraine German infantry)."""
    b = battle_of(st)
    n = (not b.att_supplied) + (not b.def_supplied)
    if st.sc.has("weather") and (AIR in b.att or AIR in b.dfn):
        n += 1
    b.variable = [(side, u) for side, units in ((b.attacker, b.att), (b.defender, b.dfn)) for u in units
                  if campaign.tabletop_table(st, u)]
    return n + len(b.variable)


def resolve_tabletop_prep(st: St, values: tuple[int, ...]) -> None:
    """Show the player what the dice and the situation mean for the table (core 6.1; Caen 4.2;
    Lorraine 4.2-4.4)."""
    b = battle_of(st)
    faces_left = list(values)
    for ok, side in ((b.att_supplied, b.attacker), (b.def_supplied, b.defender)):
        if not ok:
            face = faces_left.pop(0)
            b.supply_faces[side] = face
            b.notes.append(f"{side_name(st, side)} out of supply [{face}]: "
                           f"{out_of_supply_effect(face, st.sc.rules)}")
    if st.sc.has("weather") and (AIR in b.att or AIR in b.dfn):
        face = faces_left.pop(0)
        b.notes.append(f"Weather [{face}]: {lorraine.weather_effect(st, face)}")
    for side, unit in b.variable:
        face = faces_left.pop(0)
        b.notes.append(f"{describe_units(st, [unit], side)} [{face}]: "
                       f"{table_entry(campaign.tabletop_table(st, unit), face)}")
    b.notes.extend(campaign.tabletop_briefing(st, b))
    b.notes.extend(norway.briefing(st, b))
    for line in b.notes:
        st.note(line)


def begin_report(st: St) -> None:
    """Battles in parallel: a counted battle goes to the table and the turn goes on (parallel.py)."""
    if parallel.parks(st, battle_of(st)):
        parallel.park(st)


def apply_report(st: St, action: Report) -> None:
    assert isinstance(action, Report)
    record_result(st, battle_of(st), action)


def record_result(st: St, b: Battle, action: Report) -> None:
    """A tabletop result (core 7.1): a side is defeated if the other scored 3+ and more VP."""
    b.att_vp, b.def_vp = action.attacker_vp, action.defender_vp
    b.winner = tabletop_winner(b.att_vp, b.def_vp)
    if st.record_events:
        which = f" for battle {b.no}" if b.no else ""
        st.note(f"Tabletop result reported{which}: {side_name(st, b.attacker)} {b.att_vp} VP, "
                f"{side_name(st, b.defender)} {b.def_vp} VP -> {winner_text(st, b)}")
        resolved(st, b, "tabletop")


# ----- after action: roll to destroy, retreat, advance ---------------------------------------------------
def destroy_dice(st: St) -> int:
    """Roll to destroy (core 7.3): one die for every enemy troop committed; aircraft and the
    German Defence troop are never rolled for."""
    b = battle_of(st)
    rules = st.sc.rules
    targets: list[tuple[str, str, int]] = []
    if b.mode == "gw":
        vs_loser, vs_winner = gw_destroy_needs(abs(b.att_total - b.def_total), rules)
        att_lost = b.winner == DEFENDER
        need_vs_att = vs_loser if att_lost else vs_winner
        need_vs_def = vs_winner if att_lost else vs_loser
    else:
        need_vs_def = fow_destroy_need(b.att_vp, rules)
        need_vs_att = fow_destroy_need(b.def_vp, rules)
    for owner, units, need in ((b.defender, b.dfn, need_vs_def), (b.attacker, b.att, need_vs_att)):
        troops = [u for u in units if not is_token(u)]
        if need:
            targets.extend((u, owner, need) for u in troops)
        elif troops and st.record_events:
            st.note(f"No roll to destroy {describe_units(st, troops, owner)} ({side_name(st, owner)}): "
                    f"{'the result is too clear' if b.mode == 'gw' else 'too few victory points'}")
    b.targets = targets
    return len(targets)


def resolve_destroy(st: St, values: tuple[int, ...]) -> None:
    b = battle_of(st)
    for (unit, owner, need), face in zip(b.targets, values, strict=True):
        hit = face >= need
        if values and st.record_events:
            st.note(f"{side_name(st, st.sc.other(owner))} roll to destroy {st.name(unit)}: [{face}] needs {need}+ "
                    f"-> {'destroyed' if hit else 'survives'}")
        if hit:
            b.destroyed.append(unit)
    setup_retreat(st)


def setup_retreat(st: St) -> None:
    """Retreat and capture (core 7.4; Caen 4.1: a retreat blocked only by stacking destroys)."""
    b = battle_of(st)
    sc = st.sc
    for u in b.destroyed:
        if sc.troops[u].side == b.attacker:
            st.destroy(u)
    if b.winner != ATTACKER:
        for u in b.destroyed:
            if sc.troops[u].side == b.defender:
                st.destroy(u)
        return
    staying = [u for u in st.units_at(b.to, b.defender) if u not in b.destroyed]
    staying = norway.evacuate(st, b, staying)
    friendly = [n for n in sc.adjacency[b.to] if st.control[n] == b.defender and n not in sc.no_stop]
    if not friendly:
        lost = [u for u in b.destroyed if sc.troops[u].side == b.defender] + staying
        if lost and st.record_events:
            st.note(f"{st.area_label(b.to)} is surrounded: no friendly area to retreat into")
        for u in lost:
            st.capture(u)
        return
    for u in b.destroyed:
        if sc.troops[u].side == b.defender:
            st.destroy(u)
    b.retreating = staying
    prune_retreat(st)


def end_battle(st: St) -> None:
    b = battle_of(st)
    if b.kind == "normal" and not b.parked:  # a parked battle was counted when it went to the table
        st.battles_left -= 1
    st.flags.last_battle = b
    st.battle = None


def after_battle(st: St) -> str:
    last = st.flags.last_battle
    kind = last.kind if isinstance(last, Battle) else "normal"
    if kind == "exploit":
        return "dday_exploit"
    if kind == "pz21":
        return "strategic_start"
    return after_normal_battle(st)


# ----- strategic phase -------------------------------------------------------------------------------
def begin_strategic(st: St) -> None:
    sc = st.sc
    t = sc.turn(st.turn)
    norway.battles_over(st)
    norway.update_bodo(st)  # before the strategic moves, which may re-base aircraft there
    norway.refresh_fjords(st)
    if st.record_events:
        st.note(f"--- Strategic Phase, turn {st.turn} ---")
    caen.withdraw(st, t.withdraw)  # Caen end of T3 (C 3.4): the units are listed per turn
    st.arrived = {}
    arrivals = t.arrivals
    if st.navy is not None:
        from warroom.rulesets.firestorm.strategic import strategic_arrivals

        arrivals = tuple(strategic_arrivals(st, arrivals))
    for arrival in arrivals:
        if arrival.when == "strategic" and st.loc[arrival.unit] == OFFMAP:
            st.loc[arrival.unit] = POOL
            st.arrived[arrival.unit] = norway.drop_zone(st, arrival) if arrival.seize else arrival.areas
    st.idx = 0
    fill_placing(st)


def fill_placing(st: St) -> None:
    """Queue the acting side's pool for placement; move on to the next side when it is empty."""
    order = st.sc.rules.reinforce_order
    troops = st.sc.troops
    while st.idx < len(order):
        side = order[st.idx]
        fresh = [u for u in st.arrived if troops[u].side == side and st.loc[u] == POOL]
        rest = [u for u, w in st.loc.items() if w == POOL and troops[u].side == side and u not in st.arrived]
        st.placing = fresh + rest
        prune_placing(st)
        if st.placing:
            return
        st.idx += 1


def apply_reinforce(st: St, action: Place) -> None:
    apply_place(st, action)
    if not st.placing:
        st.idx += 1
        fill_placing(st)


def begin_moves(st: St) -> None:
    st.idx = 0
    st.moved = set()
    st.flags.move_menu = None
    norway.refresh_fjords(st)
    skip_idle_movers(st)


def skip_idle_movers(st: St) -> None:
    order = st.sc.rules.move_order
    while st.idx < len(order) and not can_move(st, order[st.idx]):
        if st.record_events:
            st.note(f"{side_name(st, order[st.idx])}: no strategic move possible")
        st.idx += 1


def move_step_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal strategic move, nor a legal end of the moves, now ('' if it is)."""
    if isinstance(action, Pass):
        return pass_problem(st)
    if not isinstance(action, Move):
        return WRONG_KIND
    return move_problem(st, action)


def mover(st: St) -> str:
    return st.sc.rules.move_order[st.idx]


def legal_moves(st: St) -> Sequence[Any]:
    options = move_options(st, mover(st))
    return options if pass_problem(st) else [*options, PASS]


def apply_move(st: St, action: Pass | Move) -> None:
    if isinstance(action, Pass):
        if st.record_events:
            st.note(f"{side_name(st, mover(st))} end their strategic moves")
        st.idx += 1
    else:
        assert isinstance(action, Move)
        frm = st.loc[action.unit]
        st.loc[action.unit] = action.to
        st.moved.add(action.unit)
        after_move(st, action.unit, frm)
        if st.record_events:
            st.note(f"{st.name(action.unit)} moves {st.area_label(frm)} -> {st.area_label(action.to)}")
    skip_idle_movers(st)


def end_turn(st: St) -> None:
    sc = st.sc
    last = st.turn == len(sc.turns)
    norway.turn_end(st)
    if last:
        lorraine.final_bonuses(st)
    a, b = sc.sides
    if st.record_events:
        st.emit(TurnEnded(st.turn, {a: st.total_vp(a), b: st.total_vp(b)}))
        st.note(f"VP after turn {st.turn}: {side_name(st, a)} {st.total_vp(a)} "
                f"(areas {st.area_vp(a)}, troops {st.unit_vp[a]}, bonus {st.bonus_vp[a]}), "
                f"{side_name(st, b)} {st.total_vp(b)} (areas {st.area_vp(b)}, troops {st.unit_vp[b]}, "
                f"bonus {st.bonus_vp[b]})")
    if last:
        st.terminal = True
        if st.record_events:
            st.note(f"Campaign over: {st.outcome_text()}")
    else:
        st.turn += 1


class FirestormFlow(FirestormRules):
    """The flow table, with the verbs that stand above the position: what a side sees (`view.py`), why an action
    is refused (`legality.py`), a result of a battle at the table, and Norway's Strategic Game."""

    def view(self, st: St, side: str | None) -> dict[str, Any]:
        return build_view(st, side)

    def explain(self, st: St, action: Action) -> str:
        return explain(st, action)

    def check_report(self, st: St, action: Report) -> None:
        parallel.check_report(st, action)

    def lost_as_captured(self, st: St, unit: str) -> bool:
        return lorraine.lost_as_captured(st, unit)

    def waiting_for(self, st: St) -> list[int]:
        return parallel.waiting_for(st)

    def record_result(self, st: St, action: Report) -> None:
        record_result(st, parallel.find(st, action.battle), action)

    def new_navy(self, sc: FirestormScenario) -> NavalState:
        return NavalState(sc)


def uncommitted(st: St) -> None:
    st.flags.committed = False


def build_flow() -> FirestormRules:
    """The flow table shared by every Firestorm campaign."""
    steps: list[Step[St]] = [
        Step("turn_start", "planning", on_begin=begin_turn,
             next=lambda st: "sa_start" if st.navy is not None else "plan_place"),
        Step("plan_place", "planning", actor=placer, legal=legal_place, apply=apply_place, problem=place_problem,
             end_if=lambda st: not st.placing, next=goto("battles")),
        chance_step("battles", "planning", battles_dice, resolve_battles, after_planning),
        chance_step("initiative", "battle", lambda st: 2, resolve_initiative,
                    lambda st: "arrow" if st.attacker else "no_battle"),
        Step("no_battle", "battle", on_begin=lambda st: setattr(st, "battles_left", st.battles_left - 1),
             next=after_normal_battle),
        Step("arrow", "battle", actor=lambda st: st.attacker, legal=legal_arrow, apply=apply_arrow,
             problem=arrow_step_problem,
             end_if=lambda st: st.battle is not None or not st.attacker,
             next=lambda st: "attack_commit" if st.battle is not None else "no_battle"),
        Step("attack_commit", "battle", actor=lambda st: battle_of(st).attacker, legal=legal_attack_commit,
             apply=lambda st, a: apply_commit(st, a, True), problem=commit_step_problem,
             end_if=lambda st: bool(battle_of(st).att),
             next=goto("defend_commit")),
        Step("defend_commit", "battle", actor=lambda st: battle_of(st).defender, legal=legal_defend_commit,
             apply=apply_defend_commit, problem=commit_step_problem,
             on_begin=uncommitted,
             end_if=lambda st: bool(st.flags.committed), next=goto("supply_roll")),
        chance_step("supply_roll", "battle", norway.supply_roll_dice, norway.resolve_supply_roll,
                    goto("mode_choice")),
        Step("mode_choice", "battle", actor=mode_actor, legal=legal_mode, apply=apply_mode,
             problem=mode_problem, on_begin=begin_mode,
             end_if=lambda st: bool(st.flags.mode_set), next=after_mode),
        chance_step("gw_roll", "battle", gw_dice, resolve_gw, goto("destroy_roll")),
        chance_step("tabletop_prep", "battle", tabletop_dice, resolve_tabletop_prep, goto("report")),
        Step("report", "battle", actor=lambda st: REPORT, apply=apply_report, on_begin=begin_report,
             end_if=lambda st: st.battle is None or bool(st.battle.winner),
             next=lambda st: "destroy_roll" if st.battle is not None else after_normal_battle(st)),
        Step("resume", "after action", on_begin=parallel.resume, next=goto("destroy_roll")),
        Step("await_reports", "battle", actor=lambda st: REPORT,
             end_if=lambda st: not st.parked or parallel.ready(st) is not None, next=next_battle),
        chance_step("destroy_roll", "after action", destroy_dice, resolve_destroy, goto("retreat")),
        Step("retreat", "after action", actor=retreat_actor, legal=legal_retreat, apply=apply_retreat,
             problem=retreat_problem,
             end_if=lambda st: not battle_of(st).retreating, next=goto("advance")),
        Step("advance", "after action", actor=lambda st: battle_of(st).attacker,
             legal=advance_options, apply=apply_advance, on_begin=begin_advance, problem=advance_problem,
             end_if=lambda st: bool(st.flags.advance_done), next=goto("battle_end")),
        Step("battle_end", "after action", on_begin=end_battle, next=after_battle),
        Step("caumont", "battle", on_begin=dday.begin_caumont,
             next=lambda st: "mode_choice" if st.battle is not None else next_battle(st)),
        Step("strategic_start", "strategic", on_begin=begin_strategic, next=goto("reinforce")),
        Step("reinforce", "strategic", actor=placer, legal=legal_place, apply=apply_reinforce, problem=place_problem,
             end_if=lambda st: st.idx >= len(st.sc.sides), next=goto("moves")),
        Step("moves", "strategic", actor=mover, legal=legal_moves, apply=apply_move, on_begin=begin_moves,
             problem=move_step_problem,
             end_if=lambda st: st.idx >= len(st.sc.sides),
             next=lambda st: "fleet_moves" if st.navy is not None else "turn_end"),
        Step("turn_end", "strategic", on_begin=end_turn, next=goto("turn_start")),
        *dday.dday_steps(),
        *strategic.strategic_steps(),
    ]
    return FirestormFlow(steps)


def after_normal_battle(st: St) -> str:
    """After a battle of the turn's count (or one that could not be fought)."""
    if dday.caumont_due(st):
        return "caumont"
    return next_battle(st)
