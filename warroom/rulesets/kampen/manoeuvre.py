"""Cards of the movement phase (docs/kampen-cards.md section 4): moves further than one area, air and sea
moves, paratroops and invasions in the mover's phase 1, and Norway's sabotage in phase 1c of the German
round, which Germany's engineers may answer.

A card is played (`Play`), then its target is chosen as a `Move` or `Place` in the step `card_effect`
(or, in phase 1c, `sabotage_target`). Numbers come from `cards.toml`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING, Any

from warroom.core.flow import draw_until
from warroom.rulesets.kampen.actions import DONE, Done, Move, Place, Play, move, place
from warroom.rulesets.kampen.cards import Card, CardUse
from warroom.rulesets.kampen.effects import (
    advanced_met,
    allied_coast,
    allowed,
    card_of,
    deck_now,
    german_airfields,
    timings_now,
)
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, Attack, Moved, held

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import KampenState

MOVE_EFFECTS = frozenset({"extra_move", "rail_move", "airlift", "evacuate", "paradrop", "invasion"})
SABOTAGE_EFFECTS = frozenset({"block_attack", "block_border", "flee"})


def movable(st: KampenState, area: str, country: str) -> int:
    return st.at(area, country) - st.arrived.get(area, 0)


def use_at(st: KampenState, key: str, step: str, timings: tuple[str, ...]) -> tuple[int, CardUse] | None:
    """The card's use at this step for these timing symbols (orange ones in the 9 April round)."""
    card = card_of(st, key)
    now = timings_now(st, timings)
    for i, use in enumerate(card.uses):
        if use.step == step and use.timing in now and allowed(st, use):
            return i, use
    return None


# ----- phase 1b: the mover's cards --------------------------------------------------------------------------
def routes(st: KampenState, start: str, steps: int, enter: Any, go_on: Any) -> set[tuple[str, str]]:
    """Every (destination, area passed through last) within `steps` of `start`: a border may be crossed when
    `enter(area, from_area)` allows it, and the move may continue only from areas `go_on(area)` allows. The
    last area passed through is `start` itself for a neighbour. Every route is kept, since the area an
    attack comes from decides its dice, Veisperring and the defender's retreat."""
    board = st.sc.board
    out: set[tuple[str, str]] = set()
    frontier = deque([(start, 0, frozenset({start}))])
    while frontier:
        here, dist, path = frontier.popleft()
        if dist == steps:
            continue
        for n in board.neighbours(here):
            if n in path or not enter(n, here):
                continue
            out.add((n, here))
            if go_on(n):
                frontier.append((n, dist + 1, path | {n}))
    return out


def targets(st: KampenState, use: CardUse) -> list[Any]:
    """The choices a movement card offers its player now (empty: it cannot be played)."""
    return list(iter_targets(st, use))


def iter_targets(st: KampenState, use: CardUse) -> Iterator[Any]:
    """`targets`, one at a time (so that asking whether a card can be played stops at the first)."""
    c = st.country
    board = st.sc.board
    effect = use.effect
    most = use.count("battalions", 1)
    if effect == "extra_move":
        for frm in sorted(st.troops):
            k_max = min(most, movable(st, frm, c))
            if k_max <= 0:
                continue
            found = routes(st, frm, use.count("areas", 2), lambda a, _p: True, lambda a: not st.hostile(a, c))
            for to, via in sorted(found):
                if to != frm:
                    yield from (move(frm, to, k, "" if via == frm else via) for k in range(1, k_max + 1))
    elif effect == "rail_move":
        for frm in sorted(st.troops):
            k_max = min(most, movable(st, frm, c))
            if k_max <= 0:
                continue
            found = routes(st, frm, use.count("areas", 3),
                           lambda a, p: not st.at(a, GERMANY) and not board.crosses_water(p, a), lambda a: True)
            for to in sorted({to for to, _ in found if to != frm}):
                yield from (move(frm, to, k) for k in range(1, k_max + 1))
    elif effect == "airlift":
        fields = german_airfields(st)
        for frm in fields:
            k_max = min(most, movable(st, frm, c))
            yield from (move(frm, to, k) for to in fields if to != frm for k in range(1, k_max + 1))
    elif effect == "evacuate":
        evacuate = card_with(st, "evacuate")
        for frm in sorted(st.troops):
            k_max = min(most, movable(st, frm, c))
            # assumption: (5.2) Kystevakuering's printed requirement, an Allied ship off the coast, is checked
            # where the battalions embark; the ship carries them wherever it may land them.
            if k_max <= 0 or not allied_coast(st, frm) or not advanced_met(st, evacuate, frm):
                continue
            yield from (move(frm, to, k) for to in board.land_by_name if to != frm and allied_coast(st, to)
                        and not st.hostile(to, c) for k in range(1, k_max + 1))
    elif effect == "paradrop":
        held = german_airfields(st)
        yield from (place(a, most) for a in board.land_by_name if board.in_air_range(a, held))
    elif effect == "invasion" and invasion_areas(st):
        yield Place("", 0)  # its choices follow: an exchange, then placing on the coast


