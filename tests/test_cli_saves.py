"""The terminal table saves as it goes: resume from a save (its options and seats), Ctrl-C
and Ctrl-D and ``q`` at any prompt save and say how to go on, replay lines that name the
options and seats."""
from krazy_core import cli
from test_cli_table import krazy
import json
import krazy_core
import pytest
import re


# ---------------------------------------------------------------- item 1: --resume
def _saved_kk(tmp_path):
    """krazy-kings seed 7: roll for the deal, roll, play 2♠, quit; the save file."""
    save = str(tmp_path / "kk4.save")
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", "--roll-key",
                      "--save", save, input="\n\n1\nq\n")
    assert code == 0 and "seat 1 (you) plays 2♠" in out, out
    return save


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


def test_a_save_file_that_cannot_be_written_is_said_before_the_table_starts(tmp_path):
    # with a save after every action it failed at the first bot's move, mid play by play
    code, out = krazy("play", "krazy-kings", "--seed", "1", "--delay", "0", "--save",
                      str(tmp_path / "no" / "such" / "dir.save"), input="q\n")
    assert code == 2 and "--save: cannot write" in out and "rolls" not in out, out
    # a save goes through a file beside it and a rename: none is left behind
    save = tmp_path / "kk.save"
    code, out = krazy("play", "krazy-kings", "--seed", "1", "--delay", "0", "--save", str(save), input="1\nq\n")
    assert code == 0 and [p.name for p in tmp_path.iterdir() if p.is_file()] == ["kk.save"]
