"""Bots.  Every bot has the same protocol: keyword-only options (``seed`` among them), its
own PRNG, and ``step(state) -> action`` for the player to act.  A bot reads only what that
player may see (``state.observation(player)``); the C heuristic behind ``HeuristicBot`` is
written against the same view.

- :class:`RandomBot`: a uniformly random legal action.
- :class:`HeuristicBot`: the game's hand-written policy (each game documents its own).
- :class:`ISMCTSBot`: information-set Monte Carlo tree search (``krazy_core.search``), a
  class (``isinstance(bot, ISMCTSBot)`` works), defined in ``krazy_core.bots.ismcts``.

- ``value`` / ``value:SAMPLES``: :class:`krazy_core.learn.model.ValueBot`, the learned value
  model alone, greedy over one move (no search; games with a shipped model).
- ``policy`` / ``policy:FILE.npz``: :class:`krazy_core.learn.model.PolicyBot`, the learned
  policy alone: its most likely legal action (no search; games with a shipped policy, or the
  weights in FILE).

``make_bot("heuristic")``, ``make_bot("random")``, ``make_bot("ismcts:2000")``
(iterations) or ``make_bot("ismcts:0.5s")`` (seconds per move) build one from a CLI word.

**Levels** (:mod:`krazy_core.bots.levels`): ``easy``, ``normal``, ``hard`` name bot
words (``make_bot("hard")`` is ``make_bot("ismcts:500")``), the one vocabulary of strength
for the terminal, the server's lobby and the API; ``LEVEL_NAMES`` lists them weakest first,
``is_level(word)`` says whether a word is one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from krazy_core.errors import ConfigError
from krazy_core.bots.base import Bot, HeuristicBot, RandomBot
from krazy_core.bots.levels import LEVELS, LEVEL_NAMES, is_level, level_bot, level_word

__all__ = ["Bot", "RandomBot", "HeuristicBot", "ISMCTSBot", "make_bot", "BOT_KINDS",
           "LEVELS", "LEVEL_NAMES", "is_level", "level_bot", "level_word"]


if TYPE_CHECKING:                    # type checkers read the real class (its stub)
    from krazy_core.bots.ismcts import ISMCTSBot
else:
    try:
        from krazy_core.bots.ismcts import ISMCTSBot
    except ImportError:              # a build without the compiled search module
        class ISMCTSBot(Bot):
            """Information-set MCTS bot (``krazy_core.bots.ismcts``); this build has no search
            module, so making one raises ``ConfigError``."""

            name = "ismcts"

            def __init__(self, **options):
                raise ConfigError("ISMCTS is not built in this install of krazy_core; use random or heuristic")


BOT_KINDS = ("random", "heuristic", "ismcts")


def _option_value(text: str):
    """``"40"`` -> 40, ``"0.5"`` -> 0.5, ``"true"``/``"false"`` -> bool, else the string."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text.strip()


def make_bot(spec: str, *, seed: Optional[int] = None) -> Bot:
    """A bot from a word: a level (``easy``, ``normal``, ``hard``: the bot word it
    stands for, :data:`LEVELS`), ``random``, ``heuristic``, ``ismcts``, ``ismcts:ITERATIONS`` or
    ``ismcts:SECONDSs`` (e.g. ``ismcts:0.5s``), optionally followed by search options as
    ``:NAME=VALUE`` (e.g. ``ismcts:2000:rollout=random:exploration=1.0``; the options of
    :func:`krazy_core.search.ismcts.search`).  Raises ``ConfigError`` naming the choices."""
    if is_level(spec):
        spec = level_word(spec)
    word = spec.strip()
    if word.lower() == "random":
        return RandomBot(seed=seed)
    if word.lower() == "heuristic":
        return HeuristicBot(seed=seed)
    if word.lower().startswith("ismcts"):
        parts = word[6:].split(":")
        if parts[0] != "":
            raise ConfigError(f"bad bot {spec!r}: write ismcts, ismcts:ITERATIONS or ismcts:SECONDSs")
        kw = {}
        for part in parts[1:]:
            if "=" in part:
                name, _, value = part.partition("=")
                kw[name.strip()] = _option_value(value)
            elif part == "":
                continue
            elif "iterations" in kw or "time_limit" in kw:
                raise ConfigError(f"bad bot {spec!r}: one budget only (ITERATIONS or SECONDSs)")
            else:
                budget = part.lower()
                try:
                    if budget.endswith("s"):
                        kw["time_limit"] = float(budget[:-1])
                    else:
                        kw["iterations"] = int(budget)
                except ValueError:
                    raise ConfigError(f"bad ISMCTS budget {part!r}: an int of iterations or seconds "
                                      f"like 0.5s; options as NAME=VALUE") from None
        if "seed" in kw:
            raise ConfigError(f"bad bot {spec!r}: the bot's seed is not a search option here "
                              f"(krazy takes --seed)")
        return ISMCTSBot(seed=seed, **kw)
    if word.lower() == "value" or word.lower().startswith("value:"):
        from krazy_core.learn.model import ValueBot     # learn.model imports bots.base: a cycle
        samples = word[6:]
        try:
            return ValueBot(seed=seed, samples=int(samples)) if samples else ValueBot(seed=seed)
        except ValueError:
            raise ConfigError(f"bad bot {spec!r}: write value or value:SAMPLES") from None
    if word.lower() == "policy" or word.lower().startswith("policy:"):
        from krazy_core.learn.model import PolicyBot    # (the same cycle)
        model = word[7:]
        if word[6:7] == ":" and not model.endswith(".npz"):
            raise ConfigError(f"bad bot {spec!r}: write policy or policy:FILE.npz")
        return PolicyBot(seed=seed, model=model or None)
    raise ConfigError(f"unknown bot {spec!r}; choose a level ({', '.join(LEVEL_NAMES)}) or "
                      f"random, heuristic, "
                      f"ismcts[:ITERATIONS|:SECONDSs][:NAME=VALUE...], or the learned models alone: "
                      f"value[:SAMPLES], policy[:FILE.npz]")
