"""Terminal table for Crazy Rummy: the viewer's hand (sorted), the round's contract, every
player's melds with their numbers (from 1, as seats: ``typed_text``, ``engine_text``), the
up-card on offer, who acts (a buyer out of turn too), and the scores per round."""

from __future__ import annotations

import re

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from krazy_core.cards import format_card, parse_card
from krazy_core.games.contract_rummy.words import (  # noqa: F401  (re-exported: the table's words)
    RANK_SHORT, RANK_WORDS, SUIT_WORDS, WILD_MARK, contract_words, engine_text, meld_no as _no, meld_ranges, meld_wilds,
    meld_words)
from krazy_core.games.contract_rummy.words import action_text as action_label  # noqa: F401  (the table's choice words)
from krazy_core.games.contract_rummy.words import narrate as describe_event  # noqa: F401  (the play by play)
from krazy_core.ui import plural
from krazy_core.games.contract_rummy.words import (  # noqa: F401  (the shapes of melds, CR-5)
    _book_reason, _gaps, _is_wild, _run_places, _sequence_reason, meld_problem)
from krazy_core.errors import UnclearActionError

SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", 5: "bold magenta"}
PHASE_WORDS = {"first_up_card": "dealer: take the first up-card?", "take_or_decline": "take the up-card or draw",
               "buy_or_pass": "buy the up-card (+ penalty card) or pass", "play": "play (go down, lay off, swap, discard)",
               "going_down": "going down", "over": "game over"}

SHORT_FORMS = ("'t' takes the up-card, 'd' declines it; at a buy offer 'b' buys, 'p' passes; a card alone discards it ('8s'); 'lay 5s 5h "
               "5d' lays a whole meld (a run's cards in any order); cards in letters ('lay off JK on meld 3 high'); a lay off on a "
               "book needs no end")


def card_text(code: int) -> Text:
    return Text(format_card(code), style=SUIT_STYLE.get(code >> 4, "bold"))


def cards_text(codes) -> Text:
    t = Text()
    for i, c in enumerate(codes):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
    return t




def meld_text(m) -> Text:
    """A meld's cards in order, each card standing as a wild marked ✱ as in the hand."""
    t = Text()
    for i, (c, wild) in enumerate(zip(m["cards"], meld_wilds(m))):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
        if wild:
            t.append(WILD_MARK, style="bold yellow")
    return t


def meld_id_note(n) -> Text:
    """Why meld numbers have gaps: each seat owns three fixed numbers (seat s, from 1:
    3s-2..3s; the engine's ids seat*3 + k, from 0, one less), so a seat's melds keep their
    numbers all round and numbers of melds not laid are skipped.  The number is what a lay
    off or a swap is typed with."""
    t = Text(f"Meld numbers are fixed per seat ({meld_ranges(n)}); gaps are melds not laid. Type "
             f"the number to lay off or swap: 'lay off CARD on meld N', 'swap CARD into meld N'. ", style="dim")
    t.append(WILD_MARK, style="bold yellow")
    t.append(" = a wild", style="dim")
    return t


