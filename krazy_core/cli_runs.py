"""The ``krazy`` commands that play many games on a backend: ``tournament``, ``sprt``,
``selfplay`` (and the backend flags ``krazy simulate`` shares).

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
from contextlib import contextmanager

from rich.markup import escape
from rich.table import Table

__all__ = ["add_backend_flags", "add_run_commands", "backend", "open_store_arg"]

DEFAULT_STORE = "krazy-results.sqlite"


def add_backend_flags(p, store_default=None):
    p.add_argument("--workers", type=int, default=1, help="worker processes (Ray: workers of a new local cluster)")
    p.add_argument("--ray", action="store_true", help="run on Ray (also when RAY_ADDRESS is set): "
                   "the cluster at RAY_ADDRESS, else a local one")
    p.add_argument("--batch", type=int, default=None, help="games per batch (default: chosen from --games)")
    p.add_argument("--store", default=store_default, metavar="FILE",
                   help="SQLite file the results stream to; the same command resumes from it"
                        + (f" (default {store_default})" if store_default else " (default: none)"))
    if store_default:
        p.add_argument("--no-store", dest="store", action="store_const", const=None, help="keep no store")


def _check_workers(args):
    from krazy_core.errors import ConfigError
    from krazy_core.runner import MAX_WORKERS
    if not 1 <= args.workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be 1..{MAX_WORKERS}, got {args.workers}")
    if args.batch is not None and not 1 <= args.batch <= 1_000_000:
        raise ConfigError(f"--batch must be 1..1000000 games, got {args.batch}")


@contextmanager
def backend(args, console, games=None):
    """The runner the flags ask for, closed (and a Ray cluster it started shut down) after."""
    from krazy_core.runner import make_runner, RayRunner, ray_wanted
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
    from krazy_core.store import open_store
    return open_store(getattr(args, "store", None))


def _progress(console, total, what):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
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
    from krazy_core.cli import _make_game
    from krazy_core.errors import ConfigError
    from krazy_core.tournament import (check_bots, plot_ratings, run_tournament, text_plot,
                                       tournament_job, _model)
    game = _make_game(args)
    bots = check_bots(args.bots.split(","))
    _model(True)
    if args.plot:
        low = args.plot.lower()
        if not (low.endswith(".png") or low.endswith(".svg")):
            raise ConfigError(f"--plot {args.plot!r}: the file name must end in .png or .svg")
    seed = args.seed or 0
    job = tournament_job(game, bots, args.games, seed)
    total = job["games"]
    store = open_store_arg(args)
    with backend(args, console, total) as runner:
        prog, bar = _progress(console, total, "tournament")
        try:
            with prog:
                t = run_tournament(game, bots, args.games, seed=seed, runner=runner, store=store,
                                   batch_size=args.batch, progress=lambda k: prog.advance(bar, k))
        except KeyboardInterrupt:
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
    note = f" (--games {args.games} rounded up to whole deals)" if total != args.games else ""
    console.print(f"[bold]{game.name}[/], {game.num_players} players: {t.games} games{note}, "
                  f"{len(job['tables'])} table(s), duplicate deals, seed {seed}; {escape(t.backend)}, "
                  f"{t.seconds:.1f} s" + (f"; store {escape(args.store)} (job {t.job_id})" if args.store else ""))
    rows = t.ratings()
    pic = text_plot(rows, max(10, min(36, console.width - 66)))
    model = "Bradley–Terry" if game.num_players == 2 or len(bots) == 2 else "Plackett–Luce"
    tab = Table(title=f"Ratings (openskill {model}, mu ± 1.96 sigma)")
    for col in ("bot", "rating", "95% interval", "", "mean score", "games"):
        tab.add_column(col, justify="left" if col in ("bot", "") else "right",
                       overflow="fold", no_wrap=col != "bot")
    for (w, mu, lo, hi), line in zip(rows, pic):
        b = bots.index(w)
        tab.add_row(escape(w), f"{mu:.1f}", f"{lo:.1f} – {hi:.1f}", line,
                    f"{t.mean_score(b):.3f}", str(t.played[b]))
    console.print(tab)
    pw = t.pairwise()
    ptab = Table(title="Pairwise: how often the row bot scored above the column bot (ties ½)")
    ptab.add_column("")
    for j, w in enumerate(bots):
        ptab.add_column(f"{j + 1}", justify="right")
    for i, w in enumerate(bots):
        ptab.add_row(f"{i + 1}: {escape(w)}", *["—" if v is None else f"{v:.0%}" for v in pw[i]])
    console.print(ptab)
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
    from krazy_core.cli import _make_game
    from krazy_core.sprt import SPRT, run_sprt, sprt_job
    from krazy_core.bots import make_bot
    game = _make_game(args)
    for w in (args.a, args.b):
        make_bot(w, seed=0)
    test = SPRT(args.elo0, args.elo1, args.alpha, args.beta)     # bad flags fail before any game
    seed = args.seed or 0
    job = sprt_job(game, args.a, args.b, args.max_games, seed)
    store = open_store_arg(args)
    with backend(args, console, None) as runner:
        prog, bar = _progress(console, job["games"], "sprt (at most)")
        try:
            with prog:
                r = run_sprt(game, args.a, args.b, args.elo0, args.elo1, args.alpha, args.beta,
                             args.max_games, seed=seed, runner=runner, store=store, batch_size=args.batch,
                             progress=lambda k: prog.advance(bar, k))
                prog.update(bar, total=r.games, completed=r.games)     # decided: the bar ends here
        except KeyboardInterrupt:
            return _interrupted(console, store)
        finally:
            if store is not None:
                store.close()
    t = r.test
    elo, lo, hi = t.elo_interval()
    a, b = escape(args.a), escape(args.b)
    console.print(f"[bold]SPRT[/] {game.name}, {game.num_players} players: B = {b} against A = {a}; "
                  f"H0: B is {t.elo0:g} Elo better, H1: B is {t.elo1:g} Elo better; "
                  f"alpha {t.alpha:g}, beta {t.beta:g}; {escape(r.backend)}, {r.seconds:.1f} s")
    console.print(f"LLR {t.llr():.2f} (bounds {t.lower:.2f}, {t.upper:.2f}); B's score {t.mean:.3f} "
                  f"per pair, Elo {elo:+.0f} (95% {lo:+.0f} … {hi:+.0f})")
    games = f"{r.games} games ({r.pairs} pairs of {r.pair_size} games, duplicate deals)"
    if r.decision == "H1":
        console.print(f"[bold green]H1 accepted: {b} is at least {t.elo1:g} Elo better than {a}[/] after {games}.")
    elif r.decision == "H0":
        console.print(f"[bold yellow]H0 accepted: {b} is not {t.elo1:g} Elo better than {a}[/] "
                      f"(at most {t.elo0:g}) after {games}.")
    else:
        console.print(f"[bold]Undecided[/] after {games}: --max-games reached; raise it, or widen "
                      "--elo0/--elo1.")
    return 0


# ---------------------------------------------------------------------------- selfplay
def cmd_selfplay(args, console) -> int:
    from krazy_core.cli import _make_game
    from krazy_core.selfplay import run_selfplay, _pa
    from krazy_core.bots import make_bot
    from krazy_core.arena import make_job
    game = _make_game(args)
    _pa()
    make_bot(args.bot, seed=0)
    make_job(game, {}, args.games, 0)                 # --games checked before any folder is made
    with backend(args, console, args.games) as runner:
        prog, bar = _progress(console, args.games, "self-play")
        try:
            with prog:
                s = run_selfplay(game, args.bot, args.games, args.out, seed=args.seed or 0, runner=runner,
                                 batch_size=args.batch, progress=lambda k: prog.advance(bar, k))
        except KeyboardInterrupt:
            console.print(f"\n[yellow]interrupted: the shards written are whole in {escape(args.out)}; "
                          "run the same command again to resume.[/]")
            return 130
    skipped = f" ({s['skipped']} shards were already there)" if s["skipped"] else ""
    console.print(f"{s['games']} games, {s['decisions']:,} decisions in {s['shards']} shards to "
                  f"{escape(args.out)}{skipped}; {s['seconds']:.1f} s = "
                  f"[bold]{s['decisions_per_second']:,.0f}[/] decisions/s ({escape(s['backend'])})")
    return 0


def add_run_commands(sub, common):
    """Register ``tournament``, ``sprt`` and ``selfplay`` on ``sub`` (``common`` adds the
    game, players, seed and option flags)."""
    p = sub.add_parser("tournament", help="every bot against every other over duplicate deals; "
                       "ratings with intervals, a pairwise table, a plot")
    common(p, "random,heuristic")
    p.add_argument("--games", type=int, default=400, help="games in all (rounded up to whole deals)")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw the ratings to FILE.png or FILE.svg")
    add_backend_flags(p, DEFAULT_STORE)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("sprt", help="a sequential test: is bot B at least X Elo better than A?")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("a", help="bot A (the baseline)")
    p.add_argument("b", help="bot B (the candidate)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
    p.add_argument("--elo0", type=float, default=0.0, help="H0: B is this many Elo better (default 0)")
    p.add_argument("--elo1", type=float, default=20.0, help="H1: B is this many Elo better (default 20)")
    p.add_argument("--alpha", type=float, default=0.05, help="false positive rate (accept H1 when H0 holds)")
    p.add_argument("--beta", type=float, default=0.05, help="false negative rate (accept H0 when H1 holds)")
    p.add_argument("--max-games", type=int, default=20000, help="stop undecided after this many games")
    add_backend_flags(p, DEFAULT_STORE)
    p.set_defaults(func=cmd_sprt)

    p = sub.add_parser("selfplay", help="self-play games written as Parquet shards for training")
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed of the first deal")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option")
    p.add_argument("--bot", default="ismcts:200", help="the bot at every seat (ismcts:N gives visit "
                   "distributions; default ismcts:200)")
    p.add_argument("--games", type=int, default=100, help="games to play")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the shards (made if absent)")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument("--ray", action="store_true", help="run on Ray (also when RAY_ADDRESS is set)")
    p.add_argument("--batch", type=int, default=None, help="games per shard")
    p.set_defaults(func=cmd_selfplay)
