"""The games.  Each module exports ``SPEC`` (see ``krazy_core.game.GameSpec``); the
registry that maps ids to modules is ``krazy_core.game.REGISTRY``."""
