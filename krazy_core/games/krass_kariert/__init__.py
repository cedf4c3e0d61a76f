"""KrassKariert (``krass-kariert``), rules KA-1 .. KA-15 (``rules.md`` here): the package's
public face.  The rules and the Python face are in the compiled ``core`` for now."""
from krazy_core.games.krass_kariert.core import *  # noqa: F401,F403
from krazy_core.games.krass_kariert.core import _action_text, _probe_actions  # noqa: F401  (tests)
