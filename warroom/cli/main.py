"""`warroom`: list, play, resume, autoplay, simulate and validate Firestorm campaigns."""

from __future__ import annotations

import errno
import json
import os
import random
import secrets
import socket
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from warroom import __version__, compiled, rulesets
from warroom.ai.bots import bot_problem
from warroom.cli import advice_cli
from warroom.cli.common import err, fail, out, refuse_params, start_session, terminal, write_save
from warroom.cli.lab_cli import fail as lab_fail
from warroom.cli.lab_cli import lab, print_spec_problems
from warroom.core.dice import Roll
from warroom.core.errors import SaveError, ScenarioError, UnknownNameError, WarroomError
from warroom.core.game import replay
from warroom.core.log import SEALED, GameRecord
from warroom.core.state import CHANCE
from warroom.rulesets import new_game
from warroom.scenarios import bundled_ids, load_game, load_game_path
from warroom.scenarios.loader import DATA
from warroom.server.config import ACT_LIMIT, CAMPAIGN_LIMIT, CREATE_LIMIT

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="warroom: operational wargame campaigns (Firestorm: Caen, Lorraine, Norway), the board "
                       "game Kampen om Norge and the hex game Narvik.")
app.add_typer(lab, name="lab")


class Who(StrEnum):
    human = "human"
    bot = "bot"


BOT_HELP = ("bot: random, heuristic, or mcts (a search) with an optional budget: mcts:800 rollouts or mcts:1.5s of "
            "CPU time a decision, then /hN to judge the position N actions ahead and /g for rollouts played by the "
            "heuristic (mcts:300/h80/g)")


def search_refusal(bot: str, sc: Any, params: dict[str, Any]) -> str:
    """Why the searching bot cannot play a game with these parameters ('' if it can): its look-ahead plays
    whole games alone, so battles at the table (tabletop or mixed mode) are beyond it."""
    if not bot.startswith("mcts"):
        return ""
    problem = rulesets.of(sc).bot_game_problem(params)
    return f"the searching bot ({bot}) cannot play this game: {problem}; play --mode gw, or choose --bot heuristic" \
        if problem else ""


def bot_kind(value: str) -> str:
    """A bot option, checked: the error names what is wrong with it."""
    problem = bot_problem(value)
    if problem:
        raise typer.BadParameter(problem)
    return value


class ModeOpt(StrEnum):
    gw = "gw"
    tabletop = "tabletop"
    mixed = "mixed"


def scenario_or_exit(name: str) -> Any:
    """A scenario to play; drafts (data still being built) are refused with a clear message, and so are the
    scenarios of a rule system the terminal cannot show."""
    try:
        sc = load_game(name)
    except (UnknownNameError, ScenarioError) as exc:
        raise fail(str(exc)) from exc
    terminal_or_exit(sc)
    if sc.status == "draft":
        raise fail(f"scenario {sc.id!r} is a draft: its data validates, but its rules are not finished, "
                   f"so it cannot be played yet")
    return sc


def terminal_or_exit(sc: Any) -> None:
    """Refuse a scenario of a registered rule system that the terminal has no screen for (a plug-in)."""
    system = rulesets.of(sc)
    if terminal(system.id) is None:
        raise fail(f"{sc.id!r} is a scenario of {system.name} ({system.id}), which the terminal cannot play yet; "
                   "'warroom validate' checks its files")


def show_version(value: bool) -> None:
    """`--version`: the version, and which engine runs (compiled by mypyc, or pure Python and why)."""
    if value:
        out.print(f"warroom {__version__}; {compiled.status().describe()}", markup=False, soft_wrap=True)
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[bool, typer.Option("--version", callback=show_version, is_eager=True,
                                          help="Show the version and whether the engine runs compiled, and exit.")]
    = False,
) -> None:
    pass


