"""The CLI's play-by-play of one bot game: how long ``krazy match`` takes, and how much of it
goes to reading the event log (issue 12 item 5: it rebuilt the whole log at every decision).

    PYTHONPATH=/path/to/old/tree python benches/cli_events.py   # the old build
    python benches/cli_events.py                                # this tree

Prints seconds for the whole match, seconds inside ``events_for``, and the decisions.
"""
import io
import sys
import time

from rich.console import Console

import krazy_core
from krazy_core import cli


def main(game="contract-rummy", seed=3, repeats=3):
    best = None
    for _ in range(repeats):
        out = io.StringIO()
        args = cli.build_parser().parse_args(["match", game, "--bots", "heuristic", "--seed", str(seed)])
        t0 = time.perf_counter()
        cli.play.cmd_match(args, Console(file=out, width=120, emoji=False))
        dt = time.perf_counter() - t0
        decisions = [ln for ln in out.getvalue().splitlines() if "decisions" in ln]
        best = min(best or dt, dt)
    print(f"{krazy_core.__file__}: krazy match {game} --bots heuristic --seed {seed}: "
          f"{best:.3f} s (best of {repeats}); {decisions[-1].strip() if decisions else ''}")
    # the event reading alone, the two ways, over the same game (the bots' seeds as the CLI's)
    from krazy_core.bots import make_bot
    g = krazy_core.make(game)
    bots = [make_bot("heuristic", seed=seed * 7919 + i) for i in range(g.num_players)]
    st = g.new_initial_state(seed=seed)
    states = [st.clone()]
    while not st.is_terminal():
        st.apply_action(bots[st.current_player()].step(st))
        states.append(st.clone())
    if not hasattr(st, "events_since"):
        return
    t0 = time.perf_counter()
    for s in states:
        s.events_for("all")
    whole = time.perf_counter() - t0
    t0 = time.perf_counter()
    shown = 0
    for s in states:
        s.events_for("all", since=shown)
        shown = s.num_events
    inc = time.perf_counter() - t0
    print(f"reading the log at each of {len(states)} decisions: whole log {whole:.3f} s, "
          f"incremental (since=) {inc:.4f} s, {whole / inc:.0f}x")


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["contract-rummy"]))
