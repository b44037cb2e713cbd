"""What of the action log a side may read (the rules mark secrets; the adapters apply the marking).

In the Firestorm campaigns everything is open but one moment: while a Strategic Game fight's dice are being
allocated (Norway 6.3), each side declares its allocation before the roll, in secret, so the other side's
allocations since the last roll stay hidden until the dice fall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.log import LogEntry
from warroom.rulesets.firestorm.actions import Order

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState

HIDDEN = "(hidden until the roll)"


def is_allocation(st: FirestormState, entry: LogEntry) -> bool:
    try:
        action = st.parse_action(entry.action)
    except (IllegalActionError, UnknownNameError):
        return False
    return isinstance(action, Order) and action.verb == "allocate"


def log_settled(st: FirestormState) -> int:
    """`RuleSystem.log_settled`: the entries up to the last roll. `log_for` hides only allocations after the last
    roll, and the last roll is never an earlier one later."""
    entries = st.log
    for i in range(len(entries) - 1, -1, -1):
        if entries[i].automatic:
            return i + 1
    return 0


def log_for(st: FirestormState, viewer: str | None, since: int = 0) -> list[LogEntry]:
    """The log of the position `st` from entry `since` as `viewer` may read it (None: a spectator or the
    organiser, who sees no side's unrolled allocation)."""
    entries = st.log
    if st.step != "nv_alloc":
        return entries[since:]
    last_roll = max((i for i, e in enumerate(entries) if e.automatic), default=-1)
    return [e._replace(action=HIDDEN, redacted=True) if i > last_roll and e.side != viewer and is_allocation(st, e)
            else e for i, e in enumerate(entries[since:], since)]
