"""The Kampen heuristic's scores for the advanced game: ships at sea and the 9 April round.

Every score reads a determinised copy of the position (`kampen_heuristic.determinise`), and where it weighs
enemy ships it uses only what the deciding country may know: a card it cannot see counts as the average of
the ships that card might be (the enemy ships it has not seen, false ships included), never as the ship the
copy happens to have dealt. The scores are cheap rules of thumb:

- 9 April cards: paratroops, battle dice, Kystfort, mines and the Allies' extra ships first;
- deployment: German ships to the seas of the point cities (more where Norway defends or the Allies may
  come), false ships among them as decoys; Allied ships where the German cards threaten point cities;
- interception and joining a sea battle when the side's ships there are stronger (the Allies more boldly on
  9 April, to stop the landings);
- raiding from sea areas with no point city to land at, one or two raiders at most; recalling them rarely;
- landing one battalion per ship at the point cities first, then at undefended areas;
- sailing for control of the sea areas that decide where reinforcements may be placed (8.3).
"""

from __future__ import annotations

from typing import Any

from warroom.rulesets.kampen import naval
from warroom.rulesets.kampen.actions import Choose, Intercept, Join, Land, Raid, Recall, Sail, Sea, Ship, Withdraw
from warroom.rulesets.kampen.naval import ShipCard
from warroom.rulesets.kampen.sea import foe, sail_group, side
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY, KampenState, held

SEAS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
COAST = SEAS[:7]
CONTESTED = ("III", "IV", "V", "VI")  # point cities on seas the Allies may enter
RAID = "raid"
ADVANCED_ACTIONS = (Choose, Ship, Sail, Intercept, Join, Sea, Raid, Land, Recall, Withdraw)

# what a 9 April card is worth choosing for (its best use), before its reinforcement symbols
CHOICE = {"paradrop": 5.0, "extra_dice": 3.0, "bluff": 2.5, "smoke_screen": 2.0, "sailors_ashore": 1.5,
          "airfield_reinforce": 1.5, "redeploy_ships": 1.5, "coastal_fort": 5.0, "redeploy": 2.0,
          "divert_airdrop": 3.0, "cut_reinforcements": 2.5, "extra_ships": 4.0, "strike": 3.0, "mines": 3.5,
          "reconnaissance": 1.0}


