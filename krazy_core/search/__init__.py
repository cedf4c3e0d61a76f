"""Search over the GameOps table: :func:`krazy_core.search.ismcts.search` (SO-ISMCTS, without
the GIL) and its bot, :class:`krazy_core.search.bot.ISMCTSBot` (also ``krazy_core.bots.ISMCTSBot``).
Submodules are imported on use, so ``import krazy_core`` stays light."""
