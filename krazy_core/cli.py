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
import re
import sys
import time
import typing
from importlib import resources
from typing import List, Optional

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import krazy_core
from krazy_core import _words
from krazy_core.bots import make_bot
from krazy_core.bots.levels import LEVELS, LEVEL_NAMES, level_word
from krazy_core.errors import KrazyError, ConfigError, IllegalActionError, UnclearActionError
from krazy_core.ui import load_ui, plural


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


# the spellings of a boolean option's value, in any case (-o ace_wrap=1 was refused)
BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
              "false": False, "0": False, "no": False, "off": False}


def _options(pairs: Optional[List[str]], spec=None) -> dict:
    """``-o name=value`` pairs as the game's options.  A seat option (``Option.seat``) is
    typed counting seats from 1, as the table shows them (``-o dealer=1``: seat 1), and
    given to the game in its count from 0.  A boolean option of ``spec`` (the game's) takes
    any of ``BOOL_WORDS``: true/false, 1/0, yes/no, on/off, in any case."""
    kinds = {o.name: o for o in spec.options} if spec is not None else {}
    seats = spec.seat_options if spec is not None else ()
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ConfigError(f"option {pair!r} must be written name=value (e.g. -o max_turns=300)")
        k, v = pair.split("=", 1)
        k, value = k.strip(), _parse_value(v.strip())
        o = kinds.get(k)
        if o is not None and o.kind is bool:
            if v.strip().lower() not in BOOL_WORDS:
                raise ConfigError(f"option {k!r} is true or false (or 1/0, yes/no, on/off), "
                                  f"got {v.strip()!r} ({o.rule})")
            value = BOOL_WORDS[v.strip().lower()]
        if k in seats and type(value) is int:
            if value < 1:
                raise ConfigError(f"option {k!r} is a seat, counted from 1 as at the table "
                                  f"(-o {k}=1 is seat 1), got {value}")
            value -= 1
        out[k] = value
    return out


def house_rules(game) -> str:
    """The options of ``game`` that differ from its defaults, as a player would type them:
    ``"ace_wrap, overlapping_runs, jokers=2"`` (a boolean turned on by its name alone, one
    turned off ``=false``, a seat option counted from 1); ``""`` when every one is the default."""
    out = []
    for o in game.spec.options:
        v = getattr(game.options, o.name)
        if v == o.default:
            continue
        if o.kind is bool:
            out.append(o.name if v else f"{o.name}=false")
        else:
            out.append(f"{o.name}={v + 1 if o.seat else v}")
    return ", ".join(out)


def _make_game(args):
    import re
    spec = None
    try:
        spec = krazy_core.game.get_spec(args.game)
        given = _options(args.option, spec)
        return krazy_core.make(args.game, num_players=args.players, **given)
    except ConfigError as e:
        # the game's range for a seat option is in its count from 0: say it in seats from 1
        m = re.fullmatch(rf"option '({'|'.join(spec.seat_options if spec else ()) or '$^'})' must be (?:in|a seat) (\d+)\.\.(\d+)"
                         rf"( at a table of \d+)?, got (-?\d+)(.*)", str(e), re.S)
        if m is None:
            text = str(e)
            if text.startswith("unknown option "):
                # the options by name, default and range, not every option's whole text (a
                # screenful); seats from 1, as -o takes them: the engine's list said
                # "first_dealer=0 (0..6; KR-4)", and -o first_dealer=0 is refused
                import difflib
                names = [o.name for o in spec.options]
                bad = next(k for k in given if k not in names)     # make() raised for it
                near = difflib.get_close_matches(bad, names, n=1)
                shown = []
                for o in spec.options:
                    if o.seat and o.kind is int:
                        shown.append(f"{o.name}={o.default + 1} (seat {o.lo + 1}..{o.hi + 1}; {o.rule})")
                    else:
                        shown.append(o.summary())
                raise ConfigError(f"unknown option {bad!r} for {spec.game_id}"
                                  + (f" (did you mean {near[0]}?)" if near else "")
                                  + "; options: " + ", ".join(shown)
                                  + f". krazy rules {spec.game_id} says what each does.") from None
            if text.startswith("unknown game "):
                import difflib
                near = difflib.get_close_matches(str(args.game).lower(), krazy_core.available_games(), n=1)
                if near:
                    raise ConfigError(f"{text} (did you mean {near[0]}?)") from None
            raise
        raise ConfigError(f"option {m.group(1)!r} is a seat from {int(m.group(2)) + 1} to {int(m.group(3)) + 1}"
                          f"{m.group(4) or ''} (seats count from 1), got {int(m.group(5)) + 1}{m.group(6)}") from None


def _bot_list(text: str, n: int, game=None) -> List[str]:
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise ConfigError("--bots needs at least one bot (random, heuristic, ismcts)")
    if len(words) > n:
        raise ConfigError(f"--bots names {len(words)} bots for {n} bot seats; name at most {n} "
                          "(a shorter list repeats)")
    for w in set(words):
        bot = make_bot(level_word(w), seed=0)
        if game is not None:
            bot.check_game(game)        # a model the game lacks: before the deal, not mid-game
        limit = (getattr(bot, "_options", None) or {}).get("time_limit")
        if limit is not None and limit > MAX_THINK:
            # ismcts:1e9s was taken: a game that never moves again
            raise ConfigError(f"bot {w!r} thinks {limit:g} s a move: at most {MAX_THINK:g} s")
    return [words[i % len(words)] for i in range(n)]


MAX_NAME = 24                   # characters of a player's name (--names)


def _check_names(given):
    """``--names``: printable, at most ``MAX_NAME`` characters, no ``[`` ``]`` (the table's
    markup: ``--names '[/]'`` ended in a MarkupError traceback), and no two the same."""
    given = [x for x in given if x]     # an empty place keeps its seat's default name
    for x in given:
        if "[" in x or "]" in x or not x.isprintable() or len(x) > MAX_NAME:
            raise ConfigError(f"--names: {x[:40]!r} is not a name for the table: at most {MAX_NAME} "
                              "printable characters, without [ or ]")
    if len({x.lower() for x in given}) < len(given):
        raise ConfigError(f"--names: two players have the same name ({', '.join(given)})")


def _check_delay(delay):
    if not 0 <= delay <= MAX_DELAY:
        raise ConfigError(f"--delay must be a number of seconds from 0 to {MAX_DELAY:g}, got {delay}")


def _check_think(think):
    if think is not None and not 0 < think <= MAX_THINK:
        raise ConfigError(f"--think must be a number of seconds > 0 and at most {MAX_THINK:g}, got {think}")


def _shown(raw, limit=60):
    """The user's input quoted for an error message, cut to ``limit`` characters."""
    return escape(repr(raw if len(raw) <= limit else raw[:limit] + "..."))


