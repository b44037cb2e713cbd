"""The simulation kernel's battles (`kernel.py`): commitment (`commitment.py`), the General's Wargame
(`steps.gw_dice`, `steps.resolve_gw`, `campaign.defence_modifiers`), the roll to destroy, retreat and advance
(`steps.destroy_dice`, `steps.setup_retreat`, `after_action.py`). Each function mirrors the reference function of
the same name and offers the same actions in the same order."""

from __future__ import annotations

from warroom.rulesets.firestorm.commitment import commit_candidates
from warroom.rulesets.firestorm.kmap import K_PASS
from warroom.rulesets.firestorm.kstate import ATT_WINS, DEF_WINS, DRAWN, NO_REQ, PANZER_REQ, KBattle, KPosition


def commit_options(k: KPosition, attacking: bool) -> list[int]:
    m = k.m
    b = k.fought()
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    nt = m.nt
    AIR, CARPET, DEFENCE = nt, nt + 1, nt + 2
    side_of = m.side_of
    present = [u for u, w in enumerate(k.loc) if w == area and side_of[u] == side]
    reserve = [u for u, w in enumerate(k.loc) if w == m.RESERVE and side_of[u] == side] \
        if m.reserve_rule else []
    limit = b.max_ft if attacking else 2
    required = b.required if attacking else NO_REQ
    must_lead = attacking and required == PANZER_REQ
    panzers = must_lead or m.panzer_rule
    units = present + reserve
    extras = []
    if m.has_air[side] and k.air_left[side] > 0:
        extras.append(AIR)
    if not attacking and m.german_defence and side == 1 and k.turn >= m.defence_from \
            and len(present) < m.defence_max:
        extras.append(DEFENCE)
    candidates = commit_candidates(units, extras, attacking)
    grouped = panzers or required != NO_REQ or bool(reserve) or DEFENCE in extras
    reserve_set = set(reserve)
    kept: list[tuple[int, ...]] = []
    for c in candidates:
        if len(c) > limit:
            continue
        if grouped and group_problem(k, c, area, len(present), reserve_set, required, must_lead, panzers):
            continue
        kept.append(c)
    commit_code = m.commit_code
    out = [commit_code(c) for c in kept]
    if attacking and m.carpet_rule and k.carpet_left > 0 and side == 0:
        out.extend(commit_code((*c, CARPET)) for c in kept)
    return out


def group_problem(k: KPosition, units: tuple[int, ...], area: int, present: int, reserve: set[int], required: int,
                  must_lead: bool, panzers: bool) -> bool:
    """`commitment.group_problem`, as a yes or no."""
    m = k.m
    nt = m.nt
    if panzers and (m.panzer_rule or must_lead):
        has_panzer = any(u < nt and m.panzer[u] for u in units)
        if m.panzer_rule and has_panzer and len(units) > 1:
            return True
        if must_lead and not has_panzer:
            return True
    if required >= 0 and not must_lead and required not in units:
        return True
    joining = sum(1 for u in units if u in reserve) if reserve else 0
    if joining and m.stacking and k.counts[area] + joining > m.stacking:
        return True
    return (nt + 2) in units and present + joining >= m.defence_max


def apply_commit(k: KPosition, code: int, attacking: bool) -> None:
    m = k.m
    b = k.fought()
    items = m.commit_items(code)
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    nt = m.nt
    for u in items:
        if u == nt:
            k.air_left[side] -= 1
        elif u == nt + 1:
            k.carpet_left -= 1
        elif u < nt and k.loc[u] == m.RESERVE:
            k.move_to(u, area)
    if attacking:
        b.att = items
    else:
        b.dfn = items
        b.att_supplied = k.supplied(b.attacker)[b.frm]
        b.def_supplied = k.supplied(b.defender)[b.to]


def gw_dice(k: KPosition) -> int:
    m = k.m
    b = k.fought()
    nt = m.nt
    variable = []
    for side, units in ((b.attacker, b.att), (b.defender, b.dfn)):
        for u in units:
            if u == nt:
                if m.air_variable[side]:
                    variable.append((side, u))
            elif u == nt + 2 or (u < nt and m.variable[u]):
                variable.append((side, u))
    b.variable = variable
    return 2 + len(variable)


def item_bonus(k: KPosition, side: int, item: int, area: int, face: int) -> int:
    m = k.m
    nt = m.nt
    if item == nt:
        return m.air_table[side][face - 1] if m.air_variable[side] else m.air_bonus[side][area]
    if item == nt + 1:
        return m.carpet_gw
    if item == nt + 2:
        return m.defence_table[face - 1]
    if item > nt:
        return 0  # naval gunfire: Norway's
    return m.bonus_table[item][face - 1] if m.variable[item] else m.bonus[item][area]


