"""Terminal table for Krazy Kings: the viewer's hand, the top card, the dice as they fall,
whose turn it is, every seat's card count and rules phase, the direction of play."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from krazy_core.cards import format_card
from krazy_core.games.krazy_kings.words import DIE, dice_text  # noqa: F401  (DIE: the terminal's dice)
from krazy_core.games.krazy_kings.words import action_text as action_label  # noqa: F401  (the table's choice words)
from krazy_core.games.krazy_kings.words import narrate as describe_event  # noqa: F401  (the play by play)
from krazy_core.ui import plural

# spades and clubs in the terminal's own text colour (bold white vanished on light backgrounds)
SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", 5: "bold magenta"}
PHASE_WORDS = {"over": "game over", "round_one": "Round One",
               "round_two": "Round Two", "round_two_rolled": "Round Two, match the roll",
               "challenged": "meet the King's challenge", "open_roll": "match the open roll",
               "direction": "choose the direction of play"}

SHORT_FORMS = ("a card alone plays it ('7h', 'QS', 'JK'), calling 'last card' when it leaves "
               "you one card")


def card_text(code: int) -> Text:
    return Text(format_card(code), style=SUIT_STYLE.get(code >> 4, "bold"))


def render(state, viewer):
    """The table as seat ``viewer`` sees it (``None``: spectator, no hand shown)."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    head = Table.grid(padding=(0, 2))
    head.add_column(justify="right", style="dim")
    head.add_column()
    top = obs["top_card"]
    head.add_row("Top card", card_text(top) if top is not None else Text("(empty discard pile)", style="dim"))
    head.add_row("Stock", plural(obs['stock_size'], "card"))
    head.add_row("Direction", "clockwise ↻" if obs["direction"] > 0 else "counter-clockwise ↺")
    head.add_row("Turn", f"{obs['turn']} of at most {obs['max_turns']}")
    cp = obs["current_player"]
    if obs["terminal"]:
        head.add_row("Result", "game over")
    else:
        head.add_row("To act", f"seat {cp + 1} ({PHASE_WORDS.get(obs['phase'], obs['phase'])})")
    if obs["roll"]:
        head.add_row("Dice", dice_text(obs["roll"]))
    if obs["open_roll"]:
        head.add_row("Open roll", dice_text(obs["open_roll"]) + "  (KK-12: match it)")
    if obs["challenger"] is not None and not obs["terminal"]:      # a finished game has none
        head.add_row("Challenge", f"seat {obs['challenger'] + 1} played a King")

    seats = Table(title="Seats", show_edge=False)
    seats.add_column("seat")
    seats.add_column("cards", justify="right")
    seats.add_column("rules")
    for p in range(n):
        mark = "▶ " if p == cp else "  "
        who = f"{mark}{p + 1}" + (" (you)" if p == viewer else "")
        cards = obs["hand_sizes"][p]
        seats.add_row(who, str(cards) + (" LAST CARD" if cards == 1 else ""),
                      "Round Two" if obs["round_two"][p] else "Round One",
                      style="bold yellow" if p == cp else None)
    parts = [head, seats]
    if viewer is not None:
        hand = Text("Your hand: ")
        for c in obs["hand"]:
            hand.append_text(card_text(c))
            hand.append("  ")
        parts.append(hand)
    return Panel(Group(*parts), title="Krazy Kings", border_style="green")


def compact(state, viewer, minimal=False):
    """The table in a few lines, for a small terminal: the top card, the dice and any
    challenge first, then (unless ``minimal``) the turn and every seat, then the hand."""
    return _compact(state.observation(viewer if viewer is not None else 0), viewer, minimal)


# a human's own dice (KK-3 deal, KK-6/KK-8 turn rolls, KK-11 a King's challenge, KK-12 the
# open roll, KK-16 the roll-off die, KK-19 caught): each waits for Enter at a terminal
ROLL_EVENTS = {"roll": "the dice", "open_roll": "the dice", "deal_roll": "the dice", "challenge": "the dice",
               "rolloff_die": "your die", "caught": "the dice"}

# what a roll of a human's own is for, said at its "press Enter to roll" (KK-3, KK-6 ...)
ROLL_WORDS = {
    "deal_roll": "The deal: roll for the number of cards you are dealt (KK-3).",
    "roll": "Round One: roll, then play a card matching a die or their sum (KK-6).",
    "roll_r2": "No card to play on the top card: roll, then play a card matching it (KK-8).",
    "reroll": "Nothing matched: roll again (free reroll, KK-6).",
    "reroll_r2": "Nothing matched: roll again (free reroll, KK-8).",
    "open_roll": "No card matches the open roll: roll a new one (KK-12).",
    "challenge": "Your King challenges the next player: roll what they must match (KK-11).",
    "caught": "Caught without calling last card: roll; if your card matches, you win (KK-19).",
    "rolloff_die": "Roll-off (KK-16): roll one die; highest picks the direction, others draw it.",
}


def roll_kind(event, earlier) -> str:
    """The key of ``ROLL_WORDS`` for a roll event of a human seat (``earlier``: the events
    before it in the same batch)."""
    k = event["event"]
    if k == "roll":
        prev = earlier[-1] if earlier else None
        if prev is not None and prev.get("event") == "roll" and prev.get("player") == event.get("player"):
            return "reroll"
        return "roll"
    return k


