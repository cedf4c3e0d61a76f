"""Behaviour is identical to the recorded tree (issue 12, "Behaviour identical"): seeded games
of every game and player count, random and heuristic, hashed after every action, and seeded
ISMCTS searches (tests/fingerprints.py; record again only for a deliberate rule change)."""
import pytest

import fingerprints

RECORDED = fingerprints.load()
NOW = {}


def _now():
    if not NOW:
        NOW.update(fingerprints.compute())
    return NOW


@pytest.mark.parametrize("name", sorted(RECORDED))
@pytest.mark.slow
def test_fingerprint_matches_the_recorded_tree(name):
    assert _now()[name] == RECORDED[name]


@pytest.mark.slow
def test_fingerprints_cover_every_game_and_player_count():
    import krazy_core
    from krazy_core.game import get_spec
    for gid in krazy_core.available_games():
        spec = get_spec(gid)
        for n in range(spec.min_players, spec.max_players + 1):
            for what in ("random", "heuristic", "simulate_random"):
                assert any(k.startswith(f"{gid}/{n}p/{what}/") for k in _now()), (gid, n, what)
        assert sum(k.startswith(f"{gid}/") and "/ismcts/" in k for k in _now()) == 2
    assert set(_now()) == set(RECORDED)
