"""A fresh user at the terminal table (issue: resume, Crazy Rummy's typed melds and buy
offers, seat numbers, hints, wide lines, narration): each test fails on the table as it
was and passes now."""

import json

import krazy_core
from krazy_core.cards import format_card
from krazy_core import cli
from test_cli_table import krazy


# ---------------------------------------------------------------- item 1: --resume
def _saved_kk(tmp_path):
    """krazy-kings seed 7: roll for the deal, roll, play 2♠, quit; the save file."""
    save = str(tmp_path / "kk4.save")
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key",
                      "--save", save, input="\n\n1\nq\n")
    assert code == 0 and "seat 1 (you) plays 2♠" in out, out
    return save


def test_resume_fast_forwards_to_the_saved_position(tmp_path):
    save = _saved_kk(tmp_path)
    st = krazy_core.make("krazy-kings").state_from_json(open(save).read())
    moves = len(st.history())
    code, out = krazy("play", "krazy-kings", "--delay", "0", "--roll-key", "--resume", save, input="q\n")
    assert code == 0, out
    # the past is not played again: no Enter asked for the deal's roll, no old play by play
    assert "press Enter to roll" not in out
    assert "shuffles 54 cards" not in out and "plays 2♠" not in out
    assert f"Resumed at move {moves + 1} ({moves} moves played)." in out
    # the table once, as it is now (seat 1 holds 6 cards after playing 2♠ from 7)
    assert out.count("Your hand:") == 1
    flat = " ".join(out.split())
    assert "Your hand: 4♠ Q♠ 3♥ 3♦ 9♦ 9♣" in flat and "Your hand: (empty)" not in flat


def test_the_save_is_written_after_the_bots_moves_too(tmp_path, monkeypatch, capsys):
    # the save was written after the human's move only: at the next prompt it held the
    # position before the bots' replies (a crash there lost them)
    from rich.console import Console
    save = str(tmp_path / "kk.json")
    seen = []
    answers = iter(["1", "1", "1"])

    def answer(self, prompt="", **kw):
        if "your move" in prompt.lower():
            try:
                st = krazy_core.make("krazy-kings").state_from_json(open(save).read())
                seen.append((st.current_player(), len(st.history())))
            except FileNotFoundError:
                seen.append(None)
        return next(answers, "q")

    monkeypatch.setattr(Console, "input", answer)
    code = cli.main(["play", "krazy-kings", "--seed", "7", "--delay", "0", "--no-roll-key", "--save", save])
    capsys.readouterr()
    # at every prompt the file holds the position the human is asked about: seat 1 to act
    # (before, at the second prompt it held seat 4 to act, after 2♠ and before the bots)
    assert code == 0 and seen == [(0, 3), (0, 7)], seen


def test_a_resumed_game_goes_on_saving_to_its_file(tmp_path):
    save = _saved_kk(tmp_path)
    before = len(krazy_core.make("krazy-kings").state_from_json(open(save).read()).history())
    code, out = krazy("play", "krazy-kings", "--delay", "0", "--no-roll-key", "--resume", save, input="1\nq\n")
    assert code == 0 and f"continue with krazy play krazy-kings --resume {save}" in out.replace("\n", "")
    after = krazy_core.make("krazy-kings").state_from_json(open(save).read())
    assert len(after.history()) > before + 1 and after.current_player() == 0


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


def test_CR_5_cards_that_are_no_meld_say_why_in_the_rules_terms():
    played, st, out = _cr_turn("QH KH JK 2H 5S 5D 5C 9D 4D KD", ["lay 4d 9d kd"])
    flat = " ".join(out.split())
    assert played == [] and "books go down first" not in flat
    assert ("4♦ 9♦ K♦ is not a meld (CR-5): neither a book (3 or more cards of one rank, at most 1 "
            "wild: the ranks differ) nor a run (4 or more cards of one suit in sequence, at most 2 "
            "wilds: it has 3 cards, and 4♦ 9♦ K♦ are not consecutive)") in flat
    from krazy_core.games.contract_rummy import view
    from krazy_core.cards import parse_cards
    assert view.meld_problem(parse_cards("5s 5h jk 2c")) == (
        "5♠ 5♥ 🃏 2♣ is not a meld (CR-5): neither a book (3 or more cards of one rank, at most 1 "
        "wild: it holds 2 wilds) nor a run (4 or more cards of one suit in sequence, at most 2 "
        "wilds: the suits differ)")
    assert view.meld_problem(parse_cards("kh ah 2h 3h")).endswith(
        "A♥ 2♥ 3♥ K♥ go round the corner (K-A-2), which a run never does (CR-3))")
    assert view.meld_problem(parse_cards("kh ah 2h 3h"), ace_wrap=True) is None
    assert view.meld_problem(parse_cards("4d 9d kd jk")).endswith(
        "4♦ 9♦ K♦ are not consecutive: 7 cards missing, 1 wild to fill them)")
    assert view.meld_problem(parse_cards("5h 5h 6h 7h")).endswith("it holds 5♥ twice)")
    assert view.meld_problem(parse_cards("5s 5h 5h")) is None           # duplicates in a book


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


