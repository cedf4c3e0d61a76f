"""The ``krazy`` command.

    krazy play GAME [--players N] [--humans K] [--bots heuristic,...] [--seed S]
    krazy match GAME [--bots heuristic,random,...] [--seed S]
    krazy simulate GAME --games N [--bots ...] [--seed S] [--workers W] [--ray] [--store FILE]
    krazy tournament GAME --bots A,B,C... --games N [--plot FILE.png] [--ray]
    krazy sprt GAME A B [--elo0 0 --elo1 20 --alpha 0.05 --beta 0.05]
    krazy selfplay GAME --bot ismcts:200 --games N --out DIR
    krazy rules GAME
    krazy bench GAME [--games N]
    krazy games

Bots are ``random``, ``heuristic``, ``ismcts``, ``ismcts:ITERATIONS`` or ``ismcts:SECONDSs``;
a list shorter than the table is repeated.  Game options go as ``-o name=value``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from importlib import resources
from typing import List, Optional

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import KrazyError, ConfigError, IllegalActionError, UnclearActionError
from krazy_core.ui import load_ui


def _parse_value(text: str):
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _options(pairs: Optional[List[str]]) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ConfigError(f"option {pair!r} must be written name=value (e.g. -o max_turns=300)")
        k, v = pair.split("=", 1)
        out[k.strip()] = _parse_value(v.strip())
    return out


def _make_game(args):
    return krazy_core.make(args.game, num_players=args.players, **_options(args.option))


def _bot_list(text: str, n: int) -> List[str]:
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise ConfigError("--bots needs at least one bot (random, heuristic, ismcts)")
    if len(words) > n:
        raise ConfigError(f"--bots names {len(words)} bots for {n} bot seats; name at most {n} "
                          "(a shorter list repeats)")
    for w in set(words):
        make_bot(w, seed=0)
    return [words[i % len(words)] for i in range(n)]


def _check_delay(delay):
    if not 0 <= delay < float("inf"):
        raise ConfigError(f"--delay must be a number of seconds >= 0, got {delay}")


def _check_think(think):
    if think is not None and not 0 < think < float("inf"):
        raise ConfigError(f"--think must be a number of seconds > 0, got {think}")


def _shown(raw, limit=60):
    """The user's input quoted for an error message, cut to ``limit`` characters."""
    return escape(repr(raw if len(raw) <= limit else raw[:limit] + "..."))


# ---------------------------------------------------------------------------- match
def cmd_match(args, console: Console) -> int:
    game = _make_game(args)
    _check_delay(args.delay)
    bots_spec = _bot_list(args.bots, game.num_players)
    bots = [make_bot(b, seed=(args.seed or 0) * 7919 + i) for i, b in enumerate(bots_spec)]
    names = [f"seat {i} ({b})" for i, b in enumerate(bots_spec)]
    ui = load_ui(game.game_id)
    state = game.new_initial_state(seed=args.seed)
    console.rule(f"[bold]{game.name}[/]: {', '.join(names)} — seed {args.seed}")
    shown = 0
    decisions = 0
    while True:
        for e in state.events_for("all", since=shown):     # only what is new (incremental)
            line = _describe(ui, e, names)
            if line:
                console.print(line)
        shown = state.num_events
        if state.is_terminal():
            break
        p = state.current_player()
        state.apply_action(bots[p].step(state))
        decisions += 1
        if args.delay:
            time.sleep(args.delay)
    console.print(ui.render(state, None))
    _print_result(console, state, names, decisions)
    return 0


