"""The ``krazy`` commands that play many games: ``simulate``, ``tournament``, ``sprt``,
``selfplay`` on a backend (the backend flags they share), and ``bench`` (in-core playouts).

    krazy tournament GAME --bots A,B,C... --games N [--plot FILE.png|.svg] [--store FILE]
    krazy sprt GAME A B [--elo0 0 --elo1 20 --alpha 0.05 --beta 0.05 --max-games N]
    krazy selfplay GAME --bot ismcts:200 --games N --out DIR

Backends: this process (``--workers 1``), local processes (``--workers W``), Ray with
``--ray`` or when ``RAY_ADDRESS`` is set.  The same ``--seed`` gives the same results on
every backend.  Results go to a SQLite store as batches finish (``--store``, default
``krazy-results.sqlite`` for tournaments and tests): run the same command again to resume.
"""

from __future__ import annotations

import math
import os
import time
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from krazy_core import _state
from krazy_core.bots import make_bot
from krazy_core.bots.levels import level_word
from krazy_core.cli.common import _bot_list, _make_game, add_game_args
from krazy_core.cli.narrate import _game_progress
from krazy_core.errors import ConfigError
from krazy_core.runs.arena import run_arena
from krazy_core.runs.jobs import make_job
from krazy_core.runs.runner import MAX_WORKERS, RayRunner, make_runner, ray_wanted
from krazy_core.runs.selfplay import _pa, run_selfplay
from krazy_core.runs.sprt import SPRT, run_sprt, sprt_job
from krazy_core.runs.store import job_id_of, open_store
from krazy_core.runs.tournament import _model, check_bots, plot_ratings, run_tournament, text_plot, tournament_job
from krazy_core.ui import plural

__all__ = ["add_backend_flags", "add_run_commands", "backend", "cmd_bench", "cmd_simulate", "open_store_arg"]

DEFAULT_STORE = "krazy-results.sqlite"


def add_backend_flags(p, store_default=None):
    p.add_argument("--workers", type=int, default=1, help="worker processes (Ray: workers of a new local cluster)")
    p.add_argument("--ray", action="store_true", help="run on Ray (also when RAY_ADDRESS is set): "
                   "the cluster at RAY_ADDRESS, else a local one")
    p.add_argument("--batch", type=int, default=None, help="games per batch, the unit stored and resumed "
                   "(default: chosen from the number of games)")
    p.add_argument("--store", default=store_default, metavar="FILE",
                   help="SQLite file the results stream to; the same command resumes from it"
                        + (f" (default {store_default})" if store_default else " (default: none)"))
    if store_default:
        p.add_argument("--no-store", dest="store", action="store_const", const=None, help="keep no store")


def _check_workers(args):
    if not 1 <= args.workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be 1..{MAX_WORKERS}, got {args.workers}")
    if args.batch is not None and not 1 <= args.batch <= 1_000_000:
        raise ConfigError(f"--batch must be 1..1000000 games, got {args.batch}")


@contextmanager
def backend(args, console, games=None):
    """The runner the flags ask for, closed (and a Ray cluster it started shut down) after."""
    _check_workers(args)
    workers = args.workers if games is None else min(args.workers, games)
    if ray_wanted(getattr(args, "ray", False)):
        where = os.environ.get("RAY_ADDRESS") or "a new local cluster"
        console.print(f"[dim]joining Ray ({escape(where)})...[/]")
    runner = make_runner(workers, ray=getattr(args, "ray", False))
    try:
        yield runner
    finally:
        runner.close()
        if isinstance(runner, RayRunner):
            runner.shutdown()


def open_store_arg(args):
    return open_store(getattr(args, "store", None))


def _levels(words):
    """Bot words with the levels people type (easy, normal, hard) as the bots they
    stand for (``krazy_core.bots.levels.LEVELS``): ``--bots`` says they are accepted."""
    return [level_word(w.strip()) for w in words]


def _stored_games(store, kind, job):
    """How many games of this job an earlier run left in ``store`` (0 without a store)."""
    if store is None:
        return 0
    return store.count_games(job_id_of(kind, job))


def _from_store_note(store, before, total):
    """Says that results came from the store, so a rerun that took 0.0 s is not a mystery."""
    if not before:
        return ""
    return (f"; {before:,} of the {total:,} games were read back from {store.path} (an earlier run of "
            "this command; --no-store plays them again)")


