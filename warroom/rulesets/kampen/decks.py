"""The decks (2.4): the opening shuffle and hands, drawing up to the hand, a deck used up (Germany's ends the game,
Norway's is reshuffled, the Allies' takes battalions and ships off the board), and Norway's reshuffle. A shuffle's
roll is the deck's new order, which nobody may read (`secrets.py`)."""

from __future__ import annotations

from warroom.core.dice import MixedDice, Roll, shuffled
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState
from warroom.rulesets.kampen.victory import finish

St = KampenState


def begin_shuffle(st: St) -> None:
    st.flags.chance = MixedDice.shuffle(len(st.sc.deck(st.shuffling[0]))) if st.shuffling else None



def apply_shuffle(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    country = st.shuffling.pop(0)
    st.draw[country] = shuffled(st.sc.deck(country), roll)
    st.note(f"{st.sc.names[country]} shuffle their deck of {len(st.draw[country])} cards")
    begin_shuffle(st)



def deal(st: St) -> None:
    for country in st.sc.countries:
        fill_hand(st, country)
    st.round = 1
    st.country = GERMANY



def fill_hand(st: St, country: str) -> None:
    """Draw up to the hand size; a deck that runs out has its consequences at once (2.4)."""
    hand = st.hands[country]
    while len(hand) < st.sc.hand[country] and st.draw[country]:
        hand.append(st.draw[country].pop(0))
        if not st.draw[country]:
            deck_out(st, country)
            if st.terminal:
                return



def deck_out(st: St, country: str) -> None:
    """Germany: the game ends at once. Norway: reshuffle (a chance node). The Allies: no more cards, and
    four battalions leave the board (2.4)."""
    if country == GERMANY:
        st.note("The German deck is used up: the game ends")
        finish(st, "deck")
    elif country == NORWAY:
        st.flags.reshuffle = True
    elif not st.allies_out:
        st.allies_out = True
        st.removing = min(st.sc.rules["allied_deck_out_removal"], st.total(ALLIES))
        if st.advanced:
            st.flags.ships_out = st.sc.rules["advanced"]["allied_ship_removal"]
        st.note(f"The Allied deck is used up: no more Allied cards; {st.removing} Allied battalions leave")



def begin_reshuffle(st: St) -> None:
    st.flags.chance = MixedDice.shuffle(len(st.used[NORWAY]))



def apply_reshuffle(st: St, roll: Roll) -> None:
    assert isinstance(roll, Roll)
    st.draw[NORWAY] = shuffled(st.used[NORWAY], roll)
    st.used[NORWAY] = []
    st.flags.reshuffle = False
    st.note("Norway reshuffles its used cards into a new deck")
    fill_hand(st, NORWAY)

