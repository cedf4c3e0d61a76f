"""The krazy command, run as a user would (python -m krazy_core.cli, real stdin/stdout)."""

import os
import subprocess
import sys
import tempfile

import pytest


def krazy(*args, input=None, timeout=120):
    # run in a temp dir: `python -m` puts the working directory first on sys.path, and the
    # repository's unbuilt krazy_core/ must not shadow the package under test
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.run([sys.executable, "-m", "krazy_core.cli", *args], input=input, cwd=cwd,
                           capture_output=True, text=True, timeout=timeout,
                           env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "PYTHONPATH": _pythonpath(),
                                "KRAZY_SAVE_DIR": os.environ["KRAZY_SAVE_DIR"]})
    return p.returncode, p.stdout + p.stderr


def _pythonpath():
    import os
    import krazy_core
    return os.path.dirname(os.path.dirname(krazy_core.__file__))


def test_match_plays_a_whole_game_and_names_the_winner():
    code, out = krazy("match", "krazy-kings", "--seed", "3", "--bots", "heuristic,random,random,random")
    assert code == 0
    assert "shuffles 54 cards" in out and "rolls" in out
    assert "Winner: seat 3 (random) after" in out
    # the same seed replays the same game
    assert krazy("match", "krazy-kings", "--seed", "3", "--bots", "heuristic,random,random,random")[1] == out


def test_simulate_prints_rates_intervals_and_turn_limit_count():
    code, out = krazy("simulate", "krazy-kings", "--games", "40", "--bots", "heuristic,random", "--seed", "1")
    assert code == 0
    assert "95% interval" in out and "0: heuristic" in out and "1: random" in out
    assert "max_turns ended" in out and "mean game length" in out


def test_rules_shows_numbered_rules_and_options():
    code, out = krazy("rules", "krazy-kings")
    assert code == 0 and "KK-11" in out and "doubles_reverse" in out and "last_card_call" in out


def test_bad_game_and_bad_option_give_clear_errors():
    code, out = krazy("match", "no-such-game")
    assert code == 2 and "unknown game 'no-such-game'" in out and "krazy-kings" in out
    code, out = krazy("match", "krazy-kings", "-o", "max_turns=0")
    assert code == 2 and "max_turns" in out and "1..100000" in out
    code, out = krazy("match", "krazy-kings", "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'" in out


def test_play_rejects_bad_input_and_finishes_a_game():
    moves = "xyz\n0\n999\n" + "1\n" * 3000
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input=moves)
    assert code == 0
    assert "is not one of your moves" in out or "is not a choice" in out
    assert "999 is not a choice: type a number from 1 to" in out
    assert "Your hand:" in out and "Top card" in out
    assert "Winner: seat 4 (heuristic bot) after 23 turns." in out


def test_play_illegal_move_by_name_explains_and_asks_again():
    # seed 7: seat 0 rolls 2+3 holding 2S 4S QS 3H 3D 9D 9C; K♠ is not in hand, 4♠ does not match
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0",
                      input="play K♠\nplay 4S\nq\n")
    assert code == 0 and "Bye." in out
    assert "you do not hold K♠" in out
    assert "must match the roll 2+3" in out


def test_play_several_moves_on_one_line():
    # seed 1, Kings Rummy 2p: the up-card is K♦; take it and discard it again in one line
    code, out = krazy("play", "kings-rummy", "--players", "2", "--seed", "1", "--delay", "0",
                      input="take K♦, discard K♦\nq\n")
    assert code == 0 and "Bye." in out
    assert out.index("seat 1 (you) takes K♦") < out.index("seat 1 (you) discards K♦")
    assert out.count("Your move (") == 2           # one prompt for both moves, then the next turn


def test_play_several_moves_stop_at_a_bad_one():
    code, out = krazy("play", "kings-rummy", "--players", "2", "--seed", "1", "--delay", "0",
                      input="draw, discard 9Z, discard K♦\nq\n")
    assert code == 0 and "Bye." in out
    assert "seat 1 (you) draws" in out
    assert "'discard 9Z' is not one of your moves" in out          # as typed, not lower-cased
    # the moves left are named as the table names them
    # (as one line of words: where the terminal wraps it depends on the refusal before it)
    flat = " ".join(out.split())
    assert "(the rest of your moves, discard 9Z, discard K♦, were not played)" in flat
    assert "discards" not in flat.split("were not played")[1].split("Bye.")[0]


def test_play_quit_and_end_of_input():
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="q\n")
    assert code == 0 and "Bye." in out
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="")
    assert code == 0