# ---------------------------------------------------------------------------- match
def cmd_match(args, console: Console) -> int:
    game = _make_game(args)
    _check_delay(args.delay)
    bots_spec = _bot_list(args.bots, game.num_players, game)
    seed = args.seed
    if seed is None:                    # "seed None" and a game no one could replay
        import secrets
        seed = secrets.randbelow(1_000_000)
    bots = [make_bot(level_word(b), seed=seed * 7919 + i) for i, b in enumerate(bots_spec)]
    names = [f"seat {i + 1} ({b})" for i, b in enumerate(bots_spec)]
    ui = load_ui(game.game_id)
    state = game.new_initial_state(seed=seed)
    ui.state = state                    # the play by play may describe from it (a meld's cards)
    console.rule(f"[bold]{game.name}[/]: {escape(', '.join(names))} — seed {seed}")
    if house_rules(game):
        console.print(f"House rules: {escape(house_rules(game))}")
    shown = 0
    decisions = 0
    while True:
        # only what is new (incremental); runs of draws and passes one line (_log_lines)
        for line in _log_lines(ui, state.events_for("all", since=shown), names):
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
    import shlex
    words = ["krazy", "match", game.game_id] + (["--players", str(args.players)] if args.players else [])
    for pair in args.option or []:
        words += ["-o", pair]
    words += ["--bots", args.bots, "--seed", str(seed)]
    console.print(f"[dim]Replay this game: {escape(' '.join(shlex.quote(w) for w in words))}[/]", soft_wrap=True)
    return 0


def _print_result(console, state, names, decisions=None, ui=None):
    """The result: each seat's outcome in words, the game's points (``ui.final_points``) and
    the hand each seat ends with, then the winner in one line."""
    from krazy_core.ui import plural
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
        from krazy_core.cards import format_card
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


# ---------------------------------------------------------------------------- play
# bot levels for people, one vocabulary with the lobby and make_bot: krazy_core.bots.levels
MAX_DELAY = 60.0                # seconds; more is a typo (1e10 overflowed time.sleep)
MAX_THINK = 600.0


def _seat_names(humans, seats, given):
    """Seats from 1; people by the names given (``--names``) or "you"; bots marked."""
    names = []
    for p, w in enumerate(seats):
        if w == "human":
            if p < len(given) and given[p]:
                names.append(f"{given[p]} (seat {p + 1})")
            else:
                names.append(f"seat {p + 1} (you)" if humans == 1 else f"seat {p + 1} (player {p + 1})")
        else:
            names.append(f"seat {p + 1} ({w} bot)")
    return names