def defence_bonus(k: KPosition, b: KBattle) -> int:
    m = k.m
    to = b.to
    out = m.terrain_def[to]
    if m.beach_rule and m.beach[to] and b.defender == 0:
        out += m.beach_gw
    if m.forts and m.fortified[to] and b.defender == 1:
        out += m.fortified_gw
    elif (b.frm * m.na + to) in m.river:
        out += m.river_gw
    return out


def resolve_gw(k: KPosition, values: tuple[int, ...]) -> None:
    m = k.m
    b = k.fought()
    faces = {key: values[2 + i] for i, key in enumerate(b.variable)}
    att = values[0] + sum(item_bonus(k, b.attacker, u, b.to, faces.get((b.attacker, u), 0)) for u in b.att)
    dfn = values[1] + sum(item_bonus(k, b.defender, u, b.to, faces.get((b.defender, u), 0)) for u in b.dfn)
    dfn += defence_bonus(k, b)
    if not b.att_supplied:
        att += m.oos_gw
    if not b.def_supplied:
        dfn += m.oos_gw
    b.att_total, b.def_total = att, dfn
    b.winner = ATT_WINS if att > dfn else DEF_WINS if dfn > att else DRAWN


def destroy_dice(k: KPosition) -> int:
    m = k.m
    b = k.fought()
    diff = abs(b.att_total - b.def_total)
    vs_loser = vs_winner = 0
    for min_diff, loser, winner in m.gw_destroy:
        if diff >= min_diff:
            vs_loser, vs_winner = loser, winner
    att_lost = b.winner == DEF_WINS
    need_vs_att = vs_loser if att_lost else vs_winner
    need_vs_def = vs_winner if att_lost else vs_loser
    nt = m.nt
    targets: list[tuple[int, int, int]] = []
    for owner, units, need in ((b.defender, b.dfn, need_vs_def), (b.attacker, b.att, need_vs_att)):
        if need:
            targets.extend((u, owner, need) for u in units if u < nt)
    b.targets = targets
    return len(targets)


def resolve_destroy(k: KPosition, values: tuple[int, ...]) -> None:
    b = k.fought()
    for (unit, _owner, need), face in zip(b.targets, values, strict=True):
        if face >= need:
            b.destroyed.append(unit)
    setup_retreat(k, b)


def setup_retreat(k: KPosition, b: KBattle) -> None:
    m = k.m
    side_of = m.side_of
    for u in b.destroyed:
        if side_of[u] == b.attacker:
            k.destroy(u)
    if b.winner != ATT_WINS:
        for u in b.destroyed:
            if side_of[u] == b.defender:
                k.destroy(u)
        return
    destroyed = b.destroyed
    staying = [u for u in k.units_at(b.to, b.defender) if u not in destroyed]
    control = k.control
    if not any(control[n] == b.defender for n in m.adj[b.to]):
        for u in [u for u in destroyed if side_of[u] == b.defender] + staying:
            k.capture(u)
        return
    for u in destroyed:
        if side_of[u] == b.defender:
            k.destroy(u)
    b.retreating = staying
    prune_retreat(k, b)


def retreat_targets(k: KPosition, b: KBattle) -> list[int]:
    control = k.control
    limit = k.m.stacking
    counts = k.counts
    return [n for n in k.m.adj[b.to] if control[n] == b.defender and (not limit or counts[n] < limit)]


def prune_retreat(k: KPosition, b: KBattle) -> None:
    if b.retreating and not retreat_targets(k, b):
        for u in b.retreating:
            k.destroy(u)
        b.retreating = []


def advance_options(k: KPosition) -> list[int]:
    m = k.m
    b = k.fought()
    if b.advanced >= m.advance_cap or not k.has_room(b.to):
        return []
    base = m.ADVANCE
    if b.survivors:
        out = [base + u for u in b.survivors]
        if b.advanced == 0:
            out.append(K_PASS)
        return out
    near = m.adj_set[b.to]
    side_of = m.side_of
    control = k.control
    attacker = b.attacker
    out = [base + u for u, w in enumerate(k.loc)
           if w in near and side_of[u] == attacker and control[w] == attacker]
    out.append(K_PASS)
    return out


def nothing_to_advance(k: KPosition) -> bool:
    options = advance_options(k)
    return not options or options == [K_PASS]


def begin_advance(k: KPosition) -> None:
    b = k.fought()
    k.advance_done = b.winner != ATT_WINS
    if b.winner != ATT_WINS:
        return
    k.set_control(b.to, b.attacker)
    nt = k.m.nt
    b.survivors = [u for u in b.att if u < nt and k.loc[u] == b.frm]
    k.advance_done = nothing_to_advance(k)


def apply_advance(k: KPosition, code: int) -> None:
    b = k.fought()
    if code == K_PASS:
        k.advance_done = True
        return
    u = code - k.m.ADVANCE
    k.move_to(u, b.to)
    b.advanced += 1
    if u in b.survivors:
        b.survivors.remove(u)
    if nothing_to_advance(k):
        k.advance_done = True
