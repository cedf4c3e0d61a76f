"""Crazy Rummy's notation (pure Python): the action ids as named constants, an action's
text (what ``action_to_string`` writes) and the canonical form ``string_to_action`` matches
typed text against.  The parsing that needs the state (which actions are legal, which meld
a lay-off names) is ``state.pyx``'s.  The constants equal ``core.pxd``'s ``A_*`` enum
(tests/games/contract_rummy/test_contract_rummy.py checks each against ``action_to_string``)."""
from krazy_core._validate import c_int as _c_int
from krazy_core.cards import format_card, parse_card

SUIT_LETTERS = "SHDC"

# ------------------------------------------------------------------ action ids (CR-7 .. CR-13)
KINDS = 53              #: card kinds: ``suit*13 + rank-1`` (suits S H D C, A=1 .. K=13), 52 the Joker
MELD_SLOTS = 18         #: meld ids ``seat*3 + k``: the k-th meld of that seat's contract
DISCARD = 0             #: 0 .. 52: discard card kind ``a`` (ends the turn; CR-9, CR-13)
TAKE = 53               #: take the up-card (CR-7, CR-8)
DECLINE = 54            #: decline the up-card
BUY = 55                #: buy the up-card out of turn, with the penalty cards (CR-8)
PASS = 56               #: do not buy
GO_DOWN = 57            #: start laying down the contract (CR-10)
LAY = 58                #: 58 .. 110: lay card kind ``a - LAY`` in the meld being built (CR-10)
START_RUN = 111         #: 111 .. 162: start a run, suit ``(a - START_RUN) // 13``, first position ``(a - START_RUN) % 13 + 1``
FINISH = 163            #: finish the meld being built (3+ book, 4+ run cards)
LAY_OFF = 164           #: 164 .. 2071: lay off kind k on meld m at end e: ``LAY_OFF + (k*18 + m)*2 + e`` (CR-11)
SWAP = 2072             #: 2072 .. 3007: swap natural kind k for the wild in run m: ``SWAP + k*18 + m`` (CR-12)
KEEP = 3008             #: end the turn keeping the last card (``final_round_no_discard``, CR-13)
NUM_ACTIONS = 3009      #: distinct actions


def _kind_code(k):
    """The card code of kind k (``suit << 4 | rank``; the Joker 0x50)."""
    return 0x50 if k == 52 else ((k // 13) << 4) | (k % 13 + 1)


def _is_card(code):
    """Whether int ``code`` is a Crazy Rummy card (CR-1: S H D C A..K, the Joker)."""
    return code == 0x50 or (0 <= code < 0x40 and 1 <= (code & 15) <= 13)


def _action_text(a):
    a = _c_int(a, "action")
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a!r} is outside [0, {NUM_ACTIONS})")
    if a < KINDS:
        return "discard " + format_card(_kind_code(a))
    if a == TAKE:
        return "take up-card"
    if a == DECLINE:
        return "decline up-card"
    if a == BUY:
        return "buy"
    if a == PASS:
        return "pass"
    if a == GO_DOWN:
        return "go down"
    if a < START_RUN:
        return "lay " + format_card(_kind_code(a - LAY))
    if a < FINISH:
        s = (a - START_RUN) // 13
        lo = (a - START_RUN) % 13 + 1
        return f"start run {SUIT_LETTERS[s]} from {format_card((s << 4) | ((lo - 1) % 13 + 1))}"
    if a == FINISH:
        return "finish meld"
    if a < SWAP:
        i = a - LAY_OFF
        k = (i >> 1) // MELD_SLOTS
        m = (i >> 1) % MELD_SLOTS
        return f"lay off {format_card(_kind_code(k))} on meld {m}" + (" high" if i & 1 else " low")
    if a < KEEP:
        k = (a - SWAP) // MELD_SLOTS
        m = (a - SWAP) % MELD_SLOTS
        return f"swap {format_card(_kind_code(k))} into meld {m}"
    return "keep last card"


def _canon_action_text(text):
    """``text`` lower-cased with every word that ``parse_card`` reads as a Crazy Rummy card
    (``"8S"``, ``"10h"``, ``"as"``, ``"Q♠"``, ``"JK"``, ``"🃏"``) rewritten as ``format_card``
    writes it, so an ASCII or lower-case card name matches ``action_to_string``."""
    out = []
    for tok in str(text).strip().split():
        try:
            code = parse_card(tok)
        except ValueError:
            out.append(tok.lower())
            continue
        if type(code) is int and _is_card(code):
            out.append(format_card(code).lower())
        else:
            out.append(tok.lower())
    return " ".join(out)


_CANON: list = []      # _canon_action_text(_action_text(a)) of every action (state-blind), made on first use


def _canon_table():
    if not _CANON:
        _CANON.extend(_canon_action_text(_action_text(a)) for a in range(NUM_ACTIONS))
    return _CANON


def _layoff_ends(want):
    """For a canonical lay-off text named without its end (a book has none; the table's
    label ends ``(book)``): the two texts it may stand for, low end first; else ``()``."""
    if not want.startswith("lay off ") or want.endswith((" low", " high")):
        return ()
    core = want[:-len(" (book)")] if want.endswith(" (book)") else want
    return (core + " low", core + " high")
