"""A fresh tester at the terminal table (issue 16): what broke when playing it as a newcomer."""

import pytest
import json
import re

import krazy_core
from test_cli_table import krazy


def test_replay_and_resume_lines_name_the_options_and_seats(tmp_path):
    # `-o rounds=1` was dropped from "Replay this deal", which then dealt a 7-round game, and
    # "Saved: continue with krazy play GAME --resume FILE" failed on the options it omitted
    save = str(tmp_path / "g.json")
    code, out = krazy("play", "contract-rummy", "--seed", "5", "-o", "rounds=1", "--players", "3",
                      "--bots", "easy", "--delay", "0", "--save", save, input="q\n")
    flat = out.replace("\n", "")
    assert code == 0
    assert "Replay this deal: krazy play contract-rummy --players 3 -o rounds=1 --bots easy --seed 5" in flat
    assert f"continue with krazy play contract-rummy --players 3 -o rounds=1 --bots easy --resume {save}" in flat
    assert json.load(open(save))["options"]["rounds"] == 1
    # at a narrow terminal each stays one line, to copy whole (rich folded the replay line at
    # a space: a pasted half ran a different game); the terminal wraps it on screen
    code, out = krazy("play", "contract-rummy", "--seed", "5", "-o", "rounds=1", "--players", "3",
                      "--bots", "easy", "--delay", "0", "--save", save, input="q\n", env={"COLUMNS": "40"})
    lines = out.splitlines()
    assert code == 0
    assert "Replay this deal: krazy play contract-rummy --players 3 -o rounds=1 --bots easy --seed 5" in lines
    # (piped input echoes no newline: the line follows the prompt's)
    assert any(x.endswith(f"Saved: continue with krazy play contract-rummy --players 3 -o rounds=1 --bots easy "
                          f"--resume {save}") for x in lines)


