"""Batch simulation: many seeded campaigns, aggregated in constant memory."""

from warroom.core.system import GameSummary
from warroom.sim.runner import Summary, play_one, simulate

__all__ = ["GameSummary", "Summary", "play_one", "simulate"]
