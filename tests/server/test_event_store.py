"""The event store and the campaign service (docs/server-plan.md 2-4). The tests marked `every_database` run on
PostgreSQL too: they check what the store writes and reads back (tests/server/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from warroom.core.errors import IllegalActionError
from warroom.core.log import LogEntry
from warroom.server.db import engine_for, migrate
from warroom.server.errors import BadRequestError, ForbiddenError
from warroom.server.service import Campaigns, Invitation
from warroom.server.store import ConflictError, EventStore, Grant, NotFoundError, hash_secret


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url  # migrated already (tests/server/conftest.py)


def alembic_config(database_url: str) -> Any:
    """Alembic's configuration for this package's migrations on `database_url` (to stop at an older revision)."""
    from alembic.config import Config

    from warroom.server.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def service(url: str) -> Campaigns:
    return Campaigns(EventStore(engine_for(url)))


def link(invitations: list[Invitation], label: str) -> str:
    return next(i.secret for i in invitations if i.label == label)


@pytest.mark.every_database
def test_migrations_are_idempotent(blank_database_url: str) -> None:
    migrate(blank_database_url)
    migrate(blank_database_url)  # a second run finds nothing to do
    assert EventStore(engine_for(blank_database_url)).campaign_ids() == []


@pytest.mark.every_database
def test_a_waiting_result_survives_the_move_to_one_result_per_battle(blank_database_url: str) -> None:
    """Migration 0004 keeps a result reported under 0003 as the result of the battle being fought (0)."""
    from alembic import command
    from sqlalchemy import text

    database_url = blank_database_url
    cfg = alembic_config(database_url)
    command.upgrade(cfg, "0003")
    engine = engine_for(database_url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO campaign (id, title, scenario_id, params_json, seed, seq, epoch) "
                          "VALUES ('c1', 't', 'caen', '{}', 1, 4, 0)"))
        conn.execute(text("INSERT INTO pending_report (campaign_id, seq, attacker_vp, defender_vp, by_side, token_id, "
                          "disputed) VALUES ('c1', 4, 5, 2, 'allies', 't1', false)"))
    migrate(database_url)
    kept = EventStore(engine).pendings("c1")
    assert list(kept) == [0]
    assert (kept[0].seq, kept[0].attacker_vp, kept[0].defender_vp, kept[0].by_side) == (4, 5, 2, "allies")
    command.downgrade(cfg, "0003")  # and back, for an operator who must return to the older release
    with engine.connect() as conn:
        assert conn.execute(text("SELECT attacker_vp FROM pending_report")).scalar_one() == 5


@pytest.mark.every_database
def test_appends_are_guarded_by_the_sequence_number(url: str) -> None:
    store = EventStore(engine_for(url))
    cid = store.create_campaign("t", "caen", {"mode": "gw"})
    entry = LogEntry("pass", "allies", 1, "planning")
    assert store.append(cid, 0, [entry], None) == 1
    with pytest.raises(ConflictError):
        store.append(cid, 0, [entry], None)  # a second writer that looked at position 0
    assert [e.action for e in store.log(cid)] == ["pass"]
    with pytest.raises(NotFoundError):
        store.append("nope", 0, [entry], None)


@pytest.mark.every_database
def test_a_request_key_is_applied_once(url: str) -> None:
    store = EventStore(engine_for(url))
    cid = store.create_campaign("t", "caen", {})
    entry = LogEntry("pass", "allies", 1, "planning")
    store.append(cid, 0, [entry], None, key="k1", response={"seq": 1})
    assert store.remembered(cid, "", "k1") == {"seq": 1}
    with pytest.raises(ConflictError):
        store.append(cid, 1, [entry], None, key="k1")
    assert len(store.log(cid)) == 1


@pytest.mark.every_database
def test_tokens_are_stored_as_hashes_and_can_be_revoked(url: str) -> None:
    store = EventStore(engine_for(url))
    cid = store.create_campaign("t", "caen", {})
    tid, secret = store.issue_token(cid, "general", "allies")
    assert store.grant(secret) == Grant(tid, cid, "general", "allies")
    with store.engine.connect() as conn:
        stored = [row[0] for row in conn.exec_driver_sql("select hash from token")]
    assert stored == [hash_secret(secret)] and secret not in stored
    store.revoke(cid, tid)
    with pytest.raises(NotFoundError):
        store.grant(secret)
    with pytest.raises(ValueError):
        store.issue_token(cid, "emperor")


@pytest.mark.every_database
def test_a_campaign_plays_through_the_service_and_survives_a_restart(url: str) -> None:
    campaigns = service(url)
    cid, invitations = campaigns.create("caen")
    assert [i.label for i in invitations] == ["organiser", "Allies general", "Allies commanders",
                                              "Germans general", "Germans commanders"]
    store = campaigns.store
    allies, axis = (store.grant(link(invitations, f"{n} general")) for n in ("Allies", "Germans"))
    for _ in range(30):
        st = campaigns.state(cid)
        who = st.current_player()
        if who not in ("allies", "axis"):
            break
        grant = allies if who == "allies" else axis
        campaigns.act(grant, st.legal_actions()[0].to_str())
    before = campaigns.state(cid)
    restarted = service(url)  # a new process on the same database
    again = restarted.state(cid)
    assert (again.loc, again.control, again.log, again.turn) == (before.loc, before.control, before.log, before.turn)


def test_the_server_rolls_every_die_and_never_shows_the_seed(url: str) -> None:
    campaigns = service(url)
    cid, invitations = campaigns.create("caen")
    grant = campaigns.store.grant(link(invitations, "Allies general"))
    view = campaigns.view(grant)
    assert "424242" not in json.dumps(view)
    assert campaigns.state(cid).current_player() != "chance"


def test_roles_and_sides_are_checked_before_anything_changes(url: str) -> None:
    campaigns = service(url)
    cid, invitations = campaigns.create("caen")
    st = campaigns.state(cid)
    who = st.current_player()
    other = "axis" if who == "allies" else "allies"
    names = {"allies": "Allies", "axis": "Germans"}
    wrong = campaigns.store.grant(link(invitations, f"{names[other]} general"))
    right = campaigns.store.grant(link(invitations, f"{names[who]} general"))
    organiser = campaigns.store.grant(link(invitations, "organiser"))
    commander = campaigns.store.grant(link(invitations, f"{names[who]} commanders"))
    action = st.legal_actions()[0].to_str()
    for grant in (wrong, organiser, commander):
        with pytest.raises(ForbiddenError):
            campaigns.act(grant, action)
    with pytest.raises(BadRequestError):
        campaigns.act(right, "arrow Q9 A1")
    legal = {a.to_str() for a in st.legal_actions()}
    troop, area = next(iter(st.sc.troops)), next(iter(st.sc.areas))
    illegal = next(t for t in (f"move {troop} {area}", "pass", f"advance {troop}") if t not in legal)
    with pytest.raises(IllegalActionError):
        campaigns.act(right, illegal)
    assert campaigns.store.campaign(cid).seq == len(st.log)  # nothing was stored
    assert campaigns.view(wrong)["legal"] == [] and campaigns.view(right)["legal"]


@pytest.mark.every_database
def test_a_repeated_request_is_answered_without_acting_twice(url: str) -> None:
    campaigns = service(url)
    cid, invitations = campaigns.create("caen")
    st = campaigns.state(cid)
    names = {"allies": "Allies", "axis": "Germans"}
    grant = campaigns.store.grant(link(invitations, f"{names[st.current_player()]} general"))
    first = campaigns.act(grant, st.legal_actions()[0].to_str(), key="req-1")
    assert campaigns.act(grant, "anything at all", key="req-1") == first
    assert campaigns.store.campaign(cid).seq == first["seq"]
    with pytest.raises(ConflictError):
        campaigns.act(grant, "pass", expected_seq=0)


@pytest.mark.every_database
def test_a_result_older_than_its_battles_trip_to_the_table_is_not_offered(url: str) -> None:
    """Battle numbers restart every turn: a result left over from an earlier battle 1 (a report that crossed
    the organiser's decision) is neither shown nor confirmable for a later battle 1, and does not block it."""
    from warroom.server.store import PendingReport

    campaigns = service(url)
    cid, invitations = campaigns.create("caen", params={"mode": "tabletop", "parallel": True})
    grants = {i.label: campaigns.store.grant(i.secret) for i in invitations}
    organiser = grants["organiser"]
    for _ in range(400):
        st = campaigns.state(cid)
        if st.parked:
            break
        for result in campaigns.results(organiser):
            campaigns.decide(organiser, 3, 3, result["battle"])
        who = st.current_player()
        if who in st.sc.sides:
            general = grants[{"allies": "Allies general", "axis": "Germans general"}[who]]
            campaigns.act(general, st.legal_actions()[0].to_str())
    b = st.parked[0]
    names = {"allies": "Allies", "axis": "Germans"}
    campaigns.store.add_pending(cid, b.no, PendingReport(b.parked_at - 1, 0, 6, b.defender, "t0"))
    asked = next(r for r in campaigns.results(grants[f"{names[b.attacker]} commanders"]) if r["battle"] == b.no)
    assert asked["pending"] is None and asked["can_report"]
    with pytest.raises(ConflictError):
        campaigns.confirm(grants[f"{names[b.attacker]} commanders"], b.no)
    out = campaigns.report(grants[f"{names[b.attacker]} commanders"], b.no, 4, 1)
    assert out["pending"]["attacker_vp"] == 4  # the stale row made way


@pytest.mark.every_database
def test_campaigns_stored_before_the_rule_fixes_keep_their_rules(blank_database_url: str) -> None:
    """Migration 0006 marks every stored campaign with the rules' revision its log was played under (1), so a
    Caen campaign begun before strategic moves could pass through a full area replays and goes on as it began."""
    from alembic import command
    from sqlalchemy import text

    from warroom.core.log import GameRecord

    database_url = blank_database_url
    old = GameRecord.load(Path(__file__).parents[1] / "data" / "legacy" / "caen-1.0.0.json")
    cfg = alembic_config(database_url)
    command.upgrade(cfg, "0005")
    engine = engine_for(database_url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO campaign (id, title, scenario_id, params_json, dice_key, seq, epoch) "
                          "VALUES ('c1', 't', 'caen', :p, :k, 0, 0)"),
                     {"p": json.dumps({"mode": "gw"}), "k": "00" * 32})
    store = EventStore(engine)
    migrate(database_url)
    store.append("c1", 0, list(old.log), None)
    assert store.campaign("c1").params == {"mode": "gw", "revision": 1}
    st = service(database_url).state("c1")
    assert st.is_terminal() and st.outcome_text() == "German Strategic Victory by 500 VP"
    new = store.create_campaign("t", "caen", {"mode": "gw", "revision": 2})  # begun under the fixed rules
    command.downgrade(cfg, "0005")
    migrate(database_url)  # and up again: the new campaign is not taken for an old one
    assert store.campaign(new).params["revision"] == 2 and store.campaign("c1").params["revision"] == 1
    command.downgrade(cfg, "0005")
    with engine.connect() as conn:
        kept = {cid: json.loads(p) for cid, p in conn.execute(text("SELECT id, params_json FROM campaign"))}
    assert kept == {"c1": {"mode": "gw"}, new: {"mode": "gw", "revision": 2}}