# ---------------------------------------------------------------- item 4: seats from 1
def test_rules_count_seats_and_positions_from_1_as_the_table_does():
    # `krazy rules` said "the first dealer is seat 0" (CR-6, KR-4) and "position 0 is the
    # first card dealt" (KA-3) while the table counts seats and positions from 1
    import re
    flat = {}
    for g in ("krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"):
        code, out = krazy("rules", g, "--no-pager")
        assert code == 0, out
        flat[g] = " ".join(out.split())
        shown = re.sub(r"(?:seat|position) 0 in the Python API", "", flat[g])
        assert not re.search(r"\b(?:seat|position|player) 0\b", shown), g
    assert "the first dealer is seat 1 (seat 0 in the Python API)" in flat["contract-rummy"]
    assert "The first dealer is seat 1 (option first_dealer; seat 0 in the Python API)" in flat["kings-rummy"]
    assert "position 1 is the first card dealt (position 0 in the Python API)" in flat["krass-kariert"]
    assert "The Python API (string_to_action, action_to_string) counts positions from 0." in flat["krass-kariert"]


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


def test_KK_11_a_last_card_that_meets_a_challenge_is_one_line():
    # seed 1, choice 1 every time: "seat 1 (you) plays 6♦ — LAST CARD!" and then "seat 1 (you)
    # meets the challenge with 6♦; seat 2 (heuristic bot) draws 6 cards", two lines for one card
    code, out = krazy("play", "krazy-kings", "--seed", "1", "--delay", "0", "--no-roll-key",
                      input="1\n" * 60 + "q\n")
    assert code == 0
    assert "seat 1 (you) meets the challenge with 6♦ — LAST CARD!; seat 2 (heuristic bot) draws 6 cards" in out
    assert "seat 1 (you) plays 6♦" not in out
    ui = __import__("krazy_core.ui", fromlist=["load_ui"]).load_ui("krazy-kings")
    names = ["seat 1 (you)", "seat 2"]
    ev = [{"event": "play", "player": 0, "card": 38, "card_text": "6♦", "announced": True},
          {"event": "last_card", "player": 0},
          {"event": "challenge_met", "player": 0, "card": 38, "card_text": "6♦", "challenger": 1}] + \
        [{"event": "draw", "player": 1, "card": None, "reason": "challenge met"}] * 6
    assert cli.narrate._log_lines(ui, ev, names) == ["seat 1 (you) meets the challenge with 6♦ — LAST CARD!; "
                                             "seat 2 draws 6 cards"]
    ev[0] = dict(ev[0], announced=False)
    del ev[1]
    assert cli.narrate._log_lines(ui, ev, names) == ["seat 1 (you) meets the challenge with 6♦; seat 2 draws 6 cards"]


def test_a_save_file_that_cannot_be_written_is_said_before_the_table_starts(tmp_path):
    # with a save after every action it failed at the first bot's move, mid play by play
    code, out = krazy("play", "krazy-kings", "--seed", "1", "--delay", "0", "--save",
                      str(tmp_path / "no" / "such" / "dir.save"), input="q\n")
    assert code == 2 and "--save: cannot write" in out and "rolls" not in out, out
    # a save goes through a file beside it and a rename: none is left behind
    save = tmp_path / "kk.save"
    code, out = krazy("play", "krazy-kings", "--seed", "1", "--delay", "0", "--save", str(save), input="1\nq\n")
    assert code == 0 and [p.name for p in tmp_path.iterdir() if p.is_file()] == ["kk.save"]


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


