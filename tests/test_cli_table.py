"""The terminal table's screen fits the terminal (issue 16 item 1) and the table's other
newcomer fixes (issue 16): every test here is timing-free (no --delay, no clocks)."""

import io
import math

import pytest
from rich.console import Console

import krazy_core
from krazy_core import cli
from krazy_core.cli import table as cli_table
from krazy_core.cards import format_card
from krazy_core.ui import load_ui

GAMES = ("krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert")
SIZES = ((80, 24), (40, 15), (120, 40))


def seeded_states(game_id, seeds=8, depths=(0, 7, 23, 61, 140, 300)):
    """Decision points of seeded heuristic games: ``[(state, player to act)]``."""
    out = []
    game = krazy_core.make(game_id)
    for seed in range(seeds):
        st = game.new_initial_state(seed=seed)
        steps = 0
        for d in depths:
            while steps < d and not st.is_terminal():
                st.apply_action(st.heuristic_action(seed * 7919 + steps))
                steps += 1
            if st.is_terminal():
                break
            out.append((st.clone(), st.current_player()))
    return out


def what_must_show(game_id, st, p):
    """The words the screen must hold: the trick or top card, and every card of the hand."""
    obs = st.observation(p)
    hand = [format_card(c) for c in obs["hand"]]
    if game_id == "krazy-kings":
        top = [format_card(obs["top_card"])] if obs["top_card"] is not None else []
    elif game_id == "kings-rummy":
        top = [format_card(obs["top_card"])] if obs["top_card"] is not None else []
        if obs["laid_down"][p] is not None:
            hand = []
    elif game_id == "contract-rummy":
        up = obs["up_card"] if obs["up_card"] is not None else (obs["discard_pile"] or [None])[-1]
        top = [format_card(up)] if up is not None else []
    else:
        best = obs["best"]
        top = ["To beat"] + ([] if best is None or best["stop"] else [f"{best['combination']['type']} "
                                                                     f"{best['combination']['value']}"])
    return top, hand


def first_human_decision(game_id, seed, **options):
    """The state at seat 0's first decision of ``krazy play GAME --seed SEED`` (heuristic
    bots in the other seats, seeded as the CLI seeds them)."""
    from krazy_core.bots import make_bot
    st = krazy_core.make(game_id, **options).new_initial_state(seed=seed)
    bots = {p: make_bot("heuristic", seed=seed * 104729 + p) for p in range(1, st.num_players())}
    while st.current_player() != 0:
        st.apply_action(bots[st.current_player()].step(st))
    return st


def render_screen(game_id, st, p, width, height):
    ui = load_ui(game_id)
    legal = ui.action_order(st, st.legal_actions())
    labels = [ui.action_label(st, a) for a in legal]
    entries = cli_table.choice_entries(ui, st, legal, labels)
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None)
    parts, prompt, page, pages, first, count = cli_table.screen_lines(console, ui, st, p, entries)
    for r in parts:
        console.print(r)
    return console.export_text(), prompt, entries, (page, pages, first, count)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_with_the_trick_the_hand_and_the_prompt(game_id, size):
    width, height = size
    states = seeded_states(game_id)
    assert len(states) >= 30
    for st, p in states:
        text, prompt, entries, (page, pages, first, count) = render_screen(game_id, st, p, width, height)
        lines = text.splitlines()
        assert len(lines) + math.ceil(len(prompt) / width) <= height, (game_id, size, st.to_json()[:80], text)
        assert all(len(x) <= width for x in lines)
        top, hand = what_must_show(game_id, st, p)
        flat = " ".join(text.split())
        for word in top + hand:
            assert word in flat, (word, text)
        assert len(prompt) <= 60 and ("(1-" in prompt or "(1," in prompt)
        # the choices shown are numbered in order and a page says there are more
        assert f"{first + 1} " in text
        if pages > 1:
            assert f"choices {first + 1}-{first + count} of {len(entries)}: m for more" in flat


