"""What a country may see of a Kampen om Norge position.

Hands are secret: a country sees its own cards and only the size of the others' hands. The deck order is
never shown, only how many cards are face down and which are face up under it (they were played openly).
In the advanced game a country sees its own ship cards; of the others only those lying face up (and, for
the Allies, the German cards their reconnaissance looked at), the rest as a face-down card of that country.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.rulesets.kampen.secrets import seat_of

if TYPE_CHECKING:
    from warroom.rulesets.kampen.naval import ShipCard
    from warroom.rulesets.kampen.state import KampenState


def build_view(st: KampenState, side: str | None) -> dict[str, Any]:
    b = st.battle
    return {
        "scenario": st.sc.id, "round": st.round, "country": st.country, "step": st.step, "phase": st.phase(),
        "to_act": st.current_player(), "viewer": side,
        "troops": {a: dict(c) for a, c in sorted(st.troops.items())},
        "attacks": {a: {"country": x.country, "from": dict(x.origins), "over_water": x.over_water,
                        "by_sea_or_air": x.by_sea_or_air} for a, x in sorted(st.attacks.items())},
        "battle": None if b is None else {
            "area": b.area, "attacker": b.attack.country, "attack_dice": b.att_dice, "defence_dice": b.def_dice,
            "attack_roll": list(b.att_faces), "defence_roll": list(b.def_faces), "winner": b.winner,
            "defence_losses": b.def_losses, "losses_proposed": list(b.proposal)},
        "decks": {c: {"face_down": len(st.draw[c]), "used": list(st.used[c])} for c in st.sc.countries},
        "hands": {c: (list(st.hands[c]) if c == side else len(st.hands[c])) for c in st.sc.countries},
        "terminal": st.terminal,
        "result": {"winner": st.result[0], "level": st.result[1]} if st.terminal else None,
        **(advanced_view(st, side) if st.advanced else {}),
    }


def ship_entry(st: KampenState, card: ShipCard, side: str | None) -> dict[str, Any]:
    seen = card.face_up or card.owner == side or (side == "allies" and card.key in st.spotted)
    if not seen:
        return {"owner": card.owner, "ship": None, "face_up": False}
    ship = st.sc.cards.ships.ships[card.key.split("#", 1)[0]]
    return {"owner": card.owner, "ship": card.key, "name": ship.name, "type": ship.type, "face_up": card.face_up,
            "fighting": card.fighting}


def advanced_view(st: KampenState, side: str | None) -> dict[str, Any]:
    sb = st.sea_battle
    countries = st.sc.countries
    return {
        "april": st.april,
        "fleet": {sea: [ship_entry(st, c, side) for c in cards] for sea, cards in sorted(st.fleet.at.items())},
        "ships_in_hand": {c: (list(st.ships_hand[c]) if c == side else len(st.ships_hand[c])) for c in countries},
        "ships_set_aside": len(st.reserve),
        "april_cards_left": {c: (list(st.april_deck[c]) if c == side else len(st.april_deck[c])) for c in countries},
        "landings": [({"ship": k} if side == "germany" else {}) | {"sea": s, "area": a} for k, s, a in st.landings],
        "sea_battle": None if sb is None else {
            "sea": sb.sea, "attacker": sb.attacker, "cards": [p.card for p in sb.played],
            "hits": [{"ship": h.target, "outcome": h.outcome} for h in sb.hits], "chased": list(sb.chased)},
    }


def seat_view(st: KampenState, seat: str | None) -> dict[str, Any]:
    """What the player of `seat` sees: with two players Norway's player holds the Allies' cards too, so their
    hand, their ship cards and the German ships their reconnaissance looked at are shown besides Norway's."""
    if seat is None:
        return build_view(st, None)
    mine = [c for c in st.sc.countries if seat_of(st.params, c) == seat] or [seat]
    actor = st.current_player()
    first = actor if actor in mine else mine[0]
    out = build_view(st, first)
    for c in mine:
        if c == first:
            continue
        other = build_view(st, c)
        out["hands"][c] = other["hands"][c]
        if st.advanced:
            out["ships_in_hand"][c] = other["ships_in_hand"][c]
            out["april_cards_left"][c] = other["april_cards_left"][c]
            out["fleet"] = {sea: [a if a["ship"] else b for a, b in zip(cards, other["fleet"][sea], strict=True)]
                            for sea, cards in out["fleet"].items()}
    out["viewer"] = seat
    return out
