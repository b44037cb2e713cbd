"""A Narvik bot: a greedy general for either side. The game is open, so it reads the position as it is.

- **Moving.** Each unit goes where it gains most: closer to the objective its side needs (for the Germans the
  nearest victory port they do not hold, then any Allied place; for the Allies the nearest victory port under
  threat, then the nearest German unit), into an enemy hex only where its stack would attack at 2:1 or better,
  never leaving a victory port its side holds bare. It ends the phase when no move gains anything.
- **Combat.** A defender stands unless the odds against it are 3:1 or worse, when it tries to withdraw.
- **Headquarters and breakdowns** are left as they are (the German units start broken down).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.core.state import Action
from warroom.rulesets.narvik.actions import End, Interdict, Land, Move, Rail, Stand, Truck, Withdraw
from warroom.rulesets.narvik.combat import odds
from warroom.rulesets.narvik.hexes import distance
from warroom.rulesets.narvik.movement import owned_by
from warroom.rulesets.narvik.scenario import GERMAN
from warroom.rulesets.narvik.state import NarvikState, other


def objectives(st: NarvikState, side: str) -> list[str]:
    """Hexes this side's units head for, nearest first for each unit."""
    m = st.sc.map
    ports = [m.place_hex(p) for p in st.sc.victory_ports]
    enemy_units = sorted(st.occupied(other(side)))
    if side == GERMAN:
        wanted = [h for h in ports if owned_by(st, h) != GERMAN]
        return wanted or enemy_units
    threatened = [h for h in ports if owned_by(st, h) != GERMAN and any(distance(h, e) <= 4 for e in enemy_units)]
    retake = [h for h in ports if owned_by(st, h) == GERMAN]
    return threatened + retake + enemy_units


NEAR: dict[tuple[tuple[str, ...], str], int] = {}
"""(objectives, hex) -> hexes to the nearest objective: the same few objectives serve many decisions."""


def nearest(hid: str, targets: tuple[str, ...]) -> int:
    key = (targets, hid)
    got = NEAR.get(key)
    if got is None:
        if len(NEAR) > 200_000:
            NEAR.clear()
        got = NEAR[key] = min((distance(hid, t) for t in targets), default=0)
    return got


Stacks = dict[tuple[str, str], list[str]]
"""(hex, side) -> the units there."""



def stacks_of(st: NarvikState) -> Stacks:
    out: Stacks = {}
    for uid, hid in st.pos.items():
        out.setdefault((hid, st.types[uid].side), []).append(uid)
    return out


def guards(st: NarvikState, uid: str, ports: set[str], stacks: Stacks) -> bool:
    """Whether the unit is the last of its side holding a victory port its side owns."""
    here = st.pos[uid]
    side = st.types[uid].side
    return here in ports and owned_by(st, here) == side and len(stacks.get((here, side), ())) == 1


def attack_ratio(st: NarvikState, uid: str, there: str, stacks: Stacks) -> float:
    """The odds the unit's side would have in `there` after moving in, terrain included, as a ratio (a quick
    estimate: every defender counted, supply and disruption ignored)."""
    side = st.types[uid].side
    a = st.types[uid].attack + sum(st.types[u].attack for u in stacks.get((there, side), ()))
    d = sum(st.types[u].defense for u in stacks.get((there, other(side)), ()))
    if d <= 0:
        return 99.0
    shift = st.sc.charts.terrain_shift.get(st.sc.map.terrain[there], 0)
    return float((a / d) * (2.0 ** (shift / 2)))


def move_gain(st: NarvikState, uid: str, there: str, targets: tuple[str, ...], enemy: set[str], start: int,
              stacks: Stacks) -> float:
    """What moving gains: hexes nearer the objectives (`start`: the unit's distance now), a good attack, an
    objective reached."""
    gain = float(start - nearest(there, targets))
    if there in enemy:
        gain += 3.0 if attack_ratio(st, uid, there, stacks) >= 2.0 else -5.0
    elif there in targets:
        gain += 2.0
    return gain


def choose(st: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    assert isinstance(st, NarvikState)
    side = st.current_player()
    for action in legal:
        if isinstance(action, Stand | Withdraw):
            a, d, shift, _ = odds(st.clone(), action.hex)
            hopeless = d <= 0 or (a / d) * (2.0 ** (shift / 2)) >= 3.0
            return Withdraw(action.hex) if hopeless else Stand(action.hex)
    strikes = [a for a in legal if isinstance(a, Interdict)]
    if strikes:
        def worth(a: Interdict) -> tuple[int, int, str]:
            names = st.sc.map.at.get(a.hex, ())
            ships = sum(len(st.sc.destroyers.get(n, ())) for n in names)
            return (-ships, 0 if any(n in st.sc.victory_ports for n in names) else 1, a.hex)
        return min(strikes, key=worth)
    moves = [a for a in legal if isinstance(a, Move | Rail | Truck | Land)]
    if not moves:
        return End() if End() in legal else legal[0]
    targets = tuple(objectives(st, side))
    enemy = st.occupied(other(side))
    ports = {st.sc.map.place_hex(p) for p in st.sc.victory_ports}
    stacks = stacks_of(st)
    best: Action = End()
    best_gain = 0.5
    start: dict[str, int] = {}  # unit -> its distance to the objectives now, or -1 when it must stay
    for action in moves:
        uid = action.truck if isinstance(action, Truck) else action.unit
        here = start.get(uid)
        if here is None:
            here = start[uid] = -1 if guards(st, uid, ports, stacks) else nearest(st.pos[uid], targets)
        if here < 0:
            continue
        gain = move_gain(st, uid, action.to, targets, enemy, here, stacks)
        if isinstance(action, Land):
            gain -= 0.01  # a lift is scarce: a move or a rail move that gains as much goes first
        if gain > best_gain or (gain == best_gain and rng.random() < 0.3):
            best, best_gain = action, gain
    return best
