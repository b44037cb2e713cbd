"""The Kampen om Norge board at the terminal: battalions by area, attacks at the borders, the battle being
fought, and the hand of the country to act (never another's)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from warroom.core.state import Action
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState

SHORT = {GERMANY: "G", NORWAY: "N", ALLIES: "A"}


def screen(st: KampenState, legal: Sequence[Action], seen: int | None = None, viewer: str | None = None
           ) -> RenderableType:
    sc = st.sc
    board = sc.board
    whose = sc.names[st.country] + ("'" if sc.names[st.country].endswith("s") else "'s")
    head = Text(f"{sc.title} - round {st.round}, {whose} round, {st.phase()} ({st.step})")
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
        table.add_row(left[0], left[1], "", right[0], right[1])
    parts: list[RenderableType] = [head, table, Text("* point city, m mobilisation point")]
    for area, attack in sorted(st.attacks.items()):
        came = ", ".join(f"{n} from {board.land[a].name}" for a, n in attack.origins.items())
        extra = f", {attack.by_sea_or_air} by sea or air" if attack.by_sea_or_air else ""
        parts.append(Text(f"Attack on {board.land[area].name}: {came}{extra}"))
    b = st.battle
    if b is not None:
        parts.append(Text(f"Battle of {board.land[b.area].name}: cards so far "
                          + (", ".join(sc.card_name(p.card) for p in b.played) or "none")))
    decks = ", ".join(f"{sc.names[c]} {len(st.draw[c])} face down" for c in sc.countries)
    parts.append(Text(f"Decks: {decks}"))
    if viewer in sc.countries:
        hand = ", ".join(f"{k} ({sc.card_name(k)}, {sc.symbols_of(k)} symbols)" for k in st.hands[viewer])
        owner = sc.names[viewer] + ("'" if sc.names[viewer].endswith("s") else "'s")
        parts.append(Text(f"{owner} hand: {hand or 'empty'}"))
    if legal:
        shown = [f"{i}. {a.to_str()}" for i, a in enumerate(legal[:30], start=1)]
        more = f" ... and {len(legal) - 30} more ('options' lists all)" if len(legal) > 30 else ""
        parts.append(Text(f"{sc.names.get(st.current_player(), '')}: choose by number or type the action"))
        parts.append(Text("  ".join(shown) + more))
    return Group(*parts)