def _print_result(console, state, names, decisions=None):
    ret = state.returns()
    t = Table(title="Result")
    t.add_column("seat")
    t.add_column("return", justify="right")
    best = max(ret)
    for p, r in enumerate(ret):
        t.add_row(names[p], f"{r:.2f}", style="bold green" if r == best and r > 0 else None)
    console.print(t)
    stats = state.stats() if hasattr(state, "stats") else {}
    extra = f" in {decisions} decisions" if decisions is not None else ""
    if "turns" in stats:
        extra = f" after {stats['turns']} turns" + (f" ({decisions} decisions)" if decisions is not None else "")
    if stats.get("turn_limit"):
        console.print(f"[yellow]The turn limit (max_turns) cut the play short{extra}; "
                      "returns follow the game's rule for that.[/]")
    worst = min(ret)
    top = [names[p] for p, r in enumerate(ret) if r == best]
    low = [names[p] for p, r in enumerate(ret) if r == worst]
    if len(top) == 1:
        console.print(f"[bold green]Winner: {top[0]}[/]{extra}.")
    elif len(low) == 1 and best > worst:
        console.print(f"[bold red]Loser: {low[0]}[/] (everyone else wins){extra}.")
    else:
        console.print(f"[bold green]Shared win: {', '.join(top)}[/]{extra}.")


# ---------------------------------------------------------------------------- play
def cmd_play(args, console: Console) -> int:
    game = _make_game(args)
    n = game.num_players
    humans = args.humans
    if not 0 <= humans <= n:
        raise ConfigError(f"--humans must be 0..{n}, got {humans}")
    _check_delay(args.delay)
    _check_think(args.think)
    bot_words = _bot_list(args.bots, n - humans) if n > humans else []
    seats = ["human"] * humans + bot_words
    bots = {}
    names = []
    for p, w in enumerate(seats):
        if w == "human":
            names.append(f"seat {p} (you)" if humans == 1 else f"seat {p} (player {p + 1})")
        else:
            bw = f"ismcts:{args.think}s" if (w == "ismcts" and args.think) else w
            bots[p] = make_bot(bw, seed=(args.seed or 0) * 104729 + p)
            names.append(f"seat {p} ({w})")
    ui = load_ui(game.game_id)
    state = game.new_initial_state(seed=args.seed)
    hot_seat = humans > 1
    viewer_for_log = 0 if humans == 1 else None
    shown = 0
    last_seated = None
    queue: list = []                        # the rest of a comma-separated line of moves
    queue_player = None
    console.rule(f"[bold]{game.name}[/] — {', '.join(names)}" + (f" — seed {args.seed}" if args.seed is not None else ""))
    while True:
        for e in state.events_for(viewer_for_log, since=shown):     # only what is new
            line = _describe(ui, e, names)
            if line:
                console.print("  " + line)
        shown = state.num_events
        if state.is_terminal():
            break
        p = state.current_player()
        if p in bots:
            if args.delay:
                time.sleep(args.delay)
            state.apply_action(bots[p].step(state))
            _drop_queue(console, queue)
            continue
        if hot_seat and last_seated != p:
            _clear_screen(console)
            console.print(Panel(f"[bold]{names[p]}[/], it is your turn. Everyone else, look away.",
                                border_style="yellow"))
            if _ask(console, "Press Enter when seated (q to quit) ").lower() in ("q", "quit"):
                console.print("Bye.")
                return 0
            last_seated = p
            for e in state.events_for(p, since=max(0, state.num_events - 12)):
                line = _describe(ui, e, names)
                if line:
                    console.print("  " + line)
        if queue and queue_player != p:
            _drop_queue(console, queue)
        action = _human_turn(console, state, p, ui, names, args, queue)
        queue_player = p
        if action is None:
            console.print("Bye.")
            return 0
        state.apply_action(action)
    console.print(ui.render(state, None if hot_seat else 0))
    _print_result(console, state, names)
    return 0


def _ask(console, prompt):
    """A line of input, stripped, in the case it was typed (``"q"`` at end of input)."""
    try:
        return console.input(prompt).strip()
    except EOFError:
        return "q"


def _clear_screen(console):
    """Clear the screen AND the terminal's scrollback (``ESC [3J``), so the player who just
    moved leaves no hand to scroll back to at a hot-seat hand-over.  Writes nothing when the
    output is not a terminal (a pipe, a file)."""
    if not console.is_terminal or console.is_dumb_terminal:
        return
    console.clear()                         # ESC [2J ESC [H
    console.file.write("\033[3J")
    console.file.flush()


def _norm(text):
    return " ".join(str(text).split()).lower()