@pytest.mark.slow
def test_resume_takes_the_game_options_and_players_from_the_file(tmp_path):
    save = str(tmp_path / "g.json")
    code, out = krazy("play", "kings-rummy", "--seed", "2", "-o", "rounds=2", "--players", "3",
                      "--delay", "0", "--save", save, input="q\n")
    assert code == 0
    # resumed with none of those flags: the file says 3 players and 2 rounds
    code, out = krazy("play", "kings-rummy", "--delay", "0", "--resume", save, input="q\n")
    assert code == 0 and "error" not in out, out
    assert "resumed" in out and "1 of 2" in out and "seat 3" in out and "seat 4" not in out
    # flags that contradict the file are refused with the reason, not a traceback
    code, out = krazy("play", "kings-rummy", "--delay", "0", "-o", "rounds=5", "--resume", save, input="q\n")
    assert code == 2 and "rounds=2" in out and "Traceback" not in out
    # a file of another game
    code, out = krazy("play", "krazy-kings", "--delay", "0", "--resume", save, input="q\n")
    assert code == 2 and "kings-rummy" in out and "Traceback" not in out
    # not JSON, not UTF-8
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{{{")
    code, out = krazy("play", "kings-rummy", "--delay", "0", "--resume", str(bad), input="q\n")
    assert code == 2 and "Traceback" not in out


def test_krass_kariert_unseen_draws_after_a_trick_are_one_line():
    # seed 4: "seat 2 wins the trick with solo 12 and must draw 3" was followed by three
    # "seat 2 draws a card" lines; a seat's own draws (card and position seen) stay one a line
    from krazy_core import cli
    from krazy_core.ui import load_ui
    ui = load_ui("krass-kariert")
    names = ["seat 1 (you)", "seat 2 (heuristic bot)", "seat 3", "seat 4"]
    ev = [{"event": "drawn", "player": 1, "card": None, "position": None} for _ in range(3)]
    ev += [{"event": "drawn", "player": 0, "card": 5, "card_text": "5", "position": 2},
           {"event": "drawn", "player": 0, "card": 7, "card_text": "7", "position": 0}]
    assert cli.narrate._log_lines(ui, ev, names) == [
        "seat 2 (heuristic bot) draws 3 cards",
        "seat 1 (you) draws 5 and inserts it at position 3",        # positions from 1 at the table
        "seat 1 (you) draws 7 and inserts it at position 1"]


def test_ctrl_c_at_the_table_saves_and_says_how_to_go_on(tmp_path, monkeypatch, capsys):
    # Ctrl-C mid-game printed "interrupted" only: no save message, no replay line
    from rich.console import Console
    from krazy_core import cli
    save = str(tmp_path / "kk.json")
    calls = []

    def ctrl_c(self, prompt="", **kw):
        calls.append(prompt)
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", ctrl_c)
    code = cli.main(["play", "krazy-kings", "--seed", "7", "--delay", "0", "--save", save])
    out = capsys.readouterr().out.replace("\n", "")
    assert code == 130 and calls, out                 # saved, and the exit status says Ctrl-C
    assert f"continue with krazy play krazy-kings --resume {save}" in out
    assert "Replay this deal: krazy play krazy-kings --seed 7" in out and "Bye." in out
    st = krazy_core.make("krazy-kings").state_from_json(open(save).read())
    assert not st.is_terminal() and st.current_player() == 0      # saved at the human's prompt


@pytest.mark.slow
def test_the_position_prompt_quits_on_q_and_at_the_end_of_input():
    # KrassKariert seed 4: "7" (take reserve 7, then where) then Ctrl-D looped for ever on
    # "'q' is not one of 0, 1, ..., 10", and q did not quit there (positions now count from 1)
    for keys in ("7\n", "7\nq\n", "7\nquit\n"):
        code, out = krazy("play", "krass-kariert", "--seed", "4", "--delay", "0", input=keys, timeout=60)
        assert code == 0 and out.rstrip().endswith("Bye."), out[-300:]
        assert out.count("Into which position?") == 1 and "is not one of" not in out
        assert "Enter to go back, q quit" in out
    # Enter still goes back to the list, and a position plays
    code, out = krazy("play", "krass-kariert", "--seed", "4", "--delay", "0", input="7\n\n7\n1\nq\n", timeout=60)
    assert code == 0 and out.count("Into which position?") == 2
    assert "seat 1 (you) takes reserve 7 into their hand" in out.replace("\n", " "), out[-800:]


def test_the_end_of_a_game_shows_the_last_moves_the_table_and_the_result_at_80x24():
    # the full final view (16 lines) and the result table pushed "seat 4 ... empties their
    # hand and WINS" off an 80x24 screen: the winner's last move was never seen
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="1\n" * 400,
                      env={"COLUMNS": "80", "LINES": "24"})
    assert code == 0
    screen = out.rstrip("\n").split("\n")[-24:]
    text = "\n".join(screen)
    assert "empties their hand and WINS" in text, text
    assert "Top card Q♠" in text and "Your hand: 6♥ 8♥ 8♣" in text and "Winner: seat 4" in text


def test_a_bot_thinking_longer_than_the_think_limit_is_refused():
    # `--bots ismcts:1e9s` was accepted (--think 1e12 is refused): simulate sat silent for ever
    for cmd in (["simulate", "krazy-kings", "--games", "1"], ["play", "krazy-kings", "--delay", "0"],
                ["match", "krazy-kings"]):
        code, out = krazy(*cmd, "--bots", "ismcts:1e9s", input="q\n", timeout=60)
        assert code == 2 and "ismcts:1e9s" in out and "at most 600 s" in out, out
    from krazy_core import cli
    assert cli.common._bot_list("ismcts:600s,heuristic", 3) == ["ismcts:600s", "heuristic", "ismcts:600s"]


def test_enter_alone_at_a_move_prompt_says_what_to_type():
    # an empty line answered "'' is not one of your moves. ..." (four lines of refusal)
    code, out = krazy("play", "kings-rummy", "--seed", "1", "--delay", "0", input="\n\nq\n")
    assert code == 0 and "'' is not" not in out
    assert out.count("Type the number of a move (1-2) or its name, then Enter.") == 2


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


@pytest.mark.slow
def test_krass_kariert_pauses_between_hands_call_them_hands():
    # KrassKariert plays hands ("Hand 2, trick 1"); the pause said "end of the round"
    code, out = krazy("play", "krass-kariert", "--seed", "9", "--delay", "0", input="1\n" * 1500)
    assert code == 0 and ("Winner" in out or "Loser" in out)
    assert "Press Enter for the next hand (q to quit)" in out and "end of the hand" in out
    assert "next round" not in out and "end of the round" not in out
    # the other games keep their rounds
    code, out = krazy("play", "kings-rummy", "--seed", "1", "--delay", "0", "-o", "rounds=2", input="1\n" * 400)
    assert "Press Enter for the next round (q to quit)" in out and "next hand" not in out


def test_rules_option_text_wraps_indented_and_seat_options_say_how_they_count():
    # at 40 columns the wrapped lines of an option's text started at column 0, under the
    # option names; "dealer ... 0..4" did not say that seat 1 at the table is 0
    code, out = krazy("rules", "krazy-kings", "--no-pager", env={"COLUMNS": "40"})
    assert code == 0
    lines = out.split("\n")
    at = lines.index("may_roll_when_able")
    body = []
    for ln in lines[at + 1:]:
        if not ln.startswith("    "):
            break
        body.append(ln.strip())
    assert len(body) >= 2 and " ".join(body).endswith("rule KK-8)"), lines[at:at + 6]
    text = " ".join(out.split())
    # seat options are typed as the table counts seats, from 1 (they said "0 is seat 1")
    assert "(default seat 1; seat 1..5; seats count from 1, as at the table; rule KK-3)" in text
    code, out = krazy("rules", "kings-rummy", "--no-pager")
    assert "(default seat 1; seat 1..7; seats count from 1, as at the table; rule KR-4)" in " ".join(out.split())


@pytest.mark.slow
def test_seat_options_are_typed_counting_seats_from_1(tmp_path):
    # -o dealer=2 is seat 2 at the table (it dealt from seat 3: the option counted from 0)
    code, out = krazy("play", "krazy-kings", "--seed", "1", "-o", "dealer=2", "--delay", "0", input="q\n")
    assert code == 0 and "seat 2 (heuristic bot) shuffles 54 cards" in out
    assert "Replay this deal: krazy play krazy-kings -o dealer=2 --seed 1" in out
    st = krazy_core.make("krazy-kings", dealer=1).new_initial_state(seed=1)
    assert st.events_for(None)[0] == {"event": "shuffle", "player": 1, "cards": 54}   # the engine's seat 1 = seat 2
    code, out = krazy("play", "krazy-kings", "-o", "dealer=0", "--delay", "0", input="q\n")
    assert code == 2 and "option 'dealer' is a seat, counted from 1 as at the table (-o dealer=1 is seat 1), got 0" \
        in " ".join(out.split())
    code, out = krazy("play", "krazy-kings", "-o", "dealer=5", "--delay", "0", input="q\n")
    assert "option 'dealer' is a seat from 1 to 4 at a table of 4 (seats count from 1), got 5 (KK-3)" in \
        " ".join(out.split())
    code, out = krazy("match", "kings-rummy", "-o", "first_dealer=3", "-o", "rounds=1", "--players", "3", "--seed", "2")
    assert code == 0 and "seat 3 (heuristic) deals" in out, out[:400]
    # a saved game resumes with the same line (the file holds the game's own count)
    save = str(tmp_path / "g.json")
    code, out = krazy("play", "krazy-kings", "--seed", "1", "-o", "dealer=2", "--delay", "0", "--save", save,
                      input="q\n")
    code, out = krazy("play", "krazy-kings", "-o", "dealer=2", "--delay", "0", "--resume", save, input="q\n")
    assert code == 0 and "error" not in out


@pytest.mark.slow
def test_names_that_are_markup_or_unprintable_are_refused_not_a_traceback():
    # --names '[/],[bold]Bob' ended in rich.errors.MarkupError (the play by play is markup)
    for names in ("[/],Bob", "[bold]Eve,Bob", "Eve\x1b[2J,Bob", "x" * 25 + ",Bob", "Eve,eve"):
        code, out = krazy("play", "krazy-kings", "--humans", "2", "--players", "2", "--delay", "0",
                          "--names", names, input="q\n", timeout=60)
        assert code == 2 and "--names" in out and "Traceback" not in out, (names, out)
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--players", "2", "--delay", "0",
                      "--names", "Eve (mum),Bob-2", input="q\n", timeout=60)
    assert code == 0 and "Eve (mum) (seat 1)" in out


def test_a_match_without_a_seed_shows_one_that_replays_it():
    # `krazy match krazy-kings` said "seed None" and dealt a different game every time
    code, out = krazy("match", "krazy-kings", "--players", "3", "-o", "max_turns=300", timeout=120)
    assert code == 0 and "seed None" not in out
    m = re.search(r"Replay this game: (krazy match krazy-kings --players 3 -o max_turns=300 "
                  r"--bots heuristic,random --seed (\d+))", out)
    assert m, out[-400:]
    assert f"— seed {m.group(2)}" in out.split("\n", 1)[0]
    code, again = krazy(*m.group(1).split()[1:], timeout=120)
    assert code == 0 and again == out                    # the same game, line for line


def _render_text(renderable, width=120):
    import io
    from rich.console import Console
    c = Console(file=io.StringIO(), width=width, color_system=None)
    c.print(renderable)
    return c.file.getvalue()


def test_compact_seat_words_crazy_rummy_gone_down_and_an_empty_krazy_kings_hand():
    # "2: 1 card down" read as a card lying face down; a won Krazy Kings hand was a bare
    # "Your hand:" line
    from krazy_core.bots import make_bot
    from krazy_core.ui import load_ui
    ui = load_ui("contract-rummy")
    s = krazy_core.make("contract-rummy", rounds=1).new_initial_state(seed=5)
    bot = make_bot("heuristic", seed=0)
    while not any(s.observation(0)["down"]):
        s.apply_action(bot.step(s))
    p = s.observation(0)["down"].index(True)
    n = s.observation(0)["hand_sizes"][p]
    text = _render_text(ui.compact(s, 0))
    assert f"{p + 1}{' you' if p == 0 else ''}: {n} card{'s' if n != 1 else ''} (gone down)," in text
    assert " card down" not in text and " cards down" not in text
    kk = load_ui("krazy-kings")
    s = krazy_core.make("krazy-kings").new_initial_state(seed=11)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].step(s))
    w = [p for p, r in enumerate(s.returns()) if r == max(s.returns())][0]
    assert "Your hand: (empty)" in _render_text(kk.compact(s, w))


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


