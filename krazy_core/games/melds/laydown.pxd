# cython: language_level=3
"""The CR-10 lay-down sequence of one hand, seat-free (layout contract): the state the exact
contract optimizer (``optimizer.pyx``) searches and walks.  Card *kinds*: ``suit*13 + rank-1``
(suits S H D C, A=1 .. K=13), 52 the Joker; a *contract* is an index 1..7 into CBOOKS/CRUNS
(CR-4's rounds).  The step ids are Crazy Rummy's lay-down action ids (``A_ADD + kind``,
``A_RUN + suit*13 + first position - 1``, ``A_FINISH``), in the same order, so a walk that
takes "the least step" takes the same step as the game's lay-down sequence.

The one copy of the CR-10 lay-down rules: Crazy Rummy's core cimports from here the Meld
struct, the constants, the tables and the inline helpers, and asks ``ld_steps`` /
``ld_holds_contract`` about a seat's lay-down (``kz_build``: a view of its fields), as
``ld_legal_actions`` / ``ld_can_lay`` do about a ``kz_laydown``."""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

cdef enum:
    NK = 53              # card kinds: 0..51 suited, 52 Joker
    JK = 52              # the Joker's kind
    MLEN = 14            # cards one meld can hold (run 13; book 8 naturals + 1 wild)
    NO_NAT = 53          # gd_last after a book's wild: no more naturals
    A_ADD = 58           # 58 + kind: lay that card in the meld being built
    A_RUN = 111          # 111 + suit*13 + first position - 1: start a run
    A_FINISH = 163       # finish the meld being built
    LD_MAX_ACTS = 106    # most steps legal at once (53 cards + 52 run starts + finish)

cdef enum:
    PH_DONE = 4          # the contract is laid down
    PH_BUILD = 5         # laying down the contract, meld by meld (CR-10)

cdef enum:
    MK_NONE = 0
    MK_BOOK = 1
    MK_RUN = 2

cdef enum:
    RX_MIN = 14                 # hands from this many cards lay their runs by the exact DP
    RX_NEG = -1000000           # the runs DP's "no way"
    RX_W = 13                   # pool wilds the runs DP counts (4 Jokers + 8 twos < 13)
    RX_CARD = 64                # a value packs points * RX_CARD + cards (a hand holds < 64 cards)

ctypedef struct Meld:
    uint8_t kind                # MK_NONE (slot unused), MK_BOOK, MK_RUN
    uint8_t suit                # a run's suit 0..3 (S H D C); 0 for a book
    uint8_t rank                # a book's rank 1..13; 0 for a run
    uint8_t lo                  # a run's first position (1..14, wrap 1..13)
    uint8_t n                   # cards in the meld, 0..MLEN
    uint8_t wilds               # cards standing as wilds (not natural where they are): book 0..1, run 0..2 (CR-5)
    uint8_t cards[MLEN]         # kinds; a run's card at position lo+i; a book in laying order

ctypedef struct kz_laydown:
    uint8_t hand[1][NK]         # copies of each kind still in hand (one seat: [0]), 0..255
    int32_t nhand[1]            # cards in hand
    Meld melds[3]               # the k-th meld of the contract (books first, CR-4)
    int32_t round               # the contract: an index 1..7 into CBOOKS / CRUNS (CR-4)
    int32_t opt_wrap            # CR-3 option ace_wrap, 0/1
    int32_t opt_overlap         # CR-10 option overlapping_runs, 0/1
    int32_t phase               # PH_BUILD while laying, PH_DONE once laid
    int32_t gd_k                # meld of the contract being built, 0..2
    int32_t gd_open             # 1 when that meld has been started, else 0
    int32_t gd_last             # a book's last natural kind laid, 0..51 (NO_NAT after its wild)

# A seat's lay-down in progress, as the step check reads it (a view into Crazy Rummy's state
# or into a kz_laydown; nothing is copied).
ctypedef struct kz_build:
    const uint8_t *hand         # the seat's copies of each kind (NK)
    const Meld *melds           # the seat's three meld slots (the contract's melds, books first)
    int32_t round               # the contract, 1..7 (CR-4)
    int32_t wrap                # CR-3 option ace_wrap, 0/1
    int32_t overlap             # CR-10 option overlapping_runs, 0/1
    int32_t building            # 1 while laying down (PH_BUILD); 0: a fresh lay-down
    int32_t gd_k                # meld of the contract being built, 0..2
    int32_t gd_open             # 1 when that meld has been started, else 0
    int32_t gd_last             # a book's last natural kind laid, 0..51 (NO_NAT after its wild)

cdef inline void ld_view(kz_build *b, const uint8_t *hand, const Meld *melds, int rnd, int wrap,
                         int overlap, int building, int gd_k, int gd_open, int gd_last) noexcept nogil:
    """Fills the view b (the fields as kz_build names them)."""
    b.hand = hand
    b.melds = melds
    b.round = rnd
    b.wrap = wrap
    b.overlap = overlap
    b.building = building
    b.gd_k = gd_k
    b.gd_open = gd_open
    b.gd_last = gd_last

