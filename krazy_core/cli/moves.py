"""Reading a player's move at the terminal: a typed name or short form (``7h``, ``p1``,
``lay off 7h on meld 4 high``) resolved to one legal action, with a clear refusal when it
names none or several; queued moves typed ahead."""

from __future__ import annotations

import re

from rich.markup import escape

from krazy_core.cards import format_card, parse_card
from krazy_core.cli.common import _shown
from krazy_core.errors import IllegalActionError, UnclearActionError
from krazy_core.ui import load_ui


def _out_of_turn_offer(state, p):
    """The round of a buy offer out of turn for ``p`` (Crazy Rummy), else ``None``."""
    try:
        obs = state.observation(p)
    except Exception:                   # a view is optional
        return None
    tp = obs.get("turn_player")
    if obs.get("phase") == "buy_or_pass" and tp is not None and tp != p and _pass_action(state) is not None:
        return obs.get("round", 0)
    return None


def _buy_can_help(state, p):
    """Whether a buy offer to ``p`` can help (Crazy Rummy's ``words.buy_can_help``; any other
    game: yes)."""
    f = getattr(state.game.spec.words, "buy_can_help", None)
    return True if f is None else f(state, p)


def _pass_action(state):
    for a in state.legal_actions():
        if state.action_to_string(a) == "pass":
            return a
    return None


def _norm(text):
    return " ".join(str(text).split()).lower()


def _proper_name(state, piece, legal=(), labels=(), typed_card=None):
    """A typed move as the table names it: the listed label it matches, else the engine's
    ``action_to_string`` of what ``string_to_action`` reads (``"play 7h"`` -> ``"play 7♥"``),
    else the text as typed with every card in it written as the table writes cards
    (``typed_card(code)``, from the game's view: which codes count as cards there)."""
    if typed_card is None:
        typed_card = load_ui(state.game.game_id).typed_card
    want = _norm(piece)
    for a, lab in zip(legal, labels):
        if want == _norm(lab):
            return lab
    ui = load_ui(state.game.game_id)
    try:
        return ui.action_label(state, state.string_to_action(ui.typed_text(state, piece)))
    except UnclearActionError:
        pass
    except IllegalActionError as e:     # legal later in the chain, perhaps: its proper name
        if e.action is not None:
            return ui.action_label(state, e.action)
    out = []
    for tok in str(piece).split():
        try:
            code = parse_card(tok)
            # the game's view says which codes are its cards to write out (ui.typed_card)
            out.append(format_card(code) if type(code) is int and typed_card(code) else tok)
        except (ValueError, TypeError, KeyError):
            out.append(tok)
    return " ".join(out)


def _refusal(raw, legal, labels, short_forms=None, shown=None):
    """What to say to a line that names none of the moves: what was typed, a few of the
    moves (all of them are numbered above: ``shown`` numbers, grouped moves counting once;
    default one a move), the game's short forms, and the keys."""
    few = ", ".join(repr(lab) for lab in labels[:3]) + (", ..." if len(labels) > 3 else "")
    few = few if few.endswith("...") else few + "."
    text = (f"{_shown(raw)} is not one of your moves. Type a number from the list above "
            f"(1-{shown or len(legal)}) or a move's name as listed: {escape(few)}")
    if short_forms:
        text += f" Short forms: {escape(short_forms)}."
    return text + " h for a hint, q to quit."


def _you(state, text):
    """An engine message about the player to act written to them: ``player 0 does not hold
    3♠`` -> ``you do not hold 3♠``; other players by their seats from 1."""
    p = state.current_player()
    text = re.sub(rf"\b(?:player {p}|this player) (does|has|is)\b",
                  lambda m: "you " + {"does": "do", "has": "have", "is": "are"}[m.group(1)], text)
    text = re.sub(rf"\bplayer {p}\b", "you", text)
    # Crazy Rummy's refusals name seats from 0: "seat 0 buys the up-card or passes (CR-8)"
    # to the buyer at the table
    for engine, table in ((r"first takes or declines", "first take or decline"),
                          (r"buys (.*?) or passes", r"buy \1 or pass"), (r"holds", "hold")):
        text = re.sub(rf"\bseat {p} {engine}", "you " + table, text)
    text = re.sub(r"\bseat (\d+) (first takes|buys|holds)\b",
                  lambda m: f"seat {int(m.group(1)) + 1} {m.group(2)}", text)
    return re.sub(r"\bplayer (\d+)\b", lambda m: f"seat {int(m.group(1)) + 1}", text)


