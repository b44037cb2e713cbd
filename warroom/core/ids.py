"""Typed identifiers shared by every ruleset."""

from typing import NewType

AreaId = NewType("AreaId", str)
UnitId = NewType("UnitId", str)
Side = NewType("Side", str)
