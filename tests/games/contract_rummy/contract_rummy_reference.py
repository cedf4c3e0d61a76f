"""A pure-Python reference for Crazy Rummy's legal actions (CR-5, CR-8, CR-10..CR-13).

Written independently of the C move generator: the lay-down check here enumerates the
hand's sub-multisets (every 3-card book and 4-card run it holds) and searches their
combinations, where the core counts wilds lazily and prunes by dominance.  It reads a
state through ``to_json()`` (omniscient) only.
"""
from collections import Counter
from itertools import combinations

JK = 52
CONTRACTS = {1: (2, 0), 2: (1, 1), 3: (0, 2), 4: (3, 0), 5: (2, 1), 6: (1, 2), 7: (0, 3)}
A_TAKE, A_DECLINE, A_BUY, A_PASS, A_GO_DOWN = 53, 54, 55, 56, 57
A_ADD, A_RUN, A_FINISH, A_LAYOFF, A_SWAP, A_KEEP = 58, 111, 163, 164, 2072, 3008
NO_NAT = 53


def kind(code):
    return JK if code == 0x50 else (code >> 4) * 13 + (code & 15) - 1


def rank(k):
    return k % 13 + 1


def is_two(k):
    return k != JK and rank(k) == 2


def wildcard(k):
    return k == JK or is_two(k)


def pos_rank(q):
    return (q - 1) % 13 + 1


def nat(suit, q):
    return suit * 13 + pos_rank(q) - 1


def book_nat(r, k):
    if k == JK:
        return False
    return is_two(k) if r == 2 else rank(k) == r


def book_wild(r, k):
    return k == JK or (r != 2 and is_two(k))


class Rules:
    def __init__(self, wrap, overlap=False):
        self.wrap = wrap
        self.overlap = overlap
        self.step = 0 if overlap else 1     # run keys of one lay-down: >= (overlap) or > the last
        self.pos_hi = 26 if wrap else 14
        self.lo_max = 13 if wrap else 11

    def cover(self, lo, hi):
        if self.wrap:
            return {(q - 1) % 13 for q in range(lo, hi + 1)}
        return set(range(lo, hi + 1))

    def joins(self, a, b):
        """Two same-suit runs (lo, hi) touch or overlap (CR-10)."""
        ca, cb = self.cover(*a), self.cover(*b)
        if self.overlap and ca & cb:
            return False
        if self.wrap:
            near = {x for r in ca for x in ((r - 1) % 13, r, (r + 1) % 13)}
        else:
            near = {x for r in ca for x in (r - 1, r, r + 1)}
        return bool(near & cb)

    def valid_run(self, suit, lo, cards):
        if lo < 1 or len(cards) > 13 or lo + len(cards) - 1 > self.pos_hi:
            return False
        w = 0
        for i, k in enumerate(cards):
            if k == nat(suit, lo + i):
                continue
            if not wildcard(k):
                return False
            w += 1
        return w <= 2

    def valid_book(self, r, cards):
        w = 0
        for k in cards:
            if book_nat(r, k):
                continue
            if not book_wild(r, k):
                return False
            w += 1
        return w <= 1


def sub(h, xs):
    c = Counter(h)
    c.subtract(xs)
    if any(v < 0 for v in c.values()):
        return None
    return c


def _multisets(hand, kinds, size):
    """Sub-multisets of ``size`` cards of hand drawn from ``kinds``."""
    pool = [k for k in sorted(kinds) for _ in range(hand[k])]
    return set(combinations(pool, size))


def fresh_books(rules, hand):
    """Every 3-card book the hand holds: (rank, cards)."""
    out = set()
    for r in range(1, 14):
        nats = [k for k in hand if book_nat(r, k)]
        wilds = [k for k in hand if book_wild(r, k)]
        for t in _multisets(hand, nats, 3):
            out.add((r, t))
        for t in _multisets(hand, nats, 2):
            for w in wilds:
                out.add((r, t + (w,)))
    return {b for b in out if sub(hand, b[1]) is not None and rules.valid_book(b[0], b[1])}