def _plain_ui():
    """The view hooks ``_resolve_name`` uses, for a state without a game (tests' stand-ins):
    names as they are."""
    from types import SimpleNamespace
    return SimpleNamespace(typed_text=lambda state, text: text, engine_text=lambda state, text: text,
                           typed_action=lambda state, a, text: a,
                           action_label=lambda state, a: state.action_to_string(a))


def _resolve_name(state, raw, legal, labels, short_forms=None, ui=None, shown=None):
    """The legal action named ``raw`` (a label as listed, or an action string, in any case),
    else ``(None, error message)``.  A name typed (not a listed label) goes through the
    game's ``ui.typed_action`` (Krazy Kings: a play leaving one card calls it, KK-19; Crazy
    Rummy: a lay off that names no end when both are open asks which)."""
    want = _norm(raw)
    for a, lab in zip(legal, labels):
        if want == _norm(lab):
            return a, None
    if ui is None:
        game = getattr(state, "game", None)
        ui = load_ui(game.game_id) if game is not None else _plain_ui()
    try:
        # the table's way of counting (KrassKariert positions from 1) into the engine's
        a = state.string_to_action(ui.typed_text(state, raw))
        a = ui.typed_action(state, a, raw)
    except UnclearActionError as e:
        if e.matches == ():             # it names no move at all
            return None, _refusal(raw, legal, labels, short_forms, shown)
        if e.matches:                   # several moves: by their names as listed here
            return None, escape(f"{raw!r} fits {len(e.matches)} moves: "
                                + ", ".join(repr(ui.action_label(state, x)) for x in e.matches)
                                + "; say which") + " (or type the move's number from the list)"
        # the game says what is wrong with a short form, or which moves it fits
        return None, escape(ui.engine_text(state, str(e))) + " (or type the move's number from the list)"
    except IllegalActionError as e:
        # a name the game knows but that is not legal now: say why
        if e.action is None:
            return None, _refusal(raw, legal, labels, short_forms, shown)
        why = state.explain_illegal(e.action) or "it is not among the legal actions"
        return None, (f"{escape(ui.action_label(state, e.action))} is not allowed now: "
                      f"{escape(ui.engine_text(state, _you(state, why)))}.")
    return a, None


def _take_name(state, parts, legal, labels, whole=False, short_forms=None, ui=None, shown=None):
    """The move named by the first of ``parts`` (the comma-separated pieces of a line),
    joined with as many of the next ones as it takes: a listed name may hold a comma
    (``go out, discard K♣``).  Returns ``(action, the pieces left)``, or ``(None, error)``.
    With ``whole`` only all the pieces together may name it."""
    first_err = None
    for j in range(len(parts), 0 if not whole else len(parts) - 1, -1):
        a, err = _resolve_name(state, ", ".join(parts[:j]), legal, labels, short_forms, ui, shown)
        if a is not None:
            return a, parts[j:]
        if j == 1 or whole:
            first_err = err
    return None, first_err


def _drop_queue(console, queue):
    """Chained moves end with the player's turn: say which were not played (by their proper
    names, see ``_queue``)."""
    if queue:
        console.print(f"[yellow]Your turn ended; not played: {escape(_queued_names(queue)[:200])}[/]")
        queue.clear()


def _queue(queue, state, pieces, legal, labels):
    """Put the rest of a line of chained moves in ``queue`` as ``(typed, proper name)``: the
    typed text names the move when its turn comes, the proper name (as the table writes the
    move, read in the state it was typed in) is what messages show."""
    queue.extend((x, _options_name(x) if isinstance(x, list) else _proper_name(state, x, legal, labels))
                 for x in pieces)


def _queued_names(queue):
    return ", ".join(shown for _, shown in queue)


def _expand(ui, state, parts):
    """The pieces of a typed line with the game's multi-move forms opened up
    (``ui.expand_typed``: Crazy Rummy ``lay 5♠ 5♥ 5♦``): a list of pieces, each a text or a
    list of texts to play in whichever order is legal.  Raises ``UnclearActionError`` (from
    the view) for a form that names no move, saying why (Crazy Rummy: cards that are neither
    a book nor a run, CR-5).  A line of whole melds going down is put in the order of melds
    the engine lays (``ui.order_line``: ``lay qh qd qd, lay 10s 10c jk`` lays the 10s first)."""
    parts = ui.order_line(state, parts) or parts
    out = []
    for x in parts:
        more = ui.expand_typed(state, x)
        if more and "go down" in out and more[0] == "go down":
            more = more[1:]                 # one line goes down once
        out.extend(more if more else [x])
    return out


def _option_action(state, texts, legal, labels, ui):
    for x in texts:
        a, err = _resolve_name(state, x, legal, labels, None, ui)
        if a is not None:
            return a, None
    return None, err


