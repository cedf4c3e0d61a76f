"""The terminal's play by play: one line per move where one says it (a met challenge, an
unseen draw), round summaries, hand-overs and dice prompts at a hot-seat table, the last
moves and the result at the end; the browser log says what the terminal says."""
from krazy_core import cli
from test_cli_table import krazy
import krazy_core
import pytest
import re


def _render_text(renderable, width=120):
    import io
    from rich.console import Console
    c = Console(file=io.StringIO(), width=width, color_system=None)
    c.print(renderable)
    return c.file.getvalue()


# ------------------------------------------------------------------ the roll key (Krazy Kings)
def _before(text, marker, nth=0):
    """``text`` up to the ``nth`` (from 0) occurrence of ``marker``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(marker, at + 1)
    return text[:at]


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


def test_crazy_rummy_round_end_says_who_went_out():
    # the play by play ended a round with "round 1 ends: went out", not saying who
    code, out = krazy("match", "contract-rummy", "-o", "rounds=1", "--seed", "2", "--delay", "0")
    assert code == 0
    lines = [ln.strip() for ln in out.splitlines()]
    i = lines.index("round 1 ends: seat 1 (heuristic) went out")
    assert lines[i - 1] == "seat 1 (heuristic) GOES OUT"
    assert "round 1 ends: went out" not in out


def test_hot_seat_hands_over_after_a_rounds_summary_before_any_hand_shows():
    # a fresh user: after the round's summary, which both players read, the next hand must
    # not show before its owner has taken the seat
    keys = ("\n" + "1\n" * 3) * 40
    code, out = krazy("play", "kings-rummy", "--humans", "2", "--players", "3", "--seed", "4", "--delay", "0",
                      "-o", "rounds=2", input=keys, timeout=120)
    after = out[out.index("next round"):]
    assert code == 0 and 0 <= after.index("Everyone else, look away.") < after.index("Your hand")


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