def _resume_game(args):
    """The game a ``--resume`` file was saved from: its game id, players and options are in
    the file, so ``krazy play GAME --resume FILE`` needs none of the flags it was started
    with.  Flags given on the line (``--players``, ``-o``) are checked against the file by
    ``state_from_json``.  Returns ``(game, text of the file)``."""
    import json
    try:
        with open(args.resume, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"--resume: cannot read {args.resume!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        head = json.loads(text)
        gid, n, opts = head["game"], head["num_players"], head["options"]
        ok = isinstance(gid, str) and isinstance(n, int) and isinstance(opts, dict)
    except (ValueError, TypeError, KeyError, RecursionError):
        ok = False
    if ok and gid == krazy_core.game.get_spec(args.game).game_id:
        try:
            if args.option:
                return krazy_core.make(gid, num_players=args.players or n,
                                       **_options(args.option, krazy_core.game.get_spec(gid))), text
            return krazy_core.make(gid, num_players=args.players or n, **opts), text
        except KrazyError:
            pass                        # state_from_json says what is wrong with the file
    return _make_game(args), text


def _command(args, game_id, seed=None, resume=None):
    """The ``krazy play`` line that sets this table up again: the game, its players and
    options, the seats (humans, bots, names) and the seed or the saved file."""
    import shlex
    words = ["krazy", "play", game_id]
    if args.players is not None:
        words += ["--players", str(args.players)]
    for pair in args.option or []:
        words += ["-o", pair]
    if args.humans != 1:
        words += ["--humans", str(args.humans)]
    if args.bots != "heuristic":
        words += ["--bots", args.bots]
    if args.names:
        words += ["--names", args.names]
    if resume is not None:
        words += ["--resume", resume]
    elif seed is not None:
        words += ["--seed", str(seed)]
    return " ".join(shlex.quote(w) for w in words)


def cmd_play(args, console: Console) -> int:
    if args.resume is not None:
        game, args.resume_text = _resume_game(args)
        if args.save is None:           # a resumed game goes on saving to its file
            args.save = args.resume
    else:
        game = _make_game(args)
    n = game.num_players
    humans = args.humans
    if not 0 <= humans <= n:
        raise ConfigError(f"--humans must be 0..{n}, got {humans}")
    _check_delay(args.delay)
    _check_think(args.think)
    # by position: ',Bob' names seat 2 and leaves seat 1 its default (the empty name was
    # dropped, so Bob sat at seat 1); trailing commas are ignored
    given = [x.strip() for x in (args.names or "").split(",")]
    while given and not given[-1]:
        given.pop()
    _check_names(given)
    if len(given) > humans:
        raise ConfigError(f"--names gives {len(given)} names for {humans} human seat(s)")
    bot_words = _bot_list(args.bots, n - humans, game) if n > humans else []
    seats = ["human"] * humans + bot_words
    names = _seat_names(humans, seats, given)
    seed = args.seed
    args.autosave = args.save is None and humans > 0
    while True:
        if seed is None and args.resume is None:
            import secrets
            seed = secrets.randbelow(1_000_000)
        if args.autosave:               # every game at the table is saved as it goes (resumable)
            args.save = autosave_path(game.game_id, seed)
        again = _play_one(args, console, game, seats, names, seed)
        if getattr(args, "interrupted", False):
            return 130
        if not again:
            return 0
        seed = seed + 1 if seed is not None else None
        args.resume = None


def autosave_path(game_id: str, seed) -> str:
    """Where ``krazy play`` saves a game that no ``--save`` names: ``$KRAZY_SAVE_DIR``, else
    ``$XDG_DATA_HOME/krazy_core/saves`` (``~/.local/share``), one file per game and seed
    (``krazy-kings-1234.json``).  The folder is made when missing."""
    base = os.environ.get("KRAZY_SAVE_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"),
        "krazy_core", "saves")
    try:
        os.makedirs(base, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot make the save folder {base!r}: {e.strerror}; name a file with --save") from None
    return os.path.join(base, f"{game_id}-{seed if seed is not None else 'resumed'}.json")


def _play_one(args, console, game, seats, names, seed) -> bool:
    """One game at the table; True when the players ask for another."""
    humans = seats.count("human")
    bots = {}
    for p, w in enumerate(seats):
        if w != "human":
            bw = level_word(w)
            bw = f"ismcts:{args.think}s" if (bw == "ismcts" and args.think) else bw
            bots[p] = make_bot(bw, seed=(seed or 0) * 104729 + p)
    ui = load_ui(game.game_id)
    resumed = args.resume is not None
    if resumed:
        state = game.state_from_json(args.resume_text)
    else:
        state = game.new_initial_state(seed=seed)
    ui.state = state                    # the play by play may describe from it (a meld's cards)
    hot_seat = humans > 1
    viewer_for_log = 0 if humans == 1 else None
    # a resumed game starts at its saved position: the past is not played by play again
    # (it asked Enter for every past roll of the humans and showed today's table at each)
    shown = state.num_events if resumed else 0

    if args.save:                       # a file that cannot be written is said before the table starts
        _save(args.save, state)

    def act(action):
        """Play ``action`` (a human's, a bot's or a pass) and keep the save file up to date
        (it missed the bots' moves after a human's: a crash lost them)."""
        state.apply_action(action)
        if args.save:
            _save(args.save, state)
    last_seated = None
    queue: list = []                        # the rest of a comma-separated line of moves
    queue_player = None
    auto_pass: dict = {}                    # seat -> round: pass every buy offer (hot-seat)
    seen_by: dict = {}                      # seat -> events it has seen at its last move
    before = None                           # the state before the last move (round summaries)
    # "press Enter to roll" for the humans' own dice, at a terminal (scripted input: no pause)
    roll_key = args.roll_key if args.roll_key is not None else bool(sys.stdin and sys.stdin.isatty())
    roll_seats = {p for p, w in enumerate(seats) if w == "human"} if roll_key else set()

    rolled: list = []                   # hot-seat: seats whose roll is on screen, unread

    def roll_read(q) -> bool:
        """Before the screen is cleared for ``q``: the player who just rolled reads the result
        (and the moves after it) first.  ``False`` when they quit there."""
        r = rolled[-1] if rolled else None
        rolled.clear()
        if r is None or r == q:
            return True
        return _ask(console, f"{escape(names[r])}: what your turn brought is above. Press Enter to "
                             "hand over (q to quit): ").lower() not in ("q", "quit")

    def before_roll(q, earlier):
        """Hot-seat: the hand-over comes before a player rolls (the screen still shows the
        last player's hand); the moves before the roll are shown again after it."""
        nonlocal last_seated
        if not hot_seat or last_seated == q:
            return True
        if not roll_read(q):
            return False
        _clear_screen(console)
        console.print(Panel(f"[bold]{escape(names[q])}[/], it is your turn. Everyone else, look away.",
                            border_style="yellow"))
        if _ask(console, "Press Enter when seated, q to quit: ").lower() in ("q", "quit"):
            return False
        last_seated = q
        for line in _log_lines(ui, earlier[-12:], names):
            console.print("  " + line)
        return True
    last_actor = None
    replay = _command(args, game.game_id, seed) if seed is not None else None
    console.rule(f"[bold]{game.name}[/]" + (f" — seed {seed}" if seed is not None else " — resumed"))
    console.print("Seats: " + escape(", ".join(names)))
    if house_rules(game):               # the options that differ from the game's defaults
        console.print(f"House rules: {escape(house_rules(game))}")
    if resumed:
        n_moves = len(state.history())
        console.print(f"Resumed at move {n_moves + 1} ({plural(n_moves, 'move')} played)"
                      + (": the game is over." if state.is_terminal() else "."))
    try:                                # Ctrl-C at the table: as q (saved, how to go on)
        while True:
            events = state.events_for(viewer_for_log, since=shown)     # only what is new
            shown = state.num_events
            ends = [i for i, e in enumerate(events) if e["event"] in game.spec.round_end_events]
            # between rounds the humans pause, with the round's melds and scores, before the next deal
            cut = ends[-1] + 1 if (humans and ends and not state.is_terminal()) else len(events)
            start = shown - len(events)

            def view_of(offset, start=start):
                return lambda seat, i: state.events_for(seat, since=start + offset + i)
            if not _print_events(console, ui, events[:cut], names, roll_seats, before_roll,
                                 rolled if hot_seat else None, view_of(0)):
                return _bye(console, state, args, replay)
            if humans and ends and not state.is_terminal():
                word = ui.round_word
                if not _round_pause(console, ui, before, state, viewer_for_log, word):
                    return _bye(console, state, args, replay)
                last_seated = None          # hot-seat: everyone saw the summary; hand over again
                if not _print_events(console, ui, events[cut:], names, roll_seats, before_roll,
                                     rolled if hot_seat else None, view_of(cut)):
                    return _bye(console, state, args, replay)
            if state.is_terminal():
                break
            p = state.current_player()
            before = state.clone() if ui.round_summary else None
            if p in bots:
                if args.delay and p != last_actor:      # a pause per bot turn, not per decision
                    time.sleep(args.delay)
                last_actor = p
                act(bots[p].step(state))
                _drop_queue(console, queue)
                continue
            last_actor = p
            offer = _out_of_turn_offer(state, p)
            if offer and auto_pass.get(p) == offer:
                console.print(f"  [dim]{escape(names[p])} passes (passing on every offer this round)[/]")
                act(_pass_action(state))
                continue
            if offer and not _buy_can_help(state, p):
                # no buy prompt that cannot help: down, and the card fits no meld (CR-8, CR-11)
                card = state.observation(p).get("up_card_text")
                console.print(f"  [dim]{escape(names[p])} passes on {escape(str(card))}: you are down and it "
                              f"fits no meld (a buy would only add it and a penalty card, CR-8)[/]")
                act(_pass_action(state))
                continue
            if hot_seat and last_seated != p:
                if not roll_read(p):
                    return _bye(console, state, args, replay)
                _clear_screen(console)
                if offer is not None:
                    tp = state.observation(p)["turn_player"]
                    text = (f"[bold]{escape(names[p])}[/]: an offer for you out of turn (it is seat {tp + 1}'s "
                            f"turn): buy the up-card? Everyone else, look away.")
                    keys = "Enter when seated, p to pass, pa to pass every offer this round, q to quit"
                else:
                    text = f"[bold]{escape(names[p])}[/], it is your turn. Everyone else, look away."
                    keys = "Enter when seated, q to quit"
                console.print(Panel(text, border_style="yellow"))
                answer = _ask(console, f"Press {keys}: ").lower()
                if answer in ("q", "quit"):
                    return _bye(console, state, args, replay)
                if offer is not None and answer in ("p", "pa"):
                    if answer == "pa":
                        auto_pass[p] = offer
                    act(_pass_action(state))
                    continue
                last_seated = p
                _recap(console, ui, state, p, names, seen_by.get(p, 0))
            if queue and queue_player != p:
                _drop_queue(console, queue)
            action = _human_turn(console, state, p, ui, names, args, queue, auto_pass)
            queue_player = p
            if action is None:
                return _bye(console, state, args, replay)
            act(action)
            seen_by[p] = state.num_events       # the hot-seat recap starts here next time
    except KeyboardInterrupt:
        console.print()
        args.interrupted = True         # Ctrl-C: saved as q saves, and the exit status says it (130)
        return _bye(console, state, args, replay)
    if getattr(args, "autosave", False) and args.save:
        try:                            # a finished game needs no save to go on from
            os.unlink(args.save)
        except OSError:
            pass
    # the final table fitted to the terminal, so the last moves (who went out) stay on screen
    # above it and the result below (the full view pushed them off at 80x24)
    from krazy_core import cli_table
    console.print(cli_table.fit_table(console, ui, state, None if hot_seat else 0, 2 * len(names) + 9,
                                      console.size.width, console.size.height)[0])
    _print_result(console, state, names, ui=ui)
    if replay:
        console.print(f"[dim]Replay this deal: {escape(replay)}[/]", soft_wrap=True)   # one line to copy
    if humans:
        return _ask(console, "Play again? (y = a new deal, Enter to stop): ").lower() in ("y", "yes")
    return False


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


def _bye(console, state, args, replay):
    if args.save:
        _save(args.save, state)
        console.print(f"Saved: continue with {escape(_command(args, state.game.game_id, resume=args.save))}",
                      soft_wrap=True)
    if replay:
        console.print(f"[dim]Replay this deal: {escape(replay)}[/]", soft_wrap=True)   # one line to copy
    console.print("Bye.")
    return False


def _save(path, state):
    """Write the game to ``path`` (after every action): through a file beside it and a rename,
    so a crash or Ctrl-C in the middle of a write leaves the last save whole.  Raises
    ``ConfigError`` when it cannot be written."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(state.to_json())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ConfigError(f"--save: cannot write {path!r}: {e.strerror}") from None


def _out_of_turn_offer(state, p):
    """The round of a buy offer out of turn for ``p`` (Crazy Rummy), else ``None``."""
    try:
        obs = state.observation(p)
    except Exception:                   # a view is optional
        return None
    tp = obs.get("turn_player")
    if obs.get("phase") == "buy_or_pass" and tp is not None and tp != p and _pass_action(state) is not None:
        return obs.get("round", 0)
    return None


def _buy_can_help(state, p):
    """Whether a buy offer to ``p`` can help (Crazy Rummy's ``words.buy_can_help``; any other
    game: yes)."""
    f = getattr(state.game.spec.words, "buy_can_help", None)
    return True if f is None else f(state, p)


def _pass_action(state):
    for a in state.legal_actions():
        if state.action_to_string(a) == "pass":
            return a
    return None


def _round_pause(console, ui, before, state, viewer, word="round") -> bool:
    """Between rounds and hands: the round's melds and scores (``ui.round_summary``, else the
    table fitted to the terminal) and a keypress."""
    from krazy_core import cli_table
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


def _fit_prompt(console, prompt):
    """A prompt (rich markup) wider than the terminal folded at spaces: the lines but the last
    printed, the last returned to ask with (a prompt is not wrapped by the console: "seat 1
    (player 1), your move (1-2, t take, d draw, ...): " ran past 80 columns)."""
    from rich.cells import cell_len
    width = console.size.width
    text = Text.from_markup(prompt) if isinstance(prompt, str) else prompt
    if cell_len(text.plain) < width:
        return prompt
    lines = text.wrap(console, width - 1)      # a column left for the cursor
    for line in lines[:-1]:
        console.print(line)
    last = lines[-1]
    if text.plain.endswith(" ") and not last.plain.endswith(" "):
        last.append(" ")
    return last.markup


def _ask(console, prompt):
    """A line of input, stripped, in the case it was typed (``"q"`` at end of input); a prompt
    wider than the terminal folds (``_fit_prompt``)."""
    try:
        return console.input(_fit_prompt(console, prompt)).strip()
    except EOFError:
        # Ctrl-D: end the prompt's line, else "Replay this deal: ..." followed the prompt on
        # its line
        console.print()
        return "q"


def _clear_screen(console):
    """Clear the screen AND the terminal's scrollback (``ESC [3J``), so the player who just
    moved leaves no hand to scroll back to at a hot-seat hand-over.  A terminal that cannot
    be cleared (``TERM=dumb``) gets enough blank lines to push the hand off the screen.
    Writes nothing when the output is not a terminal (a pipe, a file)."""
    if not console.is_terminal:
        return
    if console.is_dumb_terminal:
        console.file.write("\n" * max(100, 2 * console.size.height))
        console.file.flush()
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
    ui = load_ui(state.game.game_id)
    try:
        return ui.action_label(state, state.string_to_action(ui.typed_text(state, piece)))
    except UnclearActionError:
        pass
    except IllegalActionError as e:     # legal later in the chain, perhaps: its proper name
        if e.action is not None:
            return ui.action_label(state, e.action)
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


def _refusal(raw, legal, labels, short_forms=None, shown=None):
    """What to say to a line that names none of the moves: what was typed, a few of the
    moves (all of them are numbered above: ``shown`` numbers, grouped moves counting once;
    default one a move), the game's short forms, and the keys."""
    few = ", ".join(repr(lab) for lab in labels[:3]) + (", ..." if len(labels) > 3 else "")
    few = few if few.endswith("...") else few + "."
    text = (f"{_shown(raw)} is not one of your moves. Type a number from the list above "
            f"(1-{shown or len(legal)}) or a move's name as listed: {escape(few)}")
    if short_forms:
        text += f" Short forms: {escape(short_forms)}."
    return text + " h for a hint, q to quit."


def _you(state, text):
    """An engine message about the player to act written to them: ``player 0 does not hold
    3♠`` -> ``you do not hold 3♠``; other players by their seats from 1."""
    import re
    p = state.current_player()
    text = re.sub(rf"\b(?:player {p}|this player) (does|has|is)\b",
                  lambda m: "you " + {"does": "do", "has": "have", "is": "are"}[m.group(1)], text)
    text = re.sub(rf"\bplayer {p}\b", "you", text)
    # Crazy Rummy's refusals name seats from 0: "seat 0 buys the up-card or passes (CR-8)"
    # to the buyer at the table
    for engine, table in ((r"first takes or declines", "first take or decline"),
                          (r"buys (.*?) or passes", r"buy \1 or pass"), (r"holds", "hold")):
        text = re.sub(rf"\bseat {p} {engine}", "you " + table, text)
    text = re.sub(r"\bseat (\d+) (first takes|buys|holds)\b",
                  lambda m: f"seat {int(m.group(1)) + 1} {m.group(2)}", text)
    return re.sub(r"\bplayer (\d+)\b", lambda m: f"seat {int(m.group(1)) + 1}", text)


def _plain_ui():
    """The view hooks ``_resolve_name`` uses, for a state without a game (tests' stand-ins):
    names as they are."""
    from types import SimpleNamespace
    return SimpleNamespace(typed_text=lambda state, text: text, engine_text=lambda state, text: text,
                           typed_action=lambda state, a, text: a,
                           action_label=lambda state, a: state.action_to_string(a))


def _resolve_name(state, raw, legal, labels, short_forms=None, ui=None, shown=None):
    """The legal action named ``raw`` (a label as listed, or an action string, in any case),
    else ``(None, error message)``.  A name typed (not a listed label) goes through the
    game's ``ui.typed_action`` (Krazy Kings: a play leaving one card calls it, KK-19; Crazy
    Rummy: a lay off that names no end when both are open asks which)."""
    want = _norm(raw)
    for a, lab in zip(legal, labels):
        if want == _norm(lab):
            return a, None
    if ui is None:
        game = getattr(state, "game", None)
        ui = load_ui(game.game_id) if game is not None else _plain_ui()
    try:
        # the table's way of counting (KrassKariert positions from 1) into the engine's
        a = state.string_to_action(ui.typed_text(state, raw))
        a = ui.typed_action(state, a, raw)
    except UnclearActionError as e:
        if e.matches == ():             # it names no move at all
            return None, _refusal(raw, legal, labels, short_forms, shown)
        if e.matches:                   # several moves: by their names as listed here
            return None, escape(f"{raw!r} fits {len(e.matches)} moves: "
                                + ", ".join(repr(ui.action_label(state, x)) for x in e.matches)
                                + "; say which") + " (or type the move's number from the list)"
        # the game says what is wrong with a short form, or which moves it fits
        return None, escape(ui.engine_text(state, str(e))) + " (or type the move's number from the list)"
    except IllegalActionError as e:
        # a name the game knows but that is not legal now: say why
        if e.action is None:
            return None, _refusal(raw, legal, labels, short_forms, shown)
        why = state.explain_illegal(e.action) or "it is not among the legal actions"
        return None, (f"{escape(ui.action_label(state, e.action))} is not allowed now: "
                      f"{escape(ui.engine_text(state, _you(state, why)))}.")
    return a, None


def _take_name(state, parts, legal, labels, whole=False, short_forms=None, ui=None, shown=None):
    """The move named by the first of ``parts`` (the comma-separated pieces of a line),
    joined with as many of the next ones as it takes: a listed name may hold a comma
    (``go out, discard K♣``).  Returns ``(action, the pieces left)``, or ``(None, error)``.
    With ``whole`` only all the pieces together may name it."""
    first_err = None
    for j in range(len(parts), 0 if not whole else len(parts) - 1, -1):
        a, err = _resolve_name(state, ", ".join(parts[:j]), legal, labels, short_forms, ui, shown)
        if a is not None:
            return a, parts[j:]
        if j == 1 or whole:
            first_err = err
    return None, first_err


def _describe(ui, event, names):
    """The table's line for an event; a log loaded from someone's JSON may hold values no
    renderer expects (card fields are display data), so those print as raw fields."""
    try:
        if getattr(ui, "describe_with_state", False) and getattr(ui, "state", None) is not None:
            return ui.describe_event(event, names, state=ui.state)
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
    queue.extend((x, _options_name(x) if isinstance(x, list) else _proper_name(state, x, legal, labels))
                 for x in pieces)


def _queued_names(queue):
    return ", ".join(shown for _, shown in queue)


def _expand(ui, state, parts):
    """The pieces of a typed line with the game's multi-move forms opened up
    (``ui.expand_typed``: Crazy Rummy ``lay 5♠ 5♥ 5♦``): a list of pieces, each a text or a
    list of texts to play in whichever order is legal.  Raises ``UnclearActionError`` (from
    the view) for a form that names no move, saying why (Crazy Rummy: cards that are neither
    a book nor a run, CR-5).  A line of whole melds going down is put in the order of melds
    the engine lays (``ui.order_line``: ``lay qh qd qd, lay 10s 10c jk`` lays the 10s first)."""
    parts = ui.order_line(state, parts) or parts
    out = []
    for x in parts:
        more = ui.expand_typed(state, x)
        if more and "go down" in out and more[0] == "go down":
            more = more[1:]                 # one line goes down once
        out.extend(more if more else [x])
    return out


def _option_action(state, texts, legal, labels, ui):
    for x in texts:
        a, err = _resolve_name(state, x, legal, labels, None, ui)
        if a is not None:
            return a, None
    return None, err


def _completes(state, options, ui, budget):
    """Whether every option of ``options`` can be played from ``state`` in some order
    (a depth-first search over clones, at most ``budget[0]`` steps in all)."""
    if not options:
        return True
    legal = state.legal_actions()
    labels = [ui.action_label(state, a) for a in legal]
    for i, texts in enumerate(options):
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        a, _ = _option_action(state, texts, legal, labels, ui)
        if a is not None:
            nxt = state.clone()
            nxt.apply_action(a)
            if _completes(nxt, options[:i] + options[i + 1:], ui, budget):
                return True
    return False


def _from_alternatives(state, options, legal, labels, ui):
    """The option of ``options`` (each a tuple of texts that may name it) to play now:
    ``(action, index)``, or ``(None, the error of the first)``.  Of the legal ones, the
    first after which all the others can still be played (Crazy Rummy: a book's cards in
    suit order and its wild last, a run low to high, CR-10), else the first legal one."""
    first_legal, first_err = None, None
    for i, texts in enumerate(options):
        a, err = _option_action(state, texts, legal, labels, ui)
        if a is None:
            first_err = first_err or err
            continue
        if first_legal is None:
            first_legal = (a, i)
        if len(options) == 1:
            break
        nxt = state.clone()
        nxt.apply_action(a)
        if _completes(nxt, options[:i] + options[i + 1:], ui, [200]):
            return a, i
    if first_legal is not None:
        return first_legal
    return None, first_err


def _options_name(options):
    return "lay " + " ".join(t[0].split(None, 1)[1] for t in options)


def _take_alternative(state, pieces, legal, labels, ui, queue):
    """The move of ``pieces[0]``, a piece of alternatives (``_expand``: a meld's cards in
    whichever order is legal), with the others and the pieces after it put in ``queue``
    (when there is one): ``(action, None)``, or ``(None, why)``."""
    a, i = _from_alternatives(state, pieces[0], legal, labels, ui)
    if a is None:
        return None, i
    rest = pieces[0][:i] + pieces[0][i + 1:]
    if queue is not None:
        _queue(queue, state, ([rest] if rest else []) + pieces[1:], legal, labels)
    return a, None


def _next_queued(console, state, queue, legal, labels, ui):
    """The move the front of the queue names, taken off it (an alternatives piece loses the
    one played and stays while it has more), or ``None`` after saying why (the queue is
    then cleared)."""
    typed, _ = queue[0]
    if isinstance(typed, list):
        a, i = _from_alternatives(state, typed, legal, labels, ui)
        if a is not None:
            rest = typed[:i] + typed[i + 1:]
            if rest:
                queue[0] = (rest, _options_name(rest))
            else:
                del queue[0]
            return a
        console.print(f"[red]{i} (the rest of your moves, {escape(_queued_names(queue))}, were not played)[/]")
        queue.clear()
        return None
    if typed.strip().isdecimal():
        # a number names a line of the list shown when it was typed, which is gone now
        console.print(f"[red]After the first move of a chain, name the moves ('{escape(labels[0])}'), "
                      f"not their numbers: the list changes after every move. Not played: "
                      f"{escape(_queued_names(queue))}[/]")
        queue.clear()
        return None
    plain = []
    for x, _ in queue:
        if isinstance(x, list):
            break
        plain.append(x)
    a, rest = _take_name(state, plain, legal, labels, short_forms=ui.short_forms, ui=ui)
    if a is not None:
        del queue[:len(plain) - len(rest)]
        return a                        # the event log line shows the move
    console.print(f"[red]{rest} (the rest of your moves, {escape(_queued_names(queue))}, were not played)[/]")
    queue.clear()
    return None


def _human_turn(console, state, p, ui, names, args, queue=None, auto_pass=None):
    """The human's move: a number or a name from the list.  Several names separated by
    commas (``lay 7H, lay 8H, lay 9H, finish meld``) play one after another while it stays
    this player's turn: the rest wait in ``queue``.  A player with a single legal move is
    told so and plays it with Enter (or its number or name).  The screen (table, choices,
    prompt) fits the terminal (``krazy_core.cli_table``): long runs of moves are one choice
    that asks a position next, and the rest pages (``m``)."""
    from krazy_core import cli_table
    legal = ui.action_order(state, state.legal_actions())
    labels = [ui.action_label(state, a) for a in legal]
    short = ui.short_forms
    if queue:
        a = _next_queued(console, state, queue, legal, labels, ui)
        if a is not None:
            return a
    if len(legal) == 1:
        table, _ = cli_table.fit_table(console, ui, state, p, 3, console.size.width, console.size.height)
        console.print(table)
        return _forced_turn(console, state, p, labels[0], legal[0], names, args, queue, ui)
    entries = cli_table.choice_entries(ui, state, legal, labels)
    page = 0
    message = None
    who = names[p] if state.num_players() > 1 and "(you)" not in names[p] else None
    while True:
        parts, prompt, page, pages, first, count = cli_table.screen_lines(
            console, ui, state, p, entries, page, message, who)
        for r in parts:
            console.print(r)
        message = None
        raw = _ask(console, escape(prompt))
        low = raw.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("m", "more"):
            page += 1
            continue
        if low in ("r", "rule", "rules"):
            message = _rules_now(state, p)
            continue
        if low == "pa" and auto_pass is not None and _out_of_turn_offer(state, p):
            auto_pass[p] = _out_of_turn_offer(state, p)     # pass every buy offer this round (CR-8)
            return _pass_action(state)
        if low in ("h", "hint", "?"):
            message = _hint(console, state, labels, legal, args)
            continue
        if not raw:                         # Enter alone: not "'' is not one of your moves"
            message = Text(f"Type the number of a move (1-{len(entries)}) or its name, then Enter.",
                           style="yellow")
            continue
        pieces = [raw]
        if "," in raw:
            pieces = [x.strip() for x in raw.split(",") if x.strip()]
            if not pieces:
                message = Text("Nothing between the commas: type a move, or several as name, name, ...",
                               style="red")
                continue
        if pieces[0].isdecimal() and pieces[0].isascii() and (queue is not None or len(pieces) == 1):
            k = int(pieces[0])
            if not 1 <= k <= len(entries):
                message = Text(f"{k} is not a choice: type a number from 1 to {len(entries)}.", style="red")
                continue
            e = entries[k - 1]
            if e[0] == "group":
                a = _group_choice(console, e)
                if a is QUIT:
                    return None
                if a is None:
                    continue
            else:
                a = e[1]
            if queue is not None:
                try:
                    _queue(queue, state, _expand(ui, state, pieces[1:]), legal, labels)
                except UnclearActionError as e:      # a typed meld that is none (CR-5)
                    console.print(f"[red]{escape(str(e))}; not played: "
                                  f"{escape(', '.join(pieces[1:])[:200])}[/]")
            return a
        try:
            pieces = _expand(ui, state, pieces)
        except UnclearActionError as e:         # Crazy Rummy: cards that are no meld say why
            message = Text(str(e), style="red")
            continue
        if isinstance(pieces[0], list):
            a, err = _take_alternative(state, pieces, legal, labels, ui, queue)
            if a is None:
                message = Text.from_markup(f"[red]{err}[/]")
                continue
            return a
        plain = []
        for x in pieces:
            if isinstance(x, list):
                break
            plain.append(x)
        a, rest = _take_name(state, plain, legal, labels, whole=queue is None and len(plain) == len(pieces),
                             short_forms=short, ui=ui, shown=len(entries))   # the menu's numbers
        if a is not None:
            if queue is not None:
                _queue(queue, state, rest + pieces[len(plain):], legal, labels)
            return a
        message = Text.from_markup(f"[red]{rest}[/]")


QUIT = object()                         # a prompt's answer: leave the table


def _group_choice(console, entry):
    """The move of a folded choice: ask its position (Enter goes back to the list; q, or
    the end of input, quits: ``QUIT``)."""
    from krazy_core import cli_table
    options = entry[3]
    while True:
        raw = _ask(console, escape(cli_table.group_prompt(entry))).strip()
        if raw == "" or raw.lower() in ("b", "back"):
            return None
        if raw.lower() in ("q", "quit", "exit") and raw not in options:
            return QUIT
        if raw in options:
            return options[raw]
        console.print(f"[red]{_shown(raw)} is not one of {', '.join(options)}.[/]")


def _forced_turn(console, state, p, label, action, names, args, queue=None, ui=None):
    """A turn with one legal move: say what it is and play it on Enter (its number ``1`` or
    its name also do, so scripted input that answers every prompt keeps working).  A chain
    of moves whose first is this one plays it and keeps the rest for the next prompts, and so
    does a game's short form (``ui.expand_typed``: Crazy Rummy's ``lay kh kh kc`` while
    ``lay K♥`` is the only move; it was refused here and taken a move later)."""
    console.print(f"[bold]Your only move:[/] [cyan]{escape(label)}[/]")
    while True:
        raw = _ask(console, "Press Enter to play it (q = quit): ")
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
        a = _forced_short_form(state, parts, action, label, queue, ui)
        if a is not None:
            return a
        console.print(f"[red]{_shown(raw)}: {escape(label)} is the only move you have now. "
                      "Press Enter to play it, or q to quit.[/]")


def _forced_short_form(state, parts, action, label, queue, ui):
    """``action`` when the game's short form of ``parts`` (a typed line's pieces) starts with
    it, the rest queued for the next prompts; else ``None``."""
    if ui is None or queue is None:
        return None
    try:
        pieces = _expand(ui, state, parts)
    except UnclearActionError:
        return None
    if not pieces:
        return None
    if pieces == parts:                 # no multi-move form: a short form of the move itself ('7h')
        return _take_name(state, parts, [action], [label], whole=True, ui=ui)[0] if len(parts) == 1 else None
    if isinstance(pieces[0], list):
        return _take_alternative(state, pieces, [action], [label], ui, queue)[0]
    a, rest = _take_name(state, [pieces[0]], [action], [label], ui=ui)
    if a is None:
        return None
    _queue(queue, state, pieces[1:], [action], [label])
    return a


def _hint_text(policy, labels, legal):
    """What the hint says about a search's visit shares ``{action: share}``: its choice and
    how sure it is when it has an opinion (the top move has at least 1.5 times a fair share
    and 10 points more than the next), else that it sees the moves as about equal."""
    ranked = sorted(((v, a) for a, v in policy.items() if a in legal), key=lambda x: -x[0])
    if not ranked:
        return Text("No hint.", style="dim")
    name = {a: lab for a, lab in zip(legal, labels)}
    top_v, top_a = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    fair = 1.0 / len(ranked)
    if len(ranked) == 1 or (top_v >= 1.5 * fair and top_v - second >= 0.10):
        sure = "sure" if top_v >= 0.6 else ("fairly sure" if top_v >= 0.35 else "a slight preference")
        t = Text(f"Hint: {name[top_a]} ({sure}: {top_v:.0%} of the search's visits", style="green")
        if len(ranked) > 1:
            t.append(f"; next {name[ranked[1][1]]} {second:.0%}")
        t.append(")")
        return t
    if top_v >= 1.5 * fair and len(ranked) > 1:
        # one or two moves stand out but are too close to call: "about the same" would be
        # wrong for 50% / 40% / 10%
        t = f"No clear hint: the search is split between {name[top_a]} ({top_v:.0%}) and " \
            f"{name[ranked[1][1]]} ({second:.0%})"
        rest = ", ".join(f"{name[a]} {v:.0%}" for v, a in ranked[2:4])
        return Text(t + (f"; then {rest}." if rest else "."), style="yellow")
    few = ", ".join(f"{name[a]} {v:.0%}" for v, a in ranked[:3])
    return Text(f"No clear hint: the search rates these moves about the same ({few}).", style="yellow")


def _hint(console, state, labels, legal, args):
    try:
        from krazy_core.bots import ISMCTSBot
        bot = ISMCTSBot(time_limit=args.think or 0.5, seed=1)
        action, policy = bot.step_with_policy(state)
        return _hint_text(policy, labels, legal)
    except (ImportError, ConfigError):      # a build without the search module
        a = state.heuristic_action(seed=1)
        return Text(f"Hint (the simple bot's move): {labels[legal.index(a)]}", style="green")


# ---------------------------------------------------------------------------- simulate
def cmd_simulate(args, console: Console) -> int:
    from rich.progress import Progress, BarColumn, TimeRemainingColumn, MofNCompleteColumn, TextColumn
    from krazy_core.arena import run_arena
    game = _make_game(args)
    n = game.num_players
    # the levels --bots offers (easy, normal, hard) as the bots they stand for
    entries = [level_word(w) for w in _bot_list(args.bots, n, game)]
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
            played = [0]

            def on_decision(state, decisions):
                # games counted here: the bar advances by batches, so its count named the
                # wrong game, and a finished run ended on "game 181: turn 17, decisions 17/?"
                # under 200/200, a game that looked still running
                if decisions == 1:
                    played[0] += 1
                now = time.monotonic()
                done = state.is_terminal()
                if now - last[0] >= 0.1 or done:
                    last[0] = now
                    progress.update(inner, completed=decisions, total=decisions if done else None,
                                    description=f"game {played[0]}: {_game_progress(state)}")

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


def rules_renderables(spec):
    """The rules of a game for players: the rules text, then each option as a name on its
    own line (never cut) with its default, range and meaning wrapped below it."""
    # rules_file: a path under krazy_core ("games/<game>/rules.md")
    text = resources.files("krazy_core").joinpath(*spec.rules_file.split("/")).read_text(encoding="utf-8")
    out = [Markdown(text), Text(""),
           Text(f"Options of {spec.name} (krazy play {spec.game_id} -o name=value)", style="bold")]
    for o in spec.options:
        rng = f"{o.lo}..{o.hi}" if o.kind is int else ("true/false" if o.kind is bool else " / ".join(o.choices))
        default = str(o.default).lower() if o.kind is bool else str(o.default)
        out.append(Text(o.name, style="bold cyan"))
        seat = ""
        if o.seat:                          # typed as the table counts seats, from 1 (_options)
            rng, default = f"seat {o.lo + 1}..{o.hi + 1}", f"seat {o.default + 1}"
            seat = "; seats count from 1, as at the table"
        body = Text(f"{o.doc} (default {default}; {rng}{seat}" + (f"; rule {o.rule}" if o.rule else "") + ")")
        out.append(Padding(body, (0, 0, 0, 4), expand=False))   # wrapped lines stay indented under the name
    out.append(Text(f"Players: {spec.min_players} to {spec.max_players} (usually {spec.default_players})."))
    # only this game's seat options ("dealer, first_dealer" was named for Crazy Rummy, which has neither)
    seat_opts = list(spec.seat_options)
    out.append(Text("Seats count from 1 everywhere you type or read them: at the table (seat 1 is you "
                    "in krazy play)" + (f" and in the option{'s' if len(seat_opts) > 1 else ''} that "
                                        f"name{'' if len(seat_opts) > 1 else 's'} a seat ({', '.join(seat_opts)})"
                                        if seat_opts else "") + "."))
    note = load_ui(spec.game_id).rules_note
    if note:
        out.append(Text(note))
    return out


def cmd_rules(args, console: Console) -> int:
    """The rules, paged on a terminal (``less -R`` when the pager is less), plain in a pipe."""
    spec = krazy_core.game.get_spec(args.game)
    parts = rules_renderables(spec)
    if console.is_terminal and not console.is_dumb_terminal and not args.no_pager:
        os.environ.setdefault("LESS", "-R")
        with console.pager(styles=True):
            for r in parts:
                console.print(r)
    else:
        for r in parts:
            console.print(r)
    return 0


BENCH_CHUNK = 2000                  # games per call into the core: Ctrl-C is seen between calls


def cmd_bench(args, console: Console) -> int:
    """Random playouts in the core, ``BENCH_CHUNK`` games per call so that Ctrl-C (which the
    core's loop does not see) stops it within one chunk, reporting what was done."""
    from krazy_core._state import simulate_random
    from krazy_core.ui import plural
    game = _make_game(args)
    if args.games < 1:
        raise ConfigError(f"--games must be at least 1, got {args.games}")
    done = decisions = 0
    seconds = 0.0
    seed = args.seed or 0
    interrupted = False
    try:
        while done < args.games:
            k = min(BENCH_CHUNK, args.games - done)
            r = simulate_random(game, k, seed=seed + done)
            done += int(r["games"])
            decisions += int(r["decisions"])
            seconds += r["seconds"]
    except KeyboardInterrupt:
        interrupted = True
    rate = decisions / seconds if seconds > 0 else 0.0
    head = f"interrupted after {plural(done, 'random game')}" if interrupted else plural(done, "random game")
    # a decision: one move chosen (at random) by the player to act
    console.print(f"{game.name}, {game.num_players} players: {head} in the core, "
                  f"{plural(decisions, 'decision')} (moves chosen) in {seconds:.3f} s = "
                  f"[bold]{rate:,.0f}[/] decisions/s")
    return 130 if interrupted else 0


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
    ap.add_argument("--joker-text", action="store_true",
                    help="write the Joker as JK (for fonts without the 🃏 glyph; also KRAZY_JOKER_TEXT=1)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    _LEVELS_HELP = ", ".join(f"{k} ({v})" for k, v in LEVELS.items())

    def common(p, bots_default="heuristic"):
        p.add_argument("game", help="game id (krazy games lists them)")
        p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
        p.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
        p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE",
                       help="a game option, repeatable (krazy rules GAME lists each game's: -o max_turns=200)")
        p.add_argument("--bots", default=bots_default, help=f"comma-separated: a level, {_LEVELS_HELP}, or random, heuristic, ismcts[:N|:Ts][:OPTION=VALUE...] (search options, e.g. ismcts:2000:exploration=0.3, ismcts:2000:prior_from=model), or the learned models alone: value, policy (Krazy Kings)")

    p = sub.add_parser("play", help="play at a terminal table against bots, or hot-seat",
                       description="Play at a terminal table against bots, or hot-seat. Seats count from 1 "
                                   "(you are seat 1; a seat option counts from 1 too: -o dealer=1 in Krazy Kings and "
                                   "KrassKariert, -o first_dealer=1 in Kings Rummy), and so do KrassKariert's hand "
                                   "positions: the first card of your hand is position 1, typed 'p1', and Crazy Rummy's "
                                   "melds: seat 1's are melds 1-3, seat 2's 4-6 ('lay off 7h on meld 4 high').")
    common(p)
    p.add_argument("--humans", type=int, default=1, help="human players at this terminal (hot-seat when > 1)")
    p.add_argument("--delay", type=float, default=0.6, help="seconds to pause on each bot move")
    p.add_argument("--think", type=float, default=None, help="ISMCTS seconds per move (bots and hints)")
    p.add_argument("--roll-key", dest="roll_key", action="store_true", default=None,
                   help="press Enter to roll your own dice (the default at a terminal)")
    p.add_argument("--no-roll-key", dest="roll_key", action="store_false",
                   help="roll without a keypress")
    p.add_argument("--names", default=None, help="comma-separated names of the human players (hot-seat)")
    p.add_argument("--save", default=None, metavar="FILE", help="save the game to FILE after every move and on "
                   "quit (default: a file per game in $KRAZY_SAVE_DIR or ~/.local/share/krazy_core/saves, "
                   "removed when the game ends)")
    p.add_argument("--resume", default=None, metavar="FILE", help="continue a game saved with --save (and keep saving to FILE unless --save names another)")
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
    p.add_argument("--no-pager", action="store_true", help="print the rules without paging")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bench", help="in-core random playouts per second")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE",
                       help="a game option, repeatable (krazy rules GAME lists each game's: -o max_turns=200)")
    p.add_argument("--games", type=int, default=2000, help="games to play in the core")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("games", help="list the games")
    p.set_defaults(func=cmd_games)

    # krazy serve: the game server and browser table (the 'server' extra)
    p = sub.add_parser("serve", help="the game server and browser table (needs krazy_core[server])")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8765, help="TCP port 1-65535 (default 8765)")
    p.add_argument("--db", default=None, help="SQLite file of the tables (default: $KRAZY_DB or "
                   "~/.local/share/krazy_core/tables.sqlite3)")
    p.add_argument("--finished-ttl", type=_hours, default=1.0, metavar="HOURS",
                   help="delete a finished table this many hours after its last move (default 1)")
    p.add_argument("--idle-ttl", type=_hours, default=7.0, metavar="DAYS",
                   help="delete an unfinished table after this many days without a move (default 7)")
    p.set_defaults(func=cmd_serve)
    return ap


