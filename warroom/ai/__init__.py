"""Bots: they act only through `legal_actions()` and `apply_action()`."""

from warroom.ai.bots import KINDS, HeuristicBot, RandomBot, bot_problem, make_bot
from warroom.ai.mcts import MCTSBot

__all__ = ["KINDS", "HeuristicBot", "MCTSBot", "RandomBot", "bot_problem", "make_bot"]
