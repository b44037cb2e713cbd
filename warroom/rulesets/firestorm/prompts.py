"""What each step of a Firestorm campaign asks, and why, in a sentence for the people playing: the club pages put
it above the choices and the terminal above its list. Everything here reads the position only as every side may:
who acts, the battle on the map, the turn's count of battles."""

from __future__ import annotations

from warroom.core.state import CHANCE, TERMINAL
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


ASKED = {
    "dday_tonga": "D-Day opens with {landing}. The landing is fought at the table; report its victory points with the "
                  "Allies as the attacker. The Allied score picks the row of the landing table (a game in which "
                  "neither side reaches 3 VP counts as row 3), which decides the paratroopers' fate and whether the "
                  "drop zone is taken.",
    "dday_neptune": "D-Day goes on with {landing}. The beach is taken whatever happens; the result decides whether "
                    "the beach's tank brigade lands, how strong the follow-up attack from the beach is, and how long "
                    "the beach stays blocked. Report the landing's victory points with the Allies as the attacker: "
                    "the Allied score picks the row of the landing table.",
    "dday_exploit": "The Allies may attack inland from the beaches they took: each follow-up attack goes from a "
                    "beach to an adjacent German area, with the Firestorm troops the landing allowed. Pass to make "
                    "no more.",
    "dday_pz21": "The Germans choose where 21. Panzerdivision counter-attacks the landings: an arrow into an area "
                 "the Allies took today.",
    "await_reports": "The turn waits for battles at the table: once their commanders report the results, the "
                     "after-action steps of each battle follow in order.",
    "report": "A battle is at the table: {battle}. The commanders play it, then one side reports the victory points "
              "(attacker first) and the other confirms.",
    "plan_place": "The {side} place the troops they bring in before this turn's battles: each goes to an area they "
                  "hold that the scenario allows and that has room.",
    "arrow": "The {side} have the initiative{count}: choose where to attack. A battle arrow runs from an area you "
             "hold to an adjacent enemy area; pass to give up this battle.",
    "attack_commit": "{Battle}. The {side}, as attackers, commit up to two Firestorm troops (and air support where "
                     "it is left): each adds to the attack.",
    "defend_commit": "{Battle}. The {side}, as defenders, commit up to two Firestorm troops to hold it.",
    "mode_choice": "{Battle}. The {side} choose how it is fought: at the table by the commanders, or by the "
                   "General's Wargame. Either general may claim a battle for the table while they have claims left: "
                   "the attacker first, then the defender.",
    "retreat": "The {side} lost the battle for {attacked}: choose where each troop that survived falls back, to an "
               "adjacent area they hold with room.",
    "advance": "The {side} won: choose which troops advance into the area they took (or pass to stay where they "
               "are).",
    "reinforce": "Strategic phase: the {side} place this turn's reinforcements in areas they hold that the scenario "
                 "allows.",
    "moves": "Strategic phase: the {side} make their strategic moves, through areas they hold; pass when done.",
    "fleet_moves": "Strategic phase: the {side} move their ships and aircraft on the Strategic Map; pass when done.",
    "sa_stuka": "Before the Strategic Actions, the {side} decide whether to lend their Ju 87 dive bombers to this "
                "turn's land battles instead of the war at sea.",
    "sa_choose": "Strategic Game: the {side} choose their next Strategic Action{actions}: activate a harbour, an "
                 "airfield or a sea area, or pass.",
    "sa_form": "The {side} gather the ships or aircraft that take part in this action, then launch it.",
    "sa_move": "The {side} move their group one area at a time; they may attack enemy ships where they meet, or "
               "halt.",
    "nv_evade": "The ships attacked may stand and fight, or try to slip away: evading means the attackers fire only "
                "part of their dice.",
    "nv_alloc": "A fight at sea: the {side} share out their dice among the enemy ships and submarines before the "
                "roll. Each side decides in secret; the dice are rolled together.",
    "nv_retreat": "The {side} lost the fight at sea: choose where their surviving ships withdraw.",
    "nv_reply": "Submarines attacked the {side}' ships: stop here and reply with every ship, or sail on and reply "
                "with half of them.",
    "nv_aim": "Enemy submarines and surface ships are both here: the {side} choose, counter by counter, which of the "
              "two each attacks.",
}
"""The sentence of each step: `{side}` who decides, `{battle}`/`{Battle}` the battle on the map, `{count}` the
turn's count of battles, `{attacked}` the area fought for, `{landing}` the D-Day landing, `{actions}` the
Strategic Actions left."""


def asking(st: FirestormState) -> str:
    """The decision asked for now, addressed to everyone watching: who decides what, and why it matters."""
    if st.is_terminal():
        return f"The campaign is over: {st.outcome_text()}."
    who = st.current_player()
    if who == CHANCE:
        return "The dice are rolled next."
    if who == TERMINAL:
        return "The campaign is over."
    text = ASKED.get(st.step)
    if text is None:
        return f"The {st.sc.side_names.get(who, who)} decide ({st.phase()})."
    battle = battle_line(st)
    navy = st.navy
    fields = {"side": st.sc.side_names.get(who, who), "battle": battle, "Battle": battle[:1].upper() + battle[1:],
              "count": count_line(st), "attacked": st.area_label(st.battle.to) if st.battle else "",
              "actions": f" ({navy.actions_left} actions left this turn)" if navy and navy.actions_left else ""}
    if "{landing}" in text:
        fields["landing"] = dday.landing(st)
    return text.format(**fields)
