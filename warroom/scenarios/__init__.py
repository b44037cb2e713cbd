"""Scenario loading and validation: bundled campaigns live in `data/<id>/*.toml`."""

from warroom.scenarios.loader import bundled_ids, load_game, load_game_path, load_path, load_scenario

__all__ = ["bundled_ids", "load_game", "load_game_path", "load_path", "load_scenario"]
