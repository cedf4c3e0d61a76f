"""Search over the GameOps table: :func:`krazy_core.search.ismcts.search` (SO-ISMCTS, without
the GIL) and its bot, :class:`krazy_core.bots.ISMCTSBot` (``krazy_core.bots.ismcts``; ``krazy_core.search.bot`` re-exports it).
Submodules are imported on use, so ``import krazy_core`` stays light."""
