"""pytest-benchmark suites of krazy_core (``benches/bench_*.py``).

Not part of the test run: ``testpaths`` in pyproject.toml is ``tests``.  Run them with

    python -m pytest benches/                       # every bench_*.py here
    python -m pytest benches/bench_krazy_kings.py --benchmark-columns=median,ops,rounds

(``python -m`` puts this checkout, with its in-place build, first on ``sys.path``.)
A benchmark whose game, module or peer (``pip install 'krazy_core[peers]'``) is not there is
skipped with the reason.
"""

import random

import pytest


def pytest_collect_file(file_path, parent):
    """Collect ``bench_*.py`` as test modules when this directory is collected (a file
    named on the command line is collected by pytest itself)."""
    if (file_path.suffix == ".py" and file_path.name.startswith("bench_")
            and not parent.session.isinitpath(file_path)):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def our_game(game_id: str, num_players: int = 4):
    """``krazy_core.make(game_id, num_players)``, or skip the benchmark if it is not there."""
    krazy_core = pytest.importorskip("krazy_core")
    from krazy_core.game import REGISTRY
    if game_id not in REGISTRY:
        pytest.skip(f"{game_id} is not registered yet")
    try:
        return krazy_core.make(game_id, num_players=num_players)
    except ImportError as e:
        pytest.skip(f"{game_id} module is not there yet: {e}")


def peer_game(name: str, **params):
    """``pyspiel.load_game(name, params)``, or skip if open_spiel is not installed."""
    pyspiel = pytest.importorskip("pyspiel", reason="needs the peers extra: pip install 'krazy_core[peers]'")
    return pyspiel.load_game(name, params)


def mid_game(state, seed: int = 1, decisions: int = 20):
    """``state`` advanced by ``decisions`` random player decisions (chance nodes sampled),
    stopping early rather than reaching the end; never left at a chance node."""
    rng = random.Random(seed)
    d = 0
    while True:
        while state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(acts, probs)[0])
        if state.is_terminal():
            raise RuntimeError("game ended before reaching mid-game")
        if d >= decisions:
            return state
        nxt = state.clone()
        nxt.apply_action(rng.choice(nxt.legal_actions()))
        while nxt.is_chance_node():
            acts, probs = zip(*nxt.chance_outcomes())
            nxt.apply_action(rng.choices(acts, probs)[0])
        if nxt.is_terminal():
            return state
        state = nxt
        d += 1


@pytest.fixture
def playout():
    """The Python-API random playout function (see ``random_playout``)."""
    return random_playout


@pytest.fixture
def kk_game():
    """4-player Krazy Kings with default options (skips if not there yet)."""
    return our_game("krazy-kings", 4)


@pytest.fixture
def kk_simulate(kk_game):
    """Krazy Kings' in-core random playout loop ``fn(game, n_games, seed)`` (in the game's
    module, or a generic module over GameOps), or skip."""
    import importlib
    import importlib.util
    from krazy_core.game import REGISTRY
    for mod_name in (REGISTRY[kk_game.game_id], "krazy_core", "krazy_core._state", "krazy_core.simulate", "krazy_core._simulate",
                     "krazy_core._playout"):
        if importlib.util.find_spec(mod_name) is None:
            continue
        module = importlib.import_module(mod_name)
        for name in ("simulate_random", "simulate", "random_playouts"):
            if callable(getattr(module, name, None)):
                return getattr(module, name)
    pytest.skip("no in-core playout loop (simulate_random) for krazy-kings yet")


def random_playout(state, rng: random.Random) -> int:
    """Plays ``state`` to the end through the Python API (``legal_actions``, a
    ``rng.choice``, ``apply_action``; chance nodes by the same ``rng``); returns the number of
    player decisions."""
    choice = rng.choice
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])  # crazy_eights: uniform
        else:
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
    return decisions


# --- sides: ours (krazy-kings) and the peer (OpenSpiel crazy_eights, 4 players)

SIDES = ["krazy-kings", "crazy_eights"]


@pytest.fixture(params=SIDES)
def side(request):
    """(name, new_state) for each side; new_state(i) makes the i-th fresh game."""
    if request.param == "krazy-kings":
        game = our_game("krazy-kings", 4)
        return request.param, lambda i: game.new_initial_state(seed=i)
    game = peer_game("crazy_eights", players=4)
    return request.param, lambda i: game.new_initial_state()


@pytest.fixture
def mid_state(side):
    """A state 20 random decisions into a game of that side."""
    _, new_state = side
    return mid_game(new_state(12345), seed=1)
