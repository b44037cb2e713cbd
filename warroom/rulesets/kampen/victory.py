"""How a game of Kampen om Norge ends (1.3): a side with no battalions left, or the German deck used up, and the
outcome table: a clear or narrow victory for either side by the point cities held and the battalions left."""

from __future__ import annotations

from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState

St = KampenState


def check_elimination(st: St) -> None:
    """The game ends the moment one side has no battalions left (1.3), counting those waiting at a border
    to attack and those still in the battle being fought.

    assumption: (J18) Norway and the Allies count as eliminated only once the Allies' first six have landed:
    before that the Allies are still at sea, so losing the Norwegian army alone does not end the game. In the
    same spirit Germany is not eliminated during the 9 April round: its reinforcements (7.3) are still to come
    when the first landings are beaten."""
    if st.terminal:
        return
    german_out = not strength(st, GERMANY) and not st.april
    if german_out or (not strength(st, NORWAY) and not strength(st, ALLIES) and st.allies_landed):
        finish(st, "eliminated")



def strength(st: St, country: str) -> int:
    """Battalions a country still has: on the board, at a border, or in the battle being fought."""
    waiting = sum(x.total for x in st.attacks.values() if x.country == country)
    b = st.battle
    fighting = b.attack.total if b is not None and b.attack.country == country else 0
    return st.total(country) + waiting + fighting



def finish(st: St, why: str) -> None:
    """The outcome table of 1.3: clear or narrow victory for either side."""
    result = standing(st, why)
    cities = st.sc.board.point_cities
    german_cities = sum(1 for c in cities if st.holder(c) == GERMANY)
    defenders = st.total(NORWAY) + st.total(ALLIES)
    st.result = result
    st.terminal = True
    winner = "Germany" if result[0] == GERMANY else "Norway and the Allies"
    st.note(f"Game over: {winner}, {result[1]} victory ({german_cities} of {len(cities)} point cities German, "
            f"{defenders} Norwegian and Allied battalions on the board)")



def standing(st: St, why: str = "") -> tuple[str, str]:
    """The (winner, level) the outcome table of 1.3 gives the position as it stands: the game's result when it
    ends for `why` ('eliminated' or the deck used up), and a searching bot's evaluation before then."""
    cities = st.sc.board.point_cities
    german_cities = sum(1 for c in cities if st.holder(c) == GERMANY)
    defenders = st.total(NORWAY) + st.total(ALLIES)
    if not strength(st, GERMANY):
        return ("norway_allies", "clear")
    if why == "eliminated" and not defenders:
        return (GERMANY, "clear")
    if german_cities == len(cities):
        return (GERMANY, "clear" if defenders <= 3 else "narrow")
    held = len(cities) - german_cities
    return ("norway_allies", "clear" if held >= 2 else "narrow")


def value(st: St) -> dict[str, float]:
    """Each country's standing for a searching bot: 1 for a clear victory of its side, 0.75 a narrow one, 0.25
    and 0 for the defeats; before the end, the outcome table read as if the game ended now."""
    winner, level = st.result if st.terminal else standing(st)
    german = 0.5 if not winner else (1.0 if level == "clear" else 0.75) if winner == GERMANY else (
        0.0 if level == "clear" else 0.25)
    return {GERMANY: german, NORWAY: 1.0 - german, ALLIES: 1.0 - german}
