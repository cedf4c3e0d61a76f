"""Error types of krazy_core.  Every one is also a ``ValueError``, so callers that only know
the standard library still catch them."""

from __future__ import annotations

__all__ = ["KrazyError", "IllegalActionError", "InvalidStateError", "ConfigError", "UnclearActionError"]


class KrazyError(Exception):
    """Base class of every error krazy_core raises on purpose."""


class IllegalActionError(KrazyError, ValueError):
    """An action that is not legal in the current state.  The state is left unchanged.

    ``action``: the action id refused (an int), or ``None`` when the input named no action.
    ``state_json``: the state it was refused in, as ``State.to_json()`` writes it (``None``
    when raised without a state), so the refusal reproduces:
    ``game.state_from_json(e.state_json).apply_action(e.action)`` raises it again.  It is an
    attribute, not part of the message (which stays short); it is written on first read.
    """

    def __init__(self, message="", *, action=None, state=None, state_json=None):
        super().__init__(message)
        self.action = action
        self._state = state
        self._state_json = state_json

    @property
    def state_json(self):
        if self._state_json is None and self._state is not None:
            self._state_json = self._state.to_json()
            self._state = None
        return self._state_json

    def _attach(self, state):
        """Record ``state`` (a clone is taken) unless a state is recorded already."""
        if self._state is None and self._state_json is None:
            self._state = state.clone()
        return self

    def __reduce__(self):
        return (_rebuild, (type(self), str(self), self.__dict__ | {"_state": None,
                                                                  "_state_json": self.state_json}))


def _rebuild(cls, message, attrs):
    e = cls.__new__(cls)
    Exception.__init__(e, message)
    e.__dict__.update(attrs)
    return e


class InvalidStateError(KrazyError, ValueError):
    """A JSON state that is malformed, truncated, inconsistent or hostile."""


class ConfigError(KrazyError, ValueError):
    """An unknown game, an unknown option, or an option value out of its range."""


class UnclearActionError(IllegalActionError):
    """A typed move that names no single action: it fits several legal ones, it names no
    move at all, or (a short form) it points at cards that make no move.  The message is for
    the player: it says what is wrong and how to say it, listing the moves that fit.

    ``matches``: the legal actions the text fits, a tuple of ints (empty when it names no
    move), or ``None`` when a game's short-form reader says what is wrong itself.
    """

    def __init__(self, message="", *, matches=None, action=None, state=None, state_json=None):
        super().__init__(message, action=action, state=state, state_json=state_json)
        self.matches = None if matches is None else tuple(matches)