def test_hot_seat_roller_reads_the_roll_before_the_hand_over():
    # the tester: in hot-seat Krazy Kings with the roll key, a player pressed Enter to roll
    # (the deal roll) and the screen was cleared for the next hand-over at once: the roller
    # never saw the result.  Now the roller is asked to hand over first, below the roll.
    code, out = krazy("play", "krazy-kings", "--players", "2", "--humans", "2", "--seed", "3",
                      "--delay", "0", "--roll-key", input="\n" * 12)
    flat = out.replace("\n", " ")
    assert code == 0 and "Traceback" not in out
    rolls = [m.start() for m in re.finditer(r"press Enter to roll the dice", flat)]
    reads = [m.start() for m in re.finditer(r"what your turn brought is above\. Press Enter to hand over", flat)]
    assert rolls and reads, out
    # the read comes after the first roll and before the next seat's look-away panel
    first_read = reads[0]
    assert rolls[0] < first_read
    after = flat[first_read:]
    assert "Everyone else, look away" in after
    assert re.search(r"rolls? ", flat[rolls[0]:first_read]), flat[rolls[0]:first_read]


# ------------------------------------------------------------------ the roll key (Krazy Kings)
def _before(text, marker, nth=0):
    """``text`` up to the ``nth`` (from 0) occurrence of ``marker``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(marker, at + 1)
    return text[:at]


def test_the_roll_prompt_comes_after_the_hand_the_top_card_and_whose_turn():
    # the roll prompt of a human's turn came before the table: the player was asked to roll
    # without having seen their hand or the card to match (KK-6)
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key",
                      input="\n\nq\n")
    assert code == 0 and "Traceback" not in out
    ask = "seat 1 (you): press Enter to roll the dice (q to quit)"
    first_turn = _before(out, ask, 1)[len(_before(out, ask, 0)):]   # between the deal roll and this roll
    assert "Top card Q♦" in first_turn and "seat 1: your roll" in first_turn
    assert "Your hand: 2♠ 4♠ Q♠ 3♥ 3♦ 9♦ 9♣" in first_turn
    assert "Round One: roll, then play a card matching a die or their sum (KK-6)." in first_turn
    assert "dice ⚁ ⚂" not in first_turn                         # the dice are not known yet
    assert out.index("seat 1 (you) rolls ⚁ ⚂  (2+3=5)") > out.index(ask, out.index(ask) + 1)
    # the deal roll: no hand yet, and the stock still holds the cards about to be dealt
    deal = _before(out, ask, 0)
    assert "Your hand: (empty)" in deal and "The deal: roll for the number of cards you are dealt (KK-3)." in deal


def test_the_roll_prompt_takes_enter_r_or_roll_and_says_so_to_anything_else():
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key",
                      input="\nxyz\nroll\nq\n")
    assert code == 0
    assert ("'xyz': there is nothing to choose before the dice are rolled. Press Enter (or type r) "
            "to roll, or q to quit.") in " ".join(out.split())
    assert out.index("'xyz'") < out.index("seat 1 (you) rolls ⚁ ⚂")
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key", input="r\nr\nq\n")
    assert "seat 1 (you) rolls 6+1 and is dealt 7 cards" in out and "seat 1 (you) rolls ⚁ ⚂" in out
    # the end of input (Ctrl-D) at the roll prompt leaves as q does, with the replay line
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key", input="\n")
    assert code == 0 and "Replay this deal: krazy play krazy-kings --seed 7" in out and "Bye." in out
    assert "seat 1 (you) rolls ⚁ ⚂" not in out


def test_ctrl_c_at_the_roll_prompt_quits_as_at_the_other_prompts(tmp_path, monkeypatch, capsys):
    from rich.console import Console
    from krazy_core import cli
    save = str(tmp_path / "kk.json")
    prompts = []

    def answer(self, prompt="", **kw):
        prompts.append(prompt)
        if "press Enter to roll" in prompt:
            raise KeyboardInterrupt
        return "q"

    monkeypatch.setattr(Console, "input", answer)
    code = cli.main(["play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key", "--save", save])
    out = capsys.readouterr().out.replace("\n", "")
    assert code == 130 and len(prompts) == 1 and "press Enter to roll" in prompts[0]
    assert f"continue with krazy play krazy-kings --resume {save}" in out
    assert "Bye." in out


def test_a_human_rolls_their_own_roll_off_die_and_bots_roll_theirs_at_once():
    # KK-16: the roll-off's dice took no keypress for a human seat, and the log showed a
    # die face only; now the human rolls (Enter), the bot's die follows without a prompt,
    # and each line says the number
    code, out = krazy("play", "krazy-kings", "--players", "2", "--seed", "0", "--delay", "0", "--roll-key",
                      input="\n\nplay jk\n\nq\n")
    assert code == 0 and "Traceback" not in out
    flat = out
    ask = "seat 1 (you): press Enter to roll your die (q to quit)"
    at = flat.index("seat 1 (you) plays 🃏")
    rolloff = flat[at:]
    assert "Roll-off (KK-16): roll one die; highest picks the direction, others draw it." in rolloff
    assert rolloff.index(ask) < rolloff.index("roll-off: seat 1 (you) rolls ⚁ (2)") < \
        rolloff.index("roll-off: seat 2 (heuristic bot) rolls ⚃ (4)")
    between = rolloff[rolloff.index("roll-off: seat 1 (you) rolls"):rolloff.index("seat 2 (heuristic bot) wins the roll-off")]
    assert ask not in between                   # the bot's die: no prompt
    assert "Your hand: K♥ 3♣ K♣" in rolloff[:rolloff.index(ask)]
    assert "seat 1 (you) draws 2 cards: 3♠ 5♠" in rolloff


def test_a_play_that_meets_a_challenge_is_one_line():
    # "seat 1 (you) plays A♠" was followed by "seat 1 (you) meets the challenge with A♠; ..."
    from krazy_core import cli
    from krazy_core.ui import load_ui
    ui = load_ui("krazy-kings")
    names = ["seat 1 (you)", "seat 2 (heuristic bot)"]
    ev = [{"event": "play", "player": 0, "card": 0x01, "card_text": "A♠", "announced": False},
          {"event": "challenge_met", "player": 0, "card": 0x01, "card_text": "A♠", "challenger": 1},
          {"event": "draw", "player": 1, "card": None, "reason": "challenge"}]
    assert cli.narrate._log_lines(ui, ev, names) == [
        "seat 1 (you) meets the challenge with A♠; seat 2 (heuristic bot) draws 1 card"]


def test_a_met_challenge_is_one_line_with_the_cards_drawn():
    # "meets the challenge with 6♠; seat 3 draws" was followed by "seat 3 draws 6 cards"
    code, out = krazy("match", "krazy-kings", "--players", "3", "--seed", "1")
    flat = " ".join(out.split())
    assert code == 0
    assert ("seat 1 (heuristic) meets the challenge with 6♠; seat 3 (heuristic) draws 6 cards: "
            "A♥ 7♦ 2♣") in flat
    after = flat[flat.index("draws 6 cards: A♥ 7♦ 2♣") + len("draws 6 cards: A♥ 7♦ 2♣"):]
    # the stock ran out after three of them (KK-17): the rest is said as the rest, not as more
    assert after.startswith(" the discard pile is shuffled into a new stock of 38 everyone is back to "
                            "Round One: stock rebuilt (KK-18) seat 3 (heuristic) draws the other 3 cards: 4♠ 6♦ 3♦")


def test_bench_counts_have_thousands_separators_and_say_what_they_count():
    code, out = krazy("bench", "krazy-kings", "--games", "3000", "--seed", "1")
    flat = " ".join(out.split())
    assert code == 0
    m = re.search(r"3,000 random games in the core, ([\d,]+) decisions \(moves chosen\) in [\d.]+ s = "
                  r"([\d,]+) decisions/s", flat)
    assert m, flat
    assert int(m.group(1).replace(",", "")) > 1000 and "," in m.group(1)
    # a match's result says what its two counts are
    code, out = krazy("match", "krazy-kings", "--seed", "3")
    assert re.search(r"after [\d,]+ turns, [\d,]+ moves chosen by the players\.", " ".join(out.split()))
    assert "decisions)" not in out


def test_crazy_rummy_log_describes_a_completed_meld_by_its_cards():
    # the log said "completes meld 0 (3 cards)": which meld, of what?  (melds numbered from 1
    # at the table, as seats: the engine's ids 0, 7, 1)
    code, out = krazy("match", "contract-rummy", "--seed", "2", "-o", "rounds=2")
    flat = " ".join(out.split())
    assert code == 0
    assert "seat 1 (heuristic) completes meld 1, a book of 5s: 5♠ 5♦ 🃏✱" in flat
    assert "seat 3 (heuristic) completes meld 8, a run of hearts, 5 to 8: 2♣✱ 🃏✱ 7♥ 8♥" in flat
    assert "seat 1 (heuristic) completes meld 2, a run of diamonds, J to A: 2♠✱ Q♦ 2♦✱ A♦" in flat
    assert not re.search(r"meld \d+ \(\d+ cards\)", flat)


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


# ------------------------------------------------------------------ tournament, sprt, selfplay (item 14)
def test_tournament_reads_for_a_newcomer_and_says_when_results_come_from_the_store(tmp_path):
    store = str(tmp_path / "r.sqlite")
    args = ("tournament", "krazy-kings", "--bots", "easy,normal", "--games", "40", "--store", store)
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert code == 0 and "Traceback" not in out
    # --bots offers easy/normal/hard: they are the bots they stand for ("unknown bot 'easy'" before)
    assert "│ heuristic │" in out and "│ random    │" in out
    assert ("Krazy Kings, 4 players: 40 games; 1 line-up of bots, each deal played with the bots in "
            "every seat (duplicate deals), seed 0;") in flat
    assert "table(s)" not in out and "mu ± 1.96 sigma" not in out and "mean score" not in out
    assert "rating: higher is stronger (openskill Bradley–Terry); the true rating is inside the interval " \
           "95% of the time; score: the bot's mean result per seat (1 = won, 0 = lost)." in flat
    assert "Head to head" in out and "How often the row's bot finished above the column's in the games " \
                                     "they shared (ties count half)." in flat
    assert "│ heuristic │   32.3 │  23.6 – 41.0 │" in out and "41.2% │    40 │" in out
    # the same command again: read back, and it says so (it took 0.0 s and said nothing)
    code, again = krazy(*args)
    assert f"40 of the 40 games were read back from {store} (an earlier run of this command; " \
           "--no-store plays them again)" in " ".join(again.split())
    code, out = krazy("tournament", "--help")
    flat = " ".join(out.split())
    assert "Each deal is played once with the bots in every seat (duplicate deals)" in flat
    assert "Example: krazy tournament krazy-kings --bots random,heuristic,ismcts:200 --games 400" in flat


def test_sprt_answers_yes_or_no_in_words_then_the_statistics():
    code, out = krazy("sprt", "krazy-kings", "easy", "normal", "--no-store")
    flat = " ".join(out.split())
    assert code == 0
    assert ("Yes: heuristic is stronger than random, by at least 20 Elo (95% sure), after 54 games "
            "(27 pairs of 2 games on the same deals, the bots' seats swapped).") in flat
    assert "Estimated gap: heuristic +280 Elo against random (95% interval +170 … +479)" in flat
    assert "H1 accepted" not in out and "LLR" not in out
    assert "log-likelihood ratio 3.08 (stops at -2.94 or 2.94)" in flat
    code, out = krazy("sprt", "krazy-kings", "random", "heuristic", "--no-store", "--max-games", "10")
    flat = " ".join(out.split())
    assert ("Not decided after 10 games (5 pairs of 2 games on the same deals, the bots' seats swapped): "
            "the games ran out (--max-games 10) before the test was sure. Raise --max-games, or test a "
            "bigger gap (--elo1 further from --elo0).") in flat
    assert "+inf" not in out and "(95% interval +115 … no upper limit yet)" in flat
    code, out = krazy("sprt", "--help")
    flat = " ".join(out.split())
    assert "Is bot B stronger than bot A?" in flat and "chosen from --games" not in flat
    assert "--alpha ALPHA how often a 'yes' may be wrong (default 0.05)" in flat


def test_selfplay_says_what_it_wrote_and_a_rerun_that_has_nothing_to_do(tmp_path):
    import pytest
    pytest.importorskip("pyarrow")
    out_dir = str(tmp_path / "sp")
    args = ("selfplay", "krazy-kings", "--bot", "normal", "--games", "3", "--out", out_dir)
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert code == 0
    assert re.search(r"Wrote 3 games, [\d,]+ positions \(one per move, with the move played\) in 3 "
                     r"Parquet files to " + re.escape(out_dir) + r"; [\d.]+ s, [\d,]+ positions/s", flat), flat
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert (f"Nothing to play: all 3 games are already in {out_dir} (3 files, from an earlier run of this "
            "command). For more games, write to a new --out folder") in flat
    assert "0 games, 0 decisions" not in flat


def test_kings_rummy_round_summary_wraps_whole_cards_and_states_points_once():
    # at 80 columns a seat's row ended "left: 4♠ 3♥…" with "= 7" on a line of its own, the
    # points the next column shows anyway
    code, out = krazy("play", "kings-rummy", "--seed", "1", "-o", "first_round=10", "-o", "rounds=2",
                      "--delay", "0", input="1\n" * 300, env={"COLUMNS": "80", "LINES": "24"})
    assert code == 0
    block = out[out.index("end of the round"):out.index("Press Enter for the next round")]
    assert "…" not in block and "  = " not in block
    assert " 2     │ [3♠ 3♦ 3★] [8♥ 8♣ Q♥✱] [4♦ 4♣ 4★]  left: 5♠ 6♠ 7♣ │     18 │    18" in block


def test_browser_log_describes_a_crazy_rummy_meld_not_meld_meld_0():
    # the browser table's log read "seat 1 meld meld 0" and "seat 1 lay 9♠ meld 0"; its melds
    # are numbered from 1 as at the terminal. The page shows each event's engine sentence
    # (protocol.seat_view's text, State.narrate_event), the terminal's words
    from krazy_core import protocol
    st = krazy_core.make("contract-rummy", rounds=7).new_initial_state(seed=2)

    def this_round(events):
        start = max(i for i, e in enumerate(events) if e["event"] == "round_start")
        return [e for e in events[start:] if e["event"] in ("lay", "meld")]
    while True:                         # until a run is completed in this round
        runs = {m["id"] for m in st.melds() if m["kind"] == "run"}
        if any(e["event"] == "meld" and e["meld"] in runs for e in this_round(st.events_for(0))):
            break
        st.apply_action(st.heuristic_action(1))
    names = [f"seat {p + 1}" for p in range(st.game.num_players)]
    ev = this_round(protocol.seat_view(st, 0, 0, names)["events"])
    lines = [e["text"] for e in ev]
    assert len(lines) == len(ev) and not any("meld meld" in x or " lay " in x for x in lines)
    # melds counted from 1, as at the terminal: the engine's meld 3 (seat 2's first) is meld 4
    assert [e["meld"] for e in (ev[4], ev[-1], ev[0], ev[7])] == [3, 4, 3, 4]
    assert lines[4] == "seat 2 completes meld 4, a book of Jacks: J♠ J♥ J♣ 2♠✱"
    assert lines[-1] == "seat 2 completes meld 5, a run of hearts, A to 4: A♥ 2♦✱ 🃏✱ 4♥"
    assert lines[0] == "seat 2 lays J♠ in meld 4" and lines[7] == "seat 2 lays 🃏 in meld 5"


def test_CR_11_browser_log_says_lay_off_and_swap_as_the_terminal_and_skips_turns():
    """A fresh user's browser log read "Me lay off Joker meld 4" and "Bot 2 turn"; the page
    shows the engine's sentence of each event, the terminal's: "lays off ... on meld N (high
    end)", and no line for bookkeeping (text None)."""
    from krazy_core.ui import load_ui
    st = krazy_core.make("contract-rummy", num_players=2).new_initial_state(seed=1)
    ev = [{"event": "turn", "player": 1},
          {"event": "lay_off", "player": 0, "card": 108, "card_text": "🃏", "meld": 3, "end": "high"},
          {"event": "lay_off", "player": 1, "card": 5, "card_text": "6♠", "meld": 0, "end": None},
          {"event": "swap", "player": 0, "card": 5, "card_text": "6♠", "meld": 4, "wild_text": "2♥"}]
    names = ["seat 1", "seat 2"]
    assert [st.narrate_event(e, names) for e in ev] == [
        None, "seat 1 lays off 🃏 on meld 4 (high end)", "seat 2 lays off 6♠ on meld 1 (book)",
        "seat 1 swaps 6♠ into meld 5 and takes 2♥"]
    ui = load_ui("contract-rummy")         # the terminal's words are the same calls
    assert ui.describe_event(ev[1], names) == st.narrate_event(ev[1], names)
    assert ui.describe_event(ev[3], names) == st.narrate_event(ev[3], names)


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


