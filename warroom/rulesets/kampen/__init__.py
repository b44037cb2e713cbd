"""Kampen om Norge (Vega Forlag, 2012): the board game of the 1940 campaign, as a second rule system.

So far only the board: `warroom.rulesets.kampen.board` reads and checks `scenarios/data/kampen/board.toml`.
"""
