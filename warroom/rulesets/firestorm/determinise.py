"""What a Firestorm side cannot tell apart: the one secret of the campaigns, dealt again (a determinisation).

Everything in a Firestorm campaign is open but one moment (`secrets`): while a Strategic Game fight's dice are
being allocated (Norway 6.3), each side's split of its dice over the targets stays hidden from the other side
until the dice fall. A searching bot (`ai.mcts`) decides on copies in which the other side's split is dealt
again at random, so its choice cannot depend on it.
"""

from __future__ import annotations

import random

from warroom.rulesets.firestorm.state import FirestormState


def determinise(st: FirestormState, me: str, rng: random.Random) -> FirestormState:
    """A copy of `st` in which every split of dice `me` cannot see is dealt again: each die of another side's
    allocated volley goes to one of that volley's targets at random. The number of dice each volley fires is
    kept (only the split is secret). The copy starts with an empty log and no notes, as every twin does: the
    history is not dealt again, and a log would tell the split.

    assumption: every split is equally likely die by die, since a bot may not model how the other side
    allocates; a search needs only positions the side cannot tell from the real one, not their odds."""
    copy = st.clone()
    copy.log, copy.events, copy.happened = [], [], []
    navy = copy.navy
    if st.step != "nv_alloc" or navy is None or navy.combat is None:
        return copy
    for v in navy.combat.volleys:
        if v.side == me or not v.alloc or not v.targets:
            continue
        dealt: dict[str, int] = {}
        for _ in range(sum(v.alloc.values())):
            target = v.targets[int(rng.random() * len(v.targets))]
            dealt[target] = dealt.get(target, 0) + 1
        v.alloc = dealt
    return copy