def test_crazy_rummy_round_end_says_who_went_out():
    # the play by play ended a round with "round 1 ends: went out", not saying who
    code, out = krazy("match", "contract-rummy", "-o", "rounds=1", "--seed", "2", "--delay", "0")
    assert code == 0
    lines = [ln.strip() for ln in out.splitlines()]
    i = lines.index("round 1 ends: seat 1 (heuristic) went out")
    assert lines[i - 1] == "seat 1 (heuristic) GOES OUT"
    assert "round 1 ends: went out" not in out


def test_a_one_choice_prompt_does_not_say_1_to_1():
    # KrassKariert, a drawn card to insert: "Your move (1-1, or a name; h hint, q quit):"
    from krazy_core.cli import table as cli_table
    assert cli_table.prompt_text(None, 1, 1) == "Your move (1, or a name; h hint, q quit): "
    assert cli_table.prompt_text("Ann", 7, 2) == "Ann, your move (1-7, m more, or a name; h hint, q quit): "


def test_names_keep_their_seats():
    # `--humans 2 --names ,Bob` sat Bob at seat 1: the empty first name was dropped
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", ",Bob", "--seed", "1",
                      "--delay", "0", input="q\n")
    flat = " ".join(out.split())
    assert code == 0
    assert "Seats: seat 1 (player 1), Bob (seat 2), seat 3 (heuristic bot), seat 4 (heuristic bot)" in flat
    # a trailing comma is not a name; too many names and duplicates still refused
    code, out = krazy("play", "krazy-kings", "--names", "Ann,", "--seed", "1", "--delay", "0", input="q\n")
    assert code == 0 and "Seats: Ann (seat 1), seat 2 (heuristic bot)" in " ".join(out.split())
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", "Ann,Bob,Cy", input="q\n")
    assert code == 2 and "--names gives 3 names for 2 human seat(s)" in out
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", "Ann,ann", input="q\n")
    assert code == 2 and "two players have the same name (Ann, ann)" in out