@app.command()
def scenarios() -> None:
    """List the bundled campaigns with their turns and sides."""
    table = Table(title="Bundled campaigns")
    for col in ("id", "title", "turns", "sides", "areas", "troops"):
        table.add_column(col)
    notes: dict[str, str] = {}
    for sid in bundled_ids():
        sc = load_game(sid)
        system = rulesets.of(sc)
        table.add_row(sid, *system.listing(sc))
        if system.about:
            notes[system.id] = system.about
    out.print(table)
    for note in notes.values():
        out.print(note, markup=False)
    for why in rulesets.ignored():
        err.print(f"warning: a rule system offered by another package is set aside: {why}", markup=False)
    drafts = [d for d in bundled_ids(drafts=True) if d not in bundled_ids()]
    if drafts:
        out.print(f"In preparation (validate only): {', '.join(drafts)}", markup=False)
    engine = compiled.status().describe()
    out.print(engine[0].upper() + engine[1:], markup=False, soft_wrap=True)


def fresh_seed() -> int:
    """Dice for a new game that no earlier game shares: 62 random bits, never `SEALED` (the save records them,
    so `resume` and replay stay exact, and `--seed` plays the same game again)."""
    return 1 + secrets.randbits(62)


@app.command()
def play(
    scenario: Annotated[str, typer.Argument(help="bundled id (caen, lorraine, norway) or a scenario path")],
    allies: Annotated[Who, typer.Option(help="who plays the Allies")] = Who.human,
    axis: Annotated[Who, typer.Option(help="who plays the Axis")] = Who.bot,
    seed: Annotated[int | None, typer.Option(
        help="dice seed, to play a game again exactly (default: fresh dice each game; the save records them; "
             "0 is kept for sealed saves)")] = None,
    save: Annotated[Path | None, typer.Option(help="save file, written after every action")] = None,
    sealed: Annotated[bool, typer.Option(
        help="the save leaves out the dice seed, so the dice to come cannot be foretold from it (its log still "
             "holds every roll and card dealt so far); resuming it rolls fresh dice")] = False,
    bot: Annotated[str, typer.Option(help=BOT_HELP, callback=bot_kind)] = "heuristic",
    mode: Annotated[ModeOpt, typer.Option(help="battle resolution")] = ModeOpt.gw,
    allotment: Annotated[int | None, typer.Option(
        min=0, help="mixed mode: tabletop battles each side may claim per turn (default: no limit)")] = None,
    parallel: Annotated[bool, typer.Option(
        help="tabletop battles go to the table and the turn goes on; report each as 'report N A D'")] = False,
    germany: Annotated[Who | None, typer.Option(help="Kampen om Norge: who plays Germany (default bot)")] = None,
    norway: Annotated[Who | None, typer.Option(help="Kampen om Norge: who plays Norway (default human)")] = None,
    kampen_allies: Annotated[Who | None, typer.Option(
        "--kampen-allies", help="Kampen om Norge: who plays the Allies (default: as Norway)")] = None,
    players_count: Annotated[int | None, typer.Option(
        "--players", min=2, max=3, help="Kampen om Norge: 2 (one person holds Norway and the Allies) or 3")] = None,
    advanced: Annotated[bool, typer.Option(help="Kampen om Norge: the advanced game (ships, 9 April)")] = False,
) -> None:
    """Play a campaign at the terminal: against the bot, or both sides hot-seat. For Kampen om Norge use
    --germany/--norway/--allies and --players instead of --allies/--axis."""
    sc = scenario_or_exit(scenario)
    if seed == SEALED:
        raise fail(f"--seed {SEALED} marks a save without its seed; choose another seed")
    if sealed and save is None:
        raise fail("--sealed applies to the save file: give --save FILE as well")
    if seed is None:
        seed = fresh_seed()
    if save is not None and save.exists():
        raise fail(f"save file {save} already exists; continue it with 'warroom resume {save}' "
                   "or choose another file")
    refusal = search_refusal(bot, sc, {"mode": mode.value})
    if refusal:
        raise fail(refusal)
    way = terminal(rulesets.of(sc).id)
    assert way is not None  # scenario_or_exit refused the others
    way.play(sc, seed, save, sealed, bot, {
        "allies": allies.value, "axis": axis.value, "mode": mode.value, "allotment": allotment, "parallel": parallel,
        "germany": germany, "norway": norway, "kampen_allies": kampen_allies, "players": players_count,
        "advanced": advanced})


