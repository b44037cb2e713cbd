"""A joint defence's losses (4.2 step 6): Norway shares them out; with three players the Allies agree or refuse,
and after a refusal Germany decides."""

from __future__ import annotations

from typing import Any

from warroom.rulesets.kampen.actions import Done, Lose, Refuse
from warroom.rulesets.kampen.state import ALLIES, DEFENDERS, GERMANY, NORWAY, KampenState

St = KampenState


def removal_actor(st: St) -> str:
    return GERMANY if st.step == "losses_forced" else NORWAY


def agreeing(st: St) -> bool:
    """Whether a joint defence's losses need the Allies' consent: with three players, when both countries have
    battalions in the battle. Norway shares them out, the Allies agree or refuse, and Germany decides when they
    refuse (4.2 step 6).

    assumption: (4.2 step 6) Norway proposes and the Allies answer, rather than both bargaining freely: the
    rule asks only that they agree, and one proposal with a yes or no is the shortest exchange that lets each
    country have its say. With two players one person holds both countries, so there is nothing to agree."""
    b = st.battle
    return (int(st.params.get("seats", 2)) == 3 and b is not None and st.step == "losses"
            and all(st.at(b.area, d) for d in DEFENDERS)
            and b.def_losses < sum(st.at(b.area, d) for d in DEFENDERS))  # else all are lost: nothing to agree


def legal_losses(st: St) -> list[Any]:
    b = st.battle
    assert b is not None
    return [Lose(d) for d in DEFENDERS if st.at(b.area, d) > b.proposal.count(d)]


def apply_loss(st: St, action: Lose) -> None:
    assert isinstance(action, Lose) and st.battle is not None
    if st.battle.proposal or agreeing(st):
        st.battle.proposal.append(action.country)
        if len(st.battle.proposal) == st.battle.def_losses:
            st.note(f"Norway proposes to lose {share(st.battle.proposal)}; the Allies answer")
        return
    if st.step == "losses_forced":
        st.note(f"Germany decides: a {'Norwegian' if action.country == NORWAY else 'Allied'} battalion is lost")
    take_loss(st, action.country)


def take_loss(st: St, country: str) -> None:
    assert st.battle is not None
    st.add(st.battle.area, country, -1)
    st.battle.def_losses -= 1
    if country == ALLIES:
        st.battle.allied_lost += 1


def share(proposal: list[str]) -> str:
    n = proposal.count(NORWAY)
    return f"{n} Norwegian and {len(proposal) - n} Allied battalion{'s' * (len(proposal) - n != 1)}"


def losses_proposed(st: St) -> bool:
    b = st.battle
    return b is not None and bool(b.proposal) and len(b.proposal) == b.def_losses


def apply_answer(st: St, action: Done | Refuse) -> None:
    b = st.battle
    assert b is not None
    proposal, b.proposal = b.proposal, []
    if isinstance(action, Refuse):
        st.note("The Allies refuse; Germany decides whose battalions are lost")
        return
    for country in proposal:
        take_loss(st, country)