def test_a_finished_simulation_does_not_leave_a_game_running():
    # after "simulating ━━━ 200/200" a line "game 181: turn 17, decisions ━━━ 17/?" stayed
    # (the bar advances by batches; the game's number came from it): the last game, done
    import re
    code, out = krazy("simulate", "krazy-kings", "--games", "50", "--seed", "3")
    assert code == 0
    head = out.split("Krazy Kings, 4 players")[0]
    m = re.search(r"game (\d+): turn \d+, decisions\W+(\d+)/(\S+)", head)
    assert "50/50" in head and m, head
    assert m.group(1) == "50" and m.group(2) == m.group(3), head


def test_a_bare_krazy_shows_the_commands_and_where_to_start():
    # `krazy` alone answered "krazy: error: the following arguments are required: cmd"
    code, out = krazy()
    assert code == 2
    assert "the following arguments are required: cmd" not in out
    assert "play at a terminal table against bots, or hot-seat" in out
    assert out.rstrip().endswith("Start with: krazy play krazy-kings   (krazy games lists the games; "
                                 "krazy rules GAME explains one)")


def test_the_unknown_option_list_counts_seats_from_1_and_a_near_game_is_named():
    # "-o nosuch=1" listed "first_dealer=0 (0..6; KR-4)", and -o first_dealer=0 is refused
    code, out = krazy("play", "kings-rummy", "-o", "nosuch=1", input="q\n")
    flat = " ".join(out.split())
    assert code == 2 and "first_dealer=1 (seat 1..7; KR-4)" in flat
    assert "first_dealer=0" not in flat and "rounds=11 (1..11; KR-16)" in flat
    # names, defaults and ranges, not every option's whole text (a screenful); a near name
    assert "the seat that deals round 1" not in flat and flat.endswith("krazy rules kings-rummy says what each does.")
    code, out = krazy("play", "contract-rummy", "-o", "acewrap=1", input="q\n")
    flat = " ".join(out.split())
    assert code == 2 and "unknown option 'acewrap' for contract-rummy (did you mean ace_wrap?); options: jokers=4 (0..4; CR-1), ace_wrap=False (true/false; CR-3)," in flat
    code, out = krazy("play", "krazy-kings", "-o", "nosuch=1", input="q\n")
    assert code == 2 and "dealer=1 (seat 1..5;" in " ".join(out.split())
    code, out = krazy("play", "krazy-king", input="q\n")
    assert code == 2 and "(did you mean krazy-kings?)" in " ".join(out.split())


