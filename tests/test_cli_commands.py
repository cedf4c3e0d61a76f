"""The ``krazy`` commands' words for a newcomer: ``rules`` text and seat options counted
from 1, names and flags checked, ``bench``, ``simulate``, ``tournament``, ``sprt``,
``selfplay`` and ``serve`` say what they did or why not."""
from krazy_core import cli
from test_cli_table import krazy
import krazy_core
import pytest
import re
from cli_helpers import _cr_turn


def test_a_bot_thinking_longer_than_the_think_limit_is_refused():
    # `--bots ismcts:1e9s` was accepted (--think 1e12 is refused): simulate sat silent for ever
    for cmd in (["simulate", "krazy-kings", "--games", "1"], ["play", "krazy-kings", "--delay", "0"],
                ["match", "krazy-kings"]):
        code, out = krazy(*cmd, "--bots", "ismcts:1e9s", input="q\n", timeout=60)
        assert code == 2 and "ismcts:1e9s" in out and "at most 600 s" in out, out
    from krazy_core import cli
    assert cli.common._bot_list("ismcts:600s,heuristic", 3) == ["ismcts:600s", "heuristic", "ismcts:600s"]


def test_rules_option_text_wraps_indented_and_seat_options_say_how_they_count():
    # at 40 columns the wrapped lines of an option's text started at column 0, under the
    # option names; "dealer ... 0..4" did not say that seat 1 at the table is 0
    code, out = krazy("rules", "krazy-kings", "--no-pager", env={"COLUMNS": "40"})
    assert code == 0
    lines = out.split("\n")
    at = lines.index("may_roll_when_able")
    body = []
    for ln in lines[at + 1:]:
        if not ln.startswith("    "):
            break
        body.append(ln.strip())
    assert len(body) >= 2 and " ".join(body).endswith("rule KK-8)"), lines[at:at + 6]
    text = " ".join(out.split())
    # seat options are typed as the table counts seats, from 1 (they said "0 is seat 1")
    assert "(default seat 1; seat 1..5; seats count from 1, as at the table; rule KK-3)" in text
    code, out = krazy("rules", "kings-rummy", "--no-pager")
    assert "(default seat 1; seat 1..7; seats count from 1, as at the table; rule KR-4)" in " ".join(out.split())


@pytest.mark.slow
def test_seat_options_are_typed_counting_seats_from_1(tmp_path):
    # -o dealer=2 is seat 2 at the table (it dealt from seat 3: the option counted from 0)
    code, out = krazy("play", "krazy-kings", "--seed", "1", "-o", "dealer=2", "--delay", "0", input="q\n")
    assert code == 0 and "seat 2 (heuristic bot) shuffles 54 cards" in out
    assert "Replay this deal: krazy play krazy-kings -o dealer=2 --seed 1" in out
    st = krazy_core.make("krazy-kings", dealer=1).new_initial_state(seed=1)
    assert st.events_for(None)[0] == {"event": "shuffle", "player": 1, "cards": 54}   # the engine's seat 1 = seat 2
    code, out = krazy("play", "krazy-kings", "-o", "dealer=0", "--delay", "0", input="q\n")
    assert code == 2 and "option 'dealer' is a seat, counted from 1 as at the table (-o dealer=1 is seat 1), got 0" \
        in " ".join(out.split())
    code, out = krazy("play", "krazy-kings", "-o", "dealer=5", "--delay", "0", input="q\n")
    assert "option 'dealer' is a seat from 1 to 4 at a table of 4 (seats count from 1), got 5 (KK-3)" in \
        " ".join(out.split())
    code, out = krazy("match", "kings-rummy", "-o", "first_dealer=3", "-o", "rounds=1", "--players", "3", "--seed", "2")
    assert code == 0 and "seat 3 (heuristic) deals" in out, out[:400]
    # a saved game resumes with the same line (the file holds the game's own count)
    save = str(tmp_path / "g.json")
    code, out = krazy("play", "krazy-kings", "--seed", "1", "-o", "dealer=2", "--delay", "0", "--save", save,
                      input="q\n")
    code, out = krazy("play", "krazy-kings", "-o", "dealer=2", "--delay", "0", "--resume", save, input="q\n")
    assert code == 0 and "error" not in out


