"""``krazy play`` and ``krazy match``: a whole game at the terminal, humans (hot-seat) and
bots, with saving, resuming, hints and the turn prompt."""

from __future__ import annotations

import os
import sys
import time

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from krazy_core.bots import ISMCTSBot
from krazy_core.bots import make_bot
from krazy_core.bots.levels import level_word
from krazy_core.cli import table as cli_table
from krazy_core.cli.common import _ask, _bot_list, _check_delay, _check_names, _check_think, _clear_screen, _make_game, _options, _shown, house_rules
from krazy_core.cli.moves import _buy_can_help, _drop_queue, _expand, _forced_short_form, _next_queued, _norm, _out_of_turn_offer, _pass_action, _queue, _take_alternative, _take_name
from krazy_core.cli.narrate import _log_lines, _print_events, _print_result, _recap, _round_pause, _rules_now
from krazy_core.errors import KrazyError, ConfigError, UnclearActionError
from krazy_core.ui import load_ui, plural
import krazy_core


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
    console.print(cli_table.fit_table(console, ui, state, None if hot_seat else 0, 2 * len(names) + 9,
                                      console.size.width, console.size.height)[0])
    _print_result(console, state, names, ui=ui)
    if replay:
        console.print(f"[dim]Replay this deal: {escape(replay)}[/]", soft_wrap=True)   # one line to copy
    if humans:
        return _ask(console, "Play again? (y = a new deal, Enter to stop): ").lower() in ("y", "yes")
    return False


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


def _human_turn(console, state, p, ui, names, args, queue=None, auto_pass=None):
    """The human's move: a number or a name from the list.  Several names separated by
    commas (``lay 7H, lay 8H, lay 9H, finish meld``) play one after another while it stays
    this player's turn: the rest wait in ``queue``.  A player with a single legal move is
    told so and plays it with Enter (or its number or name).  The screen (table, choices,
    prompt) fits the terminal (``krazy_core.cli.table``): long runs of moves are one choice
    that asks a position next, and the rest pages (``m``)."""
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


def _hint_text(policy, labels, legal):
    """What the hint says about a search's visit shares ``{action: share}``: its choice and
    how sure it is when it has an opinion (the top move has 10 points more than the next and
    at least 1.5 times a fair share or twice the next's), that it is split between two moves
    when those two stand out from the rest, else that it sees the moves as about equal."""
    ranked = sorted(((v, a) for a, v in policy.items() if a in legal), key=lambda x: -x[0])
    if not ranked:
        return Text("No hint.", style="dim")
    name = {a: lab for a, lab in zip(legal, labels)}
    top_v, top_a = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    fair = 1.0 / len(ranked)
    third = ranked[2][0] if len(ranked) > 2 else 0.0
    if len(ranked) == 1 or (top_v - second >= 0.10 and (top_v >= 1.5 * fair or top_v >= 2 * second)):
        sure = "sure" if top_v >= 0.6 else ("fairly sure" if top_v >= 0.35 else "a slight preference")
        t = Text(f"Hint: {name[top_a]} ({sure}: {top_v:.0%} of the search's visits", style="green")
        if len(ranked) > 1:
            t.append(f"; next {name[ranked[1][1]]} {second:.0%}")
        t.append(")")
        return t
    if len(ranked) > 2 and (top_v >= 1.5 * fair or (second - third >= 0.10 and second >= 1.5 * third)):
        # two moves stand out but are too close to call: "about the same" would be wrong
        # for 50% / 40% / 10% or 46% / 46% / 9%
        t = f"No clear hint: the search is split between {name[top_a]} ({top_v:.0%}) and " \
            f"{name[ranked[1][1]]} ({second:.0%})"
        rest = ", ".join(f"{name[a]} {v:.0%}" for v, a in ranked[2:4])
        return Text(t + (f"; then {rest}." if rest else "."), style="yellow")
    few = ", ".join(f"{name[a]} {v:.0%}" for v, a in ranked[:3])
    return Text(f"No clear hint: the search rates these moves about the same ({few}).", style="yellow")


def _hint(console, state, labels, legal, args):
    try:
        bot = ISMCTSBot(time_limit=args.think or 0.5, seed=1)
        action, policy = bot.step_with_policy(state)
        return _hint_text(policy, labels, legal)
    except (ImportError, ConfigError):      # a build without the search module
        a = state.heuristic_action(seed=1)
        return Text(f"Hint (the simple bot's move): {labels[legal.index(a)]}", style="green")