def test_every_game_with_a_human_is_saved_as_it_goes_and_the_save_goes_when_it_ends(tmp_path):
    # q or Ctrl-C without --save lost the game with no question: now every game at the table
    # is saved as it goes (KRAZY_SAVE_DIR), resumable, and removed once the game is over
    import os
    env = {"KRAZY_SAVE_DIR": str(tmp_path)}
    code, out = krazy("play", "krazy-kings", "--seed", "12", "--delay", "0", input="q\n", env=env)
    save = tmp_path / "krazy-kings-12.json"
    assert code == 0 and save.exists() and f"--resume {save}" in out.replace("\n", "")
    st = krazy_core.make("krazy-kings").state_from_json(save.read_text())
    assert not st.is_terminal() and st.current_player() == 0
    code, out = krazy("play", "krazy-kings", "--seed", "13", "--humans", "0", "--delay", "0", env=env)
    assert code == 0 and not (tmp_path / "krazy-kings-13.json").exists()        # no human: no save
    code, out = krazy("play", "krazy-kings", "--players", "2", "--seed", "14", "--delay", "0",
                      input="1\n" * 400, env=env, timeout=120)
    assert code == 0 and "Play again?" in out and not (tmp_path / "krazy-kings-14.json").exists()
    assert os.listdir(tmp_path) == ["krazy-kings-12.json"]


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


