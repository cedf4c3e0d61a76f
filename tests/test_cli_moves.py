"""Reading a typed move at the terminal table: short forms, positions and seats from 1,
Crazy Rummy's whole melds and buy offers, refusals in the rules' words, the prompt's
choices, hints."""
from krazy_core import cli
from krazy_core.cards import format_card
from test_cli_table import krazy
import krazy_core
from cli_helpers import _cr_turn


def _ka_state_with_many_x_plays():
    from krazy_core.bots import make_bot
    from krazy_core.ui import load_ui
    ui = load_ui("krass-kariert")
    s = krazy_core.make("krass-kariert").new_initial_state(seed=0)
    bot = make_bot("heuristic", seed=0)
    while True:
        if s.current_player() == 0:
            legal = ui.action_order(s, s.legal_actions())
            labels = [ui.action_label(s, a) for a in legal]
            if len(labels) == 66:
                return ui, s, legal, labels
        s.apply_action(bot.step(s))


# ---------------------------------------------------------------- item 3: p at a buy offer (CR-8)
def _buy_offer():
    from contract_rummy_helpers import scripted
    return scripted(rnd=1, hands={0: "5S 5D 9C 4D KD 7H 8H"}, phase="buy_or_pass", cur=0,
                    turn_player=1, up="QC", discarder=3, turns=1)


def _answer_at(st, *typed):
    """``_human_turn`` of seat 1 answered ``typed``: ``(the move's name or None, the prompts
    asked, the screen)``."""
    import io
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui(st.game.game_id)
    ui.state = st
    console = Console(width=80, height=24, file=io.StringIO(), record=True, color_system=None)
    answers, prompts = iter(list(typed) + ["q"]), []
    console.input = lambda prompt="", **kw: prompts.append(prompt) or next(answers)
    args = cli.build_parser().parse_args(["play", st.game.game_id])
    a = cli.play._human_turn(console, st, 0, ui, [f"seat {p + 1} (you)" if p == 0 else f"seat {p + 1}"
                                             for p in range(st.num_players())], args, [])
    return (None if a is None else st.action_to_string(a)), prompts, console.export_text()


# ---------------------------------------------------------------- leftovers: melds from 1
def _cr_lay_off_turn():
    """Crazy Rummy seed 1, heuristic moves until seat 1 (seat 0 of the engine) may lay off."""
    st = krazy_core.make("contract-rummy").new_initial_state(seed=1)
    k = 0
    while not (st.current_player() == 0 and any(st.action_to_string(a).startswith("lay off")
                                                 for a in st.legal_actions())):
        st.apply_action(st.heuristic_action(seed=k))
        k += 1
    return st


def test_enter_alone_at_a_move_prompt_says_what_to_type():
    # an empty line answered "'' is not one of your moves. ..." (four lines of refusal)
    code, out = krazy("play", "kings-rummy", "--seed", "1", "--delay", "0", input="\n\nq\n")
    assert code == 0 and "'' is not" not in out
    assert out.count("Type the number of a move (1-2) or its name, then Enter.") == 2


def test_krass_kariert_plays_of_an_x_are_one_choice_then_which_rank():
    # KA-3: an X stands for any rank, so a lead held 12 "play 2 solo N (X=N)" lines and 12
    # each for every pair and straight with it: 66 choices, 9 pages at 40x15
    from krazy_core.cli import table as cli_table
    ui, s, legal, labels = _ka_state_with_many_x_plays()
    entries = cli_table.choice_entries(ui, s, legal, labels)
    assert len(entries) == 23
    solo = [e for e in entries if e[0] == "group" and e[1] == "play 3 solo with X (then choose which)"]     # position 3 from 1
    assert len(solo) == 1
    keys = list(solo[0][3])
    assert keys == [str(r) for r in range(1, 13)]
    assert cli_table.group_prompt(solo[0]) == "Which solo? (1-12; Enter to go back, q quit): "
    for r, a in solo[0][3].items():
        assert s.action_to_string(a).startswith(f"play 2 solo {r} ") and \
            ui.action_label(s, a) == f"play 3 solo {r} (X={r}): X"
    # every legal move is still reachable: as a choice, or in exactly one group
    reach = [e[1] for e in entries if e[0] == "move"] + [a for e in entries if e[0] == "group" for a in e[3].values()]
    assert sorted(reach) == sorted(legal)
    # and by its full name at the prompt
    from krazy_core import cli
    a, err = cli.moves._resolve_name(s, "play 3 solo 7 (X=7): X", legal, labels, ui=ui)
    assert err is None and a == solo[0][3]["7"]