# ---------------------------------------------------------------- leftovers: the rules footer
def test_rules_footer_names_only_the_games_own_seat_options(capsys):
    # `krazy rules contract-rummy` named the seat options "dealer, first_dealer", which
    # Crazy Rummy does not have (its dealer rotates, CR-6); each game names its own
    expect = {"contract-rummy": "at the table (seat 1 is you in krazy play). ",
              "kings-rummy": "at the table (seat 1 is you in krazy play) and in the option that names a "
                             "seat (first_dealer).",
              "krazy-kings": "at the table (seat 1 is you in krazy play) and in the option that names a "
                             "seat (dealer).",
              "krass-kariert": "at the table (seat 1 is you in krazy play) and in the option that names a "
                               "seat (dealer)."}
    for g, tail in expect.items():
        assert cli.main(["rules", g, "--no-pager"]) == 0
        flat = " ".join(capsys.readouterr().out.split()) + " "
        assert "Seats count from 1 everywhere you type or read them: " + tail in flat, (g, flat[-400:])
        names = {o.name for o in krazy_core.game.get_spec(g).options}
        for o in {x for gid in krazy_core.available_games() for x in krazy_core.game.get_spec(gid).seat_options}:
            assert (f"({o})" in flat or f", {o}" in flat) == (o in names), (g, o)


# ---------------------------------------------------------------- leftovers: boolean options
def test_a_boolean_option_takes_the_usual_spellings(capsys):
    # -o ace_wrap=1 was refused ("must be true or false, got 1") while =true was taken
    import pytest
    from krazy_core.errors import ConfigError
    for word, want in (("1", True), ("0", False), ("true", True), ("False", False), ("yes", True),
                       ("NO", False), ("on", True), ("Off", False)):
        args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", f"ace_wrap={word}",
                                              "-o", "jokers=2"])
        game = cli.common._make_game(args)
        assert (game.options.ace_wrap, game.options.jokers) == (want, 2), word
    args = cli.build_parser().parse_args(["play", "krazy-kings", "-o", "free_reroll=0", "-o", "dealer=2"])
    assert (cli.common._make_game(args).options.free_reroll, cli.common._make_game(args).options.dealer) == (False, 1)
    for word in ("2", "maybe", "", "y"):
        args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", f"ace_wrap={word}"])
        with pytest.raises(ConfigError) as e:
            cli.common._make_game(args)
        assert str(e.value) == (f"option 'ace_wrap' is true or false (or 1/0, yes/no, on/off), "
                                f"got {word!r} (CR-3)")
    # an int option still reads 1 as 1
    args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", "penalty_cards=0"])
    assert cli.common._make_game(args).options.penalty_cards == 0
    # at the command line too
    assert cli.main(["play", "contract-rummy", "-o", "ace_wrap=off", "-o", "overlapping_runs=maybe"]) == 2
    assert "option 'overlapping_runs' is true or false (or 1/0, yes/no, on/off), got 'maybe' (CR-10)" in \
        " ".join(capsys.readouterr().out.split())


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


