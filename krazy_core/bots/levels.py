"""Bot levels: the words people choose a bot's strength with.

One vocabulary for the terminal (``krazy play --bots hard``), the game server's lobby and
:func:`krazy_core.bots.make_bot` (``make_bot("hard")``).  Each level is a named bot word, the
same in every game; a game's own search settings (``GameSpec.search_defaults``) apply to the
searching levels.  Ordered weakest first:

    >>> from krazy_core.bots.levels import LEVEL_NAMES, LEVELS, level_bot, is_level
    >>> LEVEL_NAMES
    ('easy', 'normal', 'hard')
    >>> LEVELS["hard"]
    'ismcts:500'
    >>> is_level("Hard"), is_level("ismcts:500")
    (True, False)
    >>> level_bot("easy", seed=1).name
    'random'

The levels are meant to be **monotone** (each beats the one below it with 95% confidence);
``benches/levels.py`` measures it per game with a seeded tournament of duplicate deals rated
with openskill (the ratings and each level's wins over the one below are in
``benches/README.md``, "Bot levels", and ``docs/guide/players.md``): ``easy < normal < hard``
holds with 95% confidence in every game.  No level above ``hard`` is offered: the same search
with four times the iterations (``ismcts:2000``) was not shown stronger than ``hard`` in Krazy
Kings nor in Kings Rummy, so a fourth level would not be monotone; the bot word stays
available to anyone who wants it.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from krazy_core.errors import ConfigError

__all__ = ["LEVELS", "LEVEL_NAMES", "DESCRIPTIONS", "is_level", "level_word", "level_bot",
           "level_choices"]

#: level -> the bot word it stands for (a :func:`krazy_core.bots.make_bot` word), weakest first
LEVELS: Dict[str, str] = {
    "easy": "random",
    "normal": "heuristic",
    "hard": "ismcts:500",
}

#: the levels, weakest first
LEVEL_NAMES: Tuple[str, ...] = tuple(LEVELS)

#: level -> one line for people (a lobby's or ``--help``'s description)
DESCRIPTIONS: Dict[str, str] = {
    "easy": "plays a random legal move",
    "normal": "plays the game's hand-written strategy",
    "hard": "searches 500 deals it imagines from what it can see (ISMCTS) before each move",
}


def is_level(word: str) -> bool:
    """Whether ``word`` names a level (case and surrounding spaces ignored)."""
    return isinstance(word, str) and word.strip().lower() in LEVELS


def level_word(word: str) -> str:
    """The bot word a level stands for; any other word unchanged (``"hard"`` ->
    ``"ismcts:500"``, ``"heuristic"`` -> ``"heuristic"``)."""
    return LEVELS[word.strip().lower()] if is_level(word) else word


def level_bot(level: str, seed: Optional[int] = None):
    """The bot of a level, seeded.  Raises ``ConfigError`` naming the levels for a word that
    is not one."""
    if not is_level(level):
        raise ConfigError(f"unknown level {level!r}; choose from {', '.join(LEVEL_NAMES)}")
    from krazy_core.bots import make_bot    # the package imports this module: a real cycle
    return make_bot(LEVELS[level.strip().lower()], seed=seed)


def level_choices() -> List[Dict[str, str]]:
    """The levels for a menu, weakest first: ``[{"level", "bot", "description"}, ...]``."""
    return [{"level": k, "bot": LEVELS[k], "description": DESCRIPTIONS[k]} for k in LEVEL_NAMES]