def card_with(st: KampenState, effect: str) -> Card:
    """The card whose uses include `effect` (its advanced requirements are the card's)."""
    return next(c for c in st.sc.cards.cards.values() if any(u.effect == effect for u in c.uses))


def playable_moves(st: KampenState) -> list[Play]:
    """Movement cards the mover may play in phase 1b."""
    return [Play(key) for key in dict.fromkeys(st.hands[st.country]) if playable_move(st, key)]


def playable_move(st: KampenState, key: str) -> bool:
    """Whether the mover may play this card of its hand as a movement card now."""
    found = use_at(st, key, "move", ("play",))
    if found is None or found[1].effect not in MOVE_EFFECTS:
        return False
    if found[1].effect == "invasion" and len(st.hands[st.country]) < 2:
        return False  # nothing left to exchange once the card itself is played
    return has_targets(st, found[1])


def has_targets(st: KampenState, use: CardUse) -> bool:
    """Whether `targets` would offer anything, answered without listing them where a look at the neighbours
    settles it: a move of one or two areas (any neighbour will do) or by rail (a neighbour without Germans, over
    no water)."""
    effect = use.effect
    if effect not in ("extra_move", "rail_move") or use.count("areas", 2 if effect == "extra_move" else 3) < 1:
        return next(iter_targets(st, use), None) is not None
    c = st.country
    most = use.count("battalions", 1)
    board = st.sc.board
    for frm in st.troops:
        if min(most, movable(st, frm, c)) <= 0:
            continue
        for n in board.neighbours(frm):
            if effect == "extra_move" or (not st.at(n, GERMANY) and not board.crosses_water(frm, n)):
                return True
    return False


def start_effect(st: KampenState, action: Play) -> None:
    found = use_at(st, action.card, "move", ("play",))
    assert found is not None
    c = st.country
    st.spend(c, action.card)
    st.flags.effect = (action.card, found[0])
    st.note(f"{st.sc.names[c]} play {card_of(st, action.card).name}: {found[1].text}")
    if found[1].effect == "invasion":
        st.flags.effect = None
        st.flags.invading = True
        st.symbols = 0


def effect_use(st: KampenState) -> CardUse:
    key, index = held(st.flags.effect)
    return card_of(st, key).uses[index]


def arrive(st: KampenState, frm: str, to: str, n: int, via: str = "", by_sea_or_air: bool = False) -> None:
    """`n` of the mover's battalions reach `to` from `frm` (already taken off the board): into a hostile
    area they wait at the border of the area passed through last (or arrive by sea or air), else they move in."""
    c = st.country
    start = via or frm
    if st.hostile(to, c) or to in st.attacks:
        attack = st.attacks.setdefault(to, Attack(to, c))
        if by_sea_or_air:
            attack.by_sea_or_air += n
        else:
            attack.origins[start] = attack.origins.get(start, 0) + n
            if st.sc.board.crosses_water(start, to):
                attack.over_water += n
        if st.record_events:  # the words only where they are kept
            st.note(f"{st.sc.names[c]}: {n} battalion{'s' * (n > 1)} attack {st.name(to)}"
                    + ("" if by_sea_or_air else f" from {st.name(start)}"))
    else:
        st.add(to, c, n)
        st.arrived[to] = st.arrived.get(to, 0) + n
        if st.record_events:
            st.note(f"{st.sc.names[c]}: {n} battalion{'s' * (n > 1)} to {st.name(to)}")
    if not by_sea_or_air and frm and c == GERMANY:  # remembered for Sprengt bro
        st.flags.moved = (*st.flags.moved, Moved(frm, via, to, n, to in st.attacks))