def test_going_down_refusal_states_the_rank_order_without_a_contradicting_example():
    """Issue 16 item 13 (CR-10): refusing a lay while going down said "(so lay J♠ before J♥ ...)"
    even when the refused card was J♠; it now states the order itself: books one rank after
    another, naturals ♠ ♥ ♦ ♣, wilds last, runs from the low end."""
    import random

    import krazy_core
    game = krazy_core.make("contract-rummy")
    found = 0
    for seed in range(200):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and found < 3:
            if s.observation(s.current_player()).get("building_meld") is not None:
                legal = set(s.legal_actions())
                names = [(a, s.action_to_string(a)) for a in range(game.num_distinct_actions)]
                refused = [a for a, n in names if n.startswith("lay ") and a not in legal]
                if refused:
                    why = s.explain_illegal(refused[0])
                    assert "rank order" in why and "wilds last" in why and "CR-10" in why
                    assert "J♠ before J♥" not in why
                    found += 1
            s.apply_action(rng.choice(s.legal_actions()))
        if found >= 3:
            break
    assert found >= 3


def test_lay_before_going_down_names_the_contract():
    """A lay before 'go down' says that going down needs the round's contract (CR-4, CR-10)."""
    import krazy_core
    game = krazy_core.make("contract-rummy")
    s = game.new_initial_state(seed=1)
    while s.observation(s.current_player()).get("phase") not in ("play",):
        s.apply_action(s.legal_actions()[0])
    lays = [a for a in range(game.num_distinct_actions)
            if s.action_to_string(a).startswith("lay ") and a not in s.legal_actions()]
    why = s.explain_illegal(lays[0])
    assert "only after 'go down'" in why and "contract of round 1" in why and "CR-4" in why


# ------------------------------------------------------------------ KrassKariert positions from 1
def test_krass_kariert_positions_count_from_1_as_seats_do():
    # the hand was numbered 0:10 1:5 ... while seats counted from 1; now one count at the table,
    # in what is shown, typed, asked and answered
    code, out = krazy("play", "krass-kariert", "--seed", "4", "--delay", "0", input="p0\n3-4\n7\n3\np1\nq\n")
    flat = " ".join(out.split())
    assert code == 0 and "Traceback" not in out
    assert "Your hand: 1:10 2:5 3:10 4:1 5:9 6:2 7:11 8:3 9:1 10:2" in flat
    assert "1 play 1 solo 10: 10" in flat and "5 play 8-10 3-straight 3: 3 1 2" in flat
    assert "positions count from 1 at the table, as seats do: the first card of your hand is p1" in flat
    assert "positions 3-4 hold 10 1: no combination" in flat          # the cards at 3 and 4, counted from 1
    assert "Into which position? (1-11;" in flat
    assert "seat 1 (you) takes reserve 7 into their hand at position 3" in flat
    assert "Your hand: 1:10 2:5 3:7 4:10" in flat                       # the 7 is the third card
    assert "seat 1 (you) plays 10 as solo 10" in flat
    # the help and the rules say so
    code, out = krazy("play", "--help")
    assert "KrassKariert's hand positions: the first card of your hand is position 1" in " ".join(out.split())
    code, out = krazy("rules", "krass-kariert", "--no-pager")
    flat = " ".join(out.split())
    assert "At the table (krazy play) hand positions count from 1, as seats do" in flat
    assert "Seats count from 1 everywhere you type or read them: at the table (seat 1 is you in krazy play) " \
           "and in the option that names a seat (dealer)." in flat