def test_hot_seat_hides_hands_until_seated():
    code, out = krazy("play", "krazy-kings", "--players", "2", "--humans", "2", "--seed", "2",
                      "--delay", "0", input="\n1\n" * 800)
    assert code == 0
    assert "it is your turn. Everyone else, look away." in out
    assert "Press Enter when seated" in out


@pytest.mark.slow
def test_play_odd_input_and_bad_think():
    # '²' is a digit to str.isdigit() but not a number: it must be refused, not crash
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="²\n,\nq\n")
    assert code == 0 and "Bye." in out
    assert "'²' is not one of your moves" in out
    assert "Nothing between the commas" in out
    for bad in ("-1", "nan", "inf"):
        code, out = krazy("play", "krazy-kings", "--think", bad, input="q\n")
        assert code == 2 and "--think must be a number of seconds > 0" in out


def test_play_chained_moves_left_when_the_turn_ends_are_reported():
    # Kings Rummy seed 1: "draw, discard K♦, draw" - the turn ends after the discard
    code, out = krazy("play", "kings-rummy", "--players", "2", "--seed", "1", "--delay", "0",
                      input="take K♦, discard K♦, draw\nq\n")
    assert code == 0
    assert "Your turn ended; not played: draw" in out


@pytest.mark.slow
def test_bot_words_print_as_typed():
    code, out = krazy("simulate", "krass-kariert", "--players", "3", "--games", "1",
                      "--bots", "ismcts:100:horizon=game,heuristic")
    assert code == 0, out
    assert "ismcts:100:horizon=game" in out


def test_a_listed_name_holding_a_comma_is_one_move():
    """Kings Rummy lists 'go out, discard K♣': typed as shown it is one move, not a chain of
    'go out' and 'discard K♣'; a chain after it still works (the longest listed name wins)."""
    from krazy_core.cli.moves import _take_name
    from krazy_core.errors import IllegalActionError

    class NoNames:                   # only the listed labels name moves here
        def string_to_action(self, text):
            raise IllegalActionError(text)

    labels = ["go out, discard k♣", "discard k♣", "draw"]
    legal = [7, 8, 9]
    st = NoNames()
    assert _take_name(st, ["go out", "discard k♣"], legal, labels) == (7, [])
    assert _take_name(st, ["go out", "discard k♣", "draw"], legal, labels) == (7, ["draw"])
    assert _take_name(st, ["discard k♣", "draw"], legal, labels) == (8, ["draw"])
    a, err = _take_name(st, ["go out"], legal, labels)
    assert a is None and "'go out' is not one of your moves" in err
    assert _take_name(st, ["discard k♣", "draw"], legal, labels, whole=True)[0] is None


@pytest.mark.slow
def test_simulate_refuses_absurd_worker_counts():
    code, out = krazy("simulate", "krazy-kings", "--games", "3", "--workers", "999")
    assert code == 2 and "--workers 999 is more processes than make sense" in out
    code, out = krazy("simulate", "krazy-kings", "--games", "2", "--workers", "8", "--seed", "1")
    assert code == 0 and "2 games" in out          # no more processes than games


def test_tables_count_cards_in_the_singular_and_plural():
    import io
    from rich.console import Console
    import krazy_core
    from krazy_core.ui import load_ui, plural
    assert (plural(1, "card"), plural(0, "card"), plural(12, "card")) == ("1 card", "0 cards", "12 cards")
    for game_id in ("krazy-kings", "kings-rummy", "contract-rummy"):
        st = krazy_core.make(game_id).new_initial_state(seed=1)
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(load_ui(game_id).render(st, 0))
        text = console.export_text()
        n = st.observation(0)["stock_size"]
        assert "Stock" in text and plural(n, "card") in text


def test_chained_moves_left_over_show_their_proper_names():
    """'play 2s, play 4s, play kc' (Krazy Kings seed 7): the turn ends after 2♠; the moves not
    played are named as the engine writes them, not as typed in lower case."""
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0",
                      input="play 2s, play 4s, play kc\nq\n")
    assert code == 0 and "seat 1 (you) plays 2♠" in out
    assert "Your turn ended; not played: play 4♠, play K♣" in out
    assert "play 4s" not in out and "play kc" not in out


def test_proper_name_of_typed_moves():
    import krazy_core
    from krazy_core.cli.moves import _proper_name
    st = krazy_core.make("kings-rummy", num_players=2).new_initial_state(seed=1)
    assert _proper_name(st, "take") == "take 6♠"                 # what string_to_action reads
    assert _proper_name(st, "kd out") == "go out, discard K♦"
    assert _proper_name(st, "discard 9Z") == "discard 9Z"        # names nothing: as typed
    cr = krazy_core.make("contract-rummy").new_initial_state(seed=1)
    # a move not legal yet (later in a chain) gets its proper name too (IllegalActionError.action)
    assert _proper_name(cr, "lay off 7h on meld 3 High") == "lay off 7♥ on meld 3 high"