def before_roll(state, seat, later, earlier=()):
    """What a human sees before rolling their own dice: the table as it was just before the
    roll and what the roll is for.  ``later``: ``state.events_for(seat)`` from the roll on (the
    state has already rolled; the cards dealt or drawn from the roll on are taken back out of
    the hand shown, and the dice are not shown).  Returns ``(renderable, words)``."""
    obs = dict(state.observation(seat))
    hand = list(obs["hand"])
    sizes = list(obs["hand_sizes"])
    for e in later:
        if e.get("event") in ("deal", "draw") and isinstance(e.get("player"), int):
            sizes[e["player"]] = max(0, sizes[e["player"]] - 1)
            if e["player"] == seat and e.get("card") in hand:
                hand.remove(e["card"])
    drawn = sum(1 for e in later if e.get("event") in ("deal", "draw"))
    if not any(e.get("event") == "stock_rebuilt" for e in later):
        obs["stock_size"] += drawn      # the cards the roll brought are still in the stock
    obs.update(hand=hand, hand_sizes=sizes, roll=None, current_player=seat, terminal=False)
    kind = roll_kind(later[0], list(earlier)) if later else "roll"
    if kind in ("roll", "reroll") and obs["round_two"][seat]:
        kind = "roll_r2" if kind == "roll" else "reroll_r2"     # Round Two's roll and reroll: KK-8
    obs["open_roll"] = None             # the state's open roll may be this roll's
    if obs["challenger"] == seat:       # the challenge this roll makes
        obs["challenger"] = None
    obs["phase"] = "your roll" if kind != "rolloff_die" else "roll-off"
    return _compact(obs, seat, False), ROLL_WORDS.get(kind, "roll the dice")


def _compact(obs, viewer, minimal):
    n = obs["num_players"]
    cp = obs["current_player"]
    top = obs["top_card"]
    t = Text("Top card ", style="dim")
    t.append_text(card_text(top) if top is not None else Text("(none)", style="dim"))
    if obs["roll"]:
        t.append("   dice " + dice_text(obs["roll"]))
    if obs["open_roll"]:
        t.append("   open roll " + dice_text(obs["open_roll"]) + " (match it, KK-12)")
    if obs["challenger"] is not None and not obs["terminal"]:
        t.append(f"   King's challenge by seat {obs['challenger'] + 1}", style="bold yellow")
    lines = [t]
    if not minimal:
        arrow = "↻" if obs["direction"] > 0 else "↺"
        status = "game over" if obs["terminal"] else \
            f"seat {cp + 1}: {PHASE_WORDS.get(obs['phase'], obs['phase'])}"
        lines.append(Text(f"Turn {obs['turn']}/{obs['max_turns']}  stock {obs['stock_size']}  "
                          f"play {arrow}  {status}", style="dim"))
        seats = Text("Seats: ")
        for p in range(n):
            if p:
                seats.append(" · ")
            size = obs["hand_sizes"][p]
            word = f"{'▶' if p == cp else ''}{p + 1}{' you' if p == viewer else ''}: " + \
                ("LAST CARD" if size == 1 else plural(size, "card")) + (" R2" if obs["round_two"][p] else "")
            seats.append(word, style="bold yellow" if p == cp else None)
        lines.append(seats)
    if viewer is not None:
        hand = Text("Your hand: ")
        for c in obs["hand"]:
            hand.append_text(card_text(c))
            hand.append(" ")
        if not obs["hand"]:
            hand.append("(empty)", style="dim")
        lines.append(hand)
    return Group(*lines)


def action_order(state, legal):
    """Announced last-card plays first (KK-19), so choice 1 is never the trap."""
    return [a for a in legal if 53 <= a < 106] + [a for a in legal if not 53 <= a < 106]


def unlisted(state, action) -> bool:
    """A play leaving one card without the "last card" call, when the call is legal (KK-19):
    not a numbered choice (it was offered as a normal move), typed by name with ``no call``."""
    return 0 <= action < 53 and action + 53 in state.legal_actions()


def prompt_hint(state):
    """Beside the engine's prompt: how to play the last card without calling (KK-19)."""
    calls = [a for a in state.legal_actions() if 53 <= a < 106]
    if not calls:
        return None
    return f"'{state.action_to_string(calls[0] - 53)} no call' plays it without the call: you will be caught (KK-19)"


def typed_card(code) -> bool:
    """Whether a typed word that ``parse_card`` reads as ``code`` is a card of this table,
    written out as the table writes it: the suit cards and Jokers (codes below 0x60; the
    CLI's chained moves, ``krazy_core.cli.moves._proper_name``)."""
    return 0 <= code < 0x60


def typed_action(state, action, text):
    """A play typed by name (``play 9♣``, ``9c``) that leaves the player one card calls "last
    card" (KK-19): the announced play when it is legal, unless the text says not to
    (``no call``, ``without``, ``silent``: the listed "(without calling ...)" choice or its
    number is the way to choose the trap on purpose)."""
    low = str(text).lower()
    if 0 <= action < 53 and action + 53 in state.legal_actions() and \
            not any(w in low for w in ("no call", "without", "silent", "no last")):
        return action + 53
    return action


def final_points(state):
    """The result table's column: the cards each seat holds at the end."""
    return "cards left", list(state.observation(0)["hand_sizes"])
