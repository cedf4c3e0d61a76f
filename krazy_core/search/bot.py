"""``ISMCTSBot`` lives in :mod:`krazy_core.bots.ismcts`; this name stays for old imports."""

from krazy_core.bots.ismcts import DEFAULT_TIME_LIMIT, ISMCTSBot

__all__ = ["ISMCTSBot", "DEFAULT_TIME_LIMIT"]
