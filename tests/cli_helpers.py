"""Helpers of the terminal table's tests."""
from krazy_core import cli


# ---------------------------------------------------------------- item 2: typed melds (CR-5)
def _cr_turn(hand, typed, rnd=2, **opts):
    """Seat 1 (seat 0 of the engine) of a scripted Crazy Rummy round ``rnd`` after the draw,
    holding ``hand``; the lines ``typed`` answered at the table's prompts until the turn
    ends or the lines run out: ``(moves played, screen text)``."""
    import io
    from rich.console import Console
    from contract_rummy_helpers import scripted
    from krazy_core.ui import load_ui
    st = scripted(rnd=rnd, hands={0: hand}, phase="play", discard_below="7C", up_live=False,
                  discarder=1, turns=1, **opts)
    ui = load_ui("contract-rummy")
    ui.state = st
    console = Console(width=100, height=40, file=io.StringIO(), record=True, color_system=None)
    answers = iter(list(typed) + ["q"])
    console.input = lambda prompt="", **kw: next(answers)
    queue, played = [], []
    args = cli.build_parser().parse_args(["play", "contract-rummy"])
    while st.current_player() == 0:
        a = cli.play._human_turn(console, st, 0, ui, [f"seat {p + 1}" for p in range(4)], args, queue)
        if a is None:
            break
        played.append(st.action_to_string(a))
        st.apply_action(a)
    return played, st, console.export_text()