def test_an_export_of_an_older_scenario_version_is_imported_under_its_rules(url: str) -> None:
    from warroom.core.log import GameRecord

    old = GameRecord.load(Path(__file__).parents[1] / "data" / "legacy" / "norway-0.1.0.json")
    cid, _ = service(url).import_record(old)
    assert service(url).store.campaign(cid).params["revision"] == 1
    assert service(url).state(cid).outcome_text() == "Allied Operational Victory by 145 VP"
    new = service(url).create("norway")[0]
    assert service(url).store.campaign(new).params["revision"] == 2, "a new campaign records the rules it began with"


def test_the_server_hosts_only_the_systems_that_declare_it(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club server finds a campaign's rule system in the registry and hosts those declaring `Capability.CLUB`:
    a bundled game or an upload of another system is refused, naming why."""
    from dataclasses import replace

    from warroom import rulesets
    from warroom.core.system import Capability

    cid = service(url).create("kampen")[0]
    assert service(url).state(cid).sc.id == "kampen", "Kampen om Norge is played on the club server"
    with pytest.raises(BadRequestError, match="a Kampen om Norge scenario takes several files"):
        service(url).create("", scenario_toml='[scenario]\nid = "mine"\nsystem = "kampen"\n')
    with pytest.raises(BadRequestError, match="not \\['chess'\\]"):
        service(url).create("", scenario_toml='[scenario]\nsystem = ["chess"]\n')
    kampen = rulesets.get("kampen")
    unhosted = replace(kampen, capabilities=kampen.capabilities - {Capability.CLUB})
    hosted = {**rulesets.systems(), "kampen": unhosted}
    monkeypatch.setattr(rulesets, "systems", lambda: hosted)
    monkeypatch.setattr(rulesets, "find", hosted.get)
    with pytest.raises(BadRequestError, match="unknown scenario 'kampen' \\(the club server plays"):
        service(url).create("kampen")
    with pytest.raises(BadRequestError, match="hosts campaigns of the rule systems firestorm, narvik, not 'kampen'"):
        service(url).create("", scenario_toml='[scenario]\nid = "mine"\nsystem = "kampen"\n')


def test_a_kept_upload_naming_its_system_loosely_still_loads_but_a_new_one_must_name_it(url: str) -> None:
    """Before the registry, an uploaded scenario's `system` was not checked: a campaign kept with `system =
    "Firestorm"` must still load, export and play; a new upload must name a hosted system exactly."""
    from support import caen_as_one_file

    text = caen_as_one_file("club_caen").replace('system = "firestorm"', 'system = "Firestorm"')
    store = EventStore(engine_for(url))
    cid = store.create_campaign("kept", "club_caen", {"mode": "gw", "revision": 2}, text)
    st = service(url).state(cid)
    assert st.sc.id == "club_caen" and not st.is_terminal()
    assert service(url).export(cid)["scenario"] == "club_caen"
    with pytest.raises(BadRequestError,
                       match="hosts campaigns of the rule systems firestorm, kampen, narvik, not 'Firestorm'"):
        service(url).create("", scenario_toml=text.replace("club_caen", "club_caen2"))


def test_every_phase_and_side_a_hosted_game_logs_fits_its_column() -> None:
    """PostgreSQL refuses a text longer than its column where SQLite keeps it whole. The phase and side names
    each hosted game writes into its log come from its flow table and scenario, so they are checked here, all
    of them, rather than by playing every game to its end on PostgreSQL too."""
    from sqlalchemy import String

    from warroom import rulesets
    from warroom.core.state import CHANCE, REPORT
    from warroom.core.system import Capability
    from warroom.scenarios import load_game
    from warroom.server import db
    from warroom.server.service import hosted_ids

    phase_type, side_type = db.event.c.phase.type, db.event.c.side.type
    assert isinstance(phase_type, String) and isinstance(side_type, String)
    phase_room, side_room = phase_type.length or 0, side_type.length or 0
    checked = set()
    for sid in hosted_ids():
        st = rulesets.new_game(load_game(sid), {})
        phases = {step.phase for step in st.flow.steps.values()}  # what `phase()` logs, step by step
        sides = {*st.sc.sides, CHANCE, REPORT}
        assert phases and max(map(len, phases)) <= phase_room, (sid, sorted(phases))
        assert max(map(len, sides)) <= side_room, (sid, sorted(sides))
        checked.add(rulesets.of(st).id)
    assert checked == {s.id for s in rulesets.systems().values() if s.can(Capability.CLUB)}, "every hosted system"


def test_a_save_naming_no_revision_was_played_before_revisions() -> None:
    """An uploaded scenario keeps its version, so a save of it from before the rule fixes names no revision: it
    replays under revision 1. Every new game records its revision."""
    from warroom import rulesets
    from warroom.scenarios import load_game

    sc = load_game("caen")
    firestorm = rulesets.of(sc)
    assert firestorm.replay_params(sc, sc.version, {"mode": "gw"}) == {"mode": "gw", "revision": 1}
    assert firestorm.replay_params(sc, sc.version, {"mode": "gw", "revision": 2}) == {"mode": "gw", "revision": 2}
    assert rulesets.new_game(sc, {"mode": "gw"}).params["revision"] == 2


def test_the_answer_to_an_action_shows_what_the_log_shows_its_side(url: str) -> None:
    """The server's bot allocates its dice in secret (Norway 6.3): the entries an action's answer lists are the
    ones the acting side's log shows, hidden allocations hidden."""
    import random

    _, invitations = service(url).create("norway", params={"bots": {"axis": "heuristic"}})
    me = service(url).store.grant(link(invitations, "Allies general"))
    rng = random.Random(1)
    hidden_seen = False
    for _ in range(400):
        legal = service(url).view(me)["legal"]
        if not legal:
            break
        answer = service(url).act(me, rng.choice(legal))
        log = [e.action for e in service(url).log(me)]
        assert answer["applied"] == log[len(log) - len(answer["applied"]):]
        hidden_seen |= "(hidden until the roll)" in answer["applied"]
        if hidden_seen:
            break
    assert hidden_seen, "the walk reached a fight where the bot allocated before the Allies"