def test_unknown_move_is_refused_with_some_moves_and_the_short_forms():
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", input="Foo\nq\n")
    assert code == 0
    text = " ".join(out.split())
    assert ("'Foo' is not one of your moves. Type a number from the list above (1-3) or a move's "
            "name as listed: 'play 2♠', 'play 3♥', 'play 3♦'. Short forms: a card alone plays it") in text


def test_a_single_legal_move_is_named_and_played_on_enter():
    """Krazy Kings seed 5: seat 0's third decision has one legal move (play 2♦); the table
    says so instead of a list '1 play 2♦' and a prompt [1-1], and Enter plays it."""
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="1\n1\n\nq\n")
    assert code == 0 and "[1-1" not in out
    assert "Your only move: play 2♦" in out
    # (the play meets a King's challenge: one line says both, issue 16)
    assert ("Press Enter to play it (q = quit):   seat 1 (you) meets the challenge with 2♦; seat 2 "
            "(heuristic bot) draws 2 cards") in out
    # scripted input that answers '1' (or the move's name) plays it too; anything else is refused
    code, out1 = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="1\n1\n1\nq\n")
    assert out1 == out
    code, out2 = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="1\n1\nzz\nPlay 2D\nq\n")
    assert "'zz': play 2♦ is the only move you have now. Press Enter to play it, or q to quit." in out2
    assert "seat 1 (you) meets the challenge with 2♦" in out2 and "Your only move: play 7♦" in out2


def test_hot_seat_hand_over_clears_screen_and_scrollback():
    import io
    from rich.console import Console
    from krazy_core.cli.common import _clear_screen
    tty = Console(file=io.StringIO(), force_terminal=True, _environ={"TERM": "xterm"})   # not CI's TERM
    _clear_screen(tty)
    assert tty.file.getvalue() == "\033[2J\033[H\033[3J"
    pipe = Console(file=io.StringIO(), force_terminal=False)
    _clear_screen(pipe)
    assert pipe.file.getvalue() == ""          # nothing but text down a pipe


@pytest.mark.parametrize("game_id,name,rule", [("krazy-kings", "Krazy Kings", "KK-1"),
                                               ("kings-rummy", "Kings Rummy", "KR-1"),
                                               ("contract-rummy", "Crazy Rummy", "CR-1"),
                                               ("krass-kariert", "KrassKariert", "KA-1")])
def test_rules_name_the_game_not_internal_seed_files(game_id, name, rule):
    import re
    code, out = krazy("rules", game_id)
    assert code == 0
    assert out.split("\n", 1)[0].strip() == f"{name} ({game_id})"        # the title
    assert f"{rule} " in out and f"Options of {name}" in out
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", out)
    assert "seed" not in out.lower()


def test_crazy_rummy_meld_table_marks_wilds_and_explains_ids():
    """Crazy Rummy, round 3 only, seed 3, 119 heuristic steps: seat 2 (index 1) is down with the runs
    3♦ 2♥ 5♦ 6♦ (id 3) and 2♣ 4♣ 🃏 6♣ (id 4), melds 4 and 5 at the table (numbered from 1, as
    seats).  Cards standing as wilds carry ✱ as in the hand; the numbers (seat 1's 1-3, seat
    2's 4-6, what a lay off is typed with) are explained."""
    import io
    from rich.console import Console
    import krazy_core
    from krazy_core.ui import load_ui
    from krazy_core.games.contract_rummy.view import meld_wilds
    st = krazy_core.make("contract-rummy", first_round=3, rounds=1).new_initial_state(seed=3)
    for k in range(119):
        st.apply_action(st.heuristic_action(seed=k))
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(load_ui("contract-rummy").render(st, 1))
    text = " ".join(console.export_text().replace("│", " ").split())
    assert "4 2 run 3♦ 2♥✱ 5♦ 6♦" in text and "5 2 run 2♣✱ 4♣ 🃏✱ 6♣" in text
    assert ("Meld numbers are fixed per seat (seat 1: 1-3; seat 2: 4-6; seat 3: 7-9; seat 4: 10-12); "
            "gaps are melds not laid. Type the number to lay off or swap: 'lay off CARD on meld N', "
            "'swap CARD into meld N'. "
            "✱ = a wild") in text
    # a 2 in its own place is natural (CR-2): A♥ 2♥ 3♥ 4♥, a book of 2s; a Joker never is
    run = {"kind": "run", "suit": 1, "lo": 1, "rank": None, "cards": [0x11, 0x12, 0x13, 0x14]}
    assert meld_wilds(run) == [False, False, False, False]
    high = {"kind": "run", "suit": 1, "lo": 11, "rank": None, "cards": [0x1B, 0x32, 0x1D, 0x11]}
    assert meld_wilds(high) == [False, True, False, False]          # J♥ 2♣(Q) K♥ A♥
    book2 = {"kind": "book", "suit": None, "lo": None, "rank": 2, "cards": [0x02, 0x12, 0x50]}
    assert meld_wilds(book2) == [False, False, True]
    book7 = {"kind": "book", "suit": None, "lo": None, "rank": 7, "cards": [0x07, 0x27, 0x32]}
    assert meld_wilds(book7) == [False, False, True]