def test_krass_kariert_every_move_typed_with_positions_from_1_is_that_move():
    """Each legal move of seeded states, typed in the table's count (its label, the short form
    of its positions, a reserve or insert place), reads to that move; the engine's messages
    come back in the same count."""
    from krazy_core import cli
    from krazy_core.ui import load_ui
    from test_cli_table import seeded_states
    ui = load_ui("krass-kariert")
    checked = 0
    for st, p in seeded_states("krass-kariert", seeds=4):
        legal = ui.action_order(st, st.legal_actions())
        labels = [ui.action_label(st, a) for a in legal]
        for a, lab in zip(legal, labels):
            engine = st.action_to_string(a)
            forms = [lab]
            w = engine.split()
            if w[0] == "play":
                lo, _, hi = w[1].partition("-")
                span = f"{int(lo) + 1}" + (f"-{int(hi) + 1}" if hi else "")
                forms.append(f"play {span} {' '.join(w[2:4])}")
            elif w[0] in ("stop", "draw"):
                forms.append(f"{w[0]} {int(w[1]) + 1}")
            elif w[0] == "insert":
                forms.append(f"insert {int(w[2]) + 1}")
            for text in forms:
                got, err = cli.moves._resolve_name(st, text, legal, labels, ui.short_forms, ui)
                if got is None and "fits" in (err or ""):
                    continue                    # an X card: several values, the label says which
                assert got == a, (text, engine, err)
                checked += 1
    assert checked > 200
    st = seeded_states("krass-kariert", seeds=1)[0][0]
    assert ui.engine_text(st, "your hand has positions 0-9: 10-11 is past its end") == \
        "your hand has positions 1-10: 11-12 is past its end"
    assert ui.engine_text(st, "position 12 is past the end of a hand of 10 cards") == \
        "position 13 is past the end of a hand of 10 cards"
    assert ui.engine_text(st, "say where it goes in your hand: 'reserve 7 at N', N from 0 (the front) "
                              "to 10 (the end)").endswith("N from 1 (the front) to 11 (the end)")