def test_krass_kariert_seed_4_shows_the_table_and_folds_the_reserve_takes():
    """Issue 16 item 1: seed 4's first decision had 28 moves, 22 of them 'take reserve 7 into
    position 0..10', and at 80x24 the screen showed only those lines and the prompt."""
    st = first_human_decision("krass-kariert", 4)
    p = st.current_player()
    ui = load_ui("krass-kariert")
    legal = ui.action_order(st, st.legal_actions())
    labels = [ui.action_label(st, a) for a in legal]
    takes = [lab for lab in labels if lab.startswith("take reserve")]
    assert len(legal) == 28 and len(takes) == 22
    text, prompt, entries, _ = render_screen("krass-kariert", st, p, 80, 24)
    groups = [e for e in entries if e[0] == "group"]
    assert len(entries) == 28 - 22 + len(groups) and len(groups) == 2       # one per reserve card
    # positions counted from 1 at the table (the engine's 0..10)
    assert all(len(g[3]) == 11 for g in groups) and sorted(groups[0][3]) == sorted(str(i) for i in range(1, 12))
    assert "take reserve 7 (left) (then choose where)" in text or "take reserve 7 (then choose where)" in text
    assert "into position" not in text
    assert "Your hand" in text and "To beat" in text
    # choosing the group asks a position: the move is the one of that position
    g = groups[0]
    answers = iter(["", "5"])
    console = Console(file=io.StringIO(), width=80)
    console.input = lambda prompt="": next(answers)
    assert cli.play._group_choice(console, g) is None                    # Enter goes back
    a = cli.play._group_choice(console, g)
    assert st.action_to_string(a).startswith("reserve slot") and st.action_to_string(a).endswith("at 4")


def test_choices_page_when_they_do_not_fit():
    entries = [("move", i, f"move number {i}") for i in range(60)]
    console = Console(width=40, height=15, file=io.StringIO(), record=True, color_system=None)
    st = krazy_core.make("krazy-kings").new_initial_state(seed=1)
    ui = load_ui("krazy-kings")
    seen = []
    for page in range(40):
        parts, prompt, pg, pages, first, count = cli_table.screen_lines(console, ui, st, 0, entries, page)
        assert pages > 1 and ", m more" in prompt
        seen.extend(range(first, first + count))
        if pg == pages - 1:
            break
    assert seen == list(range(60))              # every choice is on one page, in order


# ------------------------------------------------------------------ the krazy command
def krazy(*args, input=None, timeout=300, env=None):
    """``python -m krazy_core.cli ARGS`` in a temp dir (the checkout's unbuilt krazy_core/
    must not shadow the package under test), 100 columns, input piped."""
    import os
    import subprocess
    import sys
    import tempfile
    base = {"COLUMNS": "100", "LINES": "40", "PATH": "/usr/bin:/bin", "KRAZY_SAVE_DIR": os.environ["KRAZY_SAVE_DIR"],
            "PYTHONPATH": os.path.dirname(os.path.dirname(krazy_core.__file__))}
    base.update(env or {})
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.run([sys.executable, "-m", "krazy_core.cli", *args], input=input, cwd=cwd,
                           capture_output=True, text=True, timeout=timeout, env=base)
    return p.returncode, p.stdout + p.stderr


def test_item2_kk19_a_play_typed_by_name_that_leaves_one_card_calls_last_card():
    """Issue 16 item 2 (KK-19): seed 7, keys 3d, qs, 2s, Enter, Enter, then 'play 9♣' (the full
    name the prompt teaches) left one card without the call, and the player was caught."""
    keys = "3d\nqs\n2s\n\n\nplay 9♣\n\n" + "q\n"
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0", input=keys)
    assert code == 0
    assert "seat 1 (you) plays 9♣ — LAST CARD!" in out and "forgot to call last card" not in out
    # the trap is still there for a player who picks it on purpose (typed with "no call": it
    # is no numbered choice any more)
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0",
                      input="3d\nqs\n2s\n\n\nplay 9♣ no call\nq\n")
    assert "seat 1 (you) plays 9♣\n" in out and "seat 1 (you) forgot to call last card!" in out


def test_item2_typed_action_keeps_an_explicit_no_call():
    st = first_human_decision("krazy-kings", 7)
    ui = load_ui("krazy-kings")
    for a in st.legal_actions():
        assert ui.typed_action(st, a, "anything") == a           # nothing leaves one card here
    # a state where a play leaves one card: the announced play unless the text says not to
    for seed in range(60):
        s = krazy_core.make("krazy-kings").new_initial_state(seed=seed)
        steps = 0
        while not s.is_terminal() and steps < 600:
            quiet = [a for a in s.legal_actions() if a < 53 and a + 53 in s.legal_actions()]
            if quiet:
                a = quiet[0]
                assert ui.typed_action(s, a, s.action_to_string(a)) == a + 53
                assert ui.typed_action(s, a, s.action_to_string(a) + " no call") == a
                return
            s.apply_action(s.heuristic_action(steps))
            steps += 1
    pytest.fail("no state with a play leaving one card")