def _progress(console, total, what):
    p = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                 TimeRemainingColumn(), console=console)
    return p, p.add_task(what, total=total)


def _interrupted(console, store, job_note=""):
    if store is not None:
        console.print(f"\n[yellow]interrupted: the finished batches are in {escape(store.path)}; "
                      f"run the same command again to resume{job_note}.[/]")
    else:
        console.print("\n[yellow]interrupted (no --store: nothing kept)[/]")
    return 130


# ---------------------------------------------------------------------------- tournament
def cmd_tournament(args, console) -> int:
    game = _make_game(args)
    bots = check_bots(_levels(args.bots.split(",")))
    _model(True)
    if args.plot:
        low = args.plot.lower()
        if not (low.endswith(".png") or low.endswith(".svg")):
            raise ConfigError(f"--plot {args.plot!r}: the file name must end in .png or .svg")
    seed = args.seed or 0
    job = tournament_job(game, bots, args.games, seed)
    total = job["games"]
    store = open_store_arg(args)
    before = _stored_games(store, "tournament", job)
    with backend(args, console, total) as runner:
        prog, bar = _progress(console, total, "games")
        try:
            with prog:
                t = run_tournament(game, bots, args.games, seed=seed, runner=runner, store=store,
                                   batch_size=args.batch, progress=lambda k: prog.advance(bar, k))
        except KeyboardInterrupt:
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
    note = (f" (--games {args.games} rounded up to whole sets of seatings: every deal is played once "
            f"per seating)") if total != args.games else ""
    seatings = plural(len(job["tables"]), "line-up")
    console.print(f"[bold]{game.name}[/], {game.num_players} players: {plural(t.games, 'game')}{note}; "
                  f"{seatings} of bots, each deal played with the bots in every seat (duplicate deals), "
                  f"seed {seed}; {t.seconds:.1f} s ({escape(t.backend)})"
                  + escape(_from_store_note(store, before, t.games))
                  + (f"; results in {escape(args.store)}" if args.store else ""))
    rows = t.ratings()
    pic = text_plot(rows, max(10, min(36, console.width - 66)))
    model = "Bradley–Terry" if game.num_players == 2 or len(bots) == 2 else "Plackett–Luce"
    tab = Table(title="Ratings, best first")
    for col in ("bot", "rating", "95% interval", "interval", "score", "games"):
        tab.add_column(col, justify="left" if col in ("bot", "interval") else "right",
                       overflow="fold", no_wrap=col != "bot")
    for (w, mu, lo, hi), line in zip(rows, pic):
        b = bots.index(w)
        tab.add_row(escape(w), f"{mu:.1f}", f"{lo:.1f} – {hi:.1f}", line,
                    f"{t.mean_score(b):.1%}", f"{t.played[b]:,}")
    console.print(tab)
    console.print(f"[dim]rating: higher is stronger (openskill {model}); the true rating is inside the "
                  "interval 95% of the time; score: the bot's mean result per seat (1 = won, 0 = lost).[/]")
    pw = t.pairwise()
    ptab = Table(title="Head to head")
    ptab.add_column("")
    for j, w in enumerate(bots):
        ptab.add_column(f"{j + 1}", justify="right")
    for i, w in enumerate(bots):
        ptab.add_row(f"{i + 1}: {escape(w)}", *["—" if v is None else f"{v:.0%}" for v in pw[i]])
    console.print(ptab)
    console.print("[dim]How often the row's bot finished above the column's in the games they shared "
                  "(ties count half).[/]")
    if args.plot:
        try:
            plot_ratings(t, args.plot)
        except OSError as e:
            raise ConfigError(f"--plot {args.plot!r} cannot be written: {e.strerror or e} "
                              "(the results are in the store)") from None
        console.print(f"plot: {escape(args.plot)}")
    return 0