def _hours(text):
    """``--finished-ttl`` / ``--idle-ttl``: a number >= 0."""
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number >= 0")
    return v


def _port(text):
    """``--port``: a TCP port 1..65535 (``--port 99999`` printed a link and then waited on
    nothing, with no error)."""
    try:
        v = int(text)
    except ValueError:
        v = None
    if v is None or not 1 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be a number 1-65535, got {text!r}")
    return v


class JokerText:
    """An output file that writes the Joker ``🃏`` (a glyph many fonts lack) as ``JK`` (two
    columns, as the emoji takes, so tables stay aligned); everything else passes through."""

    def __init__(self, file):
        self._file = file

    def write(self, text):
        return self._file.write(text.replace("\U0001F0CF", "JK"))

    def __getattr__(self, name):
        return getattr(self._file, name)


def _joker_as_text(args) -> bool:
    if getattr(args, "joker_text", False) or os.environ.get("KRAZY_JOKER_TEXT", "") not in ("", "0"):
        return True
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return enc not in ("utf8", "utf16", "utf32")
def cmd_serve(args, console: Console) -> int:
    try:
        from krazy_core.server.app import serve
    except ImportError as e:
        console.print(f"[red]error:[/] krazy serve needs the server extra: pip install 'krazy_core[server]' ({escape(str(e))})")
        return 2
    from krazy_core.server.app import Limits
    serve(host=args.host, port=args.port, db=args.db,
          limits=Limits(finished_ttl=args.finished_ttl * 3600, idle_ttl=args.idle_ttl * 86400))
    return 0


def main(argv=None) -> int:
    parser = build_parser()
    words = sys.argv[1:] if argv is None else list(argv)
    if not [w for w in words if w != "--joker-text"]:
        # a bare `krazy` said only "error: the following arguments are required: cmd"
        # instead: the commands, and where to start
        parser.print_help()
        print("\nStart with: krazy play krazy-kings   (krazy games lists the games; "
              "krazy rules GAME explains one)")
        return 2
    args = parser.parse_args(argv)
    file: typing.Any = JokerText(sys.stdout) if _joker_as_text(args) else None
    console = Console(emoji=False, file=file)   # ":100:" in a bot word is not an emoji
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
