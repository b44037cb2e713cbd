"""What each step of a Firestorm campaign asks, and why, in a sentence for the people playing: the club pages put
it above the choices and the terminal above its list. Everything here reads the position only as every side may:
who acts, the battle on the map, the turn's count of battles."""

from __future__ import annotations

from warroom.core.state import CHANCE, REPORT, TERMINAL
from warroom.rulesets.firestorm import dday
from warroom.rulesets.firestorm.state import FirestormState

MODE_WORDS = {"gw": "rolled by the General's Wargame", "tabletop": "fought at the table"}
"""A battle's way of being fought, in words (`Battle.mode`)."""


def mode_words(st: FirestormState, mode: str) -> str:
    """How the battle on the map is fought, or '' while that is not yet chosen (a mixed campaign asks)."""
    if st.step in ("attack_commit", "defend_commit", "supply_roll", "mode_choice"):
        return MODE_WORDS.get(st.mode, "")  # not chosen yet: the campaign's way, or '' where each battle chooses
    return MODE_WORDS.get(mode, "")


def battle_line(st: FirestormState) -> str:
    """'the Allies attack B2 Creully from A2 Gold Beach' for the battle on the map."""
    b = st.battle
    if b is None:
        return ""
    return f"the {st.sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}"


def count_line(st: FirestormState) -> str:
    """' (battle 2 of 4 this turn)' while the turn's battles are counted."""
    return f" (battle {st.battle_no} of {st.battles_total} this turn)" if st.battles_total else ""


def asking(st: FirestormState) -> str:
    """The decision asked for now, addressed to everyone watching: who decides what, and why it matters."""
    if st.is_terminal():
        return f"The campaign is over: {st.outcome_text()}."
    who = st.current_player()
    names = st.sc.side_names
    side = names.get(who, who)
    step = st.step
    if step == "dday_tonga":
        return (f"D-Day opens with {dday.landing(st)}. The landing is fought at the table; report its victory "
                "points with the Allies as the attacker. The Allied score picks the row of the landing table (a "
                "game in which neither side reaches 3 VP counts as row 3), which decides the paratroopers' fate "
                "and whether the drop zone is taken.")
    if step == "dday_neptune":
        return (f"D-Day goes on with {dday.landing(st)}. The beach is taken whatever happens; the result decides "
                "whether the beach's tank brigade lands, how strong the follow-up attack from the beach is, and "
                "how long the beach stays blocked. Report the landing's victory points with the Allies as the "
                "attacker: the Allied score picks the row of the landing table.")
    if step == "dday_exploit":
        return ("The Allies may attack inland from the beaches they took: each follow-up attack goes from a beach "
                "to an adjacent German area, with the Firestorm troops the landing allowed. Pass to make no more.")
    if step == "dday_pz21":
        return ("The Germans choose where 21. Panzerdivision counter-attacks the landings: an arrow into an area "
                "the Allies took today.")
    if who == REPORT:
        if step == "await_reports":
            return ("The turn waits for battles at the table: once their commanders report the results, the "
                    "after-action steps of each battle follow in order.")
        return (f"A battle is at the table: {battle_line(st)}. The commanders play it, then one side reports the "
                "victory points (attacker first) and the other confirms.")
    if who == CHANCE:
        return "The dice are rolled next."
    if who == TERMINAL:
        return "The campaign is over."
    if step == "plan_place":
        return (f"The {side} place the troops they bring in before this turn's battles: each goes to an area "
                "they hold that the scenario allows and that has room.")
    if step == "arrow":
        return (f"The {side} have the initiative{count_line(st)}: choose where to attack. A battle arrow runs from "
                "an area you hold to an adjacent enemy area; pass to give up this battle.")
    if step == "attack_commit":
        return (f"{battle_line(st)[0].upper()}{battle_line(st)[1:]}. The {side}, as attackers, commit up to two "
                "Firestorm troops (and air support where it is left): each adds to the attack.")
    if step == "defend_commit":
        return (f"{battle_line(st)[0].upper()}{battle_line(st)[1:]}. The {side}, as defenders, commit up to two "
                "Firestorm troops to hold it.")
    if step == "mode_choice":
        return (f"{battle_line(st)[0].upper()}{battle_line(st)[1:]}. The {side} choose how it is fought: at the "
                "table by the commanders, or by the General's Wargame. Either general may claim a battle for the "
                "table while they have claims left: the attacker first, then the defender.")
    if step == "retreat":
        return (f"The {side} lost the battle for {st.area_label(st.battle.to if st.battle else '')}: choose where "
                "each troop that survived falls back, to an adjacent area they hold with room.")
    if step == "advance":
        return (f"The {side} won: choose which troops advance into the area they took (or pass to stay "
                "where they are).")
    if step == "reinforce":
        return (f"Strategic phase: the {side} place this turn's reinforcements in areas they hold that the "
                "scenario allows.")
    if step == "moves":
        return (f"Strategic phase: the {side} make their strategic moves, through areas they hold; pass when "
                "done.")
    if step == "fleet_moves":
        return f"Strategic phase: the {side} move their ships and aircraft on the Strategic Map; pass when done."
    if step.startswith(("sa_", "nv_")):
        return naval_asking(st, side)
    return f"The {side} decide ({st.phase()})."


def naval_asking(st: FirestormState, side: str) -> str:
    """The Strategic Game's decisions (Norway): actions, groups, moves and fights at sea."""
    navy = st.navy
    left = f" ({navy.actions_left} actions left this turn)" if navy is not None and navy.actions_left else ""
    step = st.step
    if step == "sa_stuka":
        return (f"Before the Strategic Actions, the {side} decide whether to lend their Ju 87 dive bombers to this "
                "turn's land battles instead of the war at sea.")
    if step == "sa_choose":
        return (f"Strategic Game: the {side} choose their next Strategic Action{left}: activate a harbour, an "
                "airfield or a sea area, or pass.")
    if step == "sa_form":
        return f"The {side} gather the ships or aircraft that take part in this action, then launch it."
    if step == "sa_move":
        return f"The {side} move their group one area at a time; they may attack enemy ships where they meet, or halt."
    if step == "nv_evade":
        return ("The ships attacked may stand and fight, or try to slip away: evading means the attackers fire "
                "only part of their dice.")
    if step == "nv_alloc":
        return (f"A fight at sea: the {side} share out their dice among the enemy ships and submarines before the "
                "roll. Each side decides in secret; the dice are rolled together.")
    if step == "nv_retreat":
        return f"The {side} lost the fight at sea: choose where their surviving ships withdraw."
    if step == "nv_reply":
        return (f"Submarines attacked the {side}' ships: stop here and reply with every ship, or sail on and reply "
                "with half of them.")
    if step == "nv_aim":
        return (f"Enemy submarines and surface ships are both here: the {side} choose, counter by counter, which "
                "of the two each attacks.")
    return f"The {side} decide ({st.phase()})."
