"""Printing the play by play: the game's events in the player's words (from the game's
view and words), recaps since a seat's last turn, dice pauses, the rules in force, the
result."""

from __future__ import annotations

import re

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from krazy_core import _words
from krazy_core.cards import format_card
from krazy_core.cli import table as cli_table
from krazy_core.cli.common import _ask, _shown
from krazy_core.ui import load_ui, plural


def _print_result(console, state, names, decisions=None, ui=None):
    """The result: each seat's outcome in words, the game's points (``ui.final_points``) and
    the hand each seat ends with, then the winner in one line."""
    ret = state.returns()
    best = max(ret)
    worst = min(ret)
    ui = ui or load_ui(state.game.game_id)
    points = ui.final_points(state) if ui.final_points else None
    t = Table(title="Result")
    t.add_column("seat")
    t.add_column("result")
    if points:
        t.add_column(points[0], justify="right")
    t.add_column("hand at the end")
    n_best = sum(1 for r in ret if r == best)
    for p, r in enumerate(ret):
        if best == worst:
            word = "draw"
        elif r == best:
            n_low = sum(1 for x in ret if x == worst)
            word = "won" if n_best == 1 or n_low == 1 else "shared the win"
        else:
            word = "lost"
        try:
            hand = state.observation(p).get("hand") or []
        except Exception:                   # a view is optional
            hand = []
        cells = [names[p], word] + ([str(points[1][p])] if points else []) + \
            [" ".join(format_card(c) for c in hand) or "-"]
        t.add_row(*cells, style="bold green" if r == best and r > worst else None)
    console.print(t)
    stats = state.stats() if hasattr(state, "stats") else {}
    # a decision is a move a player chose; a turn may have none (a Krazy Kings pass plays itself)
    extra = f" after {plural(decisions, 'move')} chosen by the players" if decisions is not None else ""
    if "turns" in stats:
        extra = f" after {plural(stats['turns'], 'turn')}" + \
            (f", {plural(decisions, 'move')} chosen by the players" if decisions is not None else "")
    if stats.get("turn_limit"):
        console.print(f"[yellow]The turn limit (max_turns) cut the play short{extra}; "
                      "the game's rule for that decides the result.[/]")
    top = [names[p] for p, r in enumerate(ret) if r == best]
    low = [names[p] for p, r in enumerate(ret) if r == worst]
    if len(top) == 1:
        console.print(f"[bold green]Winner: {escape(top[0])}[/]{extra}.")
    elif len(low) == 1 and best > worst:
        console.print(f"[bold red]Loser: {escape(low[0])}[/] (everyone else wins){extra}.")
    else:
        console.print(f"[bold green]Shared win: {escape(', '.join(top))}[/]{extra}.")


RECAP_LINES = 30


_RULE_ID = re.compile(r"\b[A-Z]{2}-\d+\b")


def _rules_now(state, p):
    """``rules`` at a prompt: the numbered rules the phase's prompt cites, in full (``krazy
    rules GAME`` has them all)."""
    spec = state.game.spec
    ids = list(dict.fromkeys(_RULE_ID.findall(state.prompt(p))))
    out = Text()
    for rid in ids:
        text = spec.rule(rid)
        if text:
            out.append(text.replace("**", "") + "\n")
    out.append(f"(every rule: krazy rules {spec.game_id})", style="dim")
    return out


def _recap(console, ui, state, p, names, since):
    """Hot-seat: what happened since seat ``p`` last moved, as ``p`` may see it (the play by
    play; its last ``RECAP_LINES`` lines when longer)."""
    lines = _log_lines(ui, state.events_for(p, since=since), names)
    if not lines:
        return
    console.print("[bold]Since your last turn:[/]")
    if len(lines) > RECAP_LINES:
        console.print(f"  [dim]… {len(lines) - RECAP_LINES} earlier lines[/]")
        lines = lines[-RECAP_LINES:]
    for line in lines:
        console.print("  " + line)


def _round_pause(console, ui, before, state, viewer, word="round") -> bool:
    """Between rounds and hands: the round's melds and scores (``ui.round_summary``, else the
    table fitted to the terminal) and a keypress."""
    console.rule(f"[bold]end of the {word}[/]")     # KrassKariert plays hands, not rounds
    if ui.round_summary:
        console.print(ui.round_summary(before, state, viewer))
    else:
        console.print(cli_table.fit_table(console, ui, state, viewer, 2, console.size.width,
                                          console.size.height)[0])
    return _ask(console, f"Press Enter for the next {word} (q to quit): ").lower() not in ("q", "quit")