@pytest.mark.slow
def test_names_that_are_markup_or_unprintable_are_refused_not_a_traceback():
    # --names '[/],[bold]Bob' ended in rich.errors.MarkupError (the play by play is markup)
    for names in ("[/],Bob", "[bold]Eve,Bob", "Eve\x1b[2J,Bob", "x" * 25 + ",Bob", "Eve,eve"):
        code, out = krazy("play", "krazy-kings", "--humans", "2", "--players", "2", "--delay", "0",
                          "--names", names, input="q\n", timeout=60)
        assert code == 2 and "--names" in out and "Traceback" not in out, (names, out)
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--players", "2", "--delay", "0",
                      "--names", "Eve (mum),Bob-2", input="q\n", timeout=60)
    assert code == 0 and "Eve (mum) (seat 1)" in out


def test_bench_counts_have_thousands_separators_and_say_what_they_count():
    code, out = krazy("bench", "krazy-kings", "--games", "3000", "--seed", "1")
    flat = " ".join(out.split())
    assert code == 0
    m = re.search(r"3,000 random games in the core, ([\d,]+) decisions \(moves chosen\) in [\d.]+ s = "
                  r"([\d,]+) decisions/s", flat)
    assert m, flat
    assert int(m.group(1).replace(",", "")) > 1000 and "," in m.group(1)
    # a match's result says what its two counts are
    code, out = krazy("match", "krazy-kings", "--seed", "3")
    assert re.search(r"after [\d,]+ turns, [\d,]+ moves chosen by the players\.", " ".join(out.split()))
    assert "decisions)" not in out


# ------------------------------------------------------------------ tournament, sprt, selfplay (item 14)
def test_tournament_reads_for_a_newcomer_and_says_when_results_come_from_the_store(tmp_path):
    store = str(tmp_path / "r.sqlite")
    args = ("tournament", "krazy-kings", "--bots", "easy,normal", "--games", "40", "--store", store)
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert code == 0 and "Traceback" not in out
    # --bots offers easy/normal/hard: they are the bots they stand for ("unknown bot 'easy'" before)
    assert "│ heuristic │" in out and "│ random    │" in out
    assert ("Krazy Kings, 4 players: 40 games; 1 line-up of bots, each deal played with the bots in "
            "every seat (duplicate deals), seed 0;") in flat
    assert "table(s)" not in out and "mu ± 1.96 sigma" not in out and "mean score" not in out
    assert "rating: higher is stronger (openskill Bradley–Terry); the true rating is inside the interval " \
           "95% of the time; score: the bot's mean result per seat (1 = won, 0 = lost)." in flat
    assert "Head to head" in out and "How often the row's bot finished above the column's in the games " \
                                     "they shared (ties count half)." in flat
    assert "│ heuristic │   32.3 │  23.6 – 41.0 │" in out and "41.2% │    40 │" in out
    # the same command again: read back, and it says so (it took 0.0 s and said nothing)
    code, again = krazy(*args)
    assert f"40 of the 40 games were read back from {store} (an earlier run of this command; " \
           "--no-store plays them again)" in " ".join(again.split())
    code, out = krazy("tournament", "--help")
    flat = " ".join(out.split())
    assert "Each deal is played once with the bots in every seat (duplicate deals)" in flat
    assert "Example: krazy tournament krazy-kings --bots random,heuristic,ismcts:200 --games 400" in flat


