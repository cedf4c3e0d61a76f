"""The package's public face after the split (issue 12 item 1): core.pyx the rules, state.pyx
the face; the names importable before still are, the action ranges mean what the engine does
with them, the face refuses to load when its tables disagree with core.pxd, and a state pickles
and loads through the new module."""
import pickle
import os
import subprocess
import sys

import krazy_core
import krazy_core.games.krass_kariert as ka
from krazy_core.games.krass_kariert import core, notation, state


def test_names_importable_before_still_are():
    for name in ("SPEC", "KrassKariertState", "new_state", "state_from_dict", "check_options",
                 "simulate_random", "chips_for", "combination", "combination_index",
                 "combination_of_index", "window_combinations", "beats", "COMBINATION_TYPES",
                 "EVENT_NAMES", "PHASE_NAMES", "TRICK_KINDS", "TENSOR_LAYOUT", "TENSOR_SIZE",
                 "NUM_ACTIONS", "NUM_COMBINATIONS", "MAX_HAND", "A_PLAY", "A_STOP", "A_DRAW",
                 "A_RESERVE", "A_INSERT"):
        assert name in ka.__all__ and getattr(ka, name) is not None, name
    assert ka._probe_actions is core._probe_actions and ka._action_text is state._action_text
    assert ka.KrassKariertState.__module__ == "krazy_core.games.krass_kariert.state"
    assert ka.simulate_random.__module__ == ka.combination.__module__ == "krazy_core.games.krass_kariert.core"
    assert not hasattr(core, "KrassKariertState") and not hasattr(core, "SPEC")
    assert krazy_core.game.get_spec("krass-kariert") is ka.SPEC
    assert ka.SPEC.num_distinct_actions == ka.NUM_ACTIONS == 1116
    assert ka.TENSOR_SIZE == sum(seg.size for seg in ka.TENSOR_LAYOUT) == 623
    assert ka.COMBINATION_TYPES is core.COMBINATION_TYPES is state.COMBINATION_TYPES


def test_action_ranges_are_notations_and_the_engines():
    assert (ka.A_PLAY, ka.A_STOP, ka.A_DRAW, ka.A_RESERVE, ka.A_INSERT) == (
        0, notation.STOP_AT, notation.DRAW_AT, notation.RESERVE_AT, notation.INSERT_AT)
    assert ka.A_STOP == ka.A_PLAY + ka.MAX_HAND * ka.NUM_COMBINATIONS            # 18 starts x 57
    assert ka.NUM_ACTIONS == ka.A_INSERT + ka.MAX_HAND
    words = {ka.A_PLAY: "play ", ka.A_STOP: "stop ", ka.A_DRAW: "draw ", ka.A_RESERVE: "reserve slot ",
             ka.A_INSERT: "insert at "}
    starts = sorted(words)
    game = krazy_core.make("krass-kariert", num_players=4)
    seen = set()
    for seed in range(6):
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal():
            for a in s.legal_actions():
                base = max(b for b in starts if b <= a)
                seen.add(base)
                assert s.action_to_string(a).startswith(words[base]), (a, s.action_to_string(a))
            s.apply_action(s.legal_actions()[0])
    assert seen == set(starts)


def test_event_kinds_are_named_by_the_face():
    s = krazy_core.make("krass-kariert").new_initial_state(seed=3)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    kinds = {e[0] for e in s.raw_events()}
    assert kinds <= set(ka.EVENT_NAMES) and {1, 4, 13} <= kinds        # hand_start, play, game_over
    assert [e["event"] for e in s.events][-1] == ka.EVENT_NAMES[13] == "game_over"


def test_the_face_refuses_tables_that_disagree_with_core_pxd():
    """state.pyx checks notation's action ranges at import (a notation edited alone fails loudly):
    a fresh interpreter with notation.INSERT_AT off by one cannot import the game."""
    code = ("import importlib.util, sys, krazy_core.cards, krazy_core.errors\n"
            f"spec = importlib.util.spec_from_file_location('krazy_core.games.krass_kariert.notation', {notation.__file__!r})\n"
            "n = importlib.util.module_from_spec(spec); spec.loader.exec_module(n); n.INSERT_AT += 1\n"
            "sys.modules[spec.name] = n\n"
            "try:\n    import krazy_core.games.krass_kariert\nexcept ImportError as e:\n    print(e)\n")
    # cwd: the test's own folder, not the checkout's root, whose unbuilt krazy_core/ `python -c`
    # would import instead of the installed package (CI runs the suite against an installed build)
    # and the krazy_core this process imported first on the path (an in-place build or the wheel)
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.abspath(__file__)), env=env)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "notation's action ids or card codes differ from core.pxd's" in out


def test_a_state_pickles_and_loads_through_the_package():
    s = krazy_core.make("krass-kariert", num_players=5).new_initial_state(seed=11)
    s.apply_action(s.legal_actions()[0])
    back = pickle.loads(pickle.dumps(s))
    assert back == s and type(back) is ka.KrassKariertState
    assert s.game.state_from_json(s.to_json()) == s
    assert s.game.state_from_bytes(s.to_bytes()) == s


def test_rules_text_and_view_live_in_the_package():
    from importlib import resources
    from krazy_core.ui import load_ui
    assert ka.SPEC.rules_file == "games/krass_kariert/rules.md"
    text = resources.files("krazy_core").joinpath(*ka.SPEC.rules_file.split("/")).read_text(encoding="utf-8")
    assert "KA-15" in text
    from krazy_core.games.krass_kariert import view
    assert load_ui("krass-kariert").render is view.render
