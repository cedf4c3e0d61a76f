"""What the env adapters share: env ids, the illegal-action rule, text rendering."""

from __future__ import annotations

import io

from krazy_core.errors import ConfigError
from krazy_core.game import available_games, get_spec
from krazy_core.ui import load_ui

# game id -> Gymnasium id (registered on import of krazy_core.envs): each game's GameSpec.env_id
ENV_IDS = {gid: get_spec(gid).env_id for gid in available_games()}
GAME_OF_ENV_ID = {v: k for k, v in ENV_IDS.items()}

ILLEGAL_ACTIONS = ("terminate", "raise")
ILLEGAL_REWARD = -1.0
RENDER_MODES = ("ansi", "human")


def check_illegal(value):
    if value not in ILLEGAL_ACTIONS:
        raise ConfigError(f"illegal_action must be one of {', '.join(map(repr, ILLEGAL_ACTIONS))}, "
                          f"got {value!r}")
    return value


def check_render_mode(value):
    if value is not None and value not in RENDER_MODES:
        raise ConfigError(f"render_mode must be None, 'ansi' or 'human', got {value!r}")
    return value


def render_text(state, viewer, width=100) -> str:
    """The terminal view (``krazy_core.ui``) of ``state`` as seat ``viewer`` sees it
    (``None``: a spectator), as plain text."""
    from rich.console import Console
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False,
                      legacy_windows=False)
    console.print(load_ui(state.game.game_id).render(state, viewer))
    return buf.getvalue()


def is_legal(state, action) -> bool:
    """Whether ``action`` (anything int-like) is a legal action id of ``state``."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        return False
    if isinstance(action, bool) or a != action:
        return False
    return 0 <= a < state.game.num_distinct_actions and bool(state.legal_action_mask()[a])
