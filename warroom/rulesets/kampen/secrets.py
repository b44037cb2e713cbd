"""What of the action log a country may read.

Kampen om Norge keeps most of its play secret: the cards in hand, which card was discarded or exchanged, the 9
April cards chosen, which ship a face-down card is, and the order of every deck (a shuffle's roll is the deck's
new order). Until the club server reads the log entry by entry (issue 13, Kampen om Norge on the server), a
country reads its own decisions only; everyone else's, and every roll, show as hidden.

assumption: hiding more than the rules need is safe; showing what they hide is not. The views (`view.py`)
already show each country what it may see of the position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.core.log import LogEntry

HIDDEN = "(hidden)"


def log_for(st: Any, entries: Sequence[LogEntry], viewer: str | None) -> list[LogEntry]:
    return [e if viewer is not None and e.side == viewer else e._replace(action=HIDDEN, redacted=True)
            for e in entries]