def fresh_runs(rules, hand):
    """Every 4-card run the hand holds: (suit, lo, cards in position order)."""
    out = set()
    wilds = [k for k in hand if wildcard(k)]
    for s in range(4):
        for lo in range(1, rules.lo_max + 1):
            need = [nat(s, lo + i) for i in range(4)]
            for nw in range(3):
                for slots in combinations(range(4), nw):
                    if any(hand[need[i]] == 0 for i in range(4) if i not in slots):
                        continue
                    for ws in _multisets(hand, wilds, nw):
                        for perm in set(__import__("itertools").permutations(ws)):
                            cards = list(need)
                            for i, w in zip(slots, perm):
                                cards[i] = w
                            if sub(hand, cards) is not None and rules.valid_run(s, lo, cards):
                                out.add((s, lo, tuple(cards)))
    return out


def longer(rules, hand, s, lo, cards):
    """Every way to extend the run (s, lo, cards) from hand by 0+ cards at its high end:
    tuples of the added cards (CR-10 option overlapping_runs: a run may need to grow to
    overlap another rather than continue it)."""
    yield ()
    q = lo + len(cards)
    if len(cards) >= 13 or q > rules.pos_hi:
        return
    for k in sorted({nat(s, q)} | {w for w in hand if wildcard(w)}):
        if hand[k] > 0 and rules.valid_run(s, lo, list(cards) + [k]):
            for X in longer(rules, sub(hand, [k]), s, lo, list(cards) + [k]):
                yield (k,) + X


def span(r):
    return (r[1], r[1] + len(r[2]) - 1)


def fresh_ok(rules, hand, nb, nr, book_lb, run_lb, fixed):
    """nb books (ranks >= book_lb) and nr runs (keys > run_lb, not joining the fixed runs
    nor each other) from hand, as sub-multisets.  Runs are of 4 cards, or of any length
    with overlapping_runs (where a longer run can overlap what a 4-card one continues)."""
    books = [b for b in fresh_books(rules, hand) if b[0] >= book_lb] if nb else []
    runs = [r for r in fresh_runs(rules, hand) if r[0] * 32 + r[1] >= run_lb + rules.step] if nr else []
    if rules.overlap and nr:
        runs = sorted({(s, lo, cards + X) for s, lo, cards in runs
                       for X in longer(rules, sub(hand, cards), s, lo, cards)})
    runs = [r for r in runs if not any(f[0] == r[0] and rules.joins(f[1:], span(r)) for f in fixed)]

    def pick_runs(h, k, start):
        if k == 0:
            return True
        for i in range(start, len(runs)):
            s, lo, cards = runs[i]
            h2 = sub(h, cards)
            if h2 is None:
                continue
            # same-suit runs chosen together must not join
            if any(runs[j][0] == s and rules.joins(span(runs[j]), span(runs[i])) for j in chosen):
                continue
            chosen.append(i)
            if pick_runs(h2, k - 1, i + rules.step):
                return True
            chosen.pop()
        return False

    def pick_books(h, k, start):
        if k == 0:
            return pick_runs(h, nr, 0)
        for i in range(start, len(books)):
            h2 = sub(h, books[i][1])
            if h2 is not None and pick_books(h2, k - 1, i):
                return True
        return False

    chosen = []
    return pick_books(Counter(hand), nb, 0)


