"""What every ``krazy`` command shares: reading game options and bot lists, making the game,
checking the flags (names, delays, think time), the prompt and the screen, and the
arguments every game command takes (:func:`add_game_args`)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import List, Optional

from rich.markup import escape
from rich.text import Text

from krazy_core.bots import make_bot
from krazy_core.bots.levels import LEVELS, level_word
from krazy_core.errors import ConfigError
import krazy_core


def _parse_value(text: str):
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


# the spellings of a boolean option's value, in any case (-o ace_wrap=1 was refused)
BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
              "false": False, "0": False, "no": False, "off": False}


def _options(pairs: Optional[List[str]], spec=None) -> dict:
    """``-o name=value`` pairs as the game's options.  A seat option (``Option.seat``) is
    typed counting seats from 1, as the table shows them (``-o dealer=1``: seat 1), and
    given to the game in its count from 0.  A boolean option of ``spec`` (the game's) takes
    any of ``BOOL_WORDS``: true/false, 1/0, yes/no, on/off, in any case."""
    kinds = {o.name: o for o in spec.options} if spec is not None else {}
    seats = spec.seat_options if spec is not None else ()
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ConfigError(f"option {pair!r} must be written name=value (e.g. -o max_turns=300)")
        k, v = pair.split("=", 1)
        k, value = k.strip(), _parse_value(v.strip())
        o = kinds.get(k)
        if o is not None and o.kind is bool:
            if v.strip().lower() not in BOOL_WORDS:
                raise ConfigError(f"option {k!r} is true or false (or 1/0, yes/no, on/off), "
                                  f"got {v.strip()!r} ({o.rule})")
            value = BOOL_WORDS[v.strip().lower()]
        if k in seats and type(value) is int:
            if value < 1:
                raise ConfigError(f"option {k!r} is a seat, counted from 1 as at the table "
                                  f"(-o {k}=1 is seat 1), got {value}")
            value -= 1
        out[k] = value
    return out


def house_rules(game) -> str:
    """The options of ``game`` that differ from its defaults, as a player would type them:
    ``"ace_wrap, overlapping_runs, jokers=2"`` (a boolean turned on by its name alone, one
    turned off ``=false``, a seat option counted from 1); ``""`` when every one is the default."""
    out = []
    for o in game.spec.options:
        v = getattr(game.options, o.name)
        if v == o.default:
            continue
        if o.kind is bool:
            out.append(o.name if v else f"{o.name}=false")
        else:
            out.append(f"{o.name}={v + 1 if o.seat else v}")
    return ", ".join(out)


def _make_game(args):
    spec = None
    try:
        spec = krazy_core.game.get_spec(args.game)
        given = _options(args.option, spec)
        return krazy_core.make(args.game, num_players=args.players, **given)
    except ConfigError as e:
        # the game's range for a seat option is in its count from 0: say it in seats from 1
        m = re.fullmatch(rf"option '({'|'.join(spec.seat_options if spec else ()) or '$^'})' must be (?:in|a seat) (\d+)\.\.(\d+)"
                         rf"( at a table of \d+)?, got (-?\d+)(.*)", str(e), re.S)
        if m is None:
            text = str(e)
            if text.startswith("unknown option "):
                # the options by name, default and range, not every option's whole text (a
                # screenful); seats from 1, as -o takes them: the engine's list said
                # "first_dealer=0 (0..6; KR-4)", and -o first_dealer=0 is refused
                import difflib
                names = [o.name for o in spec.options]
                bad = next(k for k in given if k not in names)     # make() raised for it
                near = difflib.get_close_matches(bad, names, n=1)
                shown = []
                for o in spec.options:
                    if o.seat and o.kind is int:
                        shown.append(f"{o.name}={o.default + 1} (seat {o.lo + 1}..{o.hi + 1}; {o.rule})")
                    else:
                        shown.append(o.summary())
                raise ConfigError(f"unknown option {bad!r} for {spec.game_id}"
                                  + (f" (did you mean {near[0]}?)" if near else "")
                                  + "; options: " + ", ".join(shown)
                                  + f". krazy rules {spec.game_id} says what each does.") from None
            if text.startswith("unknown game "):
                import difflib
                near = difflib.get_close_matches(str(args.game).lower(), krazy_core.available_games(), n=1)
                if near:
                    raise ConfigError(f"{text} (did you mean {near[0]}?)") from None
            raise
        raise ConfigError(f"option {m.group(1)!r} is a seat from {int(m.group(2)) + 1} to {int(m.group(3)) + 1}"
                          f"{m.group(4) or ''} (seats count from 1), got {int(m.group(5)) + 1}{m.group(6)}") from None


def _bot_list(text: str, n: int, game=None) -> List[str]:
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise ConfigError("--bots needs at least one bot (random, heuristic, ismcts)")
    if len(words) > n:
        raise ConfigError(f"--bots names {len(words)} bots for {n} bot seats; name at most {n} "
                          "(a shorter list repeats)")
    for w in set(words):
        bot = make_bot(level_word(w), seed=0)
        if game is not None:
            bot.check_game(game)        # a model the game lacks: before the deal, not mid-game
        limit = (getattr(bot, "_options", None) or {}).get("time_limit")
        if limit is not None and limit > MAX_THINK:
            # ismcts:1e9s was taken: a game that never moves again
            raise ConfigError(f"bot {w!r} thinks {limit:g} s a move: at most {MAX_THINK:g} s")
    return [words[i % len(words)] for i in range(n)]


MAX_NAME = 24                   # characters of a player's name (--names)


def _check_names(given):
    """``--names``: printable, at most ``MAX_NAME`` characters, no ``[`` ``]`` (the table's
    markup: ``--names '[/]'`` ended in a MarkupError traceback), and no two the same."""
    given = [x for x in given if x]     # an empty place keeps its seat's default name
    for x in given:
        if "[" in x or "]" in x or not x.isprintable() or len(x) > MAX_NAME:
            raise ConfigError(f"--names: {x[:40]!r} is not a name for the table: at most {MAX_NAME} "
                              "printable characters, without [ or ]")
    if len({x.lower() for x in given}) < len(given):
        raise ConfigError(f"--names: two players have the same name ({', '.join(given)})")


def _check_delay(delay):
    if not 0 <= delay <= MAX_DELAY:
        raise ConfigError(f"--delay must be a number of seconds from 0 to {MAX_DELAY:g}, got {delay}")


def _check_think(think):
    if think is not None and not 0 < think <= MAX_THINK:
        raise ConfigError(f"--think must be a number of seconds > 0 and at most {MAX_THINK:g}, got {think}")


def _shown(raw, limit=60):
    """The user's input quoted for an error message, cut to ``limit`` characters."""
    return escape(repr(raw if len(raw) <= limit else raw[:limit] + "..."))


# ---------------------------------------------------------------------------- play
# bot levels for people, one vocabulary with the lobby and make_bot: krazy_core.bots.levels
MAX_DELAY = 60.0                # seconds; more is a typo (1e10 overflowed time.sleep)


MAX_THINK = 600.0


def _fit_prompt(console, prompt):
    """A prompt (rich markup) wider than the terminal folded at spaces: the lines but the last
    printed, the last returned to ask with (a prompt is not wrapped by the console: "seat 1
    (player 1), your move (1-2, t take, d draw, ...): " ran past 80 columns)."""
    from rich.cells import cell_len
    width = console.size.width
    text = Text.from_markup(prompt) if isinstance(prompt, str) else prompt
    if cell_len(text.plain) < width:
        return prompt
    lines = text.wrap(console, width - 1)      # a column left for the cursor
    for line in lines[:-1]:
        console.print(line)
    last = lines[-1]
    if text.plain.endswith(" ") and not last.plain.endswith(" "):
        last.append(" ")
    return last.markup


def _ask(console, prompt):
    """A line of input, stripped, in the case it was typed (``"q"`` at end of input); a prompt
    wider than the terminal folds (``_fit_prompt``)."""
    try:
        return console.input(_fit_prompt(console, prompt)).strip()
    except EOFError:
        # Ctrl-D: end the prompt's line, else "Replay this deal: ..." followed the prompt on
        # its line
        console.print()
        return "q"


def _clear_screen(console):
    """Clear the screen AND the terminal's scrollback (``ESC [3J``), so the player who just
    moved leaves no hand to scroll back to at a hot-seat hand-over.  A terminal that cannot
    be cleared (``TERM=dumb``) gets enough blank lines to push the hand off the screen.
    Writes nothing when the output is not a terminal (a pipe, a file)."""
    if not console.is_terminal:
        return
    if console.is_dumb_terminal:
        console.file.write("\n" * max(100, 2 * console.size.height))
        console.file.flush()
        return
    console.clear()                         # ESC [2J ESC [H
    console.file.write("\033[3J")
    console.file.flush()


def _hours(text):
    """``--finished-ttl`` / ``--idle-ttl``: a number >= 0."""
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number >= 0")
    return v


def _port(text):
    """``--port``: a TCP port 1..65535 (``--port 99999`` printed a link and then waited on
    nothing, with no error)."""
    try:
        v = int(text)
    except ValueError:
        v = None
    if v is None or not 1 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be a number 1-65535, got {text!r}")
    return v


class JokerText:
    """An output file that writes the Joker ``🃏`` (a glyph many fonts lack) as ``JK`` (two
    columns, as the emoji takes, so tables stay aligned); everything else passes through."""

    def __init__(self, file):
        self._file = file

    def write(self, text):
        return self._file.write(text.replace("\U0001F0CF", "JK"))

    def __getattr__(self, name):
        return getattr(self._file, name)


def _joker_as_text(args) -> bool:
    if getattr(args, "joker_text", False) or os.environ.get("KRAZY_JOKER_TEXT", "") not in ("", "0"):
        return True
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return enc not in ("utf8", "utf16", "utf32")


_LEVELS_HELP = ", ".join(f"{k} ({v})" for k, v in LEVELS.items())

def add_game_args(p, bots_default="heuristic"):
    """The arguments every game command takes: the game, ``--players``, ``--seed``,
    ``-o NAME=VALUE``, ``--bots`` (default ``bots_default``)."""
    p.add_argument("game", help="game id (krazy games lists them)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's usual)")
    p.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE",
                   help="a game option, repeatable (krazy rules GAME lists each game's: -o max_turns=200)")
    p.add_argument("--bots", default=bots_default, help=f"comma-separated: a level, {_LEVELS_HELP}, or random, heuristic, ismcts[:N|:Ts][:OPTION=VALUE...] (search options, e.g. ismcts:2000:exploration=0.3, ismcts:2000:prior_from=model), or the learned models alone: value, policy (Krazy Kings)")
