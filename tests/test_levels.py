"""Bot levels (issue 29 item 6): one vocabulary for make_bot, the CLI and the lobby.

No strength claims here (no timed or statistical tests): the levels' ratings are measured by
``benches/levels.py`` and published in ``benches/README.md`` ("Bot levels")."""

import pathlib
import re

import pytest

import krazy_core
from krazy_core import cli
from krazy_core.runs.arena import run_arena
from krazy_core.bots import ISMCTSBot, HeuristicBot, RandomBot, make_bot
from krazy_core.bots.levels import (DESCRIPTIONS, LEVEL_NAMES, LEVELS, is_level, level_bot,
                                    level_choices, level_word)
from krazy_core.errors import ConfigError

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_levels_weakest_first_and_described():
    assert LEVEL_NAMES == ("easy", "normal", "hard")
    assert tuple(LEVELS) == LEVEL_NAMES == tuple(DESCRIPTIONS)
    assert [c["level"] for c in level_choices()] == list(LEVEL_NAMES)
    assert all(c["bot"] == LEVELS[c["level"]] and c["description"] for c in level_choices())


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_make_bot_accepts_every_level(level):
    bot = make_bot(level, seed=3)
    same = make_bot(LEVELS[level], seed=3)
    assert type(bot) is type(same)
    assert getattr(bot, "_options", None) == getattr(same, "_options", None)
    assert type(level_bot(level, seed=3)) is type(same)
    assert type(make_bot(f"  {level.upper()} ", seed=3)) is type(same)


def test_levels_are_the_configured_bots():
    assert isinstance(make_bot("easy"), RandomBot)
    assert isinstance(make_bot("normal"), HeuristicBot)
    hard = make_bot("hard")
    assert isinstance(hard, ISMCTSBot) and hard._options["iterations"] == 500
    assert not is_level("expert")           # not shown stronger than hard in every game
    with pytest.raises(ConfigError, match="unknown bot 'expert'"):
        make_bot("expert")


def test_is_level_and_level_word():
    for level in LEVEL_NAMES:
        assert is_level(level) and is_level(level.title())
        assert level_word(level) == LEVELS[level]
    for word in ("random", "heuristic", "ismcts:200", "", "hardest", None):
        assert not is_level(word)
    assert level_word("ismcts:50") == "ismcts:50"


def test_unknown_level_names_the_levels():
    with pytest.raises(ConfigError, match="easy, normal, hard"):
        level_bot("grandmaster")
    with pytest.raises(ConfigError, match="easy, normal, hard"):
        make_bot("grandmaster")


def test_cli_uses_the_one_vocabulary():
    assert cli.common.LEVELS is LEVELS
    assert cli.common._bot_list("easy,hard", 3) == ["easy", "hard", "easy"]


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_cli_match_accepts_the_level_words(level, capsys):
    # a short bots-only game per level (Krazy Kings, a few dozen moves)
    code = cli.main(["match", "krazy-kings", "--bots", f"{level},easy", "--seed", "4",
                     "--delay", "0"])
    assert code == 0


def test_cli_bots_help_lists_the_levels():
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    flat = " ".join(out.getvalue().split())
    for level, word in LEVELS.items():
        assert f"{level} ({word})" in flat


def _docs_table_levels(path, heading):
    text = (ROOT / path).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    section = section.split("\n## ", 1)[0]
    return section


@pytest.mark.parametrize("path,heading", [("docs/guide/players.md", "## Bot levels"),
                                          ("benches/README.md", "## Bot levels")])
def test_docs_name_the_levels(path, heading):
    section = _docs_table_levels(path, heading)
    # the definitions table: | `level` | `bot word` | ...
    named = re.findall(r"^\| `(\w+)` \| `([^`]+)` \|", section, re.M)
    assert tuple(n for n, _ in named) == LEVEL_NAMES
    assert dict(named) == LEVELS
    # a rating for every game, the levels weakest first
    for game in krazy_core.available_games():
        assert game in section
    rows = re.findall(r"^\| (easy|normal|hard) \|", section, re.M)
    assert tuple(rows[:len(LEVEL_NAMES)]) == LEVEL_NAMES and set(rows) == set(LEVEL_NAMES)


def test_easy_below_normal_on_a_few_seeded_games():
    # a smoke check of the wiring (the levels are the bots they name), not a strength claim
    game = krazy_core.make("krazy-kings", num_players=2)
    res = run_arena(game, ["normal", "easy"], games=12, seed=11)
    assert res.games == 12 and res.wins[0] > res.wins[1]


def test_levels_module_examples():
    import doctest
    import krazy_core.bots.levels as mod
    assert doctest.testmod(mod).failed == 0
