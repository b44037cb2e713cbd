"""What each step of Kampen om Norge asks, and why, in a sentence for everyone at the table (the club pages and the
terminal put it above the choices). It reads only what every player may see: whose round it is, who decides, the
battle on the board."""

from __future__ import annotations

from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.kampen.state import KampenState

ASKED = {
    "move": "{who} to move battalions and play cards in {round_of}: moving into enemy battalions is an attack. "
            "Choose 'done' when the moves are over.",
    "card_effect": "{who} to carry out the card just played: choose how it is used.",
    "drop_answer": "Paratroopers are dropping: {who} to answer the drop.",
    "drop_scatter": "The paratroopers scattered: {who} to choose where they come down.",
    "invasion_exchange": "{who} may exchange cards to bring an invasion force ashore.",
    "invasion_landing": "{who} to choose where the invasion force lands.",
    "sabotage": "{who} may sabotage the railway.",
    "sabotage_target": "{who} to choose what the saboteurs strike.",
    "sabotage_counter": "{who} may answer the sabotage.",
    "flight": "{who} to decide whether the government and the gold escape.",
    "pick": "{who} to choose which battle is fought next; each attack made this round is fought in turn.",
    "attacker_losses": "{who} lost battalions in the attack: choose which go.",
    "rescue": "{who} may send ships to rescue the beaten battalions.",
    "rescue_target": "{who} to choose where the rescued battalions go.",
    "evacuation": "{who} may evacuate battalions by sea.",
    "evacuation_target": "{who} to choose where the evacuated battalions go.",
    "losses": "{who} to take the losses of the battle: choose which battalions are lost.",
    "losses_answer": "{who} to decide whether to accept Norway's share of the losses.",
    "losses_forced": "{who} to take the losses of the battle: choose which battalions are lost.",
    "retreat": "{who} lost the battle: choose where the surviving battalions withdraw together.",
    "landed_retreat": "{who} to choose where the battalions that landed withdraw.",
    "reinforce": "{who} may exchange cards for their reinforcement symbols in {round_of}.",
    "submarine": "{who} may use a submarine.",
    "place": "{who} to place their reinforcements on the board.",
    "discard": "{who} to choose a card to put under the deck before new cards are drawn.",
    "deck_removal": "{who} to choose a card to take out of the deck.",
    "ship_withdrawal": "{who} to choose which ships withdraw.",
    "icept_ask": "{who} may try to intercept the ships at sea.",
    "smoke": "{who} may lay a smoke screen.",
    "sailors": "{who} may bring the sailors of the sunk ships ashore.",
    "smoke_target": "{who} to choose where the smoke screen goes.",
    "sea_move": "{who} to move their ships at sea in {round_of}.",
    "recall_pay": "{who} to pay for ships called back.",
    "sea_pick": "{who} to choose which sea battle is fought next.",
    "sea_join": "{who} to decide whether their ships join the sea battle.",
    "sailors_target": "{who} to choose where the sailors of the sunk ships go ashore.",
    "sea_chase": "{who} to decide whether to chase the ships that broke off.",
    "attack_cards": "{who} may play cards to strengthen the attack.",
    "defend_cards": "{who} may play cards to strengthen the defence.",
    "react_cards": "{who} may answer the cards just played.",
    "sea_attack_cards": "{who} may play cards to strengthen the attack at sea.",
    "sea_defend_cards": "{who} may play cards to strengthen the defence at sea.",
    "sea_react_cards": "{who} may answer the cards just played at sea.",
    "april_select": "9 April: {who} to choose cards for the opening.",
    "april_recon": "9 April: {who} may send reconnaissance.",
    "april_feint": "9 April: {who} may make feint moves.",
    "april_redeploy": "9 April: {who} may redeploy battalions.",
    "mines": "9 April: {who} may lay mines.",
    "kystfort": "9 April: {who} may fire the coastal fort.",
    "april_choose": "9 April: {who} to choose the cards of the opening.",
    "deploy_norway": "9 April: {who} to deploy their battalions before the invasion.",
    "deploy_germany": "9 April: {who} to deploy the invasion forces.",
    "recon_target": "9 April: {who} to choose what their reconnaissance looks at.",
    "deploy_allies": "9 April: {who} to deploy their forces.",
    "feint_moves": "9 April: {who} may make feint moves.",
    "redeploy_moves": "9 April: {who} may redeploy battalions.",
    "raid": "9 April: {who} may raid before the landings.",
    "landing": "9 April: {who} to choose where the landings go ashore.",
    "mines_target": "9 April: {who} to choose where the mines are laid.",
    "kystfort_target": "9 April: {who} to choose which invasion force the coastal fort fires at.",
    "divert": "9 April: {who} may divert a landing force.",
    "mobilise": "9 April: {who} to mobilise their battalions.",
}
"""The sentence of each step a player decides (`{who}`: who decides; `{round_of}`: whose round it is)."""


def name_in_sentence(st: KampenState, country: str) -> str:
    """'Germany', 'Norway', 'The Allies' at the start of a sentence."""
    return st.sc.names.get(country, country)


def asking(st: KampenState) -> str:
    """The decision asked for now, for everyone watching: who decides what, and why."""
    if st.is_terminal():
        return f"The game is over: {st.outcome_text()}."
    who = st.current_player()
    if who == CHANCE:
        return "The dice are rolled next."
    if who == TERMINAL:
        return "The game is over."
    round_name = name_in_sentence(st, st.country)
    round_of = f"{round_name}'s round" if not round_name.endswith("s") else f"{round_name}' round"
    text = ASKED.get(st.step, "{who} to decide ({phase}).")
    return text.format(who=name_in_sentence(st, who), round_of=round_of.replace("The ", "the "), phase=st.phase())