def apply_target(st: KampenState, action: Move | Place) -> None:
    use = effect_use(st)
    st.flags.effect = None
    c = st.country
    if isinstance(action, Move):
        st.add(action.frm, c, -action.n)
        sea_or_air = use.effect in ("airlift", "evacuate")
        if sea_or_air:
            st.add(action.to, c, action.n)
            st.arrived[action.to] = st.arrived.get(action.to, 0) + action.n
            st.note(f"{st.sc.names[c]}: {action.n} battalions from {st.name(action.frm)} to {st.name(action.to)}")
        else:
            arrive(st, action.frm, action.to, action.n, action.via)
    else:
        assert isinstance(action, Place)
        if use.effect == "paradrop" and st.country == GERMANY and drop_seat(st):  # asked whatever they hold
            st.flags.drop = (action.area, action.n)  # fighters may answer first
            st.flags.drop_seat = drop_seat(st)
            return
        arrive(st, "", action.area, action.n, by_sea_or_air=True)


def drop_seat(st: KampenState) -> str:
    """Who may answer a German paratroop drop: the enemy whose cards in use (its play deck, or on 9 April its
    9 April deck) include a fighter that diverts drops, if it holds any cards; known to all."""
    for enemy in (ALLIES, NORWAY):
        if st.hands[enemy] and any(c.owner == enemy and c.deck == deck_now(st) and any(
                u.effect == "divert_airdrop" for u in c.uses) for c in st.sc.cards.cards.values()):
            return enemy
    return ""


def diverters(st: KampenState) -> list[Play]:
    """Cards that may scatter a paratroop drop just aimed (Jagerfly in the German round)."""
    seat = st.flags.drop_seat
    if st.country != GERMANY or not seat:
        return []
    area = held(st.flags.drop)[0]
    out = []
    for key in dict.fromkeys(st.hands[seat]):
        found = use_at(st, key, "move", ("stop",))
        if found is not None and found[1].effect == "divert_airdrop" and advanced_met(st, card_of(st, key), area):
            out.append(Play(key))
    return out


def answer_drop(st: KampenState, action: Done | Play) -> None:
    """The answering country lets the drop land where aimed (done) or scatters it (a card; then it picks)."""
    area, n = held(st.flags.drop)
    if isinstance(action, Play):
        seat = st.flags.drop_seat
        found = use_at(st, action.card, "move", ("stop",))
        assert found is not None
        st.spend(seat, action.card)
        st.note(f"{st.sc.names[seat]} play {card_of(st, action.card).name}: {found[1].text}")
        st.flags.scatter = True
        return
    st.flags.drop = None
    arrive(st, "", area, n, by_sea_or_air=True)


def scatter_choices(st: KampenState) -> list[Place]:
    area, n = held(st.flags.drop)
    return [Place(a, n) for a in st.sc.board.neighbours(area)]


def scatter(st: KampenState, action: Place) -> None:
    assert isinstance(action, Place)
    st.flags.drop = None
    st.flags.scatter = False
    st.note(f"The paratroops are scattered to {st.name(action.area)}")
    arrive(st, "", action.area, action.n, by_sea_or_air=True)


# ----- the Allies' invasion: an exchange in phase 1, landing on the coast -------------------------------------------
def invasion_areas(st: KampenState) -> list[str]:
    card = card_with(st, "invasion")
    return [a for a in st.sc.board.land_by_name if allied_coast(st, a) and advanced_met(st, card, a)]


# ----- phase 1c: Norwegian sabotage and flight, German engineers ---------------------------------------------------
def sabotage_choices(st: KampenState, use: CardUse) -> list[Any]:
    """What a phase-1c card may act on: an attacked area (Veisperring, flight) or a crossed border."""
    return list(iter_sabotage_choices(st, use))