def load_record(path: Path, verb: str = "resume") -> tuple[GameRecord, Any]:
    """Read a save and replay it; any problem is reported ("cannot VERB PATH: ...") without touching the file."""
    try:
        record = GameRecord.load(path)
        sc = load_game(record.scenario)
    except (SaveError, UnknownNameError, ScenarioError) as exc:
        raise fail(f"cannot {verb} {path}: {exc}") from exc
    terminal_or_exit(sc)
    params = rulesets.of(sc).replay_params(sc, record.scenario_version, record.params)
    if params is None:
        raise fail(f"cannot {verb} {path}: saved with scenario {record.scenario} version "
                   f"{record.scenario_version}, but version {sc.version} is installed")
    if params != record.params:  # an older version of the scenario: the game goes on under the rules it began with
        record = GameRecord(record.scenario, record.scenario_version, params, record.seed, record.log)
    try:
        st = replay(record, lambda: new_game(sc, dict(params)))
    except (SaveError, ValueError) as exc:
        raise fail(f"cannot {verb} {path}: {exc}") from exc
    return record, st


@app.command()
def resume(file: Annotated[Path, typer.Argument(help="a save written by 'warroom play --save'")]) -> None:
    """Resume a saved campaign: the log is replayed, then play continues."""
    record, st = load_record(file)
    sides = list(st.sc.sides)
    players = record.params.get("players", {sides[0]: "human", sides[1]: "bot"})
    if (not isinstance(players, dict) or sorted(players) != sorted(sides)
            or any(v not in (w.value for w in Who) for v in players.values())):
        raise fail(f"cannot resume {file}: save parameter 'players' must map each side "
                   f"({', '.join(sides)}) to 'human' or 'bot', got {players!r}")
    bot = record.params.get("bot", "heuristic")
    problem = bot_problem(bot) if isinstance(bot, str) else f"a bot is named by text, got {bot!r}"
    if problem:
        raise fail(f"cannot resume {file}: save parameter 'bot': {problem}")
    if "bot" in players.values() and (refusal := search_refusal(str(bot), st.sc, record.params)):
        raise fail(f"cannot resume {file}: {refusal}")
    sealed = record.seed == SEALED
    seed = fresh_seed() if sealed else record.seed
    dice = random.Random(seed)
    for entry in [] if sealed else record.log:  # advance the dice to where the game stopped: a draw per face
        if entry.side == CHANCE:
            for _ in Roll.parse(entry.action.split()[1:]).values:
                dice.random()
    title = rulesets.of(st.sc).title(st.sc, record.params)
    out.print(f"Resumed {title} at turn {st.turn} ({len(record.log)} actions replayed"
              + ("; the save has no seed, so the dice from here on are fresh)" if sealed else ")"), markup=False)
    if record.scenario_version != st.sc.version:
        out.print(f"It was saved with version {record.scenario_version} of {st.sc.id} (now {st.sc.version}): it goes "
                  "on under the rules it began with.", markup=False)
    start_session(st, seed, players, str(bot), file, dice, sealed)


advice_cli.register(app, load_record)


@app.command()
def autoplay(
    scenario: Annotated[str, typer.Argument(help="bundled id or scenario path")],
    seed: Annotated[int, typer.Option(help="seed for dice and bots")] = 1,
    allies_bot: Annotated[str, typer.Option("--allies-bot", help="the Allies' " + BOT_HELP,
                                            callback=bot_kind)] = "heuristic",
    axis_bot: Annotated[str, typer.Option("--axis-bot", help="the Axis' " + BOT_HELP, callback=bot_kind)] = "heuristic",
    save: Annotated[Path | None, typer.Option(help="also write the game as a save file")] = None,
    advanced: Annotated[bool, typer.Option(help="Kampen om Norge: the advanced game (ships, 9 April)")] = False,
) -> None:
    """Play a whole campaign bot against bot and print a turn-by-turn report."""
    from warroom.sim.runner import play_one

    sc = scenario_or_exit(scenario)
    refuse_params(sc, {"advanced": advanced})
    if save is not None and save.exists():
        raise fail(f"save file {save} already exists; not overwritten")
    if save is not None and seed == SEALED:
        raise fail(f"--seed {SEALED} marks a save without its seed; choose another seed to save the game")
    way = terminal(rulesets.of(sc).id)
    assert way is not None  # scenario_or_exit refused the others
    bots = way.camp_bots(sc, allies_bot, axis_bot)
    st = play_one(scenario, seed, bots, way.game_params(advanced, None), record_events=True)
    lines = way.autoplay_lines(sc, st, seed, bots)
    lines.append(f"Outcome: {st.outcome_text()}")
    typer.echo("\n".join(lines))
    if save is not None:
        st.params.update({"players": dict.fromkeys(sc.sides, "bot"), "bot": bots[sc.sides[0]]})
        write_save(st, save, seed)


