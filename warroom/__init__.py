"""warroom: an engine for operational wargame campaigns.

Importing it decides, once, whether the engine's hot modules run compiled (a fresh mypyc build) or as pure
Python: see `warroom.compiled`.
"""

from warroom import compiled

__version__ = "0.1.0"

compiled.install()