def test_sprt_answers_yes_or_no_in_words_then_the_statistics():
    code, out = krazy("sprt", "krazy-kings", "easy", "normal", "--no-store")
    flat = " ".join(out.split())
    assert code == 0
    assert ("Yes: heuristic is stronger than random, by at least 20 Elo (95% sure), after 54 games "
            "(27 pairs of 2 games on the same deals, the bots' seats swapped).") in flat
    assert "Estimated gap: heuristic +280 Elo against random (95% interval +170 … +479)" in flat
    assert "H1 accepted" not in out and "LLR" not in out
    assert "log-likelihood ratio 3.08 (stops at -2.94 or 2.94)" in flat
    code, out = krazy("sprt", "krazy-kings", "random", "heuristic", "--no-store", "--max-games", "10")
    flat = " ".join(out.split())
    assert ("Not decided after 10 games (5 pairs of 2 games on the same deals, the bots' seats swapped): "
            "the games ran out (--max-games 10) before the test was sure. Raise --max-games, or test a "
            "bigger gap (--elo1 further from --elo0).") in flat
    assert "+inf" not in out and "(95% interval +115 … no upper limit yet)" in flat
    code, out = krazy("sprt", "--help")
    flat = " ".join(out.split())
    assert "Is bot B stronger than bot A?" in flat and "chosen from --games" not in flat
    assert "--alpha ALPHA how often a 'yes' may be wrong (default 0.05)" in flat


def test_selfplay_says_what_it_wrote_and_a_rerun_that_has_nothing_to_do(tmp_path):
    import pytest
    pytest.importorskip("pyarrow")
    out_dir = str(tmp_path / "sp")
    args = ("selfplay", "krazy-kings", "--bot", "normal", "--games", "3", "--out", out_dir)
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert code == 0
    assert re.search(r"Wrote 3 games, [\d,]+ positions \(one per move, with the move played\) in 3 "
                     r"Parquet files to " + re.escape(out_dir) + r"; [\d.]+ s, [\d,]+ positions/s", flat), flat
    code, out = krazy(*args)
    flat = " ".join(out.split())
    assert (f"Nothing to play: all 3 games are already in {out_dir} (3 files, from an earlier run of this "
            "command). For more games, write to a new --out folder") in flat
    assert "0 games, 0 decisions" not in flat


def test_names_keep_their_seats():
    # `--humans 2 --names ,Bob` sat Bob at seat 1: the empty first name was dropped
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", ",Bob", "--seed", "1",
                      "--delay", "0", input="q\n")
    flat = " ".join(out.split())
    assert code == 0
    assert "Seats: seat 1 (player 1), Bob (seat 2), seat 3 (heuristic bot), seat 4 (heuristic bot)" in flat
    # a trailing comma is not a name; too many names and duplicates still refused
    code, out = krazy("play", "krazy-kings", "--names", "Ann,", "--seed", "1", "--delay", "0", input="q\n")
    assert code == 0 and "Seats: Ann (seat 1), seat 2 (heuristic bot)" in " ".join(out.split())
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", "Ann,Bob,Cy", input="q\n")
    assert code == 2 and "--names gives 3 names for 2 human seat(s)" in out
    code, out = krazy("play", "krazy-kings", "--humans", "2", "--names", "Ann,ann", input="q\n")
    assert code == 2 and "two players have the same name (Ann, ann)" in out


def test_a_finished_simulation_does_not_leave_a_game_running():
    # after "simulating ━━━ 200/200" a line "game 181: turn 17, decisions ━━━ 17/?" stayed
    # (the bar advances by batches; the game's number came from it): the last game, done
    import re
    code, out = krazy("simulate", "krazy-kings", "--games", "50", "--seed", "3")
    assert code == 0
    head = out.split("Krazy Kings, 4 players")[0]
    m = re.search(r"game (\d+): turn \d+, decisions\W+(\d+)/(\S+)", head)
    assert "50/50" in head and m, head
    assert m.group(1) == "50" and m.group(2) == m.group(3), head


def test_a_bare_krazy_shows_the_commands_and_where_to_start():
    # `krazy` alone answered "krazy: error: the following arguments are required: cmd"
    code, out = krazy()
    assert code == 2
    assert "the following arguments are required: cmd" not in out
    assert "play at a terminal table against bots, or hot-seat" in out
    assert out.rstrip().endswith("Start with: krazy play krazy-kings   (krazy games lists the games; "
                                 "krazy rules GAME explains one)")


