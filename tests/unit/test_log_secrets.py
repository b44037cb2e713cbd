"""The rules mark what of the log is secret (`RuleSystem.log_for`), with twin positions to prove it."""

from __future__ import annotations

from typing import Any

from warroom import rulesets
from warroom.core.log import LogEntry
from warroom.rulesets.firestorm.secrets import HIDDEN
from warroom.scenarios import load_game
from warroom.sim import walk


def test_an_allocation_is_hidden_from_the_other_side_until_the_roll() -> None:
    sc = load_game("norway")
    firestorm = rulesets.of(sc)
    log = [LogEntry("roll 3", "chance", 1, "strategic actions", True), LogEntry("allocate renown 6", "axis", 1, "x"),
           LogEntry("allocate gneisenau 2", "allies", 1, "x")]
    st = rulesets.new_game(sc)
    st.step = "nv_alloc"  # a fight's dice are being allocated
    st.log = list(log)
    for viewer, shown in (("allies", [HIDDEN, "allocate gneisenau 2"]), ("axis", ["allocate renown 6", HIDDEN]),
                          (None, [HIDDEN, HIDDEN])):
        assert [e.action for e in firestorm.log_for(st, viewer, 0)][1:] == shown
        assert [e.action for e in firestorm.log_for(st, viewer, 2)] == shown[1:]
    twin = st.clone()
    twin.log = [*log[:1], LogEntry("allocate renown 1", "axis", 1, "x"), log[2]]  # what the Allies may not know
    assert firestorm.log_for(twin, "allies", 0) == firestorm.log_for(st, "allies", 0)
    st.step = "nv_roll"
    assert firestorm.log_for(st, "allies", 0) == log, "once the dice fall, everything is open"


def kampen_game(advanced: bool, seats: int, seed: int, actions: int) -> Any:
    """A Kampen om Norge game played at random for `actions` actions (or to its end)."""
    return walk.play(rulesets.new_game(load_game("kampen"), {"advanced": advanced, "seats": seats}), seed, actions)


def test_kampen_hides_shuffles_from_everyone_and_plays_from_nobody() -> None:
    st = kampen_game(False, 3, 1, 120)
    shuffles = [i for i, e in enumerate(st.log) if e.phase == "setup" and e.automatic]
    assert len(shuffles) == 3, "the three decks are shuffled at the start"
    played = [i for i, e in enumerate(st.log) if e.action.startswith(("play ", "exchange ", "discard ", "move "))]
    assert played, "cards were played, exchanged or discarded, and battalions moved"
    kampen = rulesets.of(st)
    for viewer in ("germany", "norway", "allies", None):
        seen = kampen.log_for(st, viewer, 0)
        assert all(seen[i].redacted and "roll" in seen[i].action and seen[i].action != st.log[i].action
                   for i in shuffles)
        assert all(seen[i] == st.log[i] for i in played), "played cards lie face up: everyone reads them"


def test_kampen_shows_chosen_april_cards_and_face_down_ships_to_their_owner_only() -> None:
    for seats in (2, 3):
        st = kampen_game(True, seats, 3, 160)
        kampen = rulesets.of(st)
        secret = {i: m for i, m in st.secrets.items() if m.readers}
        chosen = [i for i in secret if st.log[i].action.startswith("choose ")]
        ships = [i for i in secret if st.log[i].action.startswith("ship ")]
        assert chosen and ships, "9 April cards were chosen and ships put to sea face down"
        for viewer in ("germany", "norway", "allies", None):
            if viewer == "allies" and seats == 2:
                continue  # no such player: Norway's player holds the Allies
            seen = kampen.log_for(st, viewer, 0)
            for i in secret:
                owner = st.log[i].side
                reads = viewer is not None and (owner == viewer or (seats == 2 and owner == "allies"
                                                                    and viewer == "norway"))
                assert (seen[i] == st.log[i]) == reads, (viewer, st.log[i])
                assert "#" not in seen[i].action or reads, "a hidden card's key never shows"
            twin = st.clone()  # the same position but for the hidden parts of the others' secret entries
            for i in secret:
                if seen[i].redacted:
                    twin.log[i] = twin.log[i]._replace(action=twin.log[i].action.replace("#", "~"))
            assert kampen.log_for(twin, viewer, 0) == seen
            assert kampen.log_for(st, viewer, 40) == seen[40:]
