"""Terminal views of the games (rich): the generic parts.  Each game may have a view module,
``view.py`` in its package (``krazy-kings`` -> ``krazy_core.games.krazy_kings.view``, found
through ``krazy_core.game.REGISTRY``), with:

- ``render(state, viewer) -> rich renderable``: the table as seat ``viewer`` sees it
  (``None``: a spectator who sees no hidden card);
- ``describe_event(event: dict, names: list[str]) -> str | None``: one line of the play by
  play for an event of ``state.events_for(viewer)`` (``None`` hides it); it may take a
  ``state=`` keyword too (the table's state, at or after the event; Crazy Rummy describes a
  completed meld by its cards), which the CLI passes through ``ui.state``;
- optionally ``action_label(state, action) -> str``: the words of a numbered choice, and
  ``action_order(state, legal) -> list``: the order choices are numbered in;
- optionally ``SHORT_FORMS``: one line naming the short ways to type a move that the game's
  ``string_to_action`` reads (shown when a typed move names nothing);
- optionally ``typed_card(code) -> bool``: whether a typed word that ``parse_card`` reads as
  ``code`` is a card to write as the table writes it (default: every code);
- optionally ``compact(state, viewer, minimal=False) -> rich renderable``: the table in a
  few lines for a small terminal (``minimal``: only the trick or top card and the hand);
- optionally ``choice_groups(state, legal, labels) -> [(label, ask, {key: action})]``: runs
  of moves shown as one choice that asks ``ask`` (a position) next;
- optionally ``typed_action(state, action, text) -> action``: the move a typed name means
  (Krazy Kings: a play that leaves one card calls "last card" unless the text says not to);
- optionally ``expand_typed(state, text) -> [[text, ...], ...] | None``: a typed line that
  stands for several moves, each a list of alternatives played in whichever order is legal
  (Crazy Rummy: ``lay 5♠ 5♥ 5♦``); it may raise ``UnclearActionError`` saying why a line of
  its form names no move (Crazy Rummy: cards that are neither a book nor a run);
- optionally ``order_line(state, parts) -> [text, ...] | None``: a typed line's pieces put in
  the order the engine takes them (Crazy Rummy: whole melds going down, books before runs);
- optionally ``prompt_keys(state) -> str | None``: the short answers of this decision that
  the prompt lists after the numbers (Crazy Rummy at a buy offer: ``"b buy, p pass"``), and
  ``prompt_hint(state) -> str | None``: the terminal's keys said beside the engine's prompt
  (Crazy Rummy: ``pa`` passes every offer of the round);
- optionally ``unlisted(state, action) -> bool``: a legal move left out of the numbered
  choices, typed by name only (Krazy Kings: the last card played without the call, KK-19);
- optionally ``final_points(state) -> (heading, [value per seat])`` for the result table;
- optionally ``round_summary(before, state, viewer) -> rich renderable``: what the table
  shows between rounds (``before``: the state before the move that ended the round);
- optionally ``RULES_NOTE``: a paragraph ``krazy rules`` adds on how the table differs;
- optionally ``typed_text(state, text) -> text`` and ``engine_text(state, text) -> text``: a
  typed move rewritten for ``string_to_action`` and an engine message rewritten for the table,
  where the table counts differently (KrassKariert: hand positions from 1, the engine from 0);
- optionally ``before_roll(state, seat, later, earlier) -> (rich renderable, words)``: the
  table as a human sees it before rolling their own dice (``later``: the seat's events from
  the roll on, ``earlier``: the events before it in the batch) and what the roll is for;
- optionally ``ROLL_EVENTS``: ``{event name: what is rolled}`` (``"the dice"``, ``"your
  die"``): the events that are a human's own roll, each waiting for Enter at a terminal;
- optionally ``ROUND_WORD``: what the game calls a round (``"hand"``), at its pause.

Games without a module get the generic view below.
"""

from __future__ import annotations

import importlib
import inspect
from types import SimpleNamespace

from rich.panel import Panel
from rich.text import Text
from krazy_core.game import REGISTRY, get_spec


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"3 cards"``, ``"12,000 decisions"``: a count (thousands separated) and
    its noun, for every table."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _generic_render(state, viewer):
    return Panel(Text(str(state) if viewer is None else _obs_text(state, viewer)),
                 title=state.game.name)


def _obs_text(state, viewer):
    obs = state.observation(viewer)
    return "\n".join(f"{k}: {v}" for k, v in obs.items() if k != "legal_actions")


def _generic_event(event, names):
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "player"))
    who = names[event["player"]] if isinstance(event.get("player"), int) and 0 <= event["player"] < len(names) else ""
    return f"{who} {event['event']} {rest}".strip()


def _game_words(game_id: str):
    return get_spec(game_id).words if game_id in REGISTRY else None


def load_ui(game_id: str):
    """The view module of a game (``games/<game>/view.py``), or the generic view for a game
    without one.  An error inside a game's view is raised, not hidden behind the generic one."""
    mod = None
    if game_id in REGISTRY:
        name = REGISTRY[game_id] + ".view"
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:          # the view exists and imports something missing
                raise
    describe = getattr(mod, "describe_event", _generic_event)
    try:
        with_state = "state" in inspect.signature(describe).parameters
    except (TypeError, ValueError):
        with_state = False
    return SimpleNamespace(
        state=None,                     # the table's state, set by the CLI (describe_event's state=)
        describe_with_state=with_state,
        render=getattr(mod, "render", _generic_render),
        describe_event=getattr(mod, "describe_event", _generic_event),
        action_label=getattr(mod, "action_label", lambda state, a: state.action_to_string(a)),
        action_order=getattr(mod, "action_order", lambda state, legal: list(legal)),
        short_forms=getattr(mod, "SHORT_FORMS", None),
        typed_card=getattr(mod, "typed_card", lambda code: True),
        compact=getattr(mod, "compact", None),
        choice_groups=getattr(mod, "choice_groups", None),
        typed_action=getattr(mod, "typed_action", lambda state, a, text: a),
        expand_typed=getattr(mod, "expand_typed", lambda state, text: None),
        order_line=getattr(mod, "order_line", lambda state, parts: None),
        prompt_keys=getattr(mod, "prompt_keys", None),
        prompt_hint=getattr(mod, "prompt_hint", None),
        unlisted=getattr(mod, "unlisted", None),
        final_points=getattr(mod, "final_points", None),
        round_summary=getattr(mod, "round_summary", None),
        before_roll=getattr(mod, "before_roll", None),
        typed_text=getattr(mod, "typed_text", lambda state, text: text),
        rules_note=getattr(mod, "RULES_NOTE", None),
        engine_text=getattr(mod, "engine_text", lambda state, text: text),
        roll_events=dict(getattr(mod, "ROLL_EVENTS", {})),
        words=_game_words(game_id),     # how the play by play folds (krazy_core._words.log_lines)
        round_word=getattr(mod, "ROUND_WORD", "round"),
    )