def completions(rules, hand, P, closed=False):
    """Minimal completions X (sub-multisets of hand) of the partial meld P that the
    construction order allows; yields (X, finished meld).  With overlapping_runs a run not
    ``closed`` (being finished at its length) also completes to every longer run."""
    kind_, cards = P["kind"], P["cards"]
    if kind_ == "book":
        r = P["rank"]
        need = max(0, 3 - len(cards))
        has_wild = any(not book_nat(r, k) for k in cards)
        last = max([k for k in cards if book_nat(r, k)], default=-1)
        for X in set(combinations(sorted(hand.elements()), need)):
            nats = [k for k in X if book_nat(r, k)]
            wilds = [k for k in X if not book_nat(r, k)]
            if any(not book_wild(r, k) for k in wilds) or len(wilds) + has_wild > 1:
                continue
            if nats and (has_wild or min(nats) < last):
                continue
            yield X, ("book", r, None, None, tuple(cards) + X)
        return
    s, lo = P["suit"], P["lo"]
    need = max(0, 4 - len(cards))
    for X in set(combinations(sorted(hand.elements()), need)):
        for perm in set(__import__("itertools").permutations(X)):
            full = list(cards) + list(perm)
            if rules.valid_run(s, lo, full):
                if rules.overlap and not closed:
                    for Y in longer(rules, sub(hand, X), s, lo, full):
                        yield X + Y, ("run", None, s, lo, tuple(full) + Y)
                else:
                    yield X, ("run", None, s, lo, tuple(full))


def feasible(rules, hand, P, nb, nr, book_lb, run_lb, fixed, closed=False):
    if P is None:
        return fresh_ok(rules, hand, nb, nr, book_lb, run_lb, fixed)
    for X, m in completions(rules, hand, P, closed):
        h2 = sub(hand, X)
        if m[0] == "book":
            if fresh_ok(rules, h2, nb, nr, m[1], run_lb, fixed):
                return True
        else:
            s, lo, cards = m[2], m[3], m[4]
            sp = (lo, lo + len(cards) - 1)
            if any(f[0] == s and rules.joins(f[1:], sp) for f in fixed):
                continue
            if fresh_ok(rules, h2, nb, nr, book_lb, s * 32 + lo, fixed + [(s,) + sp]):
                return True
    return False


def laydown_context(body, rnd, p):
    """(finished melds, partial meld or None, meld index) of seat p's lay-down."""
    gd_k, gd_open, gd_last = body["building"]
    nbk = CONTRACTS[rnd][0]
    done, partial = [], None
    for j in range(gd_k + (1 if gd_open else 0)):
        d = body["melds"][p * 3 + j]
        m = {"kind": d["kind"], "rank": d["rank"], "suit": d["suit"], "lo": d["lo"],
             "cards": [kind(c) for c in d["cards"]]}
        if j < gd_k:
            done.append(m)
        else:
            partial = m
    return done, partial, gd_k


def build_legal(rules, body, rnd, p, hand):
    nb_all, nr_all = CONTRACTS[rnd]
    done, partial, gd_k = laydown_context(body, rnd, p)
    book_lb, run_lb, fixed = 1, -1, []
    for m in done:
        if m["kind"] == "book":
            book_lb = m["rank"]
        else:
            run_lb = m["suit"] * 32 + m["lo"]
            fixed.append((m["suit"], m["lo"], m["lo"] + len(m["cards"]) - 1))
    out = []
    next_is_book = gd_k < nb_all

    def left_counts(k_opened):
        books_used = min(k_opened, nb_all)
        runs_used = max(0, k_opened - nb_all)
        return nb_all - books_used, nr_all - runs_used

    if partial is None:
        nb, nr = left_counts(gd_k + 1)
        for k in sorted(hand):
            if next_is_book and k != JK and rank(k) >= book_lb:
                h2 = sub(hand, [k])
                P = {"kind": "book", "rank": rank(k), "cards": [k]}
                if feasible(rules, h2, P, nb, nr, book_lb, run_lb, fixed):
                    out.append(A_ADD + k)
        if not next_is_book:
            for s in range(4):
                for lo in range(1, rules.lo_max + 1):
                    if s * 32 + lo < run_lb + rules.step:
                        continue
                    P = {"kind": "run", "suit": s, "lo": lo, "cards": []}
                    if feasible(rules, hand, P, nb, nr, book_lb, run_lb, fixed):
                        out.append(A_RUN + s * 13 + lo - 1)
        return out
    nb, nr = left_counts(gd_k + 1)
    if partial["kind"] == "book":
        r = partial["rank"]
        has_wild = any(not book_nat(r, k) for k in partial["cards"])
        last = max([k for k in partial["cards"] if book_nat(r, k)], default=-1)
        for k in sorted(hand):
            ok = (book_nat(r, k) and not has_wild and k >= last) or (book_wild(r, k) and not has_wild)
            if ok:
                P = dict(partial, cards=partial["cards"] + [k])
                if feasible(rules, sub(hand, [k]), P, nb, nr, book_lb, run_lb, fixed):
                    out.append(A_ADD + k)
        if len(partial["cards"]) >= 3 and feasible(rules, hand, partial, nb, nr, book_lb, run_lb, fixed):
            out.append(A_FINISH)
    else:
        for k in sorted(hand):
            full = partial["cards"] + [k]
            if rules.valid_run(partial["suit"], partial["lo"], full):
                P = dict(partial, cards=full)
                if feasible(rules, sub(hand, [k]), P, nb, nr, book_lb, run_lb, fixed):
                    out.append(A_ADD + k)
        if len(partial["cards"]) >= 4 and feasible(rules, hand, partial, nb, nr, book_lb, run_lb, fixed,
                                                   closed=True):
            out.append(A_FINISH)
    return sorted(out)