def iter_sabotage_choices(st: KampenState, use: CardUse) -> Iterator[Any]:
    """`sabotage_choices`, one at a time (so that asking whether a card can be played stops at the first)."""
    if use.effect == "block_attack":
        kinds = set(use.names("borders"))
        yield from (place(a) for a, x in sorted(st.attacks.items()) if x.country == GERMANY
                    and any(kind_of(st, frm, a) in kinds for frm in x.origins))
    elif use.effect == "block_border":
        seen = sorted({b for m in st.flags.moved if can_take_back(st, m) for b in m.borders()})
        yield from (move(frm, to, 1) for frm, to in seen)
    elif use.effect == "flee":
        yield from (place(a) for a, x in sorted(st.attacks.items()) if x.country == GERMANY and st.at(a, NORWAY)
                    and flight_areas(st, a))


def kind_of(st: KampenState, a: str, b: str) -> str:
    kind = st.sc.board.border_kind(a, b)
    return str(kind.value) if kind is not None else ""


def flight_areas(st: KampenState, area: str) -> list[str]:
    """Where fleeing Norwegians may go: as a beaten defender may, and never into an area German battalions
    left this phase (a blown bridge could send them back into it)."""
    origins = {o for x in st.attacks.values() for o in x.origins}
    left = {a for m in st.flags.moved for a in (m.start, m.via) if a}
    return [n for n in st.sc.board.neighbours(area)
            if not st.at(n, GERMANY) and n not in st.attacks and n not in origins and n not in left]


def sabotage_window(st: KampenState) -> bool:
    """Phase 1c asks Norway whenever Germany moved or attacks this phase and Norway holds cards: whether it
    is asked must not tell Germany what those cards are."""
    return st.country == GERMANY and bool(st.hands[NORWAY]) and bool(st.attacks or st.flags.moved)


def playable_sabotage(st: KampenState) -> list[Play]:
    if st.country != GERMANY:
        return []
    return [Play(key) for key in dict.fromkeys(st.hands[NORWAY]) if sabotage_playable(st, key)]


def sabotage_playable(st: KampenState, key: str) -> bool:
    """Whether Norway may play this card of its hand in phase 1c now: a sabotage card with something to act on."""
    found = use_at(st, key, "sabotage", ("stop",))
    return found is not None and found[1].effect in SABOTAGE_EFFECTS and \
        next(iter_sabotage_choices(st, found[1]), None) is not None


def random_sabotage(st: KampenState, rng: Random) -> Play | Done:
    """One of phase 1c's choices (`playable_sabotage` and `done`), each as likely as any other: a slot for each
    distinct card in Norway's hand and one for `done`, drawn again where that card cannot be played now."""
    keys = list(dict.fromkeys(st.hands[NORWAY])) if st.country == GERMANY else []
    done_or_play: Play | Done = draw_until(rng, len(keys) + 1,
                                           lambda r: card_or_done(st, keys, r, sabotage_playable))
    return done_or_play


def card_or_done(st: KampenState, keys: list[str], r: int, playable: Callable[[KampenState, str], bool]
                 ) -> Play | Done | None:
    """Slot `r` of a draw among distinct cards and `done` (`done` last): its card played, if `playable`, or
    `done`; None where that card cannot be played now."""
    if r == len(keys):
        return DONE
    return Play(keys[r]) if playable(st, keys[r]) else None


def counter_cards(st: KampenState) -> list[Play]:
    """Germany's answers to the sabotage card just aimed (Ingeniørkompani cancels Veisperring, Sprengt bro)."""
    pending = st.flags.sabotage
    if pending is None:
        return []
    target_type = card_of(st, pending[0]).type
    out = []
    for key in dict.fromkeys(st.hands[GERMANY]):
        found = use_at(st, key, "sabotage_counter", ("react",))
        if found is not None and found[1].effect == "cancel" and target_type in found[1].names("targets"):
            out.append(Play(key))
    return out


def play_sabotage(st: KampenState, action: Play) -> None:
    found = use_at(st, action.card, "sabotage", ("stop",))
    assert found is not None
    st.spend(NORWAY, action.card)
    st.flags.sabotage = (action.card, found[0], None)
    st.note(f"Norway play {card_of(st, action.card).name}: {found[1].text}")


