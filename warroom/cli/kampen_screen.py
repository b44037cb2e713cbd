"""The Kampen om Norge board at the terminal: battalions by area, attacks at the borders, the battle being
fought, and the hand of the country to act (never another's). In the advanced game also the ship cards per
sea area and in the raid box, the ships still to deploy, the sea battle and the 9 April landings, all read
from `state.view(country)`, so a face-down card of another country shows only as that country's card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from warroom.cli.cells import Cell, Drawn
from warroom.core.state import Action
from warroom.rulesets.kampen.describe import ship_name
from warroom.rulesets.kampen.scenario import game_title
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState

SHORT = {GERMANY: "G", NORWAY: "N", ALLIES: "A"}
ADJECTIVE = {GERMANY: "German", NORWAY: "Norwegian", ALLIES: "Allied"}
SEAS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
RAID = "raid"


def screen(st: KampenState, legal: Sequence[Action], seen: int | None = None, viewer: str | None = None
           ) -> RenderableType:
    sc = st.sc
    board = sc.board
    whose = possessive(sc.names[st.country])
    title = game_title(sc, st.advanced)
    if st.advanced and st.april:
        head = Text(f"{title} - the 9 April round, {st.phase()} ({st.step})")
    else:
        head = Text(f"{title} - round {st.round}, {whose} round, {st.phase()} ({st.step})")
    table = Table(title="Battalions (G Germany, N Norway, A the Allies)", show_lines=False)
    for col in ("area", "troops", "", "area ", "troops "):
        table.add_column(col)
    rows = []
    for area in sorted(board.land, key=lambda a: board.land[a].name):
        here = st.troops.get(area, {})
        marks = ("*" if area in board.point_cities else "") + ("m" if board.land[area].mobilisation else "")
        troops = " ".join(f"{SHORT[c]}{n}" for c, n in sorted(here.items()))
        rows.append((f"{board.land[area].name}{' ' + marks if marks else ''}", troops))
    half = (len(rows) + 1) // 2
    for left, right in zip(rows[:half], [*rows[half:], ("", "")], strict=False):
        table.add_row(Cell(left[0]), Cell(left[1]), "", Cell(right[0]), Cell(right[1]))
    parts: list[RenderableType] = [head, Drawn(table), Text("* point city, m mobilisation point")]
    for area, attack in sorted(st.attacks.items()):
        came = ", ".join(f"{n} from {board.land[a].name}" for a, n in attack.origins.items())
        extra = f", {attack.by_sea_or_air} by sea or air" if attack.by_sea_or_air else ""
        parts.append(Text(f"Attack on {board.land[area].name}: {came}{extra}"))
    b = st.battle
    if b is not None:
        parts.append(Text(f"Battle of {board.land[b.area].name}: cards so far "
                          + (", ".join(sc.card_name(p.card) for p in b.played) or "none")))
        if st.step in ("losses", "losses_answer", "losses_forced") and b.def_losses:
            asked = {"losses": "Norway shares them out", "losses_answer": "the Allies agree (done) or refuse, "
                     "and then Germany decides", "losses_forced": "Germany decides"}[st.step]
            parts.append(Text(f"The defence loses {plural(b.def_losses, 'battalion')}"
                              + (f"; proposed so far: {', '.join(sc.names[c] for c in b.proposal)}" if b.proposal
                                 else "") + f" ({asked})"))
    if st.advanced:
        parts.extend(at_sea(st, st.view(viewer), viewer))
    decks = ", ".join(f"{sc.names[c]} {len(st.draw[c])} face down" for c in sc.countries)
    parts.append(Text(f"Decks: {decks}"))
    if viewer in sc.countries:
        hand = ", ".join(f"{k} ({sc.card_name(k)}, {plural(sc.symbols_of(k), 'symbol')})" for k in st.hands[viewer])
        parts.append(Text(f"{possessive(sc.names[viewer])} hand: {hand or 'empty'}"))
    if legal:
        shown = [f"{i}. {a.to_str()}" for i, a in enumerate(legal[:30], start=1)]
        more = f" ... and {len(legal) - 30} more ('options' lists all)" if len(legal) > 30 else ""
        parts.append(Text(f"{sc.names.get(st.current_player(), '')}: choose by number or type the action"))
        parts.append(Text("  ".join(shown) + more))
    return Group(*parts)


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def ship_label(st: KampenState, key: str) -> str:
    """A ship card as a player knows it and types it: 'KMS Blücher [blucher#0]'."""
    return f"{ship_name(st, key)} [{key}]"


def ship_group(st: KampenState, keys: list[str]) -> str:
    """Ship cards by name, the copies of one ship together: 'Falskt skip [falskt_skip#0 #1 #2]'."""
    by_ship: dict[str, list[str]] = {}
    for key in keys:
        by_ship.setdefault(key.split("#", 1)[0], []).append(key)
    out = []
    for copies in by_ship.values():
        rest = " ".join("#" + k.split("#", 1)[1] for k in copies[1:])
        out.append(f"{ship_name(st, copies[0])} [{copies[0]}{' ' + rest if rest else ''}]")
    return ", ".join(out)


def card_text(entry: dict[str, Any]) -> str:
    """One ship card of a view's fleet that the viewer may see, as typed, with its type and state:
    'blucher#0 (heavy cruiser, face up, fighting)'."""
    marks = [entry["type"].replace("_", " ")] + (["face up"] if entry["face_up"] else []) + (
        ["fighting"] if entry.get("fighting") else [])
    return f"{entry['ship']} ({', '.join(marks)})"


def sea_cell(st: KampenState, entries: list[dict[str, Any]]) -> Text:
    """The ship cards in one sea area, a line per country: the cards the viewer may see by name, the others
    only counted ('2 German cards')."""
    lines = []
    for country in st.sc.countries:
        mine = [e for e in entries if e["owner"] == country]
        if not mine:
            continue
        seen = [card_text(e) for e in mine if e["ship"] is not None]
        hidden = sum(1 for e in mine if e["ship"] is None)
        counted = f"{hidden} {'more ' if seen else ''}{ADJECTIVE[country]} card{'s' * (hidden > 1)}"
        if not seen:
            lines.append(counted)
        else:
            lines.append(f"{st.sc.names[country]}: " + ", ".join(seen) + (f", {counted}" if hidden else ""))
    return Text("\n".join(lines) or "-")


def at_sea(st: KampenState, view: dict[str, Any], viewer: str | None) -> list[RenderableType]:
    """The advanced game's part of the screen, drawn from `view` (what `viewer` may see)."""
    sc = st.sc
    fleet: dict[str, list[dict[str, Any]]] = view["fleet"]
    seen_as = f"as {sc.names[viewer]} see{'s' * (viewer != ALLIES)} them" if viewer in sc.countries \
        else "face-up cards named"
    table = Table(title=f"Ship cards at sea ({seen_as})")
    table.add_column("sea area", max_width=24)
    table.add_column("held by")
    table.add_column("ship cards", overflow="fold", ratio=1)
    for sea in (*SEAS, RAID):
        entries = fleet.get(sea, [])
        if sea == RAID:
            table.add_row("raid  the raid box", "", sea_cell(st, entries))
            continue
        owners = {e["owner"] for e in entries}
        held = sc.names[owners.pop()] if len(owners) == 1 else ""
        table.add_row(Text(f"{sea:<5} {sc.board.seas[sea].name}"), held, sea_cell(st, entries))
    parts: list[RenderableType] = [Drawn(table), Text("A sea area is held by the only country with ship cards there.")]
    hand: dict[str, Any] = view["ships_in_hand"]
    to_deploy = []
    for c in sc.countries:
        ships = hand[c]
        if isinstance(ships, list) and ships:
            to_deploy.append(f"{sc.names[c]}: {ship_group(st, ships)}")
        elif isinstance(ships, int) and ships:
            to_deploy.append(f"{sc.names[c]}: {ships} card{'s' * (ships > 1)}")
    if to_deploy:
        parts.append(Text("Ships in hand, still to deploy - " + "; ".join(to_deploy)))
    if view["ships_set_aside"]:
        parts.append(Text(f"Allied ship cards set aside (the Home Fleet): {view['ships_set_aside']}"))
    if view["april"]:
        mine = view["april_cards_left"].get(viewer or "")
        if isinstance(mine, list) and mine:
            parts.append(Text(f"{possessive(sc.names[viewer or ''])} 9 April cards still to choose from: "
                              + ", ".join(f"{k} ({sc.card_name(k)})" for k in mine)))
    sb = view["sea_battle"]
    if sb is not None:
        side = "Germany" if sb["attacker"] == GERMANY else "the Allied side"
        cards = ", ".join(sc.card_name(k) for k in sb["cards"]) or "none"
        hits = ", ".join(f"{ship_label(st, h['ship'])} {'sunk' if h['outcome'] == 'sink' else 'chased'}"
                         for h in sb["hits"]) or "none yet"
        line = f"Sea battle in sea area {sb['sea']}, {side} attacking: cards played {cards}; hits {hits}"
        if sb["chased"]:
            line += "; chased ships still to move: " + ", ".join(ship_label(st, k) for k in sb["chased"])
        parts.append(Text(line))
    if view["landings"]:
        landing = [(f"{ship_label(st, x['ship'])} " if "ship" in x else "") + f"from sea {x['sea']} to "
                   f"{sc.board.land[x['area']].name}" for x in view["landings"]]
        parts.append(Text("Landings: " + "; ".join(landing)))
    return parts


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
