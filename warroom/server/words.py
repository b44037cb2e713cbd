"""What a club page says in words rather than engine ids: the choices of the player to act (grouped), who is
to act, and the log entries an undo would remove. Every rule system describes its own actions
(`RuleSystem.describe`, the terminal's describer too); this module only arranges what they say."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom import rulesets
from warroom.core.log import LogEntry
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action
from warroom.server.portable import the

GROUP_FROM = 12
"""Longer lists of choices are grouped by what they share: 'move 21. Panzer from B3' then one button per
destination."""
JOINS = (" to ", " in ", " with ")
"""Where a choice's words split into what is done and where or how: 'move X from A | to B', 'place X | in B',
'attack Hamar | with 2 battalions from Oslo' (at the last of them)."""


def actor_words(st: Any, who: str) -> str:
    """Who decides now, in words: a side's name, 'the dice', 'the commanders at the table'."""
    if who == CHANCE:
        return "the dice"
    if who == REPORT:
        return "the commanders at the table"
    if who == TERMINAL:
        return "nobody (it is over)"
    return the(st.sc, who)


def asking(st: Any) -> str:
    """The sentence saying what the position asks for now (`RuleSystem.asking`), or who is to decide."""
    ask = rulesets.of(st).asking
    if ask is not None:
        return ask(st)
    who = actor_words(st, st.current_player())
    return f"{who[0].upper()}{who[1:]} to decide."


def choices(st: Any, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The choices as the page shows them: [{'head': words or '', 'options': [{'action', 'words'}]}]. A short list
    is one group without a head; a long one is grouped by the words before the last of `JOINS`."""
    describe = rulesets.of(st).describe
    rows = [(a.to_str(), describe(st, a)) for a in legal]
    if len(rows) <= GROUP_FROM:
        return [{"head": "", "options": [{"action": a, "words": w} for a, w in rows]}]
    groups: dict[str, list[dict[str, str]]] = {}
    for action, words in rows:
        cut = last_join(words)
        head, tail = (words[:cut], words[cut + 1:]) if cut > 0 else ("", words)
        groups.setdefault(head, []).append({"action": action, "words": tail, "full": words})
    out = []
    for head, options in groups.items():
        if len(options) == 1:  # nothing shared: the whole line
            options = [{"action": options[0]["action"], "words": options[0]["full"]}]
            head = ""
        out.append({"head": head, "options": options})
    return out


def last_join(words: str) -> int:
    """Where the last of `JOINS` starts outside brackets ('commit X (+5 in bocage)' has none), or -1."""
    depth, cut = 0, -1
    for i, ch in enumerate(words):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == " " and any(words.startswith(j, i) for j in JOINS):
            cut = i
    return cut


def undone_words(start: Any, real: Sequence[LogEntry], shown: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """The log entries an undo removes, as the organiser's log shows them (`shown`, secrets hidden), with each
    decision in words: `start` is the position before the first, and `real` the entries as played, to replay
    from it. A hidden entry keeps the log's text: its words would tell what it hides."""
    st = start.clone()
    describe = rulesets.of(st).describe
    out = []
    for played, seen in zip(real, shown, strict=True):
        action = st.parse_action(played.action)
        words = seen.action if seen.redacted or seen.automatic else describe(st, action)
        out.append({"action": seen.action, "words": words, "side": seen.side, "turn": seen.turn,
                    "dice": seen.automatic, "who": actor_words(st, seen.side)})
        st.apply_action(action, played.side)
    return out
