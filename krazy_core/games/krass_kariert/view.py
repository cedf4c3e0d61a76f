"""Terminal table for KrassKariert: the viewer's hand in its fixed order with position
numbers, the adjacent cards they can play now marked, everyone's face-up reserve cards,
chips and hand sizes, and the current trick (KA-1 .. KA-15)."""

from __future__ import annotations

import re

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from krazy_core.cards import format_card
from krazy_core.games.krass_kariert.words import action_text as action_label  # noqa: F401  (the table's choice words)
from krazy_core.games.krass_kariert.words import combo_text
from krazy_core.games.krass_kariert.words import narrate as describe_event  # noqa: F401  (the play by play)
from krazy_core.errors import UnclearActionError

X, DRAW, STOP = 0x70, 0x71, 0x72
STYLE = {X: "bold magenta", DRAW: "bold cyan", STOP: "bold red"}

SHORT_FORMS = ("positions count from 1 (the first card is 1); 'p3' plays the card at position 3, '3-4' the cards at positions 3-4 (add the kind "
               "when X cards make several: '3-4 pair'); 'pair 5'; 'stop'; 'draw'; 'reserve 8 at 2' "
               "takes reserve 8 into position 2; 'insert 4' puts a drawn card at position 4")

ROUND_WORD = "hand"          # a round of KrassKariert is a hand (KA-3)


def card_text(code, style=None) -> Text:
    return Text(format_card(code), style=style or STYLE.get(code, "bold"))


def _chips(n, start):
    return "●" * n + "○" * max(0, start - n)


def _entry_text(e) -> Text:
    t = Text()
    if e["kind"] == "combination":
        for c in e["cards"]:
            t.append_text(card_text(c))
            t.append(" ")
        t.append("= " + combo_text(e["combination"], e.get("x_values")), style="bold yellow")
    elif e["kind"] == "stop":
        t.append("STOP — ends the trick (KA-11)", style=STYLE[STOP])
    elif e["kind"] == "draw":
        t.append("DRAW — the winner draws 3 (KA-12)", style=STYLE[DRAW])
    else:
        t.append("takes reserve ")
        t.append_text(card_text(e["cards"][0]))
    return t


def hand_table(obs) -> Table:
    """The viewer's hand: position numbers above the cards, playable cards underlined green."""
    hand = obs["hand"]
    marked: set[int] = set()
    for start, length in obs.get("playable", []):
        marked.update(range(start, start + length))
    t = Table(show_header=True, box=None, padding=(0, 1), header_style="dim")
    for i in range(len(hand)):
        t.add_column(str(i + 1), justify="center")       # positions from 1, as seats (typed_text)
    if hand:
        t.add_row(*[card_text(c, "bold green underline" if i in marked else None) for i, c in enumerate(hand)])
    return t


def playable_list(state, viewer) -> Text:
    """What the viewer can play now, by position from 1: the combinations (``1-2 pair 5``)
    and the special cards (``STOP at 5``, ``DRAW at 3``; KA-11, KA-12): "none" was shown
    while a STOP was playable."""
    seen = []
    for a in state.legal_actions(viewer):
        s = state.action_to_string(a)
        if s.startswith("play "):
            seen.append(_renumber_play(s)[5:])
        elif s.startswith(("stop ", "draw ")) and s.split()[1].isdigit():
            seen.append(f"{s.split()[0].upper()} at {int(s.split()[1]) + 1}")
    return Text("; ".join(seen) if seen else "none", style="green" if seen else "dim")