def sabotage_use(st: KampenState) -> CardUse:
    key, index, _ = held(st.flags.sabotage)
    return card_of(st, key).uses[index]


def aim_sabotage(st: KampenState, choice: Any) -> None:
    key, index, _ = held(st.flags.sabotage)
    st.flags.sabotage = (key, index, choice)


def counter(st: KampenState, action: Play) -> None:
    found = use_at(st, action.card, "sabotage_counter", ("react",))
    assert found is not None
    st.spend(GERMANY, action.card)
    st.note(f"Germany play {card_of(st, action.card).name}: the sabotage fails")
    st.flags.sabotage = None


def carry_out_sabotage(st: KampenState) -> None:
    """The aimed card, unanswered, takes effect."""
    pending = st.flags.sabotage
    st.flags.sabotage = None
    if pending is None:
        return
    use = card_of(st, pending[0]).uses[pending[1]]
    choice = pending[2]
    if use.effect == "block_attack":
        assert isinstance(choice, Place)
        attack = st.attacks[choice.area]
        kinds = set(use.names("borders"))
        for frm in [f for f in attack.origins if kind_of(st, f, choice.area) in kinds]:
            n = attack.origins.pop(frm)
            if st.sc.board.crosses_water(frm, choice.area):
                attack.over_water -= n
            st.add(frm, GERMANY, n)
            st.note(f"{n} German battalion{'s' * (n > 1)} turned back to {st.name(frm)}")
        drop_empty(st, choice.area)
    elif use.effect == "block_border":
        assert isinstance(choice, Move)
        blow_bridge(st, choice.frm, choice.to)
    elif use.effect == "flee":
        assert isinstance(choice, Place)
        st.flags.fleeing = choice.area


def drop_empty(st: KampenState, area: str) -> None:
    attack = st.attacks.get(area)
    if attack is not None and not attack.total:
        del st.attacks[area]
        st.note(f"The attack on {st.name(area)} is off")


def blow_bridge(st: KampenState, frm: str, to: str) -> None:
    """Every German battalion that crossed frm->to this phase goes back across it: to `frm`; one that
    crossed it as the first of two areas goes back to where it started, its second leg undone too."""
    kept = []
    for m in st.flags.moved:
        back = m.start if (frm, to) == m.borders()[0] else frm
        if (frm, to) not in m.borders() or st.hostile(back, GERMANY) or not take_back(st, m):
            kept.append(m)
            continue
        st.add(back, GERMANY, m.n)
        st.note(f"The bridge is down: {m.n} German battalion{'s' * (m.n > 1)} back to {st.name(back)}")
    st.flags.moved = tuple(kept)


def can_take_back(st: KampenState, m: Moved) -> bool:
    """Whether a recorded move's battalions are still where it put them (not sent back already)."""
    if m.attack:
        attack = st.attacks.get(m.to)
        return attack is not None and attack.origins.get(m.via or m.start, 0) >= m.n
    return st.at(m.to, GERMANY) >= m.n


def take_back(st: KampenState, m: Moved) -> bool:
    """Lift a recorded move's battalions off the board (or off their attack); False if they are gone."""
    if m.attack:
        attack = st.attacks.get(m.to)
        launch = m.via or m.start
        if attack is None or attack.origins.get(launch, 0) < m.n:
            return False
        attack.origins[launch] -= m.n
        if not attack.origins[launch]:
            del attack.origins[launch]
        if st.sc.board.crosses_water(launch, m.to):
            attack.over_water -= m.n
        drop_empty(st, m.to)
        return True
    if st.at(m.to, GERMANY) < m.n:
        return False
    st.add(m.to, GERMANY, -m.n)
    st.arrived[m.to] = max(0, st.arrived.get(m.to, 0) - m.n)
    return True


