"""Kampen om Norge (Vega Forlag, 2012): the second ruleset on the core."""