def render(state, viewer):
    """The table as seat ``viewer`` sees it (``None``: spectator, no hand shown)."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    cp = obs["current_player"]
    head = Table.grid(padding=(0, 2))
    head.add_column(justify="right", style="dim")
    head.add_column()
    head.add_row("Hand", f"{obs['hand_no']}, trick {obs['trick_no']}, led by seat {obs['leader'] + 1}")
    if obs["phase"] == "insert" and obs["pending_draws"]:
        # the cards being drawn still sit on top of the pile in the state (KA-12)
        k = obs["pending_draws"]
        left = obs["pile_size"] - k
        head.add_row("Draw pile", f"{left} card{'' if left == 1 else 's'} "
                                  f"(after the {k} being drawn)")
    else:
        head.add_row("Draw pile", f"{obs['pile_size']} card{'' if obs['pile_size'] == 1 else 's'}")
    if obs["terminal"]:
        head.add_row("Result", Text(f"seat {obs['loser'] + 1} had to give a chip and had none: game over (KA-15)",
                                    style="bold red"))
    elif obs["phase"] == "insert":
        head.add_row("To act", f"seat {cp + 1} inserts {obs['pending_draws']} drawn card(s) (KA-12)")
    else:
        head.add_row("To act", f"seat {cp + 1}" + (" (leads)" if obs["best"] is None else ""))
    best = obs["best"]
    if best is not None:
        what = "STOP" if best["stop"] else combo_text(best["combination"])
        head.add_row("To beat", Text(f"{what} by seat {best['player'] + 1}", style="bold yellow"))
    elif not obs["terminal"]:
        head.add_row("To beat", Text(f"nothing: seat {cp + 1} leads", style="bold yellow"))
    if obs["draws_in_trick"]:
        head.add_row("Draw cards", f"{obs['draws_in_trick']} in this trick: its winner draws "
                                   f"{3 * obs['draws_in_trick']}")

    trick = Table(title="Current trick", show_edge=False)
    trick.add_column("seat")
    trick.add_column("play")
    for e in obs["trick"]:
        trick.add_row(str(e["player"] + 1), _entry_text(e))

    seats = Table(title="Seats", show_edge=False)
    seats.add_column("seat")
    seats.add_column("cards", justify="right")
    seats.add_column("reserve (face up)")
    seats.add_column("chips")
    seats.add_column("known in hand", style="dim")
    for p in range(n):
        mark = "▶ " if p == cp else "  "
        who = f"{mark}{p + 1}" + (" (you)" if p == viewer else "")
        res = Text()
        for c in obs["reserves"][p]:
            if c is None:
                res.append("·  ", style="dim")
            else:
                res.append_text(card_text(c))
                res.append("  ")
        size = obs["hand_sizes"][p]
        seats.add_row(who, str(size) if size else "out", res, _chips(obs["chips"][p], obs["chips_start"]),
                      " ".join(format_card(c) for c in obs["known_cards"][p]),
                      style="bold yellow" if p == cp else None)
    parts = [head, trick if obs["trick"] else Text("Current trick: (nothing played yet)", style="dim"), seats]
    if viewer is not None:
        parts.append(Text("Your hand (fixed order; green = playable now):"))
        parts.append(hand_table(obs))
        if cp == viewer and obs["phase"] == "play":
            line = Text("You can play: ")
            line.append_text(playable_list(state, viewer))
            parts.append(line)
        if obs["drawn_card"] is not None:
            line = Text("Drawn card to insert: ")
            line.append_text(card_text(obs["drawn_card"]))
            parts.append(line)
    return Panel(Group(*parts), title="KrassKariert", border_style="green")


def compact(state, viewer, minimal=False):
    """The table in a few lines for a small terminal: what there is to beat and the trick so
    far first, then (unless ``minimal``) every seat's cards, reserve and chips, then the hand
    with its position numbers (playable cards green)."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    cp = obs["current_player"]
    best = obs["best"]
    t = Text("To beat ", style="dim")
    if obs["terminal"]:
        t = Text(f"Game over: seat {obs['loser'] + 1} had no chip to give (KA-15)", style="bold red")
    elif best is None:
        t.append(f"nothing: seat {cp + 1} leads", style="bold yellow")
    else:
        what = "STOP" if best["stop"] else combo_text(best["combination"])
        t.append(f"{what} (seat {best['player'] + 1})", style="bold yellow")
    if obs["draws_in_trick"]:
        t.append(f"   winner draws {3 * obs['draws_in_trick']}", style="bold cyan")
    lines = [t]
    if obs["trick"] and not minimal:
        tr = Text("Trick: ", style="dim")
        for i, e in enumerate(obs["trick"][-4:]):
            if i:
                tr.append(" · ")
            tr.append(f"{e['player'] + 1}: ")
            tr.append_text(_entry_text(e))
        lines.append(tr)
    if not minimal:
        lines.append(Text(f"Hand {obs['hand_no']}, trick {obs['trick_no']}, pile {obs['pile_size']}", style="dim"))
        seats = Text("Seats: ")
        for p in range(n):
            if p:
                seats.append(" · ")
            size = obs["hand_sizes"][p]
            seats.append(f"{'▶' if p == cp else ''}{p + 1}{' you' if p == viewer else ''}: "
                         f"{size if size else 'out'} {_chips(obs['chips'][p], obs['chips_start'])} R",
                         style="bold yellow" if p == cp else None)
            for c in obs["reserves"][p]:
                seats.append(" ")
                seats.append_text(card_text(c) if c is not None else Text("·", style="dim"))
        lines.append(seats)
    if viewer is not None:
        marked = set()
        for start, length in obs.get("playable", []):
            marked.update(range(start, start + length))
        hand = Text("Your hand: ")
        for i, c in enumerate(obs["hand"]):
            hand.append(f"{i + 1}:", style="dim")
            hand.append_text(card_text(c, "bold green underline" if i in marked else None))
            hand.append(" ")
        lines.append(hand)
        if obs["drawn_card"] is not None:
            lines.append(Text("Drawn card to insert: ") + card_text(obs["drawn_card"]))
    return Group(*lines)