def test_r_at_a_prompt_shows_the_rules_the_phase_cites():
    # there were no rules inside a game: `r` shows the numbered rules of the phase's prompt
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", "--no-roll-key", input="r\nq\n")
    flat = " ".join(out.split())
    assert code == 0 and "(KK-6)." in flat
    assert "KK-6 Round One turn. Roll 2d6. Discard one card that matches the roll" in flat
    assert "(every rule: krazy rules krazy-kings)" in flat and "(r: the rules)" in flat
    spec = krazy_core.game.get_spec("contract-rummy")
    assert spec.rule("CR-8").startswith("**CR-8** Whenever an up-card lies on the discard pile")
    assert spec.rule("CR-1") != spec.rule("CR-10") and spec.rule("CR-99") is None


def test_hot_seat_hands_over_after_a_rounds_summary_before_any_hand_shows():
    # a fresh user: after the round's summary, which both players read, the next hand must
    # not show before its owner has taken the seat
    keys = ("\n" + "1\n" * 3) * 40
    code, out = krazy("play", "kings-rummy", "--humans", "2", "--players", "3", "--seed", "4", "--delay", "0",
                      "-o", "rounds=2", input=keys, timeout=120)
    after = out[out.index("next round"):]
    assert code == 0 and 0 <= after.index("Everyone else, look away.") < after.index("Your hand")


