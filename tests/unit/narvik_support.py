"""A small Narvik board for rule tests: ten columns by eight rows with every terrain, a railway, a fjord and the
seven victory ports, the bundled rules.toml and scenario.toml, and the units each test asks for.

    col  1234567890
    row1 1111111111
    row2 1...ffmmss
    row3 1...rmgmss
    row4 1.....mmss
    row5 1...f..mss
    row6 1.......ss
    row7 11......ss
    row8 1111111111

Places: Bergen 0202, Stavanger 0203, Kristiansand 0204, Trondheim 0205, Namsos 0206 and Åndalsnes 0302 (ports on
the west coast), Narvik 0707 and Oslo 0507 (ports on the south coast), Sola 0303 (airfield), Elverum 0604
(mobilization centre), Rena 0605 (artillery store), Hamar 0404 (town). The railway runs 0507-0506-0505-0605-0604;
a fjord separates 0403 from 0404.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

from warroom.core.dice import Roll
from warroom.core.state import CHANCE
from warroom.rulesets.narvik import load, new_game
from warroom.rulesets.narvik.scenario import DATA
from warroom.rulesets.narvik.state import NarvikState
from warroom.rulesets.narvik.steps import begin_phase

ROWS = ["1111111111", "1...ffmmss", "1...rmgmss", "1.....mmss", "1...f..mss", "1.......ss", "11......ss",
        "1111111111"]
PLACES = [("Bergen", "0202", ["port", "victory_port", "city"]), ("Stavanger", "0203", ["port", "victory_port"]),
          ("Kristiansand", "0204", ["port", "victory_port"]), ("Trondheim", "0205", ["port", "victory_port"]),
          ("Namsos", "0206", ["port", "victory_port"]), ("Åndalsnes", "0302", ["port", "victory_port"]),
          ("Narvik", "0707", ["port", "victory_port"]), ("Oslo", "0507", ["port", "city", "mobilization_centre"]),
          ("Sola", "0303", ["airfield"]), ("Elverum", "0604", ["mobilization_centre", "town"]),
          ("Rena", "0605", ["artillery_store"]), ("Hamar", "0404", ["town"])]


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def unit(uid: str, side: str = "german", kind: str = "infantry", attack: int = 2, defense: int = 2,
         movement: int = 5, **extra: Any) -> dict[str, Any]:
    """A [[unit]] entry: on the map at `setup` (default Oslo) unless `arrives` or `mobilises` is given."""
    nation = extra.pop("nation", "german" if side == "german" else "norwegian")
    entry: dict[str, Any] = {"id": uid, "name": extra.pop("name", uid), "short": uid[:7], "side": side,
                             "nation": nation, "kind": kind, "size": extra.pop("size", "battalion"),
                             "attack": attack, "defense": defense, "movement": movement,
                             "motorized": extra.pop("motorized", False), "designation": extra.pop("designation", "x")}
    if "arrives" not in extra and "mobilises" not in extra:
        entry["setup"] = extra.pop("setup", "Oslo")
    entry.update(extra)
    return entry


def air(aid: str, side: str = "german", kind: str = "bomber", base: str = "Sola", rng: int = 10,
        arrives: int = 1) -> dict[str, Any]:
    """An [[air]] entry."""
    return {"id": aid, "name": aid, "short": aid[:7], "side": side, "nation": "german" if side == "german"
            else "british", "kind": kind, "strength": 3, "range": rng, "base": base, "arrives": arrives}


def folder(tmp: Path, units: list[dict[str, Any]], ships: list[dict[str, Any]] | None = None,
           airs: list[dict[str, Any]] | None = None, ridge: list[tuple[str, str]] | None = None) -> Path:
    """A scenario folder with the small map and these units (and a mountain ridge along these hexsides)."""
    tmp.mkdir(parents=True, exist_ok=True)
    for name in ("scenario.toml", "rules.toml"):
        shutil.copy(DATA / name, tmp / name)
    lines = ["[map]", 'name = "test"', "hex_km = 25.7", "columns = 10", "rows = 8",
             'legend = { "1" = "sea: skagerrak", "s" = "neutral", "." = "clear", "f" = "forest", "r" = "rough", '
             '"m" = "mountain", "g" = "glacier", "l" = "lake" }',
             "terrain = " + toml_value(ROWS), "", "[[sea_zone]]", 'id = "skagerrak"', 'name = "Skagerrak"']
    for name, hid, kinds in PLACES:
        lines += ["", "[[place]]", f"name = {toml_value(name)}", f'hex = "{hid}"', f"kinds = {toml_value(kinds)}"]
        if "port" in kinds:
            lines.append('sea = "skagerrak"')
    lines += ["", "[[rail]]", 'name = "test line"', 'hexes = ["0507", "0506", "0505", "0605", "0604"]',
              "", "[[fjord]]", 'name = "test fjord"', 'hexsides = [["0403", "0404"]]']
    if ridge:
        lines += ["", "[[ridge]]", 'name = "test ridge"', f"hexsides = {toml_value([list(s) for s in ridge])}"]
    (tmp / "map.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = []
    for u in units:
        out += ["[[unit]]", *(f"{k} = {toml_value(v)}" for k, v in u.items()), ""]
    for s in ships or []:
        out += ["[[ship]]", *(f"{k} = {toml_value(v)}" for k, v in s.items()), ""]
    for a in airs or []:
        out += ["[[air]]", *(f"{k} = {toml_value(v)}" for k, v in a.items()), ""]
    (tmp / "forces.toml").write_text("\n".join(out), encoding="utf-8")
    return tmp


def game(tmp: Path, units: list[dict[str, Any]], german: tuple[str, ...] = ("Oslo",),
         airs: list[dict[str, Any]] | None = None, ridge: list[tuple[str, str]] | None = None,
         **params: Any) -> NarvikState:
    """A new game on the small map with these units (and air units), at the German movement phase of turn 1, the
    places named in `german` German-held (so that German units are in supply)."""
    st = new_game(load(folder(tmp, units, airs=airs, ridge=ridge)), params)
    for name in german:
        st.owner[st.sc.map.place_hex(name)] = "german"
    st.air_at = {a: st.sc.air[a].base for a in st.air_at}  # at the bases the test gave them
    begin_phase(st)
    return st


def roll(st: NarvikState, face: int) -> None:
    assert st.current_player() == CHANCE, st.step
    st.apply_action(Roll((face,)))


def act(st: NarvikState, text: str, side: str | None = None) -> None:
    st.apply_action(st.parse_action(text), side)


def play_random(st: NarvikState, seed: int, limit: int = 50_000) -> int:
    """Random legal play to the end; the number of actions."""
    rng = random.Random(seed)
    n = 0
    while not st.is_terminal() and n < limit:
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
        else:
            st.apply_action(st.random_action(rng))
        n += 1
    return n


def to_allied_turn(st: NarvikState) -> None:
    """End the German player turn (nothing fought) and decline the Allied fleet's attack: the Allied movement."""
    while st.phasing == "german":
        act(st, "end")
    if st.step == "naval":
        act(st, "end")
