"""Lorraine's Panzer Units (4.1) have one home (`rulesets/firestorm/lorraine.py`): one "why not" per decision
serves both the legal commitments and the refusal."""

from __future__ import annotations

from itertools import combinations

from warroom import rulesets
from warroom.rulesets.firestorm import lorraine
from warroom.rulesets.firestorm.actions import Commit
from warroom.scenarios import load_game
from warroom.sim.walk import decisions


def test_a_panzer_unit_fights_alone_and_leads_when_it_must() -> None:
    alone = led = 0
    for seed in range(12):
        for st in decisions(rulesets.new_game(load_game("lorraine")), seed):
            legal = list(st.legal_actions())
            if st.step in ("attack_commit", "defend_commit") and st.battle is not None:
                b = st.battle
                attacking = st.step == "attack_commit"
                must_lead = attacking and b.required == lorraine.PANZER
                for a in legal:
                    assert isinstance(a, Commit) and not lorraine.commit_problem(st, a.units, must_lead)
                area = b.frm if attacking else b.to
                side = b.attacker if attacking else b.defender
                here = sorted(u for u, w in st.loc.items() if w == area and st.sc.troops[u].side == side)
                for pair in combinations(here, 2):
                    why = lorraine.commit_problem(st, pair, must_lead)
                    if why == "a Panzer Unit fights alone":
                        alone += 1
                        assert Commit(pair) not in legal and why in st.explain_illegal(Commit(pair))
                if must_lead:
                    led += 1
                    assert all(any(st.sc.troops[u].is_panzer for u in a.units if u in st.sc.troops) for a in legal)
    assert alone and led, "a Panzer Unit was kept from company, and one had to lead an attack"