def test_the_unknown_option_list_counts_seats_from_1_and_a_near_game_is_named():
    # "-o nosuch=1" listed "first_dealer=0 (0..6; KR-4)", and -o first_dealer=0 is refused
    code, out = krazy("play", "kings-rummy", "-o", "nosuch=1", input="q\n")
    flat = " ".join(out.split())
    assert code == 2 and "first_dealer=1 (seat 1..7; KR-4)" in flat
    assert "first_dealer=0" not in flat and "rounds=11 (1..11; KR-16)" in flat
    # names, defaults and ranges, not every option's whole text (a screenful); a near name
    assert "the seat that deals round 1" not in flat and flat.endswith("krazy rules kings-rummy says what each does.")
    code, out = krazy("play", "contract-rummy", "-o", "acewrap=1", input="q\n")
    flat = " ".join(out.split())
    assert code == 2 and "unknown option 'acewrap' for contract-rummy (did you mean ace_wrap?); options: jokers=4 (0..4; CR-1), ace_wrap=False (true/false; CR-3)," in flat
    code, out = krazy("play", "krazy-kings", "-o", "nosuch=1", input="q\n")
    assert code == 2 and "dealer=1 (seat 1..5;" in " ".join(out.split())
    code, out = krazy("play", "krazy-king", input="q\n")
    assert code == 2 and "(did you mean krazy-kings?)" in " ".join(out.split())


def test_r_at_a_prompt_shows_the_rules_the_phase_cites():
    # there were no rules inside a game: `r` shows the numbered rules of the phase's prompt
    code, out = krazy("play", "krazy-kings", "--seed", "5", "--delay", "0", "--no-roll-key", input="r\nq\n")
    flat = " ".join(out.split())
    assert code == 0 and "(KK-6)." in flat
    assert "KK-6 Round One turn. Roll 2d6. Discard one card that matches the roll" in flat
    assert "(every rule: krazy rules krazy-kings)" in flat and "(r: the rules)" in flat
    spec = krazy_core.game.get_spec("contract-rummy")
    assert spec.rule("CR-8").startswith("**CR-8** Whenever an up-card lies on the discard pile")
    assert spec.rule("CR-1") != spec.rule("CR-10") and spec.rule("CR-99") is None


def test_CR_5_cards_that_are_no_meld_say_why_in_the_rules_terms():
    played, st, out = _cr_turn("QH KH JK 2H 5S 5D 5C 9D 4D KD", ["lay 4d 9d kd"])
    flat = " ".join(out.split())
    assert played == [] and "books go down first" not in flat
    assert ("4♦ 9♦ K♦ is not a meld (CR-5): neither a book (3 or more cards of one rank, at most 1 "
            "wild: the ranks differ) nor a run (4 or more cards of one suit in sequence, at most 2 "
            "wilds: it has 3 cards, and 4♦ 9♦ K♦ are not consecutive)") in flat
    from krazy_core.games.contract_rummy import view
    from krazy_core.cards import parse_cards
    assert view.meld_problem(parse_cards("5s 5h jk 2c")) == (
        "5♠ 5♥ 🃏 2♣ is not a meld (CR-5): neither a book (3 or more cards of one rank, at most 1 "
        "wild: it holds 2 wilds) nor a run (4 or more cards of one suit in sequence, at most 2 "
        "wilds: the suits differ)")
    assert view.meld_problem(parse_cards("kh ah 2h 3h")).endswith(
        "A♥ 2♥ 3♥ K♥ go round the corner (K-A-2), which a run never does (CR-3))")
    assert view.meld_problem(parse_cards("kh ah 2h 3h"), ace_wrap=True) is None
    assert view.meld_problem(parse_cards("4d 9d kd jk")).endswith(
        "4♦ 9♦ K♦ are not consecutive: 7 cards missing, 1 wild to fill them)")
    assert view.meld_problem(parse_cards("5h 5h 6h 7h")).endswith("it holds 5♥ twice)")
    assert view.meld_problem(parse_cards("5s 5h 5h")) is None           # duplicates in a book