def choice_groups(state, legal, labels):
    """Long runs of choices folded into one, then a position (KA-13 reserve takes: one
    choice per reserve card, then where in the hand; a drawn card's insert position):
    ``[(label, ask, {position: action})]`` for the groups of more than 3 moves."""
    groups = {}
    clash = set()
    for a, lab in zip(legal, labels):
        m = _X_PLAY.match(lab)
        if m:
            # plays with an X (KA-3) that differ only in the rank it stands for: one choice,
            # then which (seed 9: 44 choices, 12 of them "play 2 solo N (X=N)")
            span, kind, rank = m.group(1), m.group(2), m.group(3)
            key = f"play {span} {kind} with X"
            g = groups.setdefault(key, (f"{key} (then choose which)", f"Which {kind}", {}))
            if rank in g[2]:
                clash.add(key)
            g[2][rank] = a
        elif lab.startswith("take reserve ") and " into position " in lab:
            head, _, pos = lab.rpartition(" into position ")
            groups.setdefault(head, (f"{head} (then choose where)", "Into which position", {}))[2][pos] = a
        elif lab.startswith("insert the drawn ") and " at position " in lab:
            head, _, pos = lab.rpartition(" at position ")
            groups.setdefault(head, (f"{head} (then choose where)", "At which position", {}))[2][pos] = a
    out = []
    for key, g in groups.items():
        if len(g[2]) > 3 and key not in clash:
            if key.endswith(" with X"):             # ranks in order (1-12)
                g = (g[0], g[1], dict(sorted(g[2].items(), key=lambda kv: int(kv[0]))))
            out.append(g)
    return out


# "play 2-3 2-straight 5 (X=4,5): X X" -> span, kind, rank
_X_PLAY = re.compile(r"^play (\d+(?:-\d+)?) (solo|pair|triple|2-straight|3-straight) (\d+) \(X=[\d,]+\)")


# ---------------------------------------------------------------- positions from 1 at the table
# The engine (``string_to_action``, ``action_to_string``, its messages) numbers hand positions
# from 0 (KA-2: "position 0 is the first card dealt"); the table, like its seats, from 1.  What
# a player types is renumbered to the engine's count (``typed_text``), what the engine says back
# to the table's (``engine_text``).  The forms are those of ``notation`` (tested
# against it move by move in tests/test_cli_moves.py).

RULES_NOTE = ("At the table (krazy play) hand positions count from 1, as seats do: the first "
              "card of your hand is position 1, and you type them so ('p1', '3-4 pair', "
              "'reserve 8 at 2', 'insert 1'). The Python API "
              "(string_to_action, action_to_string) counts positions from 0.")


def _renumber_play(text: str) -> str:
    """``"play 0-1 pair 5"`` (the engine's) -> ``"play 1-2 pair 5"``."""
    m = re.match(r"play (\d+)(?:-(\d+))?", text)
    if not m:
        return text
    span = str(int(m.group(1)) + 1) + (f"-{int(m.group(2)) + 1}" if m.group(2) else "")
    return "play " + span + text[m.end():]


_KIND_WORDS = r"solo|single|2-straight|pair|3-straight|triple|straight"
_T_WINDOW = re.compile(rf"((?:(?:play|p)\s*)?)(\d+)(\s*-\s*)(\d+)((?:\s+(?:{_KIND_WORDS}))?(?:\s+\d+)?)"
                       rf"|((?:play|p)\s*)(\d+)((?:\s+(?:{_KIND_WORDS}))?(?:\s+\d+)?)")
_T_SPECIAL = re.compile(r"((?:play\s+)?(?:the\s+)?(?:stop|draw)(?:\s+card)?\s+(?:at\s+)?)(\d+)")
_T_INSERT = re.compile(r"((?:insert(?:\s+at)?|at)\s+(?:position\s+)?)(\d+)")
_T_SLOT = re.compile(r"(reserve slot [01] at )(\d+)")
_T_RESERVE = re.compile(r"((?:take\s+(?:reserve\s+)?|reserve\s+|r\s+)(?:\S+?\s*)??"
                        r"(?:(?:at|into|in|to)\s+(?:position\s+)?))(\d+)"
                        r"|((?:take\s+(?:reserve\s+)?|reserve\s+|r\s+)\S+\s+)(\d+)")


