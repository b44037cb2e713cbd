"""Kampen om Norge (Vega Forlag, 2012): the card-driven area-control game for Germany, Norway and the Allies."""