# ---------------------------------------------------------------- item 4: seats from 1
def test_rules_count_seats_and_positions_from_1_as_the_table_does():
    # `krazy rules` said "the first dealer is seat 0" (CR-6, KR-4) and "position 0 is the
    # first card dealt" (KA-3) while the table counts seats and positions from 1
    import re
    flat = {}
    for g in ("krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"):
        code, out = krazy("rules", g, "--no-pager")
        assert code == 0, out
        flat[g] = " ".join(out.split())
        shown = re.sub(r"(?:seat|position) 0 in the Python API", "", flat[g])
        assert not re.search(r"\b(?:seat|position|player) 0\b", shown), g
    assert "the first dealer is seat 1 (seat 0 in the Python API)" in flat["contract-rummy"]
    assert "The first dealer is seat 1 (option first_dealer; seat 0 in the Python API)" in flat["kings-rummy"]
    assert "position 1 is the first card dealt (position 0 in the Python API)" in flat["krass-kariert"]
    assert "The Python API (string_to_action, action_to_string) counts positions from 0." in flat["krass-kariert"]


# ---------------------------------------------------------------- leftovers: the rules footer
def test_rules_footer_names_only_the_games_own_seat_options(capsys):
    # `krazy rules contract-rummy` named the seat options "dealer, first_dealer", which
    # Crazy Rummy does not have (its dealer rotates, CR-6); each game names its own
    expect = {"contract-rummy": "at the table (seat 1 is you in krazy play). ",
              "kings-rummy": "at the table (seat 1 is you in krazy play) and in the option that names a "
                             "seat (first_dealer).",
              "krazy-kings": "at the table (seat 1 is you in krazy play) and in the option that names a "
                             "seat (dealer).",
              "krass-kariert": "at the table (seat 1 is you in krazy play) and in the option that names a "
                               "seat (dealer)."}
    for g, tail in expect.items():
        assert cli.main(["rules", g, "--no-pager"]) == 0
        flat = " ".join(capsys.readouterr().out.split()) + " "
        assert "Seats count from 1 everywhere you type or read them: " + tail in flat, (g, flat[-400:])
        names = {o.name for o in krazy_core.game.get_spec(g).options}
        for o in {x for gid in krazy_core.available_games() for x in krazy_core.game.get_spec(gid).seat_options}:
            assert (f"({o})" in flat or f", {o}" in flat) == (o in names), (g, o)


# ---------------------------------------------------------------- leftovers: boolean options
def test_a_boolean_option_takes_the_usual_spellings(capsys):
    # -o ace_wrap=1 was refused ("must be true or false, got 1") while =true was taken
    import pytest
    from krazy_core.errors import ConfigError
    for word, want in (("1", True), ("0", False), ("true", True), ("False", False), ("yes", True),
                       ("NO", False), ("on", True), ("Off", False)):
        args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", f"ace_wrap={word}",
                                              "-o", "jokers=2"])
        game = cli.common._make_game(args)
        assert (game.options.ace_wrap, game.options.jokers) == (want, 2), word
    args = cli.build_parser().parse_args(["play", "krazy-kings", "-o", "free_reroll=0", "-o", "dealer=2"])
    assert (cli.common._make_game(args).options.free_reroll, cli.common._make_game(args).options.dealer) == (False, 1)
    for word in ("2", "maybe", "", "y"):
        args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", f"ace_wrap={word}"])
        with pytest.raises(ConfigError) as e:
            cli.common._make_game(args)
        assert str(e.value) == (f"option 'ace_wrap' is true or false (or 1/0, yes/no, on/off), "
                                f"got {word!r} (CR-3)")
    # an int option still reads 1 as 1
    args = cli.build_parser().parse_args(["play", "contract-rummy", "-o", "penalty_cards=0"])
    assert cli.common._make_game(args).options.penalty_cards == 0
    # at the command line too
    assert cli.main(["play", "contract-rummy", "-o", "ace_wrap=off", "-o", "overlapping_runs=maybe"]) == 2
    assert "option 'overlapping_runs' is true or false (or 1/0, yes/no, on/off), got 'maybe' (CR-10)" in \
        " ".join(capsys.readouterr().out.split())