@app.command()
def simulate(
    scenario: Annotated[str, typer.Argument(help="bundled id or scenario path")],
    games: Annotated[int, typer.Option(min=1, help="number of campaigns")] = 1000,
    seed: Annotated[int, typer.Option(help="base seed")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    allies_bot: Annotated[str, typer.Option("--allies-bot", help="the Allies' " + BOT_HELP,
                                            callback=bot_kind)] = "heuristic",
    axis_bot: Annotated[str, typer.Option("--axis-bot", help="the Axis' " + BOT_HELP, callback=bot_kind)] = "heuristic",
    ray: Annotated[bool, typer.Option("--ray", help="run on a Ray cluster")] = False,
    advanced: Annotated[bool, typer.Option(help="Kampen om Norge: the advanced game (ships, 9 April)")] = False,
    players_count: Annotated[int | None, typer.Option(
        "--players", min=2, max=3, help="Kampen om Norge: 2 (one bot holds Norway and the Allies) or 3")] = None,
) -> None:
    """Play many campaigns bot against bot and report outcome rates, VP and area control."""
    from warroom.sim.runner import simulate as run

    sc = scenario_or_exit(scenario)
    refuse_params(sc, {"advanced": advanced, "seats": players_count})
    way = terminal(rulesets.of(sc).id)
    assert way is not None  # scenario_or_exit refused the others
    bots = way.camp_bots(sc, allies_bot, axis_bot)
    params = way.game_params(advanced, players_count)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=as_json) as progress:
        task = progress.add_task(f"simulating {sc.id}{' (advanced game)' if advanced else ''}", total=games)
        summary = run(scenario, games, seed, bots, jobs=jobs, backend="ray" if ray else "local",
                      progress=lambda n: progress.advance(task, n), params=params)
    system = rulesets.of(sc)
    report = summary.report(system.score_sides(sc), system.score_label)
    report.update(way.report_extra(advanced, players_count))
    report.update({"scenario": sc.id, "seed": seed, "bots": bots})
    if as_json:
        typer.echo(json.dumps(report, indent=1, ensure_ascii=False))
        return
    way.print_report(out, sc, report)


@app.command()
def validate(path: Annotated[Path, typer.Argument(
        help="a scenario TOML file or folder, a bundled scenario's name, or a balance-lab sweep spec")]) -> None:
    """Check a scenario (or a lab sweep spec) and print every problem found."""
    from warroom.lab.calibration import historical
    from warroom.lab.spec import is_spec

    if not path.exists() and str(path) in bundled_ids(drafts=True):  # a bundled scenario by its name
        path = DATA / str(path)
    if is_spec(path):
        spec = print_spec_problems(path)
        out.print(f"OK: sweep {spec.name!r}: {len(spec.cells)} cells ({', '.join(spec.swept) or 'nothing'} swept) "
                  f"× {spec.games:,} games = {len(spec.cells) * spec.games:,} games", markup=False)
        return
    try:
        sc = load_game_path(path)
        past = historical(path, sc)
    except ScenarioError as exc:
        raise lab_fail(exc.problems, f"{path}: {len(exc.problems)} problem(s)") from exc
    system = rulesets.of(sc)
    out.print(f"OK: {sc.id} '{sc.title}' v{sc.version}: {system.facts(sc)}, {system.assumptions(sc)} recorded "
              "assumptions" + (f"; historical result: {past['outcome']}" if past else ""), markup=False)


