"""The Allied deck running out in the middle of a round (2.4, 5.2): the flow breaks in at once for the Allies'
losses (4 battalions, and in the advanced game 5 ships), then the round goes on where it was."""

from __future__ import annotations

from typing import Any

from warroom.core.log import Secret
from warroom.core.state import CHANCE, Action
from warroom.rulesets.kampen.legality import explain
from warroom.rulesets.kampen.secrets import secrecy
from warroom.rulesets.kampen.state import ALLIES, KampenRules, KampenState
from warroom.rulesets.kampen.view import build_view

St = KampenState


def allied_ships(st: St) -> list[str]:
    """The Allied ship cards still in play: at sea and in hand."""
    return [c.key for _s, c in st.fleet.all() if c.owner == ALLIES] + list(st.ships_hand[ALLIES])


def removals_due(st: St) -> int:
    """Allied battalions still to remove for the deck-out; no more than the Allies have (the deck may have run out
    before their last losses)."""
    st.removing = min(st.removing, st.total(ALLIES))
    return st.removing


def ships_leaving(st: St) -> bool:
    """Whether Allied ships must still leave the board (5.2); with none left to withdraw the count is dropped."""
    if st.flags.ships_out:
        if allied_ships(st):
            return True
        st.flags.ships_out = 0
    return False


AT_ONCE_STEPS = ("deck_removal", "ship_withdrawal", "resume")


class KampenFlow(KampenRules):
    """The flow table, with the one interruption the rules have: the Allied deck running out (2.4, 5.2), and the
    verbs above the position."""

    def view(self, st: St, side: str | None) -> dict[str, Any]:
        return build_view(st, side)

    def explain(self, st: St, action: Action) -> str:
        return explain(st, action)

    def secrecy(self, st: St, step: str, action: Action, who: str) -> Secret | None:
        return secrecy(st, step, action, who)

    def entering(self, st: St, name: str) -> str:
        """Between two steps: the Allies' losses come first when their deck has just run out, then `name`."""
        first = losses_due(st, name)
        if first:
            st.flags.resume = (name, False)
            return first
        return name

    def settle(self, state: St) -> None:
        super().settle(state)
        at_once(self, state)


def losses_due(st: St, then: str) -> str:
    """The first step of the Allies' deck-out losses when they are due before `then` ('' when none are). A battle
    under way is fought out first (a sea battle's chases included): the losses come as it ends."""
    if st.terminal or then in AT_ONCE_STEPS or st.step in AT_ONCE_STEPS or not (
            st.removing or st.flags.ships_out) or st.battle is not None or st.sea_battle is not None:
        return ""
    if removals_due(st):
        st.note("The Allied deck is used up: the Allies take their losses at once, before the round goes on")
        return "deck_removal"
    if ships_leaving(st):
        st.note("The Allied deck is used up: Allied ships leave at once, before the round goes on")
        return "ship_withdrawal"
    return ""


def at_once(flow: KampenRules, st: St) -> None:
    """When the Allied deck runs out in the middle of a round (a ship sunk, a raid, the telegraph line), the
    four battalions and, in the advanced game, the five ships leave at once (2.4, 5.2). Mostly the deck runs
    out in an automatic step and `KampenFlow.entering` takes the losses before the next step begins; when it
    runs out by a decision (a raid) and the same step asks again, they are taken here, before that next
    decision, and the step goes on where it was. At the end of the Allies' own round the draw that empties the
    deck leads straight into the same steps (`after_new_cards`)."""
    first = losses_due(st, st.step)
    if first:
        st.flags.resume = (st.step, True)
        flow.enter(st, first)


def after_losses_taken(st: St) -> str:
    """After the battalions, the ships; then on to the step the round was going to ('resume')."""
    if st.terminal:
        return "over"
    return "ship_withdrawal" if ships_leaving(st) else "resume"


def resume_after_losses(st: St) -> str:
    """The step the deck-out interrupted: entered afresh when the flow was moving on to it; when it was waiting
    for a decision, returned to as it was (its decision is still open), or left if the losses ended it."""
    resume, st.flags.resume = st.flags.resume, None
    assert resume is not None
    name, begun = resume
    if not begun:
        return str(name)
    st.step = name
    step = st.flow.steps[name]
    return step.next(st) if step.end_if(st) or (not step.legal(st) and step.actor(st) != CHANCE) else ""


