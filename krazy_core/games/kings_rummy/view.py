"""Terminal table for Kings Rummy: the viewer's hand grouped by suit with the round's wilds
marked, the discard pile's top, the stock size, the round and its wild rank, a running
score table, hands laid down this round, and the last round's melds and points."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from krazy_core.cards import format_card
from krazy_core.games.kings_rummy.words import action_text as action_label  # noqa: F401  (the table's choice words)
from krazy_core.games.kings_rummy.words import narrate as describe_event  # noqa: F401  (the play by play)
from krazy_core.ui import plural
from krazy_core.games import melds

SUIT_NAMES = ("Spades", "Hearts", "Diamonds", "Clubs", "Stars")
SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", 4: "bold blue",
              5: "bold magenta"}
RANK_TEXT = {11: "J", 12: "Q", 13: "K"}
PHASE_WORDS = {"draw": "draw from the stock or take the discard", "discard": "discard (or go out)",
               "over": "game over"}

SHORT_FORMS = ("'d' draws from the stock, 't' takes the discard pile's top; a card alone "
               "discards it ('QH'; R is for ★ stars: 'QR'), 'out QR' goes out discarding it")


def _rank(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


def is_wild(code: int, wild_rank: int) -> bool:
    """A Joker or a card of the round's wild rank (KR-3)."""
    return code == 0x50 or (code & 15) == wild_rank


def card_text(code: int, wild_rank: int = 0) -> Text:
    """One card, coloured by suit; a wild is shown reversed with a ✱."""
    if wild_rank and is_wild(code, wild_rank):
        return Text(format_card(code) + "✱", style="reverse " + SUIT_STYLE.get(code >> 4, "bold"))
    return Text(format_card(code), style=SUIT_STYLE.get(code >> 4, "bold"))


def cards_text(codes, wild_rank: int = 0, sep: str = " ") -> Text:
    t = Text()
    for i, c in enumerate(codes):
        if i:
            t.append(sep)
        t.append_text(card_text(c, wild_rank))
    return t


def hand_by_suit(codes, wild_rank: int) -> Table:
    """The hand in rows: one per suit (ascending), then the wilds."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", style="dim")
    grid.add_column()
    wilds = [c for c in codes if is_wild(c, wild_rank)]
    for s in range(5):
        row = sorted((c for c in codes if c >> 4 == s and not is_wild(c, wild_rank)), key=lambda c: c & 15)
        if row:
            grid.add_row(SUIT_NAMES[s], cards_text(row, wild_rank))
    if wilds:
        grid.add_row("Wild", cards_text(sorted(wilds), wild_rank))
    return grid


def arrangement_text(codes, wild_rank: int, points_too: bool = True) -> Text:
    """``[3♥ 4♥ 5♥] [6♠ 6♥ 6♣]  left: 9♦ = 9`` -- the best arrangement (KR-12); without
    ``points_too`` the `` = 9`` is left to a column of its own."""
    groups, left, points = melds.best_arrangement(codes, melds.kings_rules(wild_rank), as_codes=True)
    t = Text()
    for g in groups:
        t.append("[")
        t.append_text(cards_text(g, wild_rank))
        t.append("] ")
    if left:
        t.append(" left: ", style="dim")
        t.append_text(cards_text(left, wild_rank))
    if points_too:
        t.append(f"  = {points}", style="bold")
    return t


def render(state, viewer):
    """The table as seat ``viewer`` sees it (``None``: a spectator; no hand shown)."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    w = obs["wild_rank"]
    head = Table.grid(padding=(0, 2))
    head.add_column(justify="right", style="dim")
    head.add_column()
    head.add_row("Round", f"{obs['round']} of {obs['final_round']}: {obs['cards_dealt']} cards each, "
                          f"dealer seat {obs['dealer'] + 1}")
    head.add_row("Wilds", Text(f"{_rank(w)}s and Jokers", style="bold magenta"))
    top = obs["top_card"]
    head.add_row("Discard pile", (card_text(top, w) + Text(f"  ({plural(len(obs['discard_pile']), 'card')})", style="dim"))
                 if top is not None else Text("(empty)", style="dim"))
    head.add_row("Stock", plural(obs['stock_size'], 'card'))
    cp = obs["current_player"]
    if obs["terminal"]:
        head.add_row("Result", "game over")
    else:
        head.add_row("To act", f"seat {cp + 1}: {PHASE_WORDS.get(obs['phase'], obs['phase'])}" + (" (last turn)" if obs["went_out"] is not None else ""))
    if obs["went_out"] is not None:
        head.add_row("Went out", f"seat {obs['went_out'] + 1}; {plural(obs['last_turns_left'], 'last turn')} to go")
    head.add_row("Turn", f"{obs['turn']} of at most {obs['max_turns']} this round")

    seats = Table(title="Scores", show_edge=False)
    seats.add_column("seat")
    seats.add_column("cards", justify="right")
    seats.add_column("known / laid down")
    seats.add_column("total", justify="right")
    totals = obs["scores"]
    best = min(totals) if totals else 0
    for p in range(n):
        mark = "▶ " if p == cp else "  "
        who = f"{mark}{p + 1}" + (" (you)" if p == viewer else "")
        laid = obs["laid_down"][p]
        if laid is not None:
            info = arrangement_text(laid, w)
        elif obs["known_cards"][p]:
            info = Text("holds ") + cards_text(obs["known_cards"][p], w)
        else:
            info = Text("")
        if obs["went_out"] == p:
            size = "out"                          # every card laid down (KR-10)
        elif laid is not None:
            size = "laid"                         # a last-turn hand laid down (KR-11)
        else:
            size = str(obs["hand_sizes"][p])
        seats.add_row(who, size, info,
                      Text(str(totals[p]), style="bold green" if totals[p] == best else ""),
                      style="bold yellow" if p == cp else None)
    parts = [head, seats]
    if viewer is not None and obs["laid_down"][viewer] is None:
        hand = obs["hand"]
        parts.append(Panel(hand_by_suit(hand, w), title="Your hand", border_style="cyan"))
        if hand:
            parts.append(Text("Best arrangement now: ", style="dim") + arrangement_text(hand, w))
    last = obs["last_round"]
    if last:
        t = Table(title=f"Round {last['round']} (wild {_rank(last['wild_rank'])}s)", show_edge=False)
        t.add_column("seat")
        t.add_column("melds and cards left")
        t.add_column("points", justify="right")
        for p in range(n):
            who = f"{p + 1}" + (" went out" if last["went_out"] == p else "")
            t.add_row(who, arrangement_text(last["hands"][p], last["wild_rank"]), str(last["points"][p]))
        parts.append(t)
    return Panel(Group(*parts), title="Kings Rummy", border_style="green")


