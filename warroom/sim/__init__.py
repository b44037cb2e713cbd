"""Batch simulation: many seeded campaigns, aggregated in constant memory."""

from warroom.sim.runner import GameSummary, Summary, play_one, simulate

__all__ = ["GameSummary", "Summary", "play_one", "simulate"]
