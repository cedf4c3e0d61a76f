"""Kings Rummy (``kings-rummy``), rules KR-1 .. KR-17 (``rules.md`` here): the package's
public face.  The rules and the Python face are in the compiled ``core`` for now."""
from krazy_core.games.kings_rummy.core import *  # noqa: F401,F403