def legal_actions(state):
    """The legal actions of ``state`` (a ContractRummyState), computed from its JSON."""
    import json
    doc = json.loads(state.to_json())
    body, opts = doc["state"], doc["options"]
    rules = Rules(opts["ace_wrap"], opts["overlapping_runs"])
    ph = body["phase"]
    if ph == "over":
        return []
    if ph in ("first_up_card", "take_or_decline"):
        return [A_TAKE, A_DECLINE]
    if ph == "buy_or_pass":
        return [A_BUY, A_PASS]
    p = body["current_player"]
    rnd = body["round"]
    hand = Counter(kind(c) for c in body["hands"][p])
    if ph == "going_down":
        return build_legal(rules, body, rnd, p, hand)
    out = []
    n = doc["num_players"]
    final = opts["final_round_no_discard"] and rnd == 7
    total = sum(hand.values())
    if not (final and total == 1):
        out += sorted(hand)
    nb, nr = CONTRACTS[rnd]
    if not body["down"][p] and fresh_ok(rules, hand, nb, nr, 1, -1, []):
        out.append(A_GO_DOWN)
    melds = body["melds"]
    if body["down"][p]:
        for m, d in enumerate(melds):
            if d is None or (m // 3 == p and not opts["layoff_on_own"]):
                continue
            cards = [kind(c) for c in d["cards"]]
            for k in hand:
                if d["kind"] == "book":
                    if rules.valid_book(d["rank"], cards + [k]):
                        out.append(A_LAYOFF + (k * 18 + m) * 2)
                    continue
                lo = d["lo"]
                # low end
                nlo = lo - 1 if lo > 1 else (13 if rules.wrap else 0)
                if nlo >= 1 and rules.valid_run(d["suit"], nlo, [k] + cards):
                    out.append(A_LAYOFF + (k * 18 + m) * 2)
                if rules.valid_run(d["suit"], lo, cards + [k]):
                    out.append(A_LAYOFF + (k * 18 + m) * 2 + 1)
    if body["down"][p] or not opts["swap_requires_down"]:
        for m, d in enumerate(melds):
            if d is None or m // 3 == p or d["kind"] != "run":
                continue
            for i, c in enumerate(d["cards"]):
                k = kind(c)
                nk = nat(d["suit"], d["lo"] + i)
                if k != nk and hand[nk] > 0:
                    out.append(A_SWAP + nk * 18 + m)
    if final and total == 1:
        out.append(A_KEEP)
    return sorted(set(out))