ROLL_KEYS = ("", "r", "roll")


def _roll_key(console, who, words, dice="the dice") -> bool:
    """The "press Enter to roll" prompt: Enter, ``r`` or ``roll`` rolls; ``q`` (or the end of
    input) quits (``False``); anything else is answered with what the prompt takes and asked
    again (Ctrl-C goes up to the table, which quits as ``q`` does)."""
    if words:
        console.print(f"  [dim]{escape(words)}[/]")
    while True:
        raw = _ask(console, f"  {escape(who)}: press Enter to roll {dice} (q to quit) ")
        low = raw.lower()
        if low in ("q", "quit", "exit"):
            return False
        if low in ROLL_KEYS:
            return True
        console.print(f"  [yellow]{_shown(raw)}: there is nothing to choose before the dice are rolled. "
                      "Press Enter (or type r) to roll, or q to quit.[/]")


def _print_events(console, ui, events, names, roll_seats=(), before_roll=None, rolled=None, view_of=None):
    """Print the play by play of ``events``; before a roll of a seat in ``roll_seats`` (the
    humans, at a terminal) ask for Enter, so a player rolls their own dice (after
    ``before_roll(seat, the events before it)``, the hot-seat hand-over).  The first roll
    asked for shows the table as it is before that roll (``ui.before_roll``: hand, top card,
    whose turn; ``view_of(seat, i)``: the seat's view of ``events[i:]``) and what the roll is
    for.  ``False`` when the player quits there.  ``rolled`` (a list) gets the seat of each
    roll asked for."""
    start = 0
    shown_for = None                    # the seat the pre-roll table was last shown to
    for i, e in enumerate(events):
        if e.get("event") in ui.roll_events and e.get("player") in roll_seats:
            seat = e["player"]
            for line in _log_lines(ui, events[start:i], names):
                console.print("  " + line)
            if any(x.get("player") != seat for x in events[start:i] if _describe(ui, x, names)):
                shown_for = None        # others moved since: show the table again
            start = i
            if before_roll is not None and not before_roll(seat, events[:i]):
                return False
            words = None
            if ui.before_roll is not None and ui.state is not None and view_of is not None:
                table, words = ui.before_roll(ui.state, seat, view_of(seat, i), events[:i])
                if shown_for != seat:
                    console.print(table)
                    shown_for = seat
            if not _roll_key(console, names[seat], words, ui.roll_events[e["event"]]):
                return False
            if rolled is not None:          # hot-seat: the roller sees the result before a hand-over
                rolled.append(seat)
    for line in _log_lines(ui, events[start:], names):
        console.print("  " + line)
    return True


def _log_lines(ui, events, names):
    """The play by play of ``events`` in the engine's words (``krazy_core._words.log_lines``,
    the lines ``State.narrate`` gives every frontend), each event through the table's
    ``describe_event``: a run of draws by one seat one line, a run of passes one line."""
    return _words.log_lines(events, names, lambda e: _describe(ui, e, names), ui.words)


def _describe(ui, event, names):
    """The table's line for an event; a log loaded from someone's JSON may hold values no
    renderer expects (card fields are display data), so those print as raw fields."""
    try:
        if getattr(ui, "describe_with_state", False) and getattr(ui, "state", None) is not None:
            return ui.describe_event(event, names, state=ui.state)
        return ui.describe_event(event, names)
    except Exception:
        return escape(f"event {event}")


def _game_progress(state) -> str:
    """A few words on how far a game is: turn, round, decisions (what the state's ``stats``
    and ``observation`` offer)."""
    stats = state.stats() if hasattr(state, "stats") else {}
    words = []
    try:
        obs = state.observation(0)
    except Exception:                   # a view is optional for progress
        obs = {}
    if isinstance(obs.get("round"), int):
        words.append(f"round {obs['round']}")
    if "turns" in stats:
        words.append(f"turn {stats['turns']}")
    return ", ".join(words) + (", decisions" if words else "decisions")
