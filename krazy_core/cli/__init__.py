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

The package, bottom up: :mod:`~krazy_core.cli.common` (options, bots, flag checks, the
prompt), :mod:`~krazy_core.cli.table` (the table's layout), :mod:`~krazy_core.cli.moves`
(reading a typed move), :mod:`~krazy_core.cli.narrate` (printing the play by play),
:mod:`~krazy_core.cli.play` (``play``, ``match``), :mod:`~krazy_core.cli.runs` (``simulate``,
``tournament``, ``sprt``, ``selfplay``, ``bench``), :mod:`~krazy_core.cli.info` (``rules``,
``games``, ``serve``); this module: the parser and :func:`main`.
"""

from __future__ import annotations

import argparse
import sys
import typing

from rich.console import Console
from rich.markup import escape

from krazy_core.cli.common import JokerText, _hours, _joker_as_text, _port, add_game_args
from krazy_core.cli.info import cmd_games, cmd_rules, cmd_serve
from krazy_core.cli.play import cmd_match, cmd_play
from krazy_core.cli.runs import add_backend_flags, add_run_commands, cmd_bench, cmd_simulate
from krazy_core.errors import KrazyError
import krazy_core


# ---------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="krazy", description="Play and study Krazy Kings, Kings Rummy, "
                                 "Crazy Rummy and KrassKariert against bots.")
    ap.add_argument("--version", action="version", version=f"krazy_core {krazy_core.__version__}")
    ap.add_argument("--joker-text", action="store_true",
                    help="write the Joker as JK (for fonts without the 🃏 glyph; also KRAZY_JOKER_TEXT=1)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("play", help="play at a terminal table against bots, or hot-seat",
                       description="Play at a terminal table against bots, or hot-seat. Seats count from 1 "
                                   "(you are seat 1; a seat option counts from 1 too: -o dealer=1 in Krazy Kings and "
                                   "KrassKariert, -o first_dealer=1 in Kings Rummy), and so do KrassKariert's hand "
                                   "positions: the first card of your hand is position 1, typed 'p1', and Crazy Rummy's "
                                   "melds: seat 1's are melds 1-3, seat 2's 4-6 ('lay off 7h on meld 4 high').")
    add_game_args(p)
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
    add_game_args(p, "heuristic,random")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("simulate", help="many bot games with a progress bar; win rates with 95%% intervals")
    add_game_args(p, "heuristic,random")
    p.add_argument("--games", type=int, default=200, help="games to play")
    p.add_argument("--no-rotate", dest="rotate", action="store_false", help="keep each bot in its seat")
    add_backend_flags(p)                    # --workers, --ray, --batch, --store
    p.set_defaults(func=cmd_simulate)
    add_run_commands(sub)                   # tournament, sprt, selfplay (krazy_core/cli/runs.py)

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
