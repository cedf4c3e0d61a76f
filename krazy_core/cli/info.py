"""``krazy rules``, ``krazy games`` and ``krazy serve``."""

from __future__ import annotations

import os
from importlib import resources

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from krazy_core.ui import load_ui
import krazy_core


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


def cmd_games(args, console: Console) -> int:
    t = Table(title="Games")
    for col in ("id", "name", "players", "about"):
        t.add_column(col)
    for gid in krazy_core.available_games():
        s = krazy_core.game.get_spec(gid)
        t.add_row(gid, s.name, f"{s.min_players}-{s.max_players}", s.summary)
    console.print(t)
    return 0


def cmd_serve(args, console: Console) -> int:
    try:
        # the server extra (Starlette, uvicorn) is optional: imported only for krazy serve
        from krazy_core.server.guards import Limits
        from krazy_core.server.launch import serve    # (the same extra)
    except ImportError as e:
        console.print(f"[red]error:[/] krazy serve needs the server extra: pip install 'krazy_core\\[server]' ({escape(str(e))})")
        return 2
    serve(host=args.host, port=args.port, db=args.db,
          limits=Limits(finished_ttl=args.finished_ttl * 3600, idle_ttl=args.idle_ttl * 86400))
    return 0