def _completes(state, options, ui, budget):
    """Whether every option of ``options`` can be played from ``state`` in some order
    (a depth-first search over clones, at most ``budget[0]`` steps in all)."""
    if not options:
        return True
    legal = state.legal_actions()
    labels = [ui.action_label(state, a) for a in legal]
    for i, texts in enumerate(options):
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        a, _ = _option_action(state, texts, legal, labels, ui)
        if a is not None:
            nxt = state.clone()
            nxt.apply_action(a)
            if _completes(nxt, options[:i] + options[i + 1:], ui, budget):
                return True
    return False


def _from_alternatives(state, options, legal, labels, ui):
    """The option of ``options`` (each a tuple of texts that may name it) to play now:
    ``(action, index)``, or ``(None, the error of the first)``.  Of the legal ones, the
    first after which all the others can still be played (Crazy Rummy: a book's cards in
    suit order and its wild last, a run low to high, CR-10), else the first legal one."""
    first_legal, first_err = None, None
    for i, texts in enumerate(options):
        a, err = _option_action(state, texts, legal, labels, ui)
        if a is None:
            first_err = first_err or err
            continue
        if first_legal is None:
            first_legal = (a, i)
        if len(options) == 1:
            break
        nxt = state.clone()
        nxt.apply_action(a)
        if _completes(nxt, options[:i] + options[i + 1:], ui, [200]):
            return a, i
    if first_legal is not None:
        return first_legal
    return None, first_err


def _options_name(options):
    return "lay " + " ".join(t[0].split(None, 1)[1] for t in options)


def _take_alternative(state, pieces, legal, labels, ui, queue):
    """The move of ``pieces[0]``, a piece of alternatives (``_expand``: a meld's cards in
    whichever order is legal), with the others and the pieces after it put in ``queue``
    (when there is one): ``(action, None)``, or ``(None, why)``."""
    a, i = _from_alternatives(state, pieces[0], legal, labels, ui)
    if a is None:
        return None, i
    rest = pieces[0][:i] + pieces[0][i + 1:]
    if queue is not None:
        _queue(queue, state, ([rest] if rest else []) + pieces[1:], legal, labels)
    return a, None


def _next_queued(console, state, queue, legal, labels, ui):
    """The move the front of the queue names, taken off it (an alternatives piece loses the
    one played and stays while it has more), or ``None`` after saying why (the queue is
    then cleared)."""
    typed, _ = queue[0]
    if isinstance(typed, list):
        a, i = _from_alternatives(state, typed, legal, labels, ui)
        if a is not None:
            rest = typed[:i] + typed[i + 1:]
            if rest:
                queue[0] = (rest, _options_name(rest))
            else:
                del queue[0]
            return a
        console.print(f"[red]{i} (the rest of your moves, {escape(_queued_names(queue))}, were not played)[/]")
        queue.clear()
        return None
    if typed.strip().isdecimal():
        # a number names a line of the list shown when it was typed, which is gone now
        console.print(f"[red]After the first move of a chain, name the moves ('{escape(labels[0])}'), "
                      f"not their numbers: the list changes after every move. Not played: "
                      f"{escape(_queued_names(queue))}[/]")
        queue.clear()
        return None
    plain = []
    for x, _ in queue:
        if isinstance(x, list):
            break
        plain.append(x)
    a, rest = _take_name(state, plain, legal, labels, short_forms=ui.short_forms, ui=ui)
    if a is not None:
        del queue[:len(plain) - len(rest)]
        return a                        # the event log line shows the move
    console.print(f"[red]{rest} (the rest of your moves, {escape(_queued_names(queue))}, were not played)[/]")
    queue.clear()
    return None


def _forced_short_form(state, parts, action, label, queue, ui):
    """``action`` when the game's short form of ``parts`` (a typed line's pieces) starts with
    it, the rest queued for the next prompts; else ``None``."""
    if ui is None or queue is None:
        return None
    try:
        pieces = _expand(ui, state, parts)
    except UnclearActionError:
        return None
    if not pieces:
        return None
    if pieces == parts:                 # no multi-move form: a short form of the move itself ('7h')
        return _take_name(state, parts, [action], [label], whole=True, ui=ui)[0] if len(parts) == 1 else None
    if isinstance(pieces[0], list):
        return _take_alternative(state, pieces, [action], [label], ui, queue)[0]
    a, rest = _take_name(state, [pieces[0]], [action], [label], ui=ui)
    if a is None:
        return None
    _queue(queue, state, pieces[1:], [action], [label])
    return a
