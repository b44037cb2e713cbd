"""Kampen om Norge (Vega Forlag, 2012): the card-driven area-control game for Germany, Norway and the Allies.

The board is `board.py` (data in `scenarios/data/kampen/board.toml`); land-combat arithmetic is `combat.py`.
"""