# ---------------------------------------------------------------------------- sprt
def cmd_sprt(args, console) -> int:
    game = _make_game(args)
    args.a, args.b = _levels([args.a, args.b])
    for w in (args.a, args.b):
        make_bot(w, seed=0)
    test = SPRT(args.elo0, args.elo1, args.alpha, args.beta)     # bad flags fail before any game
    seed = args.seed or 0
    job = sprt_job(game, args.a, args.b, args.max_games, seed)
    store = open_store_arg(args)
    before = _stored_games(store, "sprt", job)
    with backend(args, console, None) as runner:
        # the total is --max-games; the test usually stops far sooner
        prog, bar = _progress(console, job["games"], "games (stops when sure)")
        try:
            with prog:
                r = run_sprt(game, [args.a, args.b], args.max_games, seed=seed, runner=runner, store=store,
                             batch_size=args.batch, progress=lambda k: prog.advance(bar, k),
                             elo0=args.elo0, elo1=args.elo1, alpha=args.alpha, beta=args.beta)
                prog.update(bar, total=r.games, completed=r.games)     # decided: the bar ends here
        except KeyboardInterrupt:
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
    t = r.test
    elo, lo, hi = t.elo_interval()
    a, b = escape(args.a), escape(args.b)
    games = (f"{plural(r.games, 'game')} ({plural(r.pairs, 'pair')} of {r.pair_size} games on the same "
             "deals, the bots' seats swapped)")
    sure = f"{1 - t.alpha:.0%}" if r.decision == "H1" else f"{1 - t.beta:.0%}"
    if r.decision == "H1":
        console.print(f"[bold green]Yes: {b} is stronger than {a}[/], by at least {t.elo1:g} Elo "
                      f"({sure} sure), after {games}.")
    elif r.decision == "H0":
        console.print(f"[bold yellow]No: {b} is not {t.elo1:g} Elo stronger than {a}[/] (at most "
                      f"{t.elo0:g} Elo, {sure} sure), after {games}.")
    else:
        console.print(f"[bold]Not decided[/] after {games}: the games ran out (--max-games "
                      f"{args.max_games:,}) before the test was sure. Raise --max-games, or test a bigger "
                      "gap (--elo1 further from --elo0).")
    def e(x):                           # an interval not closed yet (all wins) has an infinite end
        return f"{x:+.0f}" if math.isfinite(x) else ("no upper limit yet" if x > 0 else "no lower limit yet")
    console.print(f"Estimated gap: {b} {e(elo)} Elo against {a} (95% interval {e(lo)} … {e(hi)}); "
                  f"{b}'s mean result per pair {t.mean:.3f} (0.5 = even).")
    console.print(f"[dim]{game.name}, {game.num_players} players; A = {a} (baseline), B = {b} (candidate); "
                  f"H0: B is {t.elo0:g} Elo better, H1: B is {t.elo1:g} Elo better; false-yes rate "
                  f"{t.alpha:g}, false-no rate {t.beta:g}; log-likelihood ratio {t.llr():.2f} (stops at "
                  f"{t.lower:.2f} or {t.upper:.2f}); {r.seconds:.1f} s ({escape(r.backend)})"
                  f"{escape(_from_store_note(store, before, r.games))}[/]")
    return 0


# ---------------------------------------------------------------------------- selfplay
def cmd_selfplay(args, console) -> int:
    game = _make_game(args)
    _pa()
    args.bot = _levels([args.bot])[0]
    make_bot(args.bot, seed=0)
    make_job(game, {}, args.games, 0)                 # --games checked before any folder is made
    with backend(args, console, args.games) as runner:
        prog, bar = _progress(console, args.games, "games")
        try:
            with prog:
                s = run_selfplay(game, args.bot, args.games, out=args.out, seed=args.seed or 0, runner=runner,
                                 batch_size=args.batch, progress=lambda k: prog.advance(bar, k))
        except KeyboardInterrupt:
            console.print(f"\n[yellow]interrupted: the shards written are whole in {escape(args.out)}; "
                          "run the same command again to resume.[/]")
            return 130
    if not s.games and s.skipped:
        console.print(f"Nothing to play: all {plural(args.games, 'game')} are already in {escape(args.out)} "
                      f"({plural(s.skipped, 'file')}, from an earlier run of this command). For more games, "
                      "write to a new --out folder (a folder holds one job: this game, bot and --games).")
        return 0
    skipped = (f"; {plural(s.skipped, 'file')} from an earlier run were already there and kept"
               if s.skipped else "")
    console.print(f"Wrote {plural(s.games, 'game')}, {plural(s.decisions, 'position')} (one per "
                  f"move, with the move played) in {plural(s.shards, 'Parquet file')} to "
                  f"{escape(args.out)}{skipped}; {s.seconds:.1f} s, "
                  f"[bold]{s.decisions_per_second:,.0f}[/] positions/s ({escape(s.backend)}).")
    return 0


