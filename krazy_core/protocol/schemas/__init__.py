"""The JSON Schemas (draft 2020-12) of krazy_core's payloads, shipped as package data:
``state.json``, ``observation.json``, ``event.json``, ``action.json``, ``protocol.json``.
Load them with :func:`krazy_core.protocol.schema`; ``_generate`` writes them."""