SERVE_HELP = (
    "Start the club server: the campaign pages and the JSON API (docs at /api/docs). Data is kept in "
    "WARROOM_DATA_DIR, or in PostgreSQL at WARROOM_DATABASE_URL; the database is migrated first.\n\n"
    "On 127.0.0.1 (the default) anyone on this machine may create campaigns. On any other address, creating and "
    "importing campaigns needs the server key: WARROOM_SERVER_KEY, else a new one printed at the start (--open "
    "lets anyone create). With WARROOM_SERVER_KEY set, the key is needed on every address."
)


@app.command(help=SERVE_HELP)
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: every network of this machine)")] =
    "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    open_to_all: Annotated[bool, typer.Option(
        "--open", help="let anyone who reaches the server create and import campaigns, without the server key, "
                       "even when it listens beyond this machine")] = False,
    create_limit: Annotated[str, typer.Option(
        envvar="WARROOM_CREATE_LIMIT", help="rate limit on creating and importing campaigns, per client address")] =
    CREATE_LIMIT,
    act_limit: Annotated[str, typer.Option(
        envvar="WARROOM_ACT_LIMIT", help="rate limit on actions, results and undo, per invitation link")] =
    ACT_LIMIT,
    campaign_limit: Annotated[str, typer.Option(
        envvar="WARROOM_CAMPAIGN_LIMIT", help="rate limit on the same, per campaign")] = CAMPAIGN_LIMIT,
) -> None:
    """Start the club server (`SERVE_HELP`)."""
    import uvicorn
    from limits import parse_many
    from sqlalchemy.engine import make_url

    from warroom.server.config import database_url
    from warroom.server.guards import ServerSettings, key_problem, needs_key

    for name, text in (("--create-limit", create_limit), ("--act-limit", act_limit),
                       ("--campaign-limit", campaign_limit)):
        try:
            parse_many(text)
        except ValueError as exc:
            raise fail(f"{name}: {text!r} is not a rate limit (write it like '20/minute;200/day')") from exc
    key = os.environ.get("WARROOM_SERVER_KEY") or None
    if key is not None and (problem := key_problem(key)):
        raise fail(f"WARROOM_SERVER_KEY must be {problem}")
    listening = bind(host, port)  # before anything is printed: a busy port is said plainly, and only that
    # the app's modules only now: a server on a busy port stops without the second of CPU they take to import
    from warroom.server.app import create_app, settle_heap
    generated = key is None and needs_key(host) and not open_to_all
    if generated:
        key = secrets.token_urlsafe(18)
    settings = ServerSettings(server_key=key, create_limit=create_limit, act_limit=act_limit,
                              campaign_limit=campaign_limit)
    url = database_url()
    application = create_app(url, settings=settings)
    settle_heap()
    where = make_url(url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    out.print(f"warroom server at http://{shown_host}:{port}/  (API docs: /api/docs; data: {where})", markup=False)
    if generated:
        out.print(f"Creating and importing campaigns needs the server key: {key}\n"
                  "  (enter it on the start page, or send it as the X-Warroom-Key header; set WARROOM_SERVER_KEY to "
                  "keep one key across restarts, or pass --open to let anyone create)", markup=False)
    elif key is not None:
        out.print("Creating and importing campaigns needs the server key in WARROOM_SERVER_KEY.", markup=False)
    elif needs_key(host):
        out.print("Open (--open): anyone who reaches this server may create and import campaigns.", markup=False)
    config = uvicorn.Config(application, log_level="warning", timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[listening])


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port`, or a clear error when the port is taken or the address unknown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise fail(f"cannot listen on {host!r}: {exc.strerror}") from exc
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise fail(f"port {port} on {host} is already in use (is another warroom server running?): stop it, or "
                       f"choose another port with --port (make run PORT=8001)") from exc
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def main() -> None:
    try:
        app()
    except WarroomError as exc:
        err.print(f"error: {exc}", markup=False)
        sys.exit(2)