def _proper_name(state, piece, legal=(), labels=(), typed_card=None):
    """A typed move as the table names it: the listed label it matches, else the engine's
    ``action_to_string`` of what ``string_to_action`` reads (``"play 7h"`` -> ``"play 7♥"``),
    else the text as typed with every card in it written as the table writes cards
    (``typed_card(code)``, from the game's view: which codes count as cards there)."""
    if typed_card is None:
        typed_card = load_ui(state.game.game_id).typed_card
    want = _norm(piece)
    for a, lab in zip(legal, labels):
        if want == _norm(lab):
            return lab
    try:
        return state.action_to_string(state.string_to_action(piece))
    except UnclearActionError:
        pass
    except IllegalActionError as e:     # legal later in the chain, perhaps: its proper name
        if e.action is not None:
            return state.action_to_string(e.action)
    from krazy_core.cards import format_card, parse_card
    out = []
    for tok in str(piece).split():
        try:
            code = parse_card(tok)
            # the game's view says which codes are its cards to write out (ui.typed_card)
            out.append(format_card(code) if type(code) is int and typed_card(code) else tok)
        except (ValueError, TypeError, KeyError):
            out.append(tok)
    return " ".join(out)


def _refusal(raw, legal, labels, short_forms=None):
    """What to say to a line that names none of the moves: what was typed, a few of the
    moves (all of them are numbered above), the game's short forms, and the keys."""
    few = ", ".join(repr(lab) for lab in labels[:3]) + (", ..." if len(labels) > 3 else "")
    few = few if few.endswith("...") else few + "."
    text = (f"{_shown(raw)} is not one of your moves. Type a number from the list above "
            f"(1-{len(legal)}) or a move's name as listed: {escape(few)}")
    if short_forms:
        text += f" Short forms: {escape(short_forms)}."
    return text + " h for a hint, q to quit."


def _resolve_name(state, raw, legal, labels, short_forms=None):
    """The legal action named ``raw`` (a label as listed, or an action string, in any case),
    else ``(None, error message)``."""
    want = _norm(raw)
    for a, lab in zip(legal, labels):
        if want == _norm(lab):
            return a, None
    try:
        a = state.string_to_action(raw)
    except UnclearActionError as e:
        if e.matches == ():             # it names no move at all
            return None, _refusal(raw, legal, labels, short_forms)
        # the game says what is wrong with a short form, or which moves it fits
        return None, escape(str(e)) + " (or type the move's number from the list)"
    except IllegalActionError as e:
        # a name the game knows but that is not legal now: say why
        if e.action is None:
            return None, _refusal(raw, legal, labels, short_forms)
        return None, (f"{escape(state.action_to_string(e.action))} is not allowed now: "
                      f"{escape(state.explain_illegal(e.action) or 'it is not among the legal actions')}.")
    return a, None


def _take_name(state, parts, legal, labels, whole=False, short_forms=None):
    """The move named by the first of ``parts`` (the comma-separated pieces of a line),
    joined with as many of the next ones as it takes: a listed name may hold a comma
    (``go out, discard K♣``).  Returns ``(action, the pieces left)``, or ``(None, error)``.
    With ``whole`` only all the pieces together may name it."""
    first_err = None
    for j in range(len(parts), 0 if not whole else len(parts) - 1, -1):
        a, err = _resolve_name(state, ", ".join(parts[:j]), legal, labels, short_forms)
        if a is not None:
            return a, parts[j:]
        if j == 1 or whole:
            first_err = err
    return None, first_err


def _describe(ui, event, names):
    """The table's line for an event; a log loaded from someone's JSON may hold values no
    renderer expects (card fields are display data), so those print as raw fields."""
    try:
        return ui.describe_event(event, names)
    except Exception:
        return escape(f"event {event}")


def _drop_queue(console, queue):
    """Chained moves end with the player's turn: say which were not played (by their proper
    names, see ``_queue``)."""
    if queue:
        console.print(f"[yellow]Your turn ended; not played: {escape(_queued_names(queue)[:200])}[/]")
        queue.clear()


def _queue(queue, state, pieces, legal, labels):
    """Put the rest of a line of chained moves in ``queue`` as ``(typed, proper name)``: the
    typed text names the move when its turn comes, the proper name (as the table writes the
    move, read in the state it was typed in) is what messages show."""
    queue.extend((x, _proper_name(state, x, legal, labels)) for x in pieces)