# ------------------------------------------------------------------ tables (filled by laydown.pyx at import)
cdef uint8_t KIND_CODE[NK]      # kind -> card code (suit << 4 | rank; Joker 0x50)
cdef int32_t CODE_KIND[256]     # card code -> kind, -1 for a code that is no Crazy Rummy card
cdef int32_t POINTS[NK]         # CR-15 points of a kind left in hand
cdef int32_t CBOOKS[8]          # books of contract r (CR-4); [0] = 0
cdef int32_t CRUNS[8]           # runs of contract r (CR-4); [0] = 0


cdef inline int is_two(int k) noexcept nogil:
    return k < 52 and k % 13 == 1

cdef inline int kind_rank(int k) noexcept nogil:
    return k % 13 + 1

cdef inline int pos_rank(int q) noexcept nogil:
    return (q - 1) % 13 + 1

cdef inline int nat_kind(int suit, int q) noexcept nogil:
    return suit * 13 + pos_rank(q) - 1

cdef inline int pos_hi(int wrap) noexcept nogil:
    return 26 if wrap else 14

cdef inline int lo_max(int wrap) noexcept nogil:
    return 13 if wrap else 11

cdef inline int nmelds(int rnd) noexcept nogil:
    return CBOOKS[rnd] + CRUNS[rnd]

cdef inline int book_natural(int rank, int k) noexcept nogil:
    if k == JK:
        return 0
    if rank == 2:
        return is_two(k)
    return kind_rank(k) == rank

cdef inline int book_wild(int rank, int k) noexcept nogil:
    return k == JK or (rank != 2 and is_two(k))

cdef inline int run_natural(int suit, int q, int k) noexcept nogil:
    return k == nat_kind(suit, q)

cdef inline int wildcard(int k) noexcept nogil:
    return k == JK or is_two(k)

# CR-10: the meld being built, md, takes the step a (not A_FINISH): A_RUN + ... starts a run;
# A_ADD + k lays kind k, opening a book of its rank when opened is 0.  The seat's counts are the
# caller's to update.  Returns the new gd_last (a book's last natural, NO_NAT after its wild).
cdef inline int ld_meld_step(Meld *md, int a, int opened, int last) noexcept nogil:
    cdef int k
    if a >= A_RUN:
        memset(md, 0, sizeof(Meld))
        md.kind = MK_RUN
        md.suit = (a - A_RUN) // 13
        md.lo = (a - A_RUN) % 13 + 1
        return last
    k = a - A_ADD
    if not opened:
        memset(md, 0, sizeof(Meld))
        md.kind = MK_BOOK
        md.rank = kind_rank(k)
    md.cards[md.n] = k
    md.n += 1
    if md.kind == MK_BOOK:
        if book_natural(md.rank, k):
            return k
        md.wilds += 1
        return NO_NAT
    if not run_natural(md.suit, md.lo + md.n - 1, k):
        md.wilds += 1
    return last

# Positions (non-wrap, bits 1..14) or ranks mod 13 (wrap, bits 0..12) a run covers, and
# whether two same-suit runs join (CR-10; contract.pxd kz_run_mask / kz_runs_join).
cdef uint32_t run_mask(int wrap, int lo, int hi) noexcept nogil
cdef int touches(int wrap, int overlap, uint32_t a, uint32_t b) noexcept nogil
# The steps legal in b's lay-down (each keeps the contract completable, CR-10), ascending,
# into out (room for LD_MAX_ACTS); how many.  None unless b.building.
cdef int ld_steps(const kz_build *b, int32_t *out) noexcept nogil
# 1 if the nhand cards of the counts hand hold contract rnd (CR-10, exact), else 0.
cdef int ld_holds_contract(const uint8_t *hand, int nhand, int rnd, int wrap, int overlap) noexcept nogil
# A fresh lay-down of contract rnd (1..7) from the counts cnt (NK kinds), phase PH_BUILD.
cdef void ld_init(kz_laydown *st, const uint8_t *cnt, int rnd, int wrap, int overlap) noexcept nogil
# 1 if the counts hold the contract (CR-10, exact: kz_contract_feasible), else 0.
cdef int ld_can_lay(const kz_laydown *st) noexcept nogil
# The steps legal in st (each keeps the contract completable), ascending, into out; how many.
cdef int ld_legal_actions(const kz_laydown *st, int32_t *out) noexcept nogil
# Take step a (one of ld_legal_actions).
cdef void ld_apply(kz_laydown *st, int32_t a) noexcept nogil

# The Python faces of hands and melds: the card codes of the counts cnt (NK kinds), sorted;
# a meld as the dict of the JSON forms (None for an unused slot); a finished lay-down of nm
# melds and the hand left, as a hashable tuple.
cdef list ld_codes(const uint8_t *cnt)
cdef dict ld_meld_dict(const Meld *md)
cdef tuple ld_laydown_of(const Meld *melds, int nm, const uint8_t *hand)
