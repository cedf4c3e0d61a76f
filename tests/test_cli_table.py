"""The terminal table's screen fits the terminal (issue 16 item 1) and the table's other
newcomer fixes (issue 16): every test here is timing-free (no --delay, no clocks)."""

import io
import math

import pytest
from rich.console import Console

import krazy_core
from krazy_core import cli, cli_table
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
        assert len(prompt) <= 60 and "(1-" in prompt
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
    assert all(len(g[3]) == 11 for g in groups) and sorted(groups[0][3]) == sorted(str(i) for i in range(11))
    assert "take reserve 7 (left) (then choose where)" in text or "take reserve 7 (then choose where)" in text
    assert "into position" not in text
    assert "Your hand" in text and "To beat" in text
    # choosing the group asks a position: the move is the one of that position
    g = groups[0]
    answers = iter(["", "5"])
    console = Console(file=io.StringIO(), width=80)
    console.input = lambda prompt="": next(answers)
    assert cli._group_choice(console, g) is None                    # Enter goes back
    a = cli._group_choice(console, g)
    assert st.action_to_string(a).startswith("reserve slot") and st.action_to_string(a).endswith("at 5")


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