def add_run_commands(sub):
    """Register ``tournament``, ``sprt`` and ``selfplay`` on ``sub``."""
    p = sub.add_parser("tournament", help="every bot against every other over duplicate deals; "
                       "ratings with intervals, a pairwise table, a plot",
                       description="Every bot plays every other. Each deal is played once with the bots "
                                   "in every seat (duplicate deals), so the luck of the cards evens out. "
                                   "Prints a rating per bot (higher is stronger) with a 95% interval, "
                                   "how often each bot beat each other, and draws the ratings with --plot. "
                                   "Results are kept in --store as they come: run the same command again "
                                   "to resume or to print them again. Example: krazy tournament "
                                   "krazy-kings --bots random,heuristic,ismcts:200 --games 400")
    add_game_args(p, "random,heuristic")
    p.add_argument("--games", type=int, default=400, help="games in all (default 400; rounded up so "
                   "every deal is played in every seating)")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw the ratings to FILE.png or FILE.svg")
    add_backend_flags(p, DEFAULT_STORE)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("sprt", help="a sequential test: is bot B at least X Elo better than A?",
                       description="Is bot B stronger than bot A? Plays pairs of games on the same deals "
                                   "with the bots' seats swapped, and stops as soon as the answer is sure "
                                   "enough (a sequential probability ratio test): yes, B is at least "
                                   "--elo1 Elo stronger, or no, at most --elo0. 20 Elo is about a 53% "
                                   "score. Bots as in --bots: easy, normal, hard, random, heuristic, "
                                   "ismcts:N, value, policy. Example: krazy sprt krazy-kings heuristic ismcts:200")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("a", help="bot A, the baseline (e.g. heuristic)")
    p.add_argument("b", help="bot B, the candidate (e.g. ismcts:200)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
    p.add_argument("--elo0", type=float, default=0.0, help="the 'no' answer: B is at most this many Elo "
                   "stronger (H0; default 0)")
    p.add_argument("--elo1", type=float, default=20.0, help="the 'yes' answer: B is at least this many Elo "
                   "stronger (H1; default 20)")
    p.add_argument("--alpha", type=float, default=0.05, help="how often a 'yes' may be wrong (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="how often a 'no' may be wrong (default 0.05)")
    p.add_argument("--max-games", type=int, default=20000, help="stop undecided after this many games "
                   "(default 20000)")
    add_backend_flags(p, DEFAULT_STORE)
    p.set_defaults(func=cmd_sprt)

    p = sub.add_parser("selfplay", help="self-play games written as Parquet shards for training",
                       description="One bot plays every seat; every move of every game is written, with "
                                   "what the player saw and (for ismcts bots) how the search rated each "
                                   "move, to Parquet files in --out, for training a model. Needs pyarrow "
                                   "(pip install 'krazy_core[selfplay]'). Run the same command again to resume. Example: krazy "
                                   "selfplay krazy-kings --bot ismcts:200 --games 100 --out data/kk")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
    p.add_argument("--bot", default="ismcts:200", help="the bot at every seat (default ismcts:200; an "
                   "ismcts bot also records how often its search tried each move)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the shards (made if absent)")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument("--ray", action="store_true", help="run on Ray (also when RAY_ADDRESS is set)")
    p.add_argument("--batch", type=int, default=None, help="games per Parquet file (default: chosen from --games)")
    p.set_defaults(func=cmd_selfplay)


# ---------------------------------------------------------------------------- simulate
def cmd_simulate(args, console: Console) -> int:
    game = _make_game(args)
    n = game.num_players
    # the levels --bots offers (easy, normal, hard) as the bots they stand for
    entries = [level_word(w) for w in _bot_list(args.bots, n, game)]
    base = args.seed or 0
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
            progress.stop()
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
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


BENCH_CHUNK = 2000                  # games per call into the core: Ctrl-C is seen between calls


def cmd_bench(args, console: Console) -> int:
    """Random playouts in the core, ``BENCH_CHUNK`` games per call so that Ctrl-C (which the
    core's loop does not see) stops it within one chunk, reporting what was done."""
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
            r = _state.simulate_random(game, k, seed=seed + done)
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