def flee(st: KampenState, to: str) -> None:
    area, st.flags.fleeing = st.flags.fleeing, ""
    n = st.at(area, NORWAY)
    st.add(area, NORWAY, -n)
    st.add(to, NORWAY, n)
    st.note(f"{n} Norwegian battalion{'s' * (n > 1)} slip out of {st.name(area)} by train to {st.name(to)}")
    if not st.at(area, ALLIES):
        attack = st.attacks.pop(area)
        st.add(area, GERMANY, attack.total)
        st.arrived[area] = st.arrived.get(area, 0) + attack.total
        st.note(f"Germany takes {st.name(area)} without a fight")


# ----- step 6 and step 8 of a land battle: Kystevakuering -----------------------------------------------------
def battle_cards(st: KampenState, country: str, step: str, effect: str) -> list[Play]:
    """`country`'s cards with a use of `effect` at this battle step, in its own round (react) or the enemy's
    (stop), whose requirements the battle area meets."""
    b = st.battle
    if b is None:
        return []
    timing = ("react",) if st.country == country else ("stop",)
    out = []
    for key in dict.fromkeys(st.hands[country]):
        found = use_at(st, key, step, timing)
        if found is None or found[1].effect != effect:
            continue
        if "allied_coast" in found[1].requires and not allied_coast(st, b.area):
            continue
        if not advanced_met(st, card_of(st, key), b.area):
            continue
        out.append(Play(key))
    return out


def play_card(st: KampenState, country: str, key: str, step: str) -> CardUse:
    """Spend a card for its use at `step` (played openly: it goes under the deck face up)."""
    timing = ("play", "react") if st.country == country else ("stop",)
    found = use_at(st, key, step, timing)
    assert found is not None
    st.spend(country, key)
    st.note(f"{st.sc.names[country]} play {card_of(st, key).name}: {found[1].text}")
    return found[1]


def safe_coast(st: KampenState, exclude: str) -> list[str]:
    """Land areas on the Allied coast free of enemy battalions, of battles still to fight and of areas German
    attackers came from (they may walk back in)."""
    return list(iter_safe_coast(st, exclude))


def iter_safe_coast(st: KampenState, exclude: str) -> Iterator[str]:
    """`safe_coast`, one at a time (so that asking whether there is one stops at the first)."""
    origins = st.flags.origins
    return (a for a in st.sc.board.land_by_name if a != exclude and a not in st.attacks and a not in origins
            and not st.at(a, GERMANY) and allied_coast(st, a))


def any_safe_coast(st: KampenState, exclude: str) -> bool:
    return next(iter_safe_coast(st, exclude), None) is not None


# ----- phase 3: Transportfly to airfields, Ubåt against reinforcements ---------------------------------------------
def reinforce_cards(st: KampenState) -> list[Play]:
    """The mover's phase-3 cards (Transportfly: new battalions onto German-held airfields)."""
    out = []
    for key in dict.fromkeys(st.hands[st.country]):
        found = use_at(st, key, "reinforce", ("play",))
        if found is not None and found[1].effect == "airfield_reinforce" and german_airfields(st):
            out.append(Play(key))
    return out


def submarine_seats(st: KampenState) -> tuple[str, ...]:
    """The enemies asked, in turn, whether they sink a reinforcement: each whose cards in use (play deck, or
    on 9 April its 9 April deck) include one that cuts the reinforcements of the country in its round, and
    who holds cards. Known to all, whatever the hands hold."""
    return tuple(enemy for enemy in st.enemies(st.country) if st.hands[enemy] and against_in_deck(st, enemy))


def against_in_deck(st: KampenState, enemy: str) -> bool:
    """Whether `enemy`'s play deck holds a card that cuts the reinforcements of the country in its round."""
    return any(card.owner == enemy and card.deck == deck_now(st) and any(
        u.effect == "cut_reinforcements" and st.country in u.names("against") for u in card.uses)
        for card in st.sc.cards.cards.values())


def submarines(st: KampenState) -> list[tuple[str, Play]]:
    """Enemy Ubåt cards that may cut this phase's reinforcements of the country in its round."""
    out = []
    for enemy in st.enemies(st.country):
        for key in dict.fromkeys(st.hands[enemy]):
            found = use_at(st, key, "opponent_reinforce", ("stop",))
            if found is not None and found[1].effect == "cut_reinforcements" and \
                    st.country in found[1].names("against"):
                out.append((enemy, Play(key)))
    return out