def test_crazy_rummy_t_at_a_buy_offer_is_refused_with_the_buy_offer_words():
    """CR-8: at a buy offer the moves are buy and pass; a typed 't' (the short form of taking
    the up-card, which is no move there) is refused, and the short forms the refusal lists
    say what to type at a buy offer."""
    import random
    from krazy_core import cli
    from krazy_core.ui import load_ui
    ui = load_ui("contract-rummy")
    game = krazy_core.make("contract-rummy", num_players=4)
    rng = random.Random(3)
    for seed in range(40):
        st = game.new_initial_state(seed=seed)
        while not st.is_terminal() and st.observation(st.current_player())["phase"] != "buy_or_pass":
            st.apply_action(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            break
    else:
        raise AssertionError("no buy offer in 40 random games")
    legal = ui.action_order(st, st.legal_actions())
    assert sorted(st.action_to_string(a) for a in legal) == ["buy", "pass"]
    labels = [ui.action_label(st, a) for a in legal]
    got, err = cli.moves._resolve_name(st, "t", legal, labels, ui.short_forms, ui)
    assert got is None
    assert "at a buy offer 'b' buys, 'p' passes" in " ".join(err.split())


def test_a_split_hint_is_not_called_about_the_same():
    # Krazy Kings seed 3, turn 4: the hint said "the search rates these moves about the same
    # (play K♣ 50%, play J♦ 40%, play 6♦ 10%)" — two moves stood out, one did not
    from krazy_core import cli
    labels, legal = ["play 6♦", "play J♦", "play K♣"], [1, 2, 3]
    split = cli.play._hint_text({3: 0.50, 2: 0.41, 1: 0.09}, labels, legal).plain
    assert split == "No clear hint: the search is split between play K♣ (50%) and play J♦ (41%); then play 6♦ 9%."
    flat = cli.play._hint_text({1: 0.34, 2: 0.33, 3: 0.33}, labels, legal).plain
    assert flat == "No clear hint: the search rates these moves about the same (play 6♦ 34%, play J♦ 33%, play K♣ 33%)."
    # a fresh user's two: 46% / 46% / 9% (two stand out), and 74% / 26% of two moves (one leads)
    even = cli.play._hint_text({2: 0.46, 3: 0.45, 1: 0.09}, labels, legal).plain
    assert even == "No clear hint: the search is split between play J♦ (46%) and play K♣ (45%); then play 6♦ 9%."
    two = cli.play._hint_text({1: 0.74, 2: 0.26}, labels[:2], legal[:2]).plain
    assert two == "Hint: play 6♦ (sure: 74% of the search's visits; next play J♦ 26%)"
    close = cli.play._hint_text({1: 0.55, 2: 0.45}, labels[:2], legal[:2]).plain
    assert close.startswith("No clear hint: the search rates these moves about the same")


def test_a_refused_second_draw_says_you():
    # Kings Rummy seed 4, 'take' then 'd': "draw is not allowed now: this player has drawn
    # already; now discard (KR-9)" — the table speaks to the player at it
    code, out = krazy("play", "kings-rummy", "-o", "rounds=2", "--seed", "4", "--delay", "0",
                      input="take\nd\nq\n")
    flat = " ".join(out.split())
    assert code == 0
    assert "draw is not allowed now: you have drawn already; now discard (KR-9)." in flat
    assert "this player" not in flat


def test_kings_rummy_short_forms_say_r_is_stars():
    # the refusal taught "a card alone discards it ('QR')" with no word that R is the ★ suit
    code, out = krazy("play", "kings-rummy", "-o", "rounds=2", "--seed", "4", "--delay", "0",
                      input="take\ndraw 2\nq\n")
    flat = " ".join(out.split())
    assert code == 0
    assert "a card alone discards it ('QH'; R is for ★ stars: 'QR'), 'out QR' goes out discarding it" in flat


def test_a_one_choice_prompt_does_not_say_1_to_1():
    # KrassKariert, a drawn card to insert: "Your move (1-1, or a name; h hint, q quit):"
    from krazy_core.cli import table as cli_table
    assert cli_table.prompt_text(None, 1, 1) == "Your move (1, or a name; h hint, q quit): "
    assert cli_table.prompt_text("Ann", 7, 2) == "Ann, your move (1-7, m more, or a name; h hint, q quit): "


def test_CR_8_pa_passes_every_buy_offer_of_the_round_against_bots_too():
    # `pa` (pass every offer this round) was taken only at a hot-seat hand-over
    code, out = krazy("play", "contract-rummy", "--seed", "5", "--delay", "0", input="t\npa\n1\n1\nq\n")
    flat = " ".join(out.split())
    assert code == 0 and "(pa: pass every offer this round; r: the rules)" in flat
    assert flat.count("seat 1 (you) passes (passing on every offer this round)") >= 2, flat[-1500:]


def test_CR_8_buy_can_help_only_a_player_not_down_or_with_a_place_for_the_card():
    from krazy_core.games.contract_rummy import words
    seen = {True: 0, False: 0}
    game = krazy_core.make("contract-rummy", num_players=4)
    for seed in range(40):
        s = game.new_initial_state(seed=seed)
        rng = __import__("random").Random(seed)
        while not s.is_terminal():
            p = s.current_player()
            obs = s.observation(p)
            if obs["phase"] == "buy_or_pass" and obs["down"][p]:
                c = obs["up_card"]
                ok = words.buy_can_help(s, p)
                seen[ok] += 1
                if not ok:                          # no wild, no book of its rank, no run end
                    assert c != 0x50 and c & 15 != 2
                    for m in words.table_melds(s):
                        if m["owner"] != p:
                            assert not (m["kind"] == "book" and m["rank"] == c & 15)
            elif obs["phase"] == "buy_or_pass":
                assert words.buy_can_help(s, p)     # not down: a buy may build the contract
            s.apply_action(rng.choice(s.legal_actions()))
        if seen[True] and seen[False] > 3:
            break
    assert seen[True] > 0 and seen[False] > 0, seen


def test_crazy_rummy_refusals_at_a_buy_offer_speak_to_the_buyer():
    # at a buy offer, 'lay 10s 10c jk' was refused with "seat 0 buys the up-card or passes
    # (CR-8)": the buyer is you, and seats count from 1
    code, out = krazy("play", "contract-rummy", "-o", "rounds=2", "--seed", "5", "--delay", "0",
                      input="d\npass\nlay 10s 10c jk\nq\n")
    flat = " ".join(out.split())
    assert code == 0
    assert "lay 10♠ is not allowed now: you buy the up-card or pass (CR-8)." in flat
    assert "seat 0" not in flat
    from krazy_core import cli

    class Seat2:
        def current_player(self):
            return 2
    assert cli.moves._you(Seat2(), "seat 0 first takes or declines the up-card (CR-8)") == \
        "seat 1 first takes or declines the up-card (CR-8)"
    assert cli.moves._you(Seat2(), "seat 2 holds no 5♠") == "you hold no 5♠"


def test_CR_5_a_run_typed_in_any_order_is_laid_as_its_run():
    # `lay qh kh jk 2h` was refused (the run was started from Q♥: typed low to high only);
    # Q♥ K♥ and two wilds are 10♥-K♥ with the wilds at 10 and J (or J-A: the lower first)
    played, st, out = _cr_turn("QH KH JK 2H 5S 5D 5C 9D 4D", ["lay 5s 5d 5c", "lay qh kh jk 2h"])
    assert played == ["go down", "lay 5♠", "lay 5♦", "lay 5♣", "finish meld",
                      "start run H from 10♥", "lay 🃏", "lay 2♥", "lay Q♥", "lay K♥", "finish meld"], out
    run = st.observation(0)["melds"][1]
    assert (run["kind"], run["suit"], run["lo"]) == ("run", 1, 10)
    assert [format_card(c) for c in run["cards"]] == ["🃏", "2♥", "Q♥", "K♥"]


def test_CR_10_whole_melds_typed_in_any_order_go_down_in_the_engines_order():
    # `lay qh qd qd, lay 10s 10c jk` (the documented line) was refused unless the melds came in
    # the engine's order (books by rank, then runs), and the player was stuck mid-lay-down
    played, st, out = _cr_turn("QH QD QD 10S 10C JK 4H 9D", ["lay qh qd qd, lay 10s 10c jk"], rnd=1)
    assert played[:5] == ["go down", "lay 10♠", "lay 10♣", "lay 🃏", "finish meld"], out
    assert played[5:9] == ["lay Q♥", "lay Q♦", "lay Q♦", "finish meld"], out
    assert st.observation(0)["down"][0]
    # a run typed before a book (round 2: a book and a run), the run's cards in any order
    played, st, out = _cr_turn("QH KH JK 2H 5S 5D 5C 9D 4D", ["lay qh kh jk 2h, lay 5s 5d 5c"])
    assert played == ["go down", "lay 5♠", "lay 5♦", "lay 5♣", "finish meld",
                      "start run H from 10♥", "lay 🃏", "lay 2♥", "lay Q♥", "lay K♥", "finish meld"], out
    from krazy_core.games.contract_rummy import view
    assert view.order_line(st, ["lay 5s 5d 5c", "lay qh kh jk 2h"]) is None      # in order already
    assert view.order_line(st, ["lay 5s 5d 5c", "discard 4d"]) is None           # not melds alone


def test_CR_5_run_order_helpers():
    from krazy_core.games.contract_rummy import view
    from krazy_core.cards import parse_cards
    # a 2 of the run's suit stands in its own place (CR-2): A-2-3-4 by any order typed
    assert view._run_places(parse_cards("4h 2h ah 3h"))[0] == [(0, 1, parse_cards("ah 2h 3h 4h"))]
    # an Ace high (CR-3): J-Q-K-A
    assert view._run_places(parse_cards("ah kh jh qh"))[0] == [(0, 11, parse_cards("jh qh kh ah"))]
    # fewest wilds first: 2♥ natural at 2 (2-5), before 3-6 with 2♥ as a wild at 6
    assert [w[:2] for w in view._run_places(parse_cards("3h 4h 2h 5h"))[0]] == [(0, 2), (1, 3)]
    ui_pieces = view.expand_typed(_cr_turn("5S", [])[1], "lay 5h 3h 4h 2h")
    assert ui_pieces[-3:-1] == ["start run H from 2♥", [("lay 2♥",), ("lay 3♥",), ("lay 4♥",), ("lay 5♥",)]]


def test_CR_8_p_passes_at_a_buy_offer_and_the_prompt_lists_it():
    # 'p' was "not one of your moves" at a buy offer
    move, prompts, out = _answer_at(_buy_offer(), "p")
    assert move == "pass" and len(prompts) == 1, out
    assert prompts[0] == "Your move (1-2, b buy, p pass, or a name; h hint, q quit): "
    assert _answer_at(_buy_offer(), "b")[0] == "buy"
    assert _answer_at(_buy_offer(), "d")[0] == "pass"          # the up-card's decline word
    assert _answer_at(_buy_offer(), "pass")[0] == "pass"


def test_CR_7_the_up_card_prompt_lists_take_and_draw():
    from contract_rummy_helpers import scripted
    st = scripted(rnd=1, hands={0: "5S 5D 9C 4D KD 7H 8H"}, phase="take_or_decline", cur=0,
                  up="QC", discarder=3, turns=1)
    move, prompts, out = _answer_at(st, "d")
    assert move == "decline up-card" and prompts[0] == \
        "Your move (1-2, t take, d draw, or a name; h hint, q quit): ", out
    # the dealer's first up-card (CR-7): declined, it is offered on and the dealer draws
    # nothing, so the prompt says "skip", not "draw" (a fresh user typed d to draw)
    st = scripted(rnd=1, hands={0: "5S 5D 9C 4D KD 7H 8H"}, phase="first_up_card", cur=0, up="QC")
    move, prompts, out = _answer_at(st, "d")
    assert move == "decline up-card" and prompts[0] == \
        "Your move (1-2, t take, d skip, or a name; h hint, q quit): ", out


# ---------------------------------------------------------------- item 5: the card examples
def test_a_bad_card_names_only_cards_of_the_game_CR_1_KR_1():
    # best_arrangement('5H XX', 1) said "try ... '3R' for stars" and then refused 3R (CR-1
    # has no stars); every example a refusal gives is a card the same function takes
    import re
    import pytest
    from krazy_core.games import contract_rummy as cr, melds
    cases = [(lambda h: cr.best_arrangement(h, 1), "Crazy Rummy"),
             (lambda h: cr.is_book(h), "Crazy Rummy"),
             (lambda h: melds.crazy_best_arrangement(h, contract=cr.CONTRACTS[1]), "Crazy Rummy"),
             (lambda h: melds.deadwood_points(h, 5), "Kings Rummy")]
    for f, name in cases:
        with pytest.raises(ValueError) as e:
            f("5H XX")
        msg = str(e.value)
        assert msg.startswith(f"'XX' is not a {name} card (try "), msg
        assert ("'3R'" in msg) == (name == "Kings Rummy"), msg         # stars: Kings Rummy only
        examples = re.findall(r"'([0-9A-Z]+)'", msg.split("(try ", 1)[1])
        assert len(examples) >= 4, msg
        for ex in examples:
            f("5H " + ex)                    # no ValueError: the example is a card here
    assert "'3R' for stars" in str(pytest.raises(ValueError, melds.deadwood_points, "5H AC", 5).value)


# ---------------------------------------------------------------- item 6: cosmetics
def test_a_prompt_wider_than_the_terminal_folds_at_spaces():
    # "Press Enter when seated, p to pass, pa to pass every offer this round, q to quit: " (85
    # columns, the hot-seat buy offer) ran past an 80-column terminal: a prompt is not wrapped
    import io
    from rich.console import Console
    from rich.cells import cell_len
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    asked = []
    console.input = lambda prompt="", **kw: asked.append(prompt) or "p"
    long = "Press Enter when seated, p to pass, pa to pass every offer this round, q to quit: "
    assert cli.common._ask(console, long) == "p"
    printed = console.export_text()
    assert printed == "Press Enter when seated, p to pass, pa to pass every offer this round, q to \n"
    assert asked == ["quit: "]
    assert all(cell_len(x) < 80 for x in printed.splitlines() + asked)
    short = "Your move (1-2, b buy, p pass, or a name; h hint, q quit): "
    assert cli.common._ask(console, short) == "p" and asked[-1] == short      # as it was


def test_KA_11_you_can_play_lists_a_playable_stop():
    # "You can play: none" was shown while the STOP card was the move to play
    import io
    import random
    from rich.console import Console
    from krazy_core.games.krass_kariert import view
    g = krazy_core.make("krass-kariert")
    r = random.Random(1)
    st = g.new_initial_state(seed=0)
    for _ in range(24):
        st.apply_action(st.heuristic_action(r.randrange(1000)))
    p = st.current_player()
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["stop 0", "stop 1"]
    assert view.playable_list(st, p).plain == "STOP at 1; STOP at 2"    # positions from 1
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(view.render(st, p))
    assert "You can play: STOP at 1; STOP at 2" in console.export_text()


def test_CR_3_a_run_round_the_corner_is_named_by_its_ranks():
    """A fresh user saw 'a run of spades, J to 15' for J Q K A 2 with ace_wrap (CR-3): the last
    rank round the corner is named as a rank (2), as the high Ace is (A)."""
    from krazy_core.games.contract_rummy.view import meld_words
    from krazy_core.cards import parse_card
    cards = [parse_card(c) for c in ("JS", "QS", "KS", "AS", "2S")]
    m = {"kind": "run", "suit": 0, "lo": 11, "cards": cards}
    words = meld_words(m)
    assert words == "a run of spades, J to 2: J♠ Q♠ K♠ A♠ 2♠", words     # the 2 in its place: natural
    m = {"kind": "run", "suit": 1, "lo": 11, "cards": [parse_card(c) for c in ("JH", "QH", "KH", "AH")]}
    assert meld_words(m).startswith("a run of hearts, J to A: "), meld_words(m)


# ---------------------------------------------------------------- leftovers: ace_wrap's warning
def test_CR_3_ace_wrap_says_it_can_take_a_lay_down_away(capsys):
    # a tester found that ace_wrap alone can remove a lay-down: the option's text says so
    import krazy_core.games.contract_rummy as cr
    doc = next(o.doc for o in cr.SPEC.options if o.name == "ace_wrap")
    assert doc.startswith("runs may go round the corner (K-A-2). Beware: ")
    assert "without overlapping_runs (and at times even with it) a hand can be unable to lay down a " \
           "contract it could make without ace_wrap" in doc
    assert cli.main(["rules", "contract-rummy", "--no-pager"]) == 0
    assert "two runs of a suit that then meet round the corner (10-K and A-4) join into one sequence" in \
        " ".join(capsys.readouterr().out.split())
    # what it says: the runs 10-K and A-4 of hearts meet round the corner (CR-10), with or
    # without overlapping_runs; this round 7 hand keeps a lay-down only with overlapping_runs
    two = "AH 2H 3H 4H 10H JH QH KH"
    assert cr.contract_options(two, 3) == [(("A♥", "2♥", "3♥", "4♥"), ("10♥", "J♥", "Q♥", "K♥"))]
    assert cr.contract_options(two, 3, ace_wrap=True) == []
    assert cr.contract_options(two, 3, ace_wrap=True, overlapping_runs=True) == []
    seven = "8H 10H 2S 4H AH QH KH 4S 10H 3H 2S JK JH 2H"
    assert cr.best_arrangement(seven, 7)[1:] == (["8♥", "10♥"], 15)
    assert cr.best_arrangement(seven, 7, ace_wrap=True) is None
    assert cr.best_arrangement(seven, 7, ace_wrap=True, overlapping_runs=True)[1:] == (["4♠"], 5)
    # the game is unchanged: the option only says so
    assert (cr.SPEC.options[1].name, cr.SPEC.options[1].default, cr.SPEC.options[1].kind) == ("ace_wrap", False, bool)


def test_CR_11_melds_are_numbered_from_1_at_the_table_shown_and_typed():
    # melds were numbered from 0 (seat 1's melds 0-2) while seats count from 1; now the table
    # shows and reads them from 1 (seat 1's 1-3, seat 2's 4-6); the engine keeps its ids
    import io
    import re
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui("contract-rummy")
    st = _cr_lay_off_turn()
    assert [m["id"] for m in st.melds()] == [0, 1, 2, 3, 4, 5, 9, 10, 11]       # the engine's, from 0
    legal = st.legal_actions()
    labels = [ui.action_label(st, a) for a in legal]
    assert [(st.action_to_string(a), lab) for a, lab in zip(legal, labels) if "meld" in lab] == \
        [("lay off 7♣ on meld 5 high", "lay off 7♣ on meld 6 high")]
    # every lay off and swap of the engine's table, typed with the table's number, is that move
    n = 0
    for a in range(164, 3008):
        engine = st.action_to_string(a)
        shown = re.sub(r"meld (\d+)", lambda m: f"meld {int(m.group(1)) + 1}", engine)
        assert ui.engine_text(st, engine) == shown
        if int(re.search(r"meld (\d+)", engine).group(1)) < 12:          # the 12 melds of 4 seats
            assert ui.typed_text(st, shown) == engine
            n += 1
    assert n == 53 * 12 * 2 + 52 * 12           # lay offs (53 kinds, 2 ends), swaps (no Joker swaps in)
    a, err = cli.moves._resolve_name(st, "lay off 7c on meld 6 high", legal, labels, None, ui)
    assert (st.action_to_string(a), err) == ("lay off 7♣ on meld 5 high", None)
    a, err = cli.moves._resolve_name(st, "lay off 7c on meld 5 high", legal, labels, None, ui)
    assert a is None and err == ("lay off 7♣ on meld 5 high is not allowed now: 7♣ does not extend the run "
                                 "of meld 5 at its high end (the next card of the suit there, wilds within "
                                 "the cap, CR-3, CR-5, CR-11).")
    a, err = cli.moves._resolve_name(st, "lay off 7c on meld 8 high", legal, labels, None, ui)
    assert err.endswith("there is no meld 8 on the table (meld numbers: seat 1: 1-3; seat 2: 4-6; "
                        "seat 3: 7-9; seat 4: 10-12).")
    for bad in ("0", "13", "99999999999", "-1"):          # -1 had the generic refusal
        a, err = cli.moves._resolve_name(st, f"lay off 7c on meld {bad} high", legal, labels, None, ui)
        assert (a, err) == (None, f"{bad} is not a meld number at this table: melds are numbered 1-12 "
                                  "(seat 1: 1-3; seat 2: 4-6; seat 3: 7-9; seat 4: 10-12) (or type the "
                                  "move's number from the list)")
    # the table, its few-line view and the play by play number them alike
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(ui.render(st, 0))
    console.print(ui.compact(st, 0))
    text = console.export_text()
    rows = re.findall(r"│ +(\d+) │ +(\d) │ run", text)
    assert rows == [("1", "1"), ("2", "1"), ("3", "1"), ("4", "2"), ("5", "2"), ("6", "2"),
                    ("10", "4"), ("11", "4"), ("12", "4")]
    assert "Meld numbers are fixed per seat (seat 1: 1-3; seat 2: 4-6; seat 3: 7-9; seat 4: 10-12)" in text
    assert "Melds (number: cards): 1: 2♠✱ 2♦✱ 5♠ 6♠ · 2: " in text and " · 12: 2♣ 3♣ 4♣ 5♣" in text
    names = [f"seat {p + 1}" for p in range(4)]
    lines = [ui.describe_event(e, names, state=st) for e in st.events_for(0)
             if e["event"] in ("lay", "meld", "lay_off", "swap")]
    assert "seat 3 swaps 7♥ into meld 11 and takes 2♥" in lines          # the engine's meld 10
    assert "seat 2 lays off J♠ on meld 10 (high end)" in lines
    assert "seat 1 completes meld 1, a run of spades, 3 to 6: 2♠✱ 2♦✱ 5♠ 6♠" in lines
    # the engine, its events and JSON keep their ids from 0
    swap = [e for e in st.events_for(0) if e["event"] == "swap"][-1]
    assert (swap["meld"], swap["card_text"], swap["wild_text"]) == (10, "7♥", "2♥")
    assert ui.describe_event(swap, names) == "seat 3 swaps 7♥ into meld 11 and takes 2♥"
    assert st.observation(0)["melds"][-1]["id"] == 11 and "meld 11" in st.action_to_string(164 + 11 * 2)


def test_CR_10_a_whole_meld_typed_at_a_single_move_prompt_is_laid():
    """Going down, "Your only move: lay K♥" refused the short form its help gives ("'lay kh kh
    kc': lay K♥ is the only move you have now") and took the same line a move later; and so
    "lay 5s 5d 5c" right after "go down" (a fresh user's find)."""
    played, st, out = _cr_turn("5S 5D 5C KH KH KC 9D", ["go down", "lay 5s 5d 5c", "lay kh kh kc"], rnd=1)
    assert played == ["go down", "lay 5♠", "lay 5♦", "lay 5♣", "finish meld",
                      "lay K♥", "lay K♥", "lay K♣", "finish meld"], out
    assert "is the only move you have now" not in out
    assert "Your only move: lay 5♠" in out and "Your only move: lay K♥" in out
    # a line that is not this move is still refused, and Enter still plays it
    played, st, out = _cr_turn("5S 5D 5C KH KH KC 9D", ["go down", "lay kh kh kc", ""], rnd=1)
    assert played[:2] == ["go down", "lay 5♠"]
    assert "'lay kh kh kc': lay 5♠ is the only move you have now" in " ".join(out.split())


def test_a_short_form_typed_at_a_single_move_prompt_plays_it():
    """Krazy Kings: with "play A♦" the only move, its short form 'ad' plays it, as it does at
    the list; another card is still refused."""
    import io
    import random
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui("krazy-kings")
    g = krazy_core.make("krazy-kings", num_players=2)
    s = g.new_initial_state(seed=0)
    rng = random.Random(0)
    while len(s.history()) < 10:
        s.apply_action(rng.choice(s.legal_actions()))
    (only,) = s.legal_actions()
    assert s.current_player() == 0 and s.action_to_string(only) == "play A♦"
    args = cli.build_parser().parse_args(["play", "krazy-kings"])
    for typed, want in ((["ad"], only), (["kd", "q"], None)):
        console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
        answers = iter(typed)
        console.input = lambda prompt="", **kw: next(answers)
        assert cli.play._forced_turn(console, s, 0, "play A♦", only, ["you", "bot"], args, [], ui) == want
        out = console.export_text()
        assert ("'kd': play A♦ is the only move you have now" in out) == (want is None)


def test_CR_10_a_whole_meld_typed_when_down_already_says_so():
    """ "lay kh kh kc" typed by a player who was down already (and held no K♥) was refused as
    "lay K♥ is not allowed now: cards are laid into melds only after 'go down'"."""
    played, st, out = _cr_turn("5S 5D 5C KH KH KC 9D 9H", ["lay 5s 5d 5c", "lay kh kh kc", "lay 9d 9h 9s"], rnd=1)
    flat = " ".join(out.split())
    assert played[:1] == ["go down"] and "finish meld" in played, played
    assert st.observation(0)["down"][0]
    assert ("you are down this round already (one lay-down a round, CR-10): lay off a card onto a meld "
            "instead, e.g. 'lay off 7h on meld 4 high' (CR-11)") in flat