def _queued_names(queue):
    return ", ".join(shown for _, shown in queue)


def _human_turn(console, state, p, ui, names, args, queue=None):
    """The human's move: a number or a name from the list.  Several names separated by
    commas (``lay 7H, lay 8H, lay 9H, finish meld``) play one after another while it stays
    this player's turn: the rest wait in ``queue``.  A player with a single legal move is
    told so and plays it with Enter (or its number or name)."""
    legal = ui.action_order(state, state.legal_actions())
    labels = [ui.action_label(state, a) for a in legal]
    short = ui.short_forms
    if queue:
        if queue[0][0].strip().isdecimal():
            # a number names a line of the list shown when it was typed, which is gone now
            console.print(f"[red]After the first move of a chain, name the moves ('{escape(labels[0])}'), "
                          f"not their numbers: the list changes after every move. Not played: "
                          f"{escape(_queued_names(queue))}[/]")
            queue.clear()
        else:
            a, rest = _take_name(state, [x for x, _ in queue], legal, labels, short_forms=short)
            if a is not None:
                del queue[:len(queue) - len(rest)]
                return a                        # the event log line shows the move
            console.print(f"[red]{rest} (the rest of your moves, {escape(_queued_names(queue))}, "
                          "were not played)[/]")
            queue.clear()
    console.print(ui.render(state, p))
    if len(legal) == 1:
        return _forced_turn(console, state, p, labels[0], legal[0], names, args, queue)
    table = Table(show_header=False, box=None, padding=(0, 2))
    for i, lab in enumerate(labels, 1):
        table.add_row(f"[bold cyan]{i}[/]", escape(lab))
    console.print(table)
    while True:
        raw = _ask(console, f"[bold]{names[p]}[/], your move [1-{len(legal)}, or a name like "
                            f"'{escape(labels[0])}' (several: name, name, ...); h = hint, q = quit]: ")
        low = raw.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("h", "hint", "?"):
            _hint(console, state, labels, legal, args)
            continue
        parts = [raw]
        if "," in raw:
            parts = [x.strip() for x in raw.split(",") if x.strip()]
            if not parts:
                console.print("[red]Nothing between the commas: type a move, or several as "
                              "name, name, ...[/]")
                continue
        if parts[0].isdecimal() and parts[0].isascii() and (queue is not None or len(parts) == 1):
            k = int(parts[0])
            if 1 <= k <= len(legal):
                if queue is not None:
                    _queue(queue, state, parts[1:], legal, labels)
                return legal[k - 1]
            console.print(f"[red]{k} is not a choice: type a number from 1 to {len(legal)}.[/]")
            continue
        a, rest = _take_name(state, parts, legal, labels, whole=queue is None, short_forms=short)
        if a is not None:
            if queue is not None:
                _queue(queue, state, rest, legal, labels)
            return a
        console.print(f"[red]{rest}[/]")


def _forced_turn(console, state, p, label, action, names, args, queue=None):
    """A turn with one legal move: say what it is and play it on Enter (its number ``1`` or
    its name also do, so scripted input that answers every prompt keeps working).  A chain
    of moves whose first is this one plays it and keeps the rest for the next prompts."""
    console.print(f"[bold]Your only move:[/] [cyan]{escape(label)}[/]")
    while True:
        raw = _ask(console, f"[bold]{names[p]}[/], press Enter to play it (q = quit): ")
        low = raw.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("", "1", "y", "yes", "ok") or _norm(raw) == _norm(label):
            return action
        parts = [x.strip() for x in raw.split(",") if x.strip()] if "," in raw else [raw]
        if queue is not None and len(parts) > 1:
            if parts[0].lower() in ("1", "y", "yes", "ok"):
                a, rest = action, parts[1:]
            else:
                a, rest = _take_name(state, parts, [action], [label])
            if a is not None:
                _queue(queue, state, rest, [action], [label])
                return a
        a, _ = _take_name(state, [raw], [action], [label], whole=True)
        if a is not None:
            return a
        console.print(f"[red]{_shown(raw)}: {escape(label)} is the only move you have now. "
                      "Press Enter to play it, or q to quit.[/]")