class Naval:
    """What one decision needs to know about the ships, from `me`'s point of view, computed once."""

    def __init__(self, st: KampenState, me: str) -> None:
        self.st = st
        self.me = me
        self.data = st.sc.cards.ships
        self.board = st.sc.board
        self._power: dict[str, float] = {}
        self.unseen: dict[str, float] = {c: self.unseen_power(c) for c in st.sc.countries}
        self.unseen_real = self.real_share()
        self._side: dict[tuple[str, str, bool], tuple[float, int]] = {}
        self._importance: dict[tuple[str, str], float] = {}
        self._change: dict[tuple[str, str, float, int], float] = {}  # `change`'s answers
        self._cities: dict[str, list[str]] = {}  # `cities`' answers (the board's alone)

    # ----- ships ----------------------------------------------------------------------------------------------
    def power(self, key: str) -> float:
        """A ship's worth in a sea battle: its chance to sink or chase with one die (a chase counts less)."""
        got = self._power.get(key)
        if got is None:
            t = naval.ship_type(self.data, key)
            got = self._power[key] = 0.0 if t.false_ship else (len(t.sink) + 0.6 * len(t.chase)) / 6
        return got

    def seen(self, card: ShipCard) -> bool:
        return card.face_up or card.owner == self.me or (self.me == ALLIES and card.key in self.st.spotted)

    def unseen_power(self, owner: str) -> float:
        """The average worth of `owner`'s ships `me` has not seen (what a face-down card of it may be)."""
        st = self.st
        keys = [c.key for _s, c in st.fleet.all() if c.owner == owner and not self.seen(c)]
        keys += st.ships_hand[owner] + (st.reserve if owner == ALLIES else [])
        return sum(self.power(k) for k in keys) / len(keys) if keys else 0.0

    def real_share(self) -> float:
        """The chance that a German card `me` has not seen is a real ship, not a false one."""
        st = self.st
        keys = [c.key for _s, c in st.fleet.all() if c.owner == GERMANY and not self.seen(c)] + st.ships_hand[GERMANY]
        real = sum(1 for k in keys if not naval.ship_type(self.data, k).false_ship)
        return real / len(keys) if keys else 1.0

    def real_ships(self, sea: str) -> float:
        """How many of the German cards in a sea area are real ships, as far as `me` knows."""
        return sum((0.0 if naval.ship_type(self.data, c.key).false_ship else 1.0) if self.seen(c) else self.unseen_real
                   for c in self.st.fleet.ships(sea, GERMANY))

    def worth(self, card: ShipCard) -> float:
        return self.power(card.key) if self.seen(card) else self.unseen[card.owner]

    def strength(self, sea: str, s: str, fighting: bool = False) -> tuple[float, int]:
        """(expected worth, cards) of a side's ship cards in a sea area (only those fighting, if asked)."""
        got = self._side.get((sea, s, fighting))
        if got is None:
            cards = [c for c in self.st.fleet.ships(sea) if side(c.owner) == s and (c.fighting or not fighting)]
            got = self._side[(sea, s, fighting)] = (sum(self.worth(c) for c in cards), len(cards))
        return got

    # ----- the sea areas ----------------------------------------------------------------------------------------
    def cities(self, sea: str) -> list[str]:
        """The point cities on the coast of a sea area (read it, do not change it)."""
        got = self._cities.get(sea)
        if got is None:
            got = self._cities[sea] = sorted(a for a in self.board.coastal({sea}) if a in self.board.point_cities)
        return got

    def importance(self, sea: str, s: str) -> float:
        """How much a side wants its ships in a sea area after 9 April: for placement (8.3) on its coast, the
        more where point cities lie and the fighting is; for the Allies sea area III also bars Germany's free
        placement further north."""
        got = self._importance.get((sea, s))
        if got is not None:
            return got
        value = {"VIII": 0.3, "I": 0.1, "II": 0.1, RAID: 0.0}.get(sea, 1.0)
        if sea in COAST[2:]:
            st = self.st
            for area in self.board.coastal({sea}):
                holder = st.holder(area)
                if not holder:
                    continue
                rivals = (NORWAY, ALLIES) if holder == GERMANY else (GERMANY,)
                near = sum(st.at(n, r) for n in self.board.neighbours(area) for r in rivals)
                if area in self.board.point_cities:
                    value += 1.5 + min(2.0, 0.5 * near)
                elif near:
                    value += 0.3
            if s == ALLIES and sea == "III":
                value += 1.0
        self._importance[(sea, s)] = value
        return value

    def holding(self, sea: str, s: str, mine: float, n: int, theirs: float, e: int) -> float:
        """What a side's ships (worth `mine`, `n` cards) are worth in a sea area against the enemy's (`theirs`,
        `e` cards): control of it when alone; else a share of it by strength, and the fight, where more than
        twice the enemy adds nothing."""
        if not n:
            return 0.0
        if not e:
            return self.importance(sea, s)
        share = 0.5 * mine / (mine + theirs) if mine + theirs > 0 else 0.25
        return self.importance(sea, s) * share + 2.0 * (min(mine, 2.0 * theirs + 0.3) - 1.2 * theirs)

    def change(self, sea: str, s: str, worth: float, cards: int) -> float:
        """How much a side's holding in a sea area changes when ships (worth, cards) come or (negative) go (kept:
        the ships of one group are weighed for every area they may sail to)."""
        key = (sea, s, worth, cards)
        got = self._change.get(key)
        if got is None:
            mine, n = self.strength(sea, s)
            theirs, e = self.strength(sea, foe(s))
            got = self.holding(sea, s, mine + worth, n + cards, theirs, e) - self.holding(sea, s, mine, n, theirs, e)
            self._change[key] = got
        return got

    # ----- scores ----------------------------------------------------------------------------------------------
    def score(self, action: Any) -> float | None:
        """The score of an advanced-game action, or None when the basic scores apply."""
        st = self.st
        if isinstance(action, Choose):
            return self.choose_score(action.card)
        if isinstance(action, Ship):
            return self.ship_score(action)
        if isinstance(action, Sail):
            return self.feint_score(action) if st.step == "feint_moves" else self.sail_score(action)
        if isinstance(action, Intercept):
            return self.intercept_score()
        if isinstance(action, Join):
            return self.join_score(action.key)
        if isinstance(action, Sea):
            return self.sea_score(action.sea)
        if isinstance(action, Raid):
            return self.raid_score(action.key)
        if isinstance(action, Land):
            return self.land_score(action)
        if isinstance(action, Recall):
            return self.recall_score()
        if isinstance(action, Withdraw):
            return self.withdraw_score(action.key)
        return None

    def choose_score(self, key: str) -> float:
        st = self.st
        card = st.sc.cards.cards[key.split("#", 1)[0]]
        best = 0.0
        for use in card.uses:
            value = CHOICE.get(use.effect, 0.0)
            if use.effect == "extra_dice":
                value += use.count("dice", 1)
            best = max(best, value)
        return best + 0.5 * st.sc.symbols_of(key)

    def ship_score(self, a: Ship) -> float:
        st = self.st
        if st.step == "deploy_germany":
            return self.german_deploy(a)
        if st.step == "deploy_norway":  # Eidsvoll & Norge: off a point city, best the capital's
            return 1.0 * len(self.cities(a.sea)) + (0.5 if a.sea == "I" else 0.0)
        if st.step == "sea_chase":  # the enemy's chased ship: where it is worth least to its side
            owner = st.fleet.card(a.key).owner
            mine, _n = self.strength(a.sea, side(self.me))
            away = self.landing_value(a.sea) if st.april and owner == GERMANY else self.importance(a.sea, side(owner))
            return -away + 0.5 * mine
        return self.allied_deploy(a)  # deploy_allies, and ships joining at sea (the Home Fleet)

    def german_need(self, sea: str) -> float:
        """Real German ships wanted in a sea area for 9 April: enough to land at its point city and beat its
        defenders, more where the Allies may come."""
        st = self.st
        need = 0.0
        for city in self.cities(sea):
            defenders = st.at(city, NORWAY) + st.at(city, ALLIES)
            near = sum(st.at(n, NORWAY) for n in self.board.neighbours(city))
            need += 2.5 + 2.0 * defenders + 0.3 * near
        if sea in CONTESTED:
            need += 1.0
        return need

    def german_deploy(self, a: Ship) -> float:
        st = self.st
        ships = st.fleet.ships(a.sea, GERMANY)
        if naval.ship_type(self.data, a.key).false_ship:  # a decoy: one per sea the Allies may search
            decoys = sum(1 for c in ships if naval.ship_type(self.data, c.key).false_ship)
            return (1.0 if a.sea in COAST[2:] else 0.0) - decoys - (0.0 if ships else 0.5)
        real = sum(1 for c in ships if not naval.ship_type(self.data, c.key).false_ship)
        need = self.german_need(a.sea)
        if need <= 0:
            return -1.0 + (0.5 * self.power(a.key) if a.sea in ("VII", "VIII") else 0.0)
        gap = 1.0 - real / need
        p = self.power(a.key)
        return 4.0 * gap + (2.0 * p if a.sea in CONTESTED else -1.0 * p)

    def allied_deploy(self, a: Ship) -> float:
        """Allied (and Eidsvoll's) ships: strong where German cards threaten a point city, and somewhere in
        every sea area that matters for placement."""
        st = self.st
        theirs, n_theirs = self.strength(a.sea, GERMANY)
        mine, n_mine = self.strength(a.sea, ALLIES)
        p = self.power(a.key)
        if st.april:
            threat = n_theirs * (1.0 + 0.5 * len(self.cities(a.sea))) * (self.unseen[GERMANY] or 0.3)
            gap = max(0.0, 1.3 * max(threat, theirs) - mine)
            return 3.0 * min(p, gap) + (0.5 if not n_mine and a.sea in COAST else 0.0) + 0.1 * p
        return self.change(a.sea, ALLIES, p, 1)

    def feint_score(self, a: Sail) -> float:
        """Villedende manøver: a German card slips from where the Allies are strong to where they are not."""
        danger_from = self.strength(a.frm, ALLIES)[0] - self.strength(a.frm, GERMANY)[0]
        danger_to = self.strength(a.to, ALLIES)[0] - self.strength(a.to, GERMANY)[0]
        return danger_from - danger_to + 0.5 * (len(self.cities(a.to)) - len(self.cities(a.frm))) - 0.3

    def sail_score(self, a: Sail) -> float:
        st = self.st
        s = side(self.me)
        keys = sail_group(st, a)
        p = sum(self.power(k) for k in keys)
        n = len(keys)
        gain = self.change(a.frm, s, -p, -n) + self.change(a.to, s, p, n)
        if a.frm == RAID:
            gain += 1.0
        return gain - 0.3

    def intercept_score(self) -> float:
        st = self.st
        sea = held(st.flags.icept)[0]
        s = side(self.me)
        mine = sum(self.worth(c) for c in st.fleet.ships(sea) if side(c.owner) == s
                   and not naval.ship_type(self.data, c.key).false_ship)
        theirs, n = self.strength(sea, foe(s))
        if st.april and s == ALLIES:  # stop the landings: even an even fight is worth it
            return mine - 0.8 * theirs + 0.2 * n * (1 if self.cities(sea) else 0) + 0.1
        if st.april:  # Germany: its ships there should land, not fight
            return mine - 1.5 * theirs - 0.2
        return mine - 1.1 * theirs

    def join_score(self, key: str) -> float:
        st = self.st
        sb = st.sea_battle
        if sb is None:
            return 0.0
        s = side(self.me)
        mine, _ = self.strength(sb.sea, s, fighting=True)
        theirs, _ = self.strength(sb.sea, foe(s), fighting=True)
        value = 1.0 if mine + self.power(key) >= 0.9 * theirs else -0.5
        if st.april and s == GERMANY and self.cities(sb.sea):
            value -= 0.6  # it would rather land
        return value

    def sea_score(self, sea: str) -> float:
        st = self.st
        if st.step == "recon_target":
            return float(len(st.fleet.ships(sea, GERMANY))) + (1.0 if sea in CONTESTED else 0.0)
        if st.step == "mines_target":
            return float(sum(1 for _k, s, _a in st.landings if s == sea))
        s = side(self.me)  # sea_pick: the battle where we are strongest first
        return self.strength(sea, s, True)[0] - self.strength(sea, foe(s), True)[0]

    def landing_value(self, sea: str) -> float:
        """How much a German ship in `sea` is wanted for the landings (raids, chasing)."""
        if sea not in COAST:
            return 0.0
        need = self.german_need(sea)
        real = self.real_ships(sea)
        return 3.0 if real <= need else (0.5 if self.cities(sea) else 1.0)

    def raid_score(self, key: str) -> float:
        st = self.st
        sea = st.fleet.where(key)
        raiders = len(st.fleet.ships(RAID, GERMANY))
        loss = naval.ship_type(self.data, key).raid_loss
        return 0.8 * loss - self.landing_value(sea) - 1.0 * raiders

    def land_score(self, a: Land) -> float:
        """One battalion per ship: the point cities first (enough to beat the defenders), then undefended
        mobilisation points and areas near the cities; never alone into a defended area."""
        st = self.st
        board = self.board
        here = sum(1 for _k, _s, area in st.landings if area == a.area)
        if st.step == "divert":
            here -= sum(1 for k, _s, area in st.landings if area == a.area and k == a.key)
        defenders = st.at(a.area, NORWAY) + st.at(a.area, ALLIES)
        info = board.land[a.area]
        if info.point_city:
            need = 2 + 2 * defenders - 2 * min(1, st.at(a.area, GERMANY))
            return 6.0 + 0.5 * defenders - here if here < need else 1.5 - 0.3 * (here - need)
        if defenders:
            return 2.0 if here and here < 2 * defenders + 1 else -1.0
        if here:
            return 0.1
        near = sum(1 for n in board.neighbours(a.area) if n in board.point_cities)
        return (2.5 if info.mobilisation else 0.8) + 0.5 * near + (1.0 if info.airfield else 0.0)

    def smoke_value(self) -> float:
        """Røykdekke: worth playing when the German ships just found would lose their battle."""
        keys = self.st.flags.smoke_keys
        if not keys:
            return -1.0
        sea = self.st.fleet.where(keys[0])
        mine = sum(self.worth(c) for c in self.st.fleet.ships(sea, GERMANY) if c.fighting)
        return 2.5 if mine < self.strength(sea, ALLIES)[0] else -1.0

    def feint_value(self) -> float:
        """Villedende manøver: worth playing when a German card lies where the Allies are stronger."""
        for sea in COAST[2:]:
            if self.strength(sea, GERMANY)[1] and self.strength(sea, ALLIES)[0] > self.strength(sea, GERMANY)[0]:
                return 1.5
        return -1.0

    def recall_score(self) -> float:
        """Calling the raiders home costs a hand's worth of cards: only for two raiders or more, with a rich
        hand and a long game still ahead."""
        st = self.st
        raiders = len(st.fleet.ships(RAID, GERMANY))
        symbols = sum(st.sc.symbols_of(k) for k in st.hands[GERMANY])
        return 0.2 if raiders >= 2 and symbols >= 9 and len(st.draw[GERMANY]) > 20 else -1.0

    def withdraw_score(self, key: str) -> float:
        st = self.st
        t = naval.ship_type(self.data, key)
        if st.step == "smoke_target":  # the most valuable ship slips away
            return 1.0 + t.card_loss + self.power(key)
        sea = st.fleet.where(key)  # the Allies' deck is out: the ship they miss least leaves
        return -self.power(key) - (self.importance(sea, ALLIES) if sea else 0.0)
