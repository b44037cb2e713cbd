"""The rules mark what of the log is secret (`RuleSystem.log_for`), with twin positions to prove it."""

from __future__ import annotations

from warroom import rulesets
from warroom.core.log import LogEntry
from warroom.rulesets.firestorm.secrets import HIDDEN
from warroom.scenarios import load_game


def test_an_allocation_is_hidden_from_the_other_side_until_the_roll() -> None:
    sc = load_game("norway")
    firestorm = rulesets.of(sc)
    log = [LogEntry("roll 3", "chance", 1, "strategic actions", True), LogEntry("allocate renown 6", "axis", 1, "x"),
           LogEntry("allocate gneisenau 2", "allies", 1, "x")]
    st = rulesets.new_game(sc)
    st.step = "nv_alloc"  # a fight's dice are being allocated
    for viewer, shown in (("allies", [HIDDEN, "allocate gneisenau 2"]), ("axis", ["allocate renown 6", HIDDEN]),
                          (None, [HIDDEN, HIDDEN])):
        assert [e.action for e in firestorm.log_for(st, log, viewer)][1:] == shown
    twin = [*log[:1], LogEntry("allocate renown 1", "axis", 1, "x"), log[2]]  # what the Allies may not know differs
    assert firestorm.log_for(st, twin, "allies") == firestorm.log_for(st, log, "allies")
    st.step = "nv_roll"
    assert firestorm.log_for(st, log, "allies") == log, "once the dice fall, everything is open"


def test_kampen_shows_a_country_only_its_own_decisions() -> None:
    kampen = rulesets.get("kampen")
    st = rulesets.new_game(load_game("kampen"))
    log = [LogEntry("roll 3 2 1", "chance", 1, "setup", True), LogEntry("play stukaer#0", "germany", 1, "x"),
           LogEntry("discard hurtigruten#1", "norway", 1, "x")]
    for viewer in ("germany", "norway", "allies", None):
        seen = kampen.log_for(st, log, viewer)
        assert [e.action for e in seen if not e.redacted] == [e.action for e in log if e.side == viewer]
        twin = [e._replace(action=e.action + "x") if e.side != viewer else e for e in log]
        assert kampen.log_for(st, twin, viewer) == seen
