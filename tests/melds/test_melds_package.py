"""The meld package's one question (``melds.best_arrangement(hand, rules, contract=None)``):
its result type, each game's ``meld_rules(options)``, and that what it answers does not
depend on what was imported before it (a fresh interpreter importing only the package)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from krazy_core.games import melds as M

CASES = [
    ("3H 4H 5H 6H 6S 6C 9D", ("kings", 7), None),
    ("3H 4H 5H JK 9S", ("kings", 7), None),
    ("AS 2S 3S 4S 9H 9D 9C JK KD", ("crazy", False), None),
    ("AS 2S 3S 4S 9H 9D 9C JK KD", ("crazy", False), [1, 1]),
    ("QS KS AS 2S 5H 6H 7H 8H 8D 8C", ("crazy", True), [0, 2]),
    # 32 cards: two suits twice and 4 wilds, contract (0, 3) with ace_wrap (the game's DPs
    # answer from 14 cards)
    (" ".join([f"{r}{s}" for s in "SH" for r in "A 3 4 5 6 7 8 9 10 J".split()]
              + [f"{r}{s}" for s in "SH" for r in "3 5 7 9".split()] + ["JK", "JK", "2D", "2C"]),
     ("crazy", True), [0, 3]),
]


def _rules(spec):
    return M.kings_rules(spec[1]) if spec[0] == "kings" else M.crazy_rules(ace_wrap=spec[1])


def _answers():
    out = []
    for hand, spec, contract in CASES:
        r = M.best_arrangement(hand, _rules(spec), None if contract is None else tuple(contract))
        out.append(None if r is None else [r.melds, r.deadwood, r.points])
    return out


def test_the_result_type():
    r = M.best_arrangement("3H 4H 5H 6H 6S 6C 9D", M.kings_rules(7))
    assert isinstance(r, M.Arrangement) and r.points == 9 and r.deadwood == ["9D"]
    melds, left, pts = r                         # a tuple too
    assert (melds, left, pts) == tuple(M.faces.best_arrangement("3H 4H 5H 6H 6S 6C 9D", 7))
    c = M.best_arrangement("AS 2S 3S 4S 9H 9D 9C", M.crazy_rules(), (1, 1), as_codes=True)
    assert tuple(c) == M.crazy_best_arrangement("AS 2S 3S 4S 9H 9D 9C", contract=(1, 1), as_codes=True)
    assert M.best_arrangement("AS 9H", M.crazy_rules(), (1, 1)) is None
    with pytest.raises(ValueError):
        M.best_arrangement("3H 4H 5H", 7)                       # not a MeldRules
    with pytest.raises(ValueError):
        M.best_arrangement("3H 4H 5H", M.kings_rules(7), (1, 0))  # KR-10: no contracts
    with pytest.raises(ValueError):
        M.best_arrangement("3H 4H 5H", M.kings_rules(14))       # KR-3: wild rank 3..13


@pytest.mark.parametrize("rnd", [3, 6, 7])
@pytest.mark.parametrize("wrap", [False, True])
def test_CR_10_overlapping_runs_contract_is_the_games_answer(rnd, wrap):
    from krazy_core.games import contract_rummy
    from krazy_core.games.contract_rummy.core import CONTRACTS
    hands = ["AS 2S 3S 4S 5S 6S 7S 3S 4S 5S 6S JK 9H 9D 9C KD",
             "QS KS AS 2S 3S 4S 5S 6S JK 2H 8H 8D 8C 10H JH QH KH",
             "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 5H 6H 7H 8H JK 2C"]
    for h in hands:
        got = M.best_arrangement(h, M.crazy_rules(ace_wrap=wrap, overlapping_runs=True), CONTRACTS[rnd])
        want = contract_rummy.best_arrangement(h, rnd, ace_wrap=wrap, overlapping_runs=True, ascii=True)
        assert (None if got is None else tuple(got)) == (None if want is None else tuple(want))
    with pytest.raises(ValueError):
        M.best_arrangement(hands[0], M.crazy_rules(overlapping_runs=True), (0, 1))   # no round's


def test_each_game_gives_its_meld_rules():
    import krazy_core
    from krazy_core.games import contract_rummy, kings_rummy
    g = krazy_core.make("contract-rummy", ace_wrap=True)
    assert contract_rummy.meld_rules(g.options) == M.crazy_rules(ace_wrap=True)
    g = krazy_core.make("kings-rummy", wild_points=25)
    assert kings_rummy.meld_rules(g.options, 9) == M.kings_rules(9, wild_points=25)


def test_melds_answers_do_not_depend_on_import_order(tmp_path):
    """A fresh interpreter that imports only ``krazy_core.games.melds`` answers as this one,
    which has imported everything (the games, the registry)."""
    import krazy_core  # noqa: F401
    import krazy_core.games.contract_rummy  # noqa: F401
    import krazy_core.games.kings_rummy  # noqa: F401
    here = _answers()
    code = ("import json, sys\n"
            f"sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r})\n"
            "import krazy_core.games.melds\n"
            "import test_melds_package as T\n"
            "print(json.dumps(T._answers()))\n")
    env = dict(os.environ)
    import krazy_core as K
    root = str(pathlib.Path(K.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(json.dumps(here))


def test_CR_3_meld_rules_refuse_values_out_of_range():
    """A fresh user's: ``crazy_rules(ace_wrap='yes')`` turned wrapping on, ``MeldRules`` took
    negative points and huge ranks; now each is a ValueError naming the value (KR-3, KR-14,
    CR-2, CR-3, CR-10), and True / False (numpy's too) and any integer pass."""
    import numpy as np
    from krazy_core.games import melds as M
    hand = "QS KS AS 2S 5H"
    for bad in ("yes", None, 2, 1, 1.0, "x"):
        with pytest.raises(ValueError, match="ace_wrap must be True or False"):
            M.crazy_rules(ace_wrap=bad)
        with pytest.raises(ValueError, match="ace_wrap must be True or False"):
            M.crazy_best_arrangement(hand, ace_wrap=bad)
        with pytest.raises(ValueError, match="overlapping_runs must be True or False"):
            M.crazy_rules(overlapping_runs=bad)
    with pytest.raises(ValueError, match="wild_points must be an int in 0..1000"):
        M.MeldRules("crazy", 2, -5, 20)
    with pytest.raises(ValueError, match="joker_points must be an int in 0..1000"):
        M.kings_rules(7, joker_points=2 ** 70)
    with pytest.raises(ValueError, match="wild_rank must be an int in 3..13"):
        M.kings_rules(2 ** 70)
    with pytest.raises(ValueError, match="wild_rank must be an int in 2..2"):
        M.MeldRules("crazy", 7)
    with pytest.raises(ValueError, match="game must be"):
        M.MeldRules("gin")
    with pytest.raises(ValueError, match="Crazy Rummy's options"):
        M.MeldRules("kings", 7, ace_wrap=True)
    assert M.crazy_best_arrangement(hand, ace_wrap=np.True_) == M.crazy_best_arrangement(hand, ace_wrap=True)
    assert M.kings_rules(np.int64(9)).wild_rank == 9                # any integer, numpy's too
    assert M.best_arrangement(hand, M.crazy_rules(ace_wrap=True)).points == 5        # QS KS AS 2S a run, 5H left (CR-15)