# ---------------------------------------------------------------- leftovers: house rules shown
def test_the_table_names_the_house_rules_that_are_on(capsys):
    # `krazy play contract-rummy -o ace_wrap=true` showed no sign of the option at the table
    code, out = krazy("play", "contract-rummy", "-o", "ace_wrap=1", "-o", "overlapping_runs=yes", "-o",
                      "jokers=2", "--seed", "1", "--delay", "0", input="q\n")
    lines = out.splitlines()
    assert code == 0 and lines[0].strip("─ ") == "Crazy Rummy — seed 1", out
    assert "House rules: jokers=2, ace_wrap, overlapping_runs" in lines[1:5], out
    # the defaults: no line (an option typed at its default is no house rule)
    code, out = krazy("play", "contract-rummy", "-o", "ace_wrap=false", "--seed", "1", "--delay", "0", input="q\n")
    assert code == 0 and "House rules" not in out and "Seats: seat 1 (you)" in out, out
    # a boolean turned off by name=false, a seat counted from 1 as typed
    assert cli.common.house_rules(krazy_core.make("krazy-kings", free_reroll=False, dealer=1, max_turns=300)) == \
        "free_reroll=false, max_turns=300, dealer=2"
    assert cli.common.house_rules(krazy_core.make("krass-kariert", two_straight=True)) == ""
    assert cli.common.house_rules(krazy_core.make("krazy-kings", doubles_reverse="never")) == "doubles_reverse=never"
    # krazy match too
    assert cli.main(["match", "kings-rummy", "-o", "rounds=1", "-o", "first_dealer=2", "--players", "2",
                     "--seed", "3", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "House rules: first_dealer=2, rounds=1", out[:300]


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


def test_CR_11_the_rules_say_melds_count_from_1_at_the_table(capsys):
    assert cli.main(["rules", "contract-rummy", "--no-pager"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert ("At the table (krazy play, and the browser table of krazy serve) melds are numbered from 1, "
            "as seats are: seat 1's melds are 1-3, seat 2's 4-6, and so on, and you type them so ('lay off "
            "7♥ on meld 4 high', 'swap 5♠ into meld 5'). The Python API (string_to_action, action_to_string, "
            "the events' meld) and the server's protocol number them from 0 (seat × 3 + 0..2).") in flat


def test_CR_11_the_round_summary_numbers_the_melds_laid_as_the_table_does():
    """The end-of-round line "Melds laid:" named each meld's seat but not its number, which the
    table and the moves use (from 1: seat 2's first meld is meld 4)."""
    import io
    import re
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui("contract-rummy")
    st = krazy_core.make("contract-rummy", num_players=2, rounds=2).new_initial_state(seed=4)
    while True:
        before = st.clone()
        st.apply_action(st.heuristic_action(st.current_player()))
        if st.observation(0)["round"] != before.observation(0)["round"] or st.is_terminal():
            break
    melds = before.observation(0)["melds"]
    assert melds, "the heuristic laid no meld in round 1 of seed 4"
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(ui.round_summary(before, st, 0))
    out = console.export_text()
    line = next(x for x in out.splitlines() if x.startswith("Melds laid: "))
    want = [f"meld {m['id'] + 1} (seat {m['owner'] + 1}): " for m in melds]
    assert [x for x in re.findall(r"meld \d+ \(seat \d\): ", line)] == want


def test_serve_refuses_a_port_outside_1_to_65535(capsys):
    """``krazy serve --port 99999`` printed "open http://127.0.0.1:99999/" and then waited with
    no error; a port out of range or not a number is refused before anything starts."""
    import pytest
    for bad in ("99999", "0", "-1", "abc"):
        with pytest.raises(SystemExit) as e:
            cli.main(["serve", "--port", bad])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --port: the port must be a number 1-65535, got '{bad}'" in err
    assert cli.build_parser().parse_args(["serve", "--port", "65535"]).port == 65535


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


def test_CR_16_the_table_says_which_of_the_seven_rounds_the_game_plays():
    """ "Round 1 (rounds 1..2 of 7)" read as a round of a round (a fresh user's find)."""
    import io
    from rich.console import Console
    from krazy_core.games.contract_rummy import view
    want = {(): "Round 1 of 7: 7 cards, contract 2 books",
            (("rounds", 2),): "Round 1 (this game plays rounds 1-2 of the 7): 7 cards, contract 2 books",
            (("first_round", 7), ("rounds", 1)): "Round 7 (this game plays round 7 of the 7): 13 cards, contract 3 runs"}
    for kw, line in want.items():
        s = krazy_core.make("contract-rummy", num_players=2, **dict(kw)).new_initial_state(seed=1)
        console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
        console.print(view.render(s, 0))
        assert line in " ".join(console.export_text().split())


def test_CR_10_a_whole_meld_typed_when_down_already_says_so():
    """ "lay kh kh kc" typed by a player who was down already (and held no K♥) was refused as
    "lay K♥ is not allowed now: cards are laid into melds only after 'go down'"."""
    played, st, out = _cr_turn("5S 5D 5C KH KH KC 9D 9H", ["lay 5s 5d 5c", "lay kh kh kc", "lay 9d 9h 9s"], rnd=1)
    flat = " ".join(out.split())
    assert played[:1] == ["go down"] and "finish meld" in played, played
    assert st.observation(0)["down"][0]
    assert ("you are down this round already (one lay-down a round, CR-10): lay off a card onto a meld "
            "instead, e.g. 'lay off 7h on meld 4 high' (CR-11)") in flat


def test_serve_on_a_busy_port_says_so_before_any_link():
    """``krazy serve`` on a port in use printed "open http://127.0.0.1:PORT/ in a browser" and
    then uvicorn's bind error: the link went to someone else's server."""
    import os
    import socket
    import subprocess
    import sys
    import tempfile
    import pytest
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    with socket.socket() as busy, tempfile.TemporaryDirectory() as cwd:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(krazy_core.__file__)))
        p = subprocess.run([sys.executable, "-m", "krazy_core.cli", "serve", "--port", str(port),
                            "--db", os.path.join(cwd, "t.sqlite3")], capture_output=True, text=True,
                           timeout=60, cwd=cwd, env=env)
    assert p.returncode == 3
    assert f"krazy serve: cannot listen on 127.0.0.1:{port}: " in p.stdout
    assert f"try --port {port + 1}" in p.stdout and "open http" not in p.stdout
