"""A fresh user at the terminal table (issue: resume, Crazy Rummy's typed melds and buy
offers, seat numbers, hints, wide lines, narration): each test fails on the table as it
was and passes now."""

import json

import krazy_core
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