def test_simulate_shows_progress_inside_a_game():
    # one process: a second bar follows the game being played (turn, decisions)
    code, out = krazy("simulate", "kings-rummy", "--games", "1", "--bots", "heuristic", "--seed", "2",
                      "-o", "rounds=2")
    assert code == 0, out
    assert "game 1: round 2, turn" in out and "1 game (seed 2" in out and "1 games" not in out


def test_arena_reports_every_decision_in_process():
    import krazy_core
    from krazy_core.runs.arena import run_arena
    seen = []
    res = run_arena(krazy_core.make("krazy-kings"), ["heuristic", "random"], games=3, seed=4,
                    on_decision=lambda state, k: seen.append(k))
    assert len(seen) == sum(res.decisions)
    starts = [i for i, k in enumerate(seen) if k == 1]
    assert len(starts) == 3 and seen[-1] == res.decisions[-1]


def test_an_unbuilt_source_tree_says_why_it_does_not_import():
    # a checkout's krazy_core/ without compiled modules shadows the installed package when
    # Python starts in the checkout: the import error names the cause and the two ways out
    import os
    import shutil
    import krazy_core
    with tempfile.TemporaryDirectory() as cwd:
        pkg = os.path.join(cwd, "krazy_core")
        os.mkdir(pkg)
        src = os.path.dirname(krazy_core.__file__)
        for f in ("__init__.py", "errors.py"):
            shutil.copy(os.path.join(src, f), pkg)
        p = subprocess.run([sys.executable, "-c", "import krazy_core"], cwd=cwd, capture_output=True,
                           text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert p.returncode == 1
    assert "a source tree whose compiled modules are not built" in p.stderr
    assert "python setup.py build_ext --inplace" in p.stderr


def test_a_chain_starting_with_the_only_move_is_played_at_a_forced_prompt():
    # seed 5, seat 0's third decision: only play 2♦.  The chain plays it and keeps the rest,
    # which the end of the turn then reports (as any chain's left-overs)
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0",
                      input="1\n1\nplay 2d, play 7d\nq\n")
    text = " ".join(out.split())
    assert code == 0 and "is the only move you have now" not in text
    assert "seat 1 (you) meets the challenge with 2♦" in text and "Your turn ended; not played: play 7♦" in text


def test_end_of_input_at_the_hot_seat_hand_over_says_bye():
    code, out = krazy("play", "krazy-kings", "--players", "2", "--humans", "2", "--seed", "1", input="")
    assert code == 0 and out.rstrip().endswith("Bye.")


def test_version():
    import krazy_core
    code, out = krazy("--version")
    assert code == 0 and out.strip() == f"krazy_core {krazy_core.__version__}"


def test_the_version_is_written_once():
    # krazy_core/_version.py is the one place; pyproject.toml reads it (dynamic = ["version"]),
    # so the metadata of an installed build says the same as krazy --version
    import os
    import re
    from importlib import metadata
    import krazy_core
    from krazy_core._version import __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+)?(\.dev\d+)?", __version__)
    assert krazy_core.__version__ == __version__
    pyproject = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    if os.path.exists(pyproject):
        with open(pyproject, encoding="utf-8") as f:
            text = f.read()
        assert 'dynamic = ["version"]' in text and not re.search(r"^version\s*=\s*[\"']", text, re.M)
    try:
        installed = metadata.version("krazy_core")
    except metadata.PackageNotFoundError:
        pytest.skip("krazy_core is not installed (an in-place build): no metadata to compare")
    assert installed == __version__


def test_a_number_later_in_a_chain_is_explained():
    # Kings Rummy seed 1: "d, 1" draws and keeps the turn; the 1 named a line of a list that
    # is gone by the next prompt, and the table says so instead of refusing '1' as a name
    code, out = krazy("play", "kings-rummy", "--seed", "1", "--delay", "0", input="d, 1\nq\n")
    text = " ".join(out.split())
    assert code == 0 and "seat 1 (you) draws" in text
    assert "name the moves ('discard Q♥'), not their numbers" in text and "Not played: 1" in text
    assert "'1' is not one of your moves" not in text