def test_CR_11_the_rules_say_melds_count_from_1_at_the_table(capsys):
    assert cli.main(["rules", "contract-rummy", "--no-pager"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert ("At the table (krazy play, and the browser table of krazy serve) melds are numbered from 1, "
            "as seats are: seat 1's melds are 1-3, seat 2's 4-6, and so on, and you type them so ('lay off "
            "7♥ on meld 4 high', 'swap 5♠ into meld 5'). The Python API (string_to_action, action_to_string, "
            "the events' meld) and the server's protocol number them from 0 (seat × 3 + 0..2).") in flat


def test_serve_refuses_a_port_outside_1_to_65535(capsys):
    """``krazy serve --port 99999`` printed "open http://127.0.0.1:99999/" and then waited with
    no error; a port out of range or not a number is refused before anything starts."""
    import pytest
    for bad in ("99999", "0", "-1", "abc"):
        with pytest.raises(SystemExit) as e:
            cli.main(["serve", "--port", bad])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --port: the port must be a number 1-65535, got '{bad}'" in err
    assert cli.build_parser().parse_args(["serve", "--port", "65535"]).port == 65535


def test_serve_on_a_busy_port_says_so_before_any_link():
    """``krazy serve`` on a port in use printed "open http://127.0.0.1:PORT/ in a browser" and
    then uvicorn's bind error: the link went to someone else's server."""
    import os
    import socket
    import subprocess
    import sys
    import tempfile
    import pytest
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    with socket.socket() as busy, tempfile.TemporaryDirectory() as cwd:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(krazy_core.__file__)))
        p = subprocess.run([sys.executable, "-m", "krazy_core.cli", "serve", "--port", str(port),
                            "--db", os.path.join(cwd, "t.sqlite3")], capture_output=True, text=True,
                           timeout=60, cwd=cwd, env=env)
    assert p.returncode == 3
    assert f"krazy serve: cannot listen on 127.0.0.1:{port}: " in p.stdout
    assert f"try --port {port + 1}" in p.stdout and "open http" not in p.stdout


def test_serve_without_the_server_extra_names_the_extra_to_install(monkeypatch, capsys):
    """Without uvicorn (or Starlette) ``krazy serve`` says which extra to install, in one line:
    the extra's brackets were read as markup and dropped, and a missing uvicorn was a
    traceback (it was imported inside ``serve``)."""
    import sys
    monkeypatch.delitem(sys.modules, "krazy_core.server.launch", raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)           # as if not installed
    assert cli.main(["serve", "--port", "8899"]) == 2
    out = capsys.readouterr().out
    assert "pip install 'krazy_core[server]'" in out and "Traceback" not in out, out


def test_serve_on_a_database_path_it_cannot_make_says_so_in_one_line(tmp_path, capsys):
    """``--db`` under a file (or a missing mount) ended in an ``os.makedirs`` traceback; now
    the one line ``krazy serve: cannot use ...`` and exit status 2, before any link."""
    import pytest
    pytest.importorskip("uvicorn")
    from krazy_core.server.launch import serve
    (tmp_path / "afile").write_text("x")
    with pytest.raises(SystemExit) as e:
        serve(port=8899, db=str(tmp_path / "afile" / "tables.sqlite"))
    assert e.value.code == 2
    out = capsys.readouterr().out
    assert out.startswith("krazy serve: cannot use ") and "folder cannot be made" in out and "http://" not in out, out