def render(state, viewer):
    """The table as seat ``viewer`` sees it (``None``: spectator, no hand shown)."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    head = Table.grid(padding=(0, 2))
    head.add_column(justify="right", style="dim")
    head.add_column()
    opts = state.game.options
    last = min(7, opts.first_round + opts.rounds - 1)
    # "1 of 7", or with rounds / first_round "3 (this game plays rounds 3-4 of the 7)": "Round 1
    # (rounds 1..2 of 7)" read as a round of a round (a fresh user's find)
    which = (f"{obs['round']} of 7" if (opts.first_round, last) == (1, 7) else
             f"{obs['round']} (this game plays round {last} of the 7)" if opts.first_round == last else
             f"{obs['round']} (this game plays rounds {opts.first_round}-{last} of the 7)")
    head.add_row("Round", f"{which}: {obs['cards_dealt']} cards, contract "
                 f"[bold]{contract_words(obs['contract'])}[/bold]")
    head.add_row("Dealer", f"seat {obs['dealer'] + 1}")
    up = obs["up_card"]
    pile = obs["discard_pile"]
    if up is not None:
        head.add_row("Up-card", card_text(up))
    else:
        head.add_row("Discard", card_text(pile[-1]) if pile else Text("(empty)", style="dim"))
    head.add_row("Stock", plural(obs['stock_size'], "card"))
    if obs["terminal"]:
        head.add_row("Result", "game over")
    else:
        cp = obs["current_player"]
        who = f"seat {cp + 1}"
        if obs["turn_player"] is not None and cp != obs["turn_player"]:
            who += f" (out of turn; seat {obs['turn_player'] + 1}'s turn)"
        head.add_row("To act", f"{who}: {PHASE_WORDS.get(obs['phase'], obs['phase'])}")
        head.add_row("Turn", f"{obs['turn']} of at most {obs['max_turns']}")

    seats = Table(title="Seats", show_edge=False)
    seats.add_column("seat")
    seats.add_column("cards", justify="right")
    seats.add_column("down")
    seats.add_column("buys", justify="right")
    seats.add_column("total", justify="right")
    for p in range(n):
        mark = "▶ " if p == obs["current_player"] else "  "
        seats.add_row(f"{mark}{p + 1}" + (" (you)" if p == viewer else ""), str(obs["hand_sizes"][p]),
                      "yes" if obs["down"][p] else "", str(obs["buys"][p]), str(obs["totals"][p]),
                      style="bold yellow" if p == obs["current_player"] else None)

    melds = Table(title="Melds on the table", show_edge=False)
    melds.add_column("meld", justify="right")
    melds.add_column("seat", justify="right")
    melds.add_column("kind")
    melds.add_column("cards")
    for m in obs["melds"]:
        building = obs["building_meld"] == m["id"]
        melds.add_row(str(m["id"] + 1), str(m["owner"] + 1), m["kind"] + (" (building)" if building else ""),
                      meld_text(m))
    parts = [head, seats]
    if obs["melds"]:
        parts += [melds, meld_id_note(n)]
    if obs["scores"]:
        sc = Table(title="Scores per round", show_edge=False)
        sc.add_column("round")
        for p in range(n):
            sc.add_column(f"seat {p + 1}", justify="right")
        for rnd, row in obs["scores"]:
            win = obs["round_results"][rnd - 1]
            sc.add_row(str(rnd), *[str(x) + (" ★" if p == win else "") for p, x in enumerate(row)])
        sc.add_row("total", *[str(x) for x in obs["totals"]], style="bold")
        parts.append(sc)
    if viewer is not None:
        parts.append(hand_text(obs["hand"]))
    return Panel(Group(*parts), title="Crazy Rummy", border_style="green")


def compact(state, viewer, minimal=False):
    """The table in a few lines for a small terminal: the up-card or discard first, then
    (unless ``minimal``) the round, every seat and the melds by id, then the hand."""
    obs = state.observation(viewer if viewer is not None else 0)
    n = obs["num_players"]
    cp = obs["current_player"]
    up = obs["up_card"]
    pile = obs["discard_pile"]
    t = Text("Up-card " if up is not None else "Discard ", style="dim")
    shown = up if up is not None else (pile[-1] if pile else None)
    t.append_text(card_text(shown) if shown is not None else Text("(empty)", style="dim"))
    if not obs["terminal"]:
        who = f"seat {cp + 1}"
        if obs["turn_player"] is not None and cp != obs["turn_player"]:
            who += f" (out of turn, seat {obs['turn_player'] + 1}'s turn)"
        t.append(f"   {who}: {PHASE_WORDS.get(obs['phase'], obs['phase'])}", style="dim")
    lines = [t]
    if not minimal:
        lines.append(Text(f"Round {obs['round']}: {obs['cards_dealt']} cards, contract "
                          f"{contract_words(obs['contract'])}; stock {obs['stock_size']}; "
                          f"turn {obs['turn']}/{obs['max_turns']}", style="dim"))
        seats = Text("Seats: ")
        for p in range(n):
            if p:
                seats.append(" · ")
            word = (f"{'▶' if p == cp else ''}{p + 1}{' you' if p == viewer else ''}: "
                    f"{plural(obs['hand_sizes'][p], 'card')}{' (gone down)' if obs['down'][p] else ''}"
                    f", {obs['totals'][p]} pts")
            seats.append(word, style="bold yellow" if p == cp else None)
        lines.append(seats)
        if obs["melds"]:
            ml = Text("Melds (number: cards): ", style="dim")
            for i, m in enumerate(obs["melds"]):
                if i:
                    ml.append(" · ")
                ml.append(f"{m['id'] + 1}: ", style="bold cyan")
                ml.append_text(meld_text(m))
            lines.append(ml)
    if viewer is not None:
        lines.append(hand_text(obs["hand"]))
    return Group(*lines)


def hand_text(codes) -> Text:
    """The hand grouped by suit, Aces high within a suit, wilds (2s and Jokers, CR-2) last
    and marked with ✱."""
    wild = [c for c in codes if (c & 15) == 2 or c >> 4 == 5]
    t = Text("Your hand: ")
    for suit in range(4):
        group = sorted((c for c in codes if c >> 4 == suit and c not in wild),
                       key=lambda c: 14 if (c & 15) == 1 else (c & 15))
        if group:
            t.append_text(cards_text(group))
            t.append("   ")
    if wild:
        t.append("wild: ", style="dim")
        for c in sorted(wild):
            t.append_text(card_text(c))
            t.append(WILD_MARK + " ", style="bold yellow")
    return t




def typed_card(code) -> bool:
    """Whether a typed word that ``parse_card`` reads as ``code`` is a card of this table,
    written out as the table writes it: the suit cards and Jokers (codes below 0x60; the
    CLI's chained moves, ``krazy_core.cli.moves._proper_name``)."""
    return 0 <= code < 0x60


def final_points(state):
    """The result table's column: each seat's total points (fewest wins)."""
    return "points (fewest wins)", list(state.observation(0)["totals"])


def _cards_in(text):
    """The card codes of the words of ``text`` (``"5s 5♥ JK"``), or ``None`` when a word is
    not a card (``krazy_core.cards.parse_card``; suit cards and Jokers only)."""
    out = []
    for w in str(text).split():
        try:
            c = parse_card(w)
        except (ValueError, TypeError, KeyError):
            return None
        if type(c) is not int or not 0 <= c < 0x60:
            return None
        out.append(c)
    return out


def expand_typed(state, text):
    """A typed line that stands for several moves (the CLI's chained moves):

    - ``lay 5♠ 5♥ 5♦`` (two cards or more): a whole meld -- ``go down`` first when that is
      still to do; a run (naturals of several ranks) in any order: it is sorted into its
      run (CR-5: one suit in sequence, the wilds filling the gaps, a 2 of the suit in its
      own place natural, CR-2; an Ace low or high, CR-3), fewest wilds first, then the
      order typed when that is a run low to high, then the lowest run that may be started
      now; it is started from its lowest place (``start run H from 10♥`` for ``lay qh kh jk
      2h``), then each card, in whichever order the engine takes them (a book's naturals in
      suit order, its wild last: the CLI tries the run's order first), then ``finish meld``
      (CR-7, CR-10).  Cards that are neither a book nor a run raise ``UnclearActionError``
      saying why (``meld_problem``), unless a meld is being built (the cards may add to it);
    - a card alone (``8s``) discards it when that is legal, as in the other games;
    - ``take`` / ``t`` takes the up-card, ``decline`` / ``draw`` / ``d`` declines it (and draws);
    - at a buy offer (CR-8) ``b`` buys, ``p`` / ``d`` / ``decline`` / ``n`` / ``no`` pass.

    ``None`` for anything else."""
    words = str(text).split()
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    if len(words) >= 3 and words[0].lower() == "lay" and words[1].lower() != "off":
        cards = _cards_in(" ".join(words[1:]))
        if not cards:
            return None
        out = ["go down"] if "go down" in legal else []
        wrap = bool(getattr(state.game.options, "ace_wrap", False))
        building = _building(state)
        me = state.current_player()
        obs = state.observation(me) if me >= 0 else {}
        if obs.get("phase") != "going_down" and obs.get("down") and obs["down"][me]:
            # (it said "lay K♥ is not allowed now: cards are laid into melds only after 'go
            # down'", to a player who was down and held no K♥: a fresh user's find)
            raise UnclearActionError("you are down this round already (one lay-down a round, CR-10): "
                                     "lay off a card onto a meld instead, e.g. 'lay off 7h on meld 4 "
                                     "high' (CR-11)", matches=None)

        if _book_reason(cards) is None or building:
            return out + [[(f"lay {format_card(c)}",) for c in cards], "finish meld"]
        ways, _ = _run_places(cards, wrap)
        if not ways:
            raise UnclearActionError(meld_problem(cards, wrap), matches=None)
        least = ways[0][0]
        ways = [w for w in ways if w[0] == least]

        suit = _run_suit(cards)
        starts = {lo: f"start run {'SHDC'[suit]} from {format_card((suit << 4) | ((lo - 1) % 13 + 1))}"
                  for _, lo, _ in ways}
        typed = [w for w in ways if w[2] == cards]
        now = [w for w in ways if starts[w[1]] in legal]
        _, lo, run = (typed or now or ways)[0]
        return out + [starts[lo], [(f"lay {format_card(c)}",) for c in run], "finish meld"]
    word = " ".join(words).lower()
    for short, move in (("take", "take up-card"), ("t", "take up-card"), ("decline", "decline up-card"),
                        ("draw", "decline up-card"), ("d", "decline up-card"), ("b", "buy"),
                        ("p", "pass"), ("decline", "pass"), ("d", "pass"), ("n", "pass"), ("no", "pass")):
        if word == short and move in legal:
            return [move]
    cards = _cards_in(text)
    if cards is not None and len(cards) == 1 and f"discard {format_card(cards[0])}" in legal:
        return [f"discard {format_card(cards[0])}"]
    return None


def order_line(state, parts):
    """A typed line of whole melds going down (``lay qh qd qd, lay 10s 10c jk``: two or more
    pieces, each ``lay`` and 3 or more cards) with its melds put in the order the engine
    lays a contract (CR-10: the books by rank, then the runs by suit and first place), so
    the melds may be typed in any order; ``None`` for any other line, or one in that order
    already."""
    keyed = []
    for x in parts:
        words = str(x).split()
        if len(words) < 4 or words[0].lower() != "lay" or words[1].lower() == "off":
            return None
        cards = _cards_in(" ".join(words[1:]))
        if not cards or len(cards) < 3:
            return None
        if _book_reason(cards) is None:
            nat = [c & 15 for c in cards if not _is_wild(c)]
            keyed.append(((0, nat[0] if nat else 2), x))
            continue
        try:
            pieces = expand_typed(state, x) or []
        except Exception:                       # not a meld: the pieces say why, one by one
            return None
        start = next((p for p in pieces if isinstance(p, str) and p.startswith("start run ")), None)
        if start is None:
            return None
        code = _cards_in(start.split(" from ")[1])[0]
        keyed.append(((1, (code >> 4) * 32 + (code & 15)), x))
    if len(keyed) < 2:
        return None
    ordered = [x for _, x in sorted(keyed, key=lambda kx: kx[0])]
    return None if ordered == list(parts) else ordered


def _run_suit(cards):
    nat = [c >> 4 for c in cards if not _is_wild(c)]
    if nat:
        return nat[0]
    return next(c >> 4 for c in cards if c != 0x50)


def _building(state):
    """Whether a meld is being built and holds cards already (going down, CR-10)."""
    try:
        obs = state.observation(state.current_player())
    except Exception:
        return False
    m = obs.get("building_meld")
    return m is not None and any(x.get("id") == m and x.get("cards") for x in obs.get("melds", ()))


def prompt_keys(state):
    """The short answers the prompt lists: at a buy offer ``b buy, p pass`` (CR-8), at the
    up-card ``t take, d draw`` (CR-8), the dealer's first up-card ``t take, d skip`` (CR-7:
    declined, it is offered on and the dealer draws nothing); else ``None``."""
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    if "buy" in legal and "pass" in legal:
        return "b buy, p pass"
    if "pass" in legal:
        return "p pass"
    if "take up-card" in legal and "decline up-card" in legal:
        first = state.observation(state.current_player()).get("phase") == "first_up_card"
        return "t take, d skip" if first else "t take, d draw"
    return None


def prompt_hint(state):
    """The terminal's keys beside the engine's prompt: at a buy offer, ``pa`` passes every
    offer of the round (CR-8)."""
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    return "pa: pass every offer this round" if "buy" in legal and "pass" in legal else None


def typed_action(state, action, text):
    """A lay off typed without its end (``lay off 2♠ on meld 5``) when both ends of the run
    are open is not played at one end by choice: ``UnclearActionError`` asks which (CR-8)."""
    name = engine_text(state, state.action_to_string(action))       # the meld as the table numbers it
    low = " " + " ".join(str(text).lower().split()) + " "
    if name.startswith("lay off ") and name.endswith((" low", " high")) and \
            not any(w in low for w in (" low ", " high ", " lo ", " hi ")):
        base = name.rsplit(" ", 1)[0]
        both = [a for a in state.legal_actions() if action_label(state, a) in (base + " low", base + " high")]
        if len(both) == 2:
            raise UnclearActionError(f"{base} fits both ends of the run: type '{base} low' or "
                                     f"'{base} high'", matches=both)
    return action


def round_summary(before, state, viewer):
    """Between rounds: the melds on the table just before the round ended (``before``: the
    state before the move that ended it), the hands left, and the scores per round."""
    obs = state.observation(viewer if viewer is not None else 0)
    parts = []
    if before is not None:
        b = before.observation(viewer if viewer is not None else 0)
        if b["melds"]:
            ml = Text("Melds laid: ", style="dim")
            for i, m in enumerate(b["melds"]):
                if i:
                    ml.append(" · ")
                ml.append(f"meld {_no(m['id'])} (seat {m['owner'] + 1}): ")
                ml.append_text(meld_text(m))
            parts.append(ml)
    if obs["scores"]:
        n = obs["num_players"]
        sc = Table(title="Scores per round (fewest wins)", show_edge=False)
        sc.add_column("round")
        for p in range(n):
            sc.add_column(f"seat {p + 1}" + (" (you)" if p == viewer else ""), justify="right")
        for rnd, row in obs["scores"][-5:]:
            win = obs["round_results"][rnd - 1]
            sc.add_row(str(rnd), *[str(x) + (" ★" if p == win else "") for p, x in enumerate(row)])
        sc.add_row("total", *[str(x) for x in obs["totals"]], style="bold")
        parts.append(sc)
    return Group(*parts)


# ---------------------------------------------------------------- meld numbers from 1 at the table
# The engine (``action_to_string``, ``string_to_action``, its messages, the events, the JSON,
# the server's protocol) numbers melds seat*3 + k from 0; the terminal table and the browser
# table, like their seats, from 1 (seat 1's melds 1-3, seat 2's 4-6, ...).  What a player types is
# renumbered to the engine's count (``typed_text``), what the engine says back to the
# table's (``engine_text``), as KrassKariert's hand positions are.

RULES_NOTE = ("At the table (krazy play, and the browser table of krazy serve) melds are numbered "
              "from 1, as seats are: seat 1's melds are 1-3, seat 2's 4-6, and so on, and you type "
              "them so ('lay off 7♥ on meld 4 high', 'swap 5♠ into meld 5'). The Python API "
              "(string_to_action, action_to_string, the events' meld) and the server's protocol "
              "number them from 0 (seat × 3 + 0..2).")

_MELD_NO = re.compile(r"\b(meld\s+)(-?\d+)\b", re.I)     # -1 too: "not a meld number"


def typed_text(state, text: str) -> str:
    """A typed move with its meld numbered from 1 (the table's count) in the engine's count
    from 0: ``"lay off 7h on meld 4 high"`` -> ``"lay off 7h on meld 3 high"``, ``"swap 5s
    into meld 5"`` -> ``"... meld 4"``.  Raises ``UnclearActionError`` for a number that is
    no meld of this table, saying the numbers there are."""
    n = state.game.num_players

    def down(m):
        k = int(m.group(2)) if len(m.group(2)) < 8 else 0      # (-1, a huge number: no meld)
        if not 1 <= k <= 3 * n:
            # (no "meld N" in these words: engine_text would renumber it)
            raise UnclearActionError(f"{m.group(2)} is not a meld number at this table: melds are "
                                     f"numbered 1-{3 * n} ({meld_ranges(n)})", matches=None)
        return m.group(1) + str(k - 1)
    out = _MELD_NO.sub(down, str(text))
    # a book has no ends (CR-8): 'lay off 4h on meld 8 high' onto a book lays it off there
    # (the end named a run's and the refusal said the card does not fit the book)
    end = re.match(r"(?i)^(\s*lay\s+off\s+.*\bmeld\s+(\d+))\s+(low|high|lo|hi)\s*$", out)
    if end is not None:
        try:
            obs = state.observation(state.current_player())
        except (ValueError, TypeError):
            obs = {}
        if any(x.get("id") == int(end.group(2)) and x.get("kind") == "book" for x in obs.get("melds", ())):
            out = end.group(1)
    return out