def compact(state, viewer, minimal=False):
    """The table in a few lines for a small terminal: the discard pile's top first, then
    (unless ``minimal``) the round and every seat, then the hand and its best arrangement."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    w = obs["wild_rank"]
    cp = obs["current_player"]
    top = obs["top_card"]
    t = Text("Discard top ", style="dim")
    t.append_text(card_text(top, w) if top is not None else Text("(empty)", style="dim"))
    t.append(f"   {_rank(w)}s and Jokers wild", style="magenta")
    if obs["went_out"] is not None:
        t.append(f"   seat {obs['went_out'] + 1} went out: last turns", style="bold yellow")
    lines = [t]
    if not minimal:
        status = "game over" if obs["terminal"] else f"seat {cp + 1}: {PHASE_WORDS.get(obs['phase'], obs['phase'])}"
        lines.append(Text(f"Round {obs['round']}/{obs['final_round']}  stock {obs['stock_size']}  "
                          f"turn {obs['turn']}  {status}", style="dim"))
        seats = Text("Scores: ")
        for p in range(n):
            if p:
                seats.append(" · ")
            seats.append(f"{'▶' if p == cp else ''}{p + 1}{' you' if p == viewer else ''}: "
                         f"{obs['scores'][p]} pts, {plural(obs['hand_sizes'][p], 'card')}",
                         style="bold yellow" if p == cp else None)
        lines.append(seats)
    if viewer is not None and obs["laid_down"][viewer] is None:
        hand = Text("Your hand: ")
        for s in range(5):
            row = sorted((c for c in obs["hand"] if c >> 4 == s and not is_wild(c, w)), key=lambda c: c & 15)
            if row:
                hand.append_text(cards_text(row, w))
                hand.append("  ")
        wilds = sorted(c for c in obs["hand"] if is_wild(c, w))
        if wilds:
            hand.append_text(cards_text(wilds, w))
        lines.append(hand)
        if obs["hand"] and not minimal:
            best = Text("Best now: ", style="dim") + arrangement_text(obs["hand"], w)
            outs = state.facts(viewer)["arrangement"]["go_out"]      # the engine's KR-10 aid
            if outs:
                best.append("  discard " + " or ".join(format_card(c) for c in outs) + " to go out",
                            style="bold green")
            lines.append(best)
    return Group(*lines)


def typed_card(code) -> bool:
    """Whether a typed word that ``parse_card`` reads as ``code`` is a card of this table,
    written out as the table writes it: the suit cards and Jokers (codes below 0x60; the
    CLI's chained moves, ``krazy_core.cli.moves._proper_name``)."""
    return 0 <= code < 0x60


def final_points(state):
    """The result table's column: each seat's total points (fewest wins, KR-15)."""
    return "points (fewest wins)", list(state.observation(0)["scores"])


def round_summary(before, state, viewer):
    """Between rounds: each seat's melds and cards left in the round just scored, its points
    and its total (KR-12, KR-14)."""
    obs = state.observation(viewer if viewer is not None else 0)
    last = obs["last_round"]
    if not last:
        return Text("")
    n = obs["num_players"]
    t = Table(title=f"Round {last['round']} (wild {_rank(last['wild_rank'])}s)", show_edge=False)
    t.add_column("seat")
    t.add_column("melds and cards left", overflow="fold")     # wrapped, never cut with "…"
    t.add_column("points", justify="right")
    t.add_column("total", justify="right")
    for p in range(n):
        who = f"{p + 1}" + (" you" if p == viewer else "") + (" out" if last["went_out"] == p else "")
        t.add_row(who, arrangement_text(last["hands"][p], last["wild_rank"], points_too=False), str(last["points"][p]),
                  str(obs["scores"][p]))
    return t
