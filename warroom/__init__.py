"""warroom: an engine for operational wargame campaigns."""

__version__ = "0.1.0"