def test_ctrl_d_ends_the_prompt_line_before_the_goodbye():
    # Ctrl-D at "press Enter to roll the dice (q to quit)" printed "Replay this deal: ..." on
    # the prompt's own line
    code, out = krazy("play", "krazy-kings", "--seed", "9", "--delay", "0", "--roll-key", input="")
    assert code == 0
    lines = out.splitlines()
    i = next(k for k, ln in enumerate(lines) if "Replay this deal" in ln)
    assert lines[i] == "Replay this deal: krazy play krazy-kings --seed 9", lines[i - 1:i + 1]
    # the game was saved as it went (no --save: the autosave file), said on a line of its own
    assert lines[i - 1].startswith("Saved: continue with krazy play krazy-kings --resume ")
    assert lines[i - 2].strip() == "seat 1 (you): press Enter to roll the dice (q to quit)"


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


def test_krass_kariert_says_why_a_hand_is_lost():
    # seed 4, hand 5: "seat 1 (you) loses the hand: could not act (KA-14b)" — a newcomer
    # could not tell what they failed to do; a real game's event is described
    import krazy_core as kc
    from krazy_core.games.krass_kariert import view as ui
    names = [f"seat {p + 1}" for p in range(4)]
    st = kc.make("krass-kariert").new_initial_state(seed=4)
    import random
    r = random.Random(4)
    reasons = set()
    for _ in range(40):
        while not st.is_terminal():
            st.apply_action(r.choice([a for a, _ in st.chance_outcomes()]) if st.is_chance_node()
                            else r.choice(st.legal_actions()))
        reasons |= {ui.describe_event(e, names).split(": ", 1)[1]
                    for e in st.events if e["event"] == "hand_end"}
        if len(reasons) == 2:
            break
        st = kc.make("krass-kariert").new_initial_state(seed=r.randrange(10**6))
    assert "could not beat the trick, had no special card to play and no reserve card left (KA-14b)" in reasons
    assert reasons <= {"could not beat the trick, had no special card to play and no reserve card left (KA-14b)",
                       "the only one still holding cards (KA-14a)"}