def _hint(console, state, labels, legal, args):
    try:
        from krazy_core.bots import ISMCTSBot
        bot = ISMCTSBot(time_limit=args.think or 0.5, seed=1)
        action, policy = bot.step_with_policy(state)
        top = sorted(policy.items(), key=lambda kv: -kv[1])[:3]
        text = ", ".join(f"{escape(labels[legal.index(a)])} ({v:.0%})" for a, v in top if a in legal)
        console.print(f"[green]Hint (ISMCTS): {text}[/]")
    except (ImportError, ConfigError):      # a build without the search module
        a = state.heuristic_action(seed=1)
        console.print(f"[green]Hint (heuristic): {escape(labels[legal.index(a)])}[/]")


# ---------------------------------------------------------------------------- simulate
def cmd_simulate(args, console: Console) -> int:
    from rich.progress import Progress, BarColumn, TimeRemainingColumn, MofNCompleteColumn, TextColumn
    from krazy_core.arena import run_arena
    game = _make_game(args)
    n = game.num_players
    entries = _bot_list(args.bots, n)
    base = args.seed or 0
    from krazy_core.arena import make_job
    from krazy_core.cli_runs import backend, open_store_arg
    make_job(game, {}, args.games, base)           # --games 0 / absurd: a clear error first
    if args.workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {args.workers}")
    cpus = os.cpu_count() or 1
    if args.workers > max(64, 4 * cpus) and not args.ray:
        raise ConfigError(f"--workers {args.workers} is more processes than make sense here "
                          f"({cpus} CPUs): use at most {max(64, 4 * cpus)}, e.g. --workers {cpus}")
    store = open_store_arg(args)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=console)
    with backend(args, console, args.games) as runner, progress:
        bar = progress.add_task("simulating", total=args.games)
        on_decision = None
        if runner.name == "in-process":
            # inside a game too: a long game of search bots otherwise shows nothing for minutes
            inner = progress.add_task("this game", total=None)
            last = [0.0]

            def on_decision(state, decisions):
                now = time.monotonic()
                if now - last[0] >= 0.1 or state.is_terminal():
                    last[0] = now
                    progress.update(inner, completed=decisions,
                                    description=f"game {int(progress.tasks[bar].completed) + 1}: "
                                                f"{_game_progress(state)}")

        try:
            res = run_arena(game, entries, args.games, seed=base, rotate=args.rotate, runner=runner,
                            store=store, batch_size=args.batch,
                            progress=lambda k: progress.advance(bar, k), on_decision=on_decision)
        except KeyboardInterrupt:
            from krazy_core.cli_runs import _interrupted
            progress.stop()
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
    from krazy_core.ui import plural
    table = Table(title=f"{game.name}, {n} players, {plural(args.games, 'game')} (seed {base}"
                        f"{', seats rotated' if args.rotate else ''})")
    for col in ("bot", "wins", "win rate", "95% interval", "fair share"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    fair = sum(res.wins) / res.games / n      # a bot no better than the table's average
    for j, w in enumerate(entries):
        lo, hi = res.interval(j)
        table.add_row(f"{j}: {w}", f"{res.wins[j]:.1f}", f"{res.win_rate(j):.1%}",
                      f"{lo:.1%} – {hi:.1%}", f"{fair:.1%}")
    console.print(table)
    turns = f", {res.mean_turns:.1f} turns" if res.mean_turns is not None else ""
    console.print(f"mean game length: {res.mean_decisions:.1f} decisions{turns}; max_turns ended "
                  f"{res.turn_limit_games} of {plural(res.games, 'game')} ({res.turn_limit_games / res.games:.1%}); "
                  f"{res.seconds:.1f} s")
    return 0


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


# ---------------------------------------------------------------------------- rules, bench
def cmd_rules(args, console: Console) -> int:
    spec = krazy_core.game.get_spec(args.game)
    text = resources.files("krazy_core").joinpath("rules", spec.rules_file).read_text(encoding="utf-8")
    console.print(Markdown(text))
    t = Table(title=f"Options of {spec.name} (krazy play {spec.game_id} -o name=value)")
    for col in ("option", "default", "range", "rule", "meaning"):
        t.add_column(col)
    for o in spec.options:
        rng = f"{o.lo}..{o.hi}" if o.kind is int else ("true/false" if o.kind is bool else " / ".join(o.choices))
        t.add_row(o.name, repr(o.default), rng, o.rule, o.doc)
    console.print(t)
    console.print(f"Players: {spec.min_players}..{spec.max_players} (default {spec.default_players}).")
    return 0


def cmd_bench(args, console: Console) -> int:
    from krazy_core._state import simulate_random
    game = _make_game(args)
    r = simulate_random(game, args.games, seed=args.seed or 0)
    console.print(f"{game.name}, {game.num_players} players: {r['games']} random games in the core, "
                  f"{r['decisions']} decisions in {r['seconds']:.3f} s = "
                  f"[bold]{r['decisions_per_second']:,.0f}[/] decisions/s")
    return 0


def cmd_games(args, console: Console) -> int:
    t = Table(title="Games")
    for col in ("id", "name", "players", "about"):
        t.add_column(col)
    for gid in krazy_core.available_games():
        s = krazy_core.game.get_spec(gid)
        t.add_row(gid, s.name, f"{s.min_players}-{s.max_players}", s.summary)
    console.print(t)
    return 0


# ---------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="krazy", description="Play and study Krazy Kings, Kings Rummy, "
                                 "Crazy Rummy and KrassKariert against bots.")
    ap.add_argument("--version", action="version", version=f"krazy_core {krazy_core.__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, bots_default="heuristic"):
        p.add_argument("game", help="game id (krazy games lists them)")
        p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
        p.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
        p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
        p.add_argument("--bots", default=bots_default, help="comma-separated: random, heuristic, ismcts[:N|:Ts][:OPTION=VALUE...] (search options, e.g. ismcts:2000:exploration=0.3)")

    p = sub.add_parser("play", help="play at a terminal table against bots, or hot-seat")
    common(p)
    p.add_argument("--humans", type=int, default=1, help="human players at this terminal (hot-seat when > 1)")
    p.add_argument("--delay", type=float, default=0.6, help="seconds to pause on each bot move")
    p.add_argument("--think", type=float, default=None, help="ISMCTS seconds per move (bots and hints)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("match", help="a bot-only game, play by play")
    common(p, "heuristic,random")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("simulate", help="many bot games with a progress bar; win rates with 95%% intervals")
    common(p, "heuristic,random")
    p.add_argument("--games", type=int, default=200, help="games to play")
    p.add_argument("--no-rotate", dest="rotate", action="store_false", help="keep each bot in its seat")
    from krazy_core.cli_runs import add_backend_flags, add_run_commands
    add_backend_flags(p)                    # --workers, --ray, --batch, --store
    p.set_defaults(func=cmd_simulate)
    add_run_commands(sub, common)           # tournament, sprt, selfplay (krazy_core/cli_runs.py)

    p = sub.add_parser("rules", help="the rules and options of a game")
    p.add_argument("game")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bench", help="in-core random playouts per second")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
    p.add_argument("--games", type=int, default=2000, help="games to play in the core")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("games", help="list the games")
    p.set_defaults(func=cmd_games)

    # krazy serve: the game server and browser table (the 'server' extra)
    p = sub.add_parser("serve", help="the game server and browser table (needs krazy_core[server])")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--db", default=None, help="SQLite file of the tables (default: $KRAZY_DB or "
                   "~/.local/share/krazy_core/tables.sqlite3)")
    p.set_defaults(func=cmd_serve)
    return ap


def cmd_serve(args, console: Console) -> int:
    try:
        from krazy_core.server.app import serve
    except ImportError as e:
        console.print(f"[red]error:[/] krazy serve needs the server extra: pip install 'krazy_core[server]' ({escape(str(e))})")
        return 2
    serve(host=args.host, port=args.port, db=args.db)
    return 0


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(emoji=False)          # ":100:" in a bot word is not an emoji
    try:
        return args.func(args, console)
    except KrazyError as e:
        console.print(f"[red]error:[/] {escape(str(e))}")
        return 2
    except KeyboardInterrupt:
        console.print("\ninterrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
