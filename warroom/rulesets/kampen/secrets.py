"""What of the action log a country may read: the rules mark each secret entry as it is played.

Most of Kampen om Norge is played openly: cards are played, exchanged and discarded face up (they go face up
under the deck, 2.4), battalions move and fight in plain sight, and every battle's dice are seen. What stays
secret:
- a shuffle's roll, which is the deck's new order (the opening shuffles, Norway's reshuffle, and the Allies'
  ships drawn for 9 April): nobody reads it, not even the deck's owner;
- the 9 April cards a country chooses (7.0): only that country;
- which ship card a country puts into a sea area face down, or sails there on its own (6.1, 8.1), and which
  face-down German card a landing is declared with (7.2; the others see the sea area and the beach): only its
  owner. Ships that lie face up (Eidsvoll & Norge), a chased ship moved by the enemy after a battle that showed
  it, and a raider sailing home from the raid box, where everyone saw it, are open.

With two players one person holds Norway and the Allies (1.2): that player reads what either may read.

assumption: a ship card leaving play (an Allied ship withdrawn when the deck runs out, 5.2; a ship sunk, chased or
joining a battle, 8.2) is shown as it goes, as the rules' own notes name it: it no longer hides anything on the
board. The organiser and the spectators read what every country may read, no more; the organiser's export
carries the whole log (the club server's rule), which is the only way to see a secret entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.log import LogEntry, Secret, marked
from warroom.core.state import Action
from warroom.rulesets.kampen.actions import Choose, Land, Sail, Ship
from warroom.rulesets.kampen.naval import ship_type

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from warroom.rulesets.kampen.state import KampenState

SHUFFLES = frozenset({"shuffle", "reshuffle", "allied_draw"})
"""The chance steps whose roll orders a deck (or the Allies' ships): nobody may read it."""


def seat_of(params: Mapping[str, Any], country: str) -> str:
    """The player who decides for `country`: with two players Norway's player also decides for the Allies (1.2)."""
    return "norway" if country == "allies" and int(params.get("seats", 2)) == 2 else country


def face_down(st: KampenState, key: str) -> bool:
    return not ship_type(st.sc.cards.ships, key).face_up


def owner(st: KampenState, key: str) -> str:
    return st.sc.cards.ships.ships[key.split("#", 1)[0]].owner


def secrecy(st: KampenState, step: str, action: Action, who: str) -> Secret | None:
    """Whether the entry of `action`, just played by `who` at `step` (the position is the one after it), is
    secret, and what the others read of it."""
    if step in SHUFFLES:
        return Secret((), "roll (a shuffle: the new order stays secret)")
    if isinstance(action, Choose):
        return Secret((who,), "choose (a 9 April card)")
    if isinstance(action, Ship) and face_down(st, action.key) and owner(st, action.key) == who:
        return Secret((who,), f"ship (a ship card) {action.sea}")
    if isinstance(action, Sail) and action.key and action.frm != "raid" and face_down(st, action.key):
        return Secret((who,), f"sail {action.frm} {action.to} (a ship card)")
    if isinstance(action, Land):  # which face-down card lands (or is turned to another beach) stays Germany's
        sea = next((s for k, s, _a in st.landings if k == action.key), "")
        return Secret((who,), f"land (a ship card{f' in sea area {sea}' if sea else ''}) {action.area}")
    return None


def log_for(st: KampenState, viewer: str | None, since: int = 0) -> list[LogEntry]:
    """The log of `st` from entry `since` as `viewer` (a country, or None: a spectator) may read it."""
    params = st.params
    answers: dict[tuple[str, ...], bool] = {}  # by readers: a long game marks hundreds of entries, few kinds

    def may_read(mark: Secret) -> bool:
        got = answers.get(mark.readers)
        if got is None:
            got = answers[mark.readers] = viewer is not None and any(seat_of(params, r) == viewer
                                                                     for r in mark.readers)
        return got

    return marked(st.log, since, st.secrets, may_read)


def log_settled(st: KampenState) -> int:
    """`RuleSystem.log_settled`: every entry. An entry's secret is marked as it is played and never changes, and who
    may read it depends on the game's seats alone."""
    return len(st.log)
