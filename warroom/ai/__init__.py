"""Bots: they act only through `legal_actions()` and `apply_action()`."""

from warroom.ai.bots import HeuristicBot, RandomBot, make_bot

__all__ = ["HeuristicBot", "RandomBot", "make_bot"]