def _down(word: str) -> str:
    n = int(word)
    if n < 1:
        # (no "position N" in these words: engine_text would renumber it)
        raise UnclearActionError("positions count from 1 at the table, as seats do: the first card "
                                 "of your hand is p1")
    return str(n - 1)


def typed_text(state, text: str) -> str:
    """A typed move with its hand positions counted from 1 (the table's count) rewritten in
    the engine's count from 0: ``"p3"`` -> ``"p2"``, ``"3-4 pair"`` -> ``"2-3 pair"``,
    ``"reserve 8 at 2"`` -> ``"reserve 8 at 1"``, ``"insert 1"`` -> ``"insert 0"``.  Card
    ranks and combination values stay.  Raises ``UnclearActionError`` for a position 0."""
    want = " ".join(str(text).strip().lower().split())
    m = _T_SLOT.fullmatch(want) or _T_INSERT.fullmatch(want) or _T_SPECIAL.fullmatch(want)
    if m:
        return m.group(1) + _down(m.group(2))
    m = _T_WINDOW.fullmatch(want)
    if m:
        if m.group(2) is not None:
            return m.group(1) + _down(m.group(2)) + m.group(3) + _down(m.group(4)) + m.group(5)
        return m.group(6) + _down(m.group(7)) + m.group(8)
    m = _T_RESERVE.fullmatch(want)
    if m:
        if m.group(2) is not None:
            return m.group(1) + _down(m.group(2))
        return m.group(3) + _down(m.group(4))       # "r 8 2": card 8 into position 2
    return str(text)


def _up(m, *groups):
    out = m.group(0)
    # renumber the given groups right to left so earlier offsets stay valid
    for g in sorted(groups, key=lambda g: -m.start(g)):
        if m.group(g) is not None:
            a, b = m.start(g) - m.start(0), m.end(g) - m.start(0)
            out = out[:a] + str(int(m.group(g)) + 1) + out[b:]
    return out


_E_POSITIONS = re.compile(r"\bpositions? (\d+)((?:(?:-|\.\.| and )\d+)*)")
_E_RANGE = re.compile(r"\((\d+)\.\.(\d+)\)")
_E_ENDS = re.compile(r"\b(\d+) \(the (?:front|end)\)")
_E_QUOTED = re.compile(r"'(p?)(\d+)(?:-(\d+))?(?=[ '])")
_E_QUOTED_AT = re.compile(r"\b(at|stop|draw) (\d+)'")
_E_SPAN = re.compile(r"(?<![\w'-])(?<!position )(?<!positions )(\d+)(?:-(\d+))? is (?:past|no combination)")


def engine_text(state, text: str) -> str:
    """A message of the engine about hand positions (an ``UnclearActionError``, an
    ``explain_illegal`` reason) with its positions counted from 1, as the table counts them:
    ``"your hand has positions 0-9: 10-11 is past its end"`` -> ``"... 1-10: 11-12 ..."``."""
    def positions(m):
        nums = re.sub(r"\d+", lambda x: str(int(x.group(0)) + 1), m.group(2))
        return m.group(0)[:m.start(1) - m.start(0)] + str(int(m.group(1)) + 1) + nums
    text = _E_POSITIONS.sub(positions, text)
    text = _E_RANGE.sub(lambda m: _up(m, 1, 2), text)
    text = _E_ENDS.sub(lambda m: _up(m, 1), text)
    text = _E_QUOTED.sub(lambda m: _up(m, 2, 3), text)
    text = _E_QUOTED_AT.sub(lambda m: _up(m, 2), text)
    text = _E_SPAN.sub(lambda m: _up(m, 1, 2), text)
    return text


def typed_card(code) -> bool:
    """Whether a typed word that ``parse_card`` reads as ``code`` is written out as a card
    (``krazy_core.cli.moves._proper_name``): suit cards and Jokers only (codes below 0x60), so
    ``"draw"`` or ``"1"``, which read as KrassKariert cards, stay the words typed."""
    return 0 <= code < 0x60


def final_points(state):
    """The result table's column: the chips each seat has left (KA-15)."""
    return "chips left", list(state.observation(0)["chips"])


def round_summary(before, state, viewer):
    """Between hands: every seat's chips (KA-14, KA-15)."""
    obs = state.observation(viewer if viewer is not None else 0)
    t = Text("Chips: ")
    for p in range(obs["num_players"]):
        if p:
            t.append(" · ")
        t.append(f"seat {p + 1}{' (you)' if p == viewer else ''} {_chips(obs['chips'][p], obs['chips_start'])}")
    return t