def _lay_off_both_ends():
    for seed in range(40):
        s = krazy_core.make("contract-rummy").new_initial_state(seed=seed)
        k = 0
        while not s.is_terminal() and k < 3000:
            names = [s.action_to_string(a) for a in s.legal_actions()]
            both = [n[:-4] for n in names if n.endswith(" low") and n[:-4] + " high" in names]
            if both:
                return s, both[0]
            s.apply_action(s.heuristic_action(seed=k))
            k += 1
    pytest.fail("no lay off with both ends open")


def test_item3_a_lay_off_naming_no_end_asks_which_end():
    """Issue 16 item 3 (CR-8): 'lay off 2♠ on meld 4' with both ends open was played low."""
    s, base = _lay_off_both_ends()
    ui = load_ui("contract-rummy")
    legal = s.legal_actions()
    labels = [ui.action_label(s, a) for a in legal]
    before = s.to_json()
    shown = ui.engine_text(s, base)         # the table numbers melds from 1: the engine's meld + 1
    assert shown != base and int(shown.rsplit(" ", 1)[1]) == int(base.rsplit(" ", 1)[1]) + 1
    a, err = cli.moves._resolve_name(s, shown, legal, labels, None, ui)
    assert a is None and f"'{shown} low'" in err and f"'{shown} high'" in err
    a, err = cli.moves._resolve_name(s, shown + " high", legal, labels, None, ui)
    assert s.action_to_string(a) == base + " high"
    assert s.to_json() == before
    # the game's own reader agrees: it refuses too
    from krazy_core.errors import UnclearActionError
    with pytest.raises(UnclearActionError):
        s.string_to_action(base)


def test_item4_bench_stops_between_chunks_on_ctrl_c(monkeypatch):
    """Issue 16 item 4: a huge bench ignored Ctrl-C (one call into the core for every game):
    it runs in chunks and reports what it did when interrupted."""
    import argparse
    import krazy_core._state as core
    calls = []

    def fake(game, n, seed=0):
        calls.append((n, seed))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return {"games": n, "decisions": 10 * n, "seconds": 0.5}

    monkeypatch.setattr(core, "simulate_random", fake)
    console = Console(file=io.StringIO(), width=120, record=True)
    args = argparse.Namespace(game="krazy-kings", players=None, option=None, games=100_000_000, seed=5)
    assert cli.runs.cmd_bench(args, console) == 130
    assert calls == [(cli.runs.BENCH_CHUNK, 5), (cli.runs.BENCH_CHUNK, 5 + cli.runs.BENCH_CHUNK),
                     (cli.runs.BENCH_CHUNK, 5 + 2 * cli.runs.BENCH_CHUNK)]
    text = console.export_text()
    assert "interrupted after 4,000 random games" in text.replace("4000", "4,000") or \
        "interrupted after 4000 random games" in text


def test_item6_hot_seat_on_a_terminal_that_cannot_clear_pushes_the_hand_off():
    dumb = Console(file=io.StringIO(), force_terminal=True, height=30, _environ={"TERM": "dumb"})
    assert dumb.is_dumb_terminal
    cli.common._clear_screen(dumb)
    assert dumb.file.getvalue() == "\n" * 100


