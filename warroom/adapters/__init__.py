"""Adapters to other frameworks: each drives every registered rule system through the registry and the state API
only, and needs an optional extra (`pip install 'warroom[openspiel]'` for `warroom.adapters.openspiel`)."""
