"""Error types of krazy_core.  Every one is also a ``ValueError``, so callers that only know
the standard library still catch them."""

from __future__ import annotations

__all__ = ["KrazyError", "IllegalActionError", "InvalidStateError", "ConfigError", "UnclearActionError"]


class KrazyError(Exception):
    """Base class of every error krazy_core raises on purpose."""


class IllegalActionError(KrazyError, ValueError):
    """An action that is not legal in the current state.  The state is left unchanged."""


class InvalidStateError(KrazyError, ValueError):
    """A JSON state that is malformed, truncated, inconsistent or hostile."""


class ConfigError(KrazyError, ValueError):
    """An unknown game, an unknown option, or an option value out of its range."""


class UnclearActionError(IllegalActionError):
    """A typed move (a short form) that names no single action: it fits several legal ones,
    or it points at cards that make no move.  The message is for the player: it says what
    is wrong and how to say it."""