def test_item7_kings_rummy_heuristic_keeps_wilds_outside_last_turns():
    """Issue 16 item 7 (KR-9, KR-11): 35 of 2,372 heuristic discards outside last turns in 30
    games were wilds, 15 of them Jokers; now none is while a card that is not wild is held."""
    game = krazy_core.make("kings-rummy")
    discards = wild = last_turn_wild = 0
    for seed in range(30):
        st = game.new_initial_state(seed=seed)
        step = 0
        while not st.is_terminal():
            p = st.current_player()
            obs = st.observation(p)
            a = st.heuristic_action(seed * 1000003 + step)
            if obs["phase"] == "discard" and 2 <= a < 114:
                k = (a - 2) % 56
                code = 0x50 if k == 55 else (k // 11) << 4 | (k % 11 + 3)
                w = obs["wild_rank"]
                is_wild = code == 0x50 or (code & 15) == w
                if obs["went_out"] is None and a < 58:
                    discards += 1
                    if is_wild:
                        wild += 1
                        assert all(c == 0x50 or (c & 15) == w for c in obs["hand"]), obs["hand"]
                elif is_wild:
                    last_turn_wild += 1
            st.apply_action(a)
            step += 1
    assert discards > 1500 and wild == 0


@pytest.mark.slow
def test_item8_absurd_delay_and_think_are_refused():
    for flag, value, words in (("--delay", "1e10", "--delay must be a number of seconds from 0 to 60"),
                               ("--delay", "1e308", "--delay must be"),
                               ("--think", "1e12", "--think must be a number of seconds > 0 and at most 600")):
        code, out = krazy("play", "krazy-kings", flag, value, input="q\n")
        assert code == 2 and words in " ".join(out.split()) and "Traceback" not in out


@pytest.mark.slow
def test_item9_rules_show_whole_option_names_for_players():
    from krazy_core.game import get_spec
    for game_id in GAMES:
        code, out = krazy("rules", game_id, "--no-pager", env={"COLUMNS": "80"})
        assert code == 0
        lines = [ln.strip() for ln in out.splitlines()]
        for o in get_spec(game_id).options:
            assert o.name in lines, o.name                 # on its own line, never cut
        assert "Returns:" not in out


@pytest.mark.slow
def test_item10_the_seed_is_shown_and_a_saved_game_resumes(tmp_path):
    code, out = krazy("play", "krazy-kings", "--delay", "0", input="q\n")
    import re
    m = re.search(r"Replay this deal: krazy play krazy-kings --seed (\d+)", out)
    assert code == 0 and m and out.split("\n", 1)[0].strip("─ ") == f"Krazy Kings — seed {m.group(1)}"
    save = str(tmp_path / "game.json")
    code, out = krazy("play", "kings-rummy", "--seed", "1", "--delay", "0", "--save", save,
                      input="take K♦, discard K♦\nq\n")
    assert code == 0 and f"--resume {save}" in out.replace("\n", "")
    st = krazy_core.make("kings-rummy").state_from_json(open(save).read())
    code, out2 = krazy("play", "kings-rummy", "--delay", "0", "--resume", save, input="q\n")
    assert code == 0 and "resumed" in out2
    # the saved position, not its past played again (fresh-user item 1: resume replayed it)
    assert "Resumed at move" in out2 and "seat 1 (you) takes K♦" not in out2
    assert st.observation(0)["round"] == 2          # seat 3 went out; q at the pause saved round 2
    assert "Press Enter for the next round" in out and "Round 1 (wild 3s)" in out


def test_item11_a_finished_krazy_kings_game_shows_no_challenge():
    ui = load_ui("krazy-kings")
    checked = 0
    for seed in range(80):
        st = krazy_core.make("krazy-kings").new_initial_state(seed=seed)
        k = 0
        while not st.is_terminal():
            st.apply_action(st.heuristic_action(k))
            k += 1
        if st.observation(0)["challenger"] is None:
            continue
        checked += 1
        for view in (ui.render(st, 0), ui.compact(st, 0)):
            c = Console(file=io.StringIO(), width=100, record=True)
            c.print(view)
            assert "Challenge" not in c.export_text() and "challenge by" not in c.export_text()
    assert checked >= 1


@pytest.mark.slow
def test_item12_hot_seat_buy_offers_say_out_of_turn_and_can_be_passed_for_the_round():
    code, out = krazy("play", "contract-rummy", "--players", "3", "--humans", "3", "--seed", "1",
                      "--delay", "0", input="\n2\npa\n" * 60 + "q\n")
    text = " ".join(out.split())
    assert code == 0
    assert "an offer for you out of turn" in text
    assert "passes (passing on every offer this round)" in text


@pytest.mark.slow
def test_item14_wording():
    code, out = krazy("bench", "krazy-kings", "--games", "1")
    assert "1 random game in the core" in out
    code, out = krazy("simulate", "krazy-kings", "--games", "0")
    assert code == 2 and "--games" in out and "n_games" not in out
    code, out = krazy("match", "krazy-kings", "--seed", "3", "--bots", "heuristic,random")
    assert "return" not in out.lower().replace("returns", "")
    assert "won" in out and "lost" in out
    ui = load_ui("krazy-kings")
    st = first_human_decision("krazy-kings", 7)
    c = Console(file=io.StringIO(), width=100, record=True)
    c.print(ui.render(st, 0))
    assert "round_two" not in c.export_text() and "(direction)" not in c.export_text()
    assert cli.moves._you(st, "player 0 does not hold 3♠") == "you do not hold 3♠"
    assert cli.moves._you(st, "player 2 has gone out") == "seat 3 has gone out"


# ------------------------------------------------------------------ gaps against a card-game app
def test_gap_runs_of_draws_and_of_passes_are_one_line():
    ui = load_ui("krazy-kings")
    names = ["seat 1 (you)", "seat 2 (heuristic bot)"]
    ev = [{"event": "challenge_failed", "player": 1, "draws": 3},
          {"event": "draw", "player": 1, "card": None}, {"event": "draw", "player": 1, "card": None},
          {"event": "draw", "player": 1, "card": None},
          {"event": "draw", "player": 0, "card": 0x11, "card_text": "A♥"},
          {"event": "draw", "player": 0, "card": 0x12, "card_text": "2♥"}]
    assert cli.narrate._log_lines(ui, ev, names) == ["seat 2 (heuristic bot) fails the challenge and draws 3",
                                             "seat 1 (you) draws 2 cards: A♥ 2♥"]
    cr = load_ui("contract-rummy")
    passes = [{"event": "pass", "player": p} for p in (1, 2)]
    assert cli.narrate._log_lines(cr, passes, ["a", "b", "c"]) == ["b passes (no buy) · c passes (no buy)"]


def test_gap_hints_only_when_the_search_has_an_opinion():
    labels, legal = ["discard A", "discard B", "discard C", "discard D"], [1, 2, 3, 4]
    flat = cli.play._hint_text({1: 0.26, 2: 0.25, 3: 0.25, 4: 0.24}, labels, legal).plain
    assert flat.startswith("No clear hint") and "discard A 26%" in flat
    sure = cli.play._hint_text({1: 0.7, 2: 0.1, 3: 0.1, 4: 0.1}, labels, legal).plain
    assert sure == "Hint: discard A (sure: 70% of the search's visits; next discard B 10%)"
    slight = cli.play._hint_text({3: 0.4, 2: 0.28, 1: 0.2, 4: 0.12}, labels, legal).plain
    assert slight.startswith("Hint: discard C (fairly sure: 40%")


def test_gap_the_joker_as_text_and_suits_readable_on_light_backgrounds():
    out = io.StringIO()
    f = cli.common.JokerText(out)
    f.write("lay 🃏 and 5♠")
    assert out.getvalue() == "lay JK and 5♠"
    code, text = krazy("--joker-text", "match", "contract-rummy", "--seed", "2", "-o", "rounds=1")
    assert code == 0 and "🃏" not in text and "JK" in text
    from krazy_core.games.krazy_kings import view as krazy_kings
    from krazy_core.games.contract_rummy import view as contract_rummy
    from krazy_core.games.kings_rummy import view as kings_rummy
    for mod in (contract_rummy, kings_rummy, krazy_kings):
        assert not any("white" in style for style in mod.SUIT_STYLE.values())


@pytest.mark.slow
def test_gap_bot_levels_seats_from_one_names_and_play_again():
    code, out = krazy("play", "krazy-kings", "--players", "3", "--bots", "easy,hard", "--seed", "3",
                      "--delay", "0", input="q\n")
    assert code == 0 and "Seats: seat 1 (you), seat 2 (easy bot), seat 3 (hard bot)" in out
    code, out = krazy("play", "krazy-kings", "--players", "2", "--humans", "2", "--names", "Ann,Bob",
                      "--seed", "3", "--delay", "0", input="q\n")
    assert "Seats: Ann (seat 1), Bob (seat 2)" in out
    code, out = krazy("play", "krazy-kings", "--bots", "genius", input="q\n")
    assert code == 2 and "unknown bot 'genius'" in out
    # play again: a new deal with the next seed; then Enter stops
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", input="1\n" * 3000 + "y\n")
    assert code == 0


def test_gap_play_again_deals_the_next_seed():
    code, out = krazy("play", "krazy-kings", "--humans", "0", "--seed", "5", "--delay", "0", input="")
    assert code == 0 and "Play again?" not in out          # no humans: nobody to ask
    prompts = []

    def answer(prompt=""):
        prompts.append(prompt)
        if prompt.startswith("Play again?"):
            return "y" if sum(p.startswith("Play again?") for p in prompts) == 1 else ""
        return "1"

    console = Console(file=io.StringIO(), width=100, height=40, record=True)
    console.input = answer
    args = cli.build_parser().parse_args(["play", "krazy-kings", "--players", "2", "--seed", "5",
                                          "--delay", "0", "--no-roll-key"])
    assert cli.play.cmd_play(args, console) == 0
    text = console.export_text()
    assert "Krazy Kings — seed 5" in text and "Krazy Kings — seed 6" in text
    assert text.count("hand at the end") == 2 and sum(p.startswith("Play again?") for p in prompts) == 2


def test_gap_crazy_rummy_lays_a_whole_meld_and_discards_a_bare_card():
    """'lay 5♠ 5♥ 5♦' goes down (when that is still to do), lays each card in whichever order
    the engine takes them and finishes the meld; a card alone discards it."""
    ui = load_ui("contract-rummy")
    for seed in range(40):
        s = krazy_core.make("contract-rummy").new_initial_state(seed=seed)
        k = 0
        while not s.is_terminal() and k < 400:
            names = [s.action_to_string(a) for a in s.legal_actions()]
            if "go down" in names:
                break
            s.apply_action(s.heuristic_action(seed=k))
            k += 1
        if s.is_terminal() or "go down" not in names:
            continue
        # what the heuristic lays for its first meld, typed as one line in reverse order
        probe = s.clone()
        probe.apply_action(probe.string_to_action("go down"))
        laid = []
        while True:
            a = probe.heuristic_action(seed=1)
            text = probe.action_to_string(a)
            probe.apply_action(a)
            if text == "finish meld":
                break
            laid.append(text.split()[-1])
        laid = [x for x in laid if x[-1] in "♠♥♦♣🃏"]
        pieces = cli.moves._expand(ui, s, ["lay " + " ".join(reversed(laid))])
        opts = [x for x in pieces if isinstance(x, list)]
        assert pieces[0] == "go down" and pieces[-1] == "finish meld" and len(opts) == 1
        assert sorted(o[0] for o in opts[0]) == sorted(f"lay {c}" for c in laid)
        # a second meld on the same line does not go down again
        assert cli.moves._expand(ui, s, ["lay " + " ".join(laid), "lay " + " ".join(laid)]).count("go down") == 1
        queue = []
        legal = s.legal_actions()
        labels = [ui.action_label(s, a) for a in legal]
        played = []
        a = s.string_to_action("go down")
        cli.moves._queue(queue, s, pieces[1:], legal, labels)
        console = Console(file=io.StringIO(), width=100)
        while True:
            s.apply_action(a)
            played.append(a)
            if not queue:
                break
            legal = s.legal_actions()
            labels = [ui.action_label(s, x) for x in legal]
            a = cli.moves._next_queued(console, s, queue, legal, labels, ui)
            assert a is not None, console.file.getvalue()
        melds = s.observation(s.current_player() if s.current_player() >= 0 else 0)["melds"]
        from krazy_core.cards import format_card as fc
        assert any(sorted(fc(c) for c in m["cards"]) == sorted(laid) for m in melds)
        break
    else:
        pytest.fail("no going down found")
    # a bare card discards
    for seed in range(20):
        s = krazy_core.make("contract-rummy").new_initial_state(seed=seed)
        for k in range(200):
            names = [s.action_to_string(a) for a in s.legal_actions()]
            discards = [n for n in names if n.startswith("discard ")]
            if discards:
                card = discards[0].split()[1]
                assert cli.moves._expand(ui, s, [card]) == [discards[0]]
                return
            s.apply_action(s.heuristic_action(seed=k))
    pytest.fail("no discard found")


def test_gap_crazy_rummy_a_whole_run_is_started_from_its_low_place():
    ui = load_ui("contract-rummy")
    st = krazy_core.make("contract-rummy").new_initial_state(seed=3)
    assert ui.expand_typed(st, "lay 8s 9s jk 2d")[-3:-1] == [
        "start run S from 8♠", [("lay 8♠",), ("lay 9♠",), ("lay 🃏",), ("lay 2♦",)]]
    assert ui.expand_typed(st, "lay jk 9h 10h jh")[-3] == "start run H from 8♥"  # a wild below, as typed
    assert [x for x in ui.expand_typed(st, "lay 5s 5h 2c") if isinstance(x, str) and x.startswith("start")] == []
    assert ui.expand_typed(st, "t") in (["take up-card"], None) and ui.expand_typed(st, "lay") is None


def test_gap_press_enter_to_roll_your_own_dice():
    ui = load_ui("krazy-kings")
    names = ["seat 1 (you)", "seat 2 (heuristic bot)"]
    ev = [{"event": "roll", "player": 1, "dice": [1, 2]}, {"event": "roll", "player": 0, "dice": [3, 4]},
          {"event": "play", "player": 0, "card_text": "7♥", "announced": False}]
    asked = []
    console = Console(file=io.StringIO(), width=100, record=True)
    console.input = lambda prompt="": asked.append(prompt) or ""
    assert cli.narrate._print_events(console, ui, ev, names, {0}) is True
    assert len(asked) == 1 and "press Enter to roll the dice" in asked[0]
    text = console.export_text()
    assert text.index("seat 2 (heuristic bot) rolls") < text.index("seat 1 (you) rolls")
    console.input = lambda prompt="": "q"
    assert cli.narrate._print_events(console, ui, ev, names, {0}) is False


def test_gap_bots_pause_once_per_turn_not_per_decision(monkeypatch):
    """A Crazy Rummy bot going down is ~10 decisions: one pause for its turn (--delay)."""
    sleeps = []
    monkeypatch.setattr(cli.play.time, "sleep", lambda s: sleeps.append(s))
    console = Console(file=io.StringIO(), width=100, height=40)
    args = cli.build_parser().parse_args(["play", "contract-rummy", "--humans", "0", "--seed", "2",
                                          "-o", "rounds=1", "--delay", "0.5"])
    assert cli.play.cmd_play(args, console) == 0
    st = krazy_core.make("contract-rummy", rounds=1).new_initial_state(seed=2)
    from krazy_core.bots import make_bot
    bots = [make_bot("heuristic", seed=2 * 104729 + p) for p in range(4)]
    decisions = turns = 0
    last = None
    while not st.is_terminal():
        p = st.current_player()
        turns += p != last
        last = p
        st.apply_action(bots[p].step(st))
        decisions += 1
    assert len(sleeps) == turns < decisions and set(sleeps) == {0.5}


def test_long_choice_labels_fold_at_40_columns_instead_of_being_cut():
    # at 40 columns "2 play 9♣  (without calling last card: you will be caught, KK-19)" ended
    # in "…": the warning the label exists for was lost
    code, out = krazy("play", "krazy-kings", "--seed", "7", "--delay", "0",
                      input="3d\nqs\n2s\n\n\nq\n", env={"COLUMNS": "40", "LINES": "15"})
    assert code == 0
    lines = out.splitlines()
    # the play without the last-card call is no numbered choice (it was offered as a normal
    # move): the line beside the prompt says how to type it, folded at 40 columns (KK-19)
    assert not any(x.startswith("2 play 9♣") for x in lines)
    flat = " ".join(out.split())
    assert "'play 9♣ no call' plays it without the call: you will be caught (KK-19)" in flat
    assert not any(x.startswith(("1 ", "2 ")) and "…" in x for x in lines)
    # a page of folded labels holds only what fits: every choice is on some page, whole
    st = first_human_decision("krazy-kings", 7)
    ui = load_ui("krazy-kings")
    entries = [("move", a, "play 9♣ " + "and a very long explanation " * 3) for a in range(12)]
    console = Console(width=40, height=15, file=io.StringIO(), color_system=None)
    seen = []
    for page in range(12):
        parts, prompt, pg, pages, first, count = cli_table.screen_lines(console, ui, st, 0, entries, page)
        seen += list(range(first, first + count))
        grid = [x for x in parts[1:] if isinstance(x, cli_table.Text) and not x.plain.startswith(st.prompt(0))]
        assert len(grid) <= 15 and all(len(x.plain) <= 40 for x in grid)
        assert parts[-1].plain == st.prompt(0) + "  (r: the rules)"     # the engine's prompt, folded
        if pg == pages - 1:
            break
    assert sorted(seen) == list(range(12))
