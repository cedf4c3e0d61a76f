/* krazy/rng.h -- the seeded PRNG every state carries inside its own struct.
 *
 * xoshiro256** (Blackman & Vigna, 2018), seeded through splitmix64.  The whole generator
 * is 32 bytes of plain data, so copying a state (clone(), determinization in search)
 * copies its future dice and shuffles too.  Bounded draws use Lemire's multiply-shift
 * with rejection, so they are exactly uniform (no modulo bias).
 */
#ifndef KRAZY_RNG_H
#define KRAZY_RNG_H
#include <stdint.h>

typedef struct kz_rng {
    uint64_t s[4];          /* xoshiro256** state; never all zero */
} kz_rng;

/* A tape of draws (explicit chance for OpenSpiel, krazy_core/envs/openspiel.py): a
 * generator whose s[0..2] are zero and s[3] is the address of a kz_tape is "taped": each
 * bounded draw kz_bounded(r, n) with n >= 2 returns the tape's next value (clamped to
 * n - 1) instead of drawing, and past the tape's end records the first n asked for and
 * returns 0.  The all-zero-but-s[3] state never arises from seeding (splitmix64 words; the
 * chance of three zero words is 2**-192), so the normal path costs one predicted branch per
 * draw; kz_rng_seed_state (a game's new_game) leaves a taped generator taped, so a new
 * game can be dealt from a tape. */
typedef struct kz_tape {
    const uint32_t *vals;   /* the outcomes chosen so far, each in [0, n) of its draw */
    int32_t len;            /* values in vals */
    int32_t pos;            /* draws made (may pass len) */
    uint32_t need;          /* n of the first draw past the end (0: none) */
    int32_t _pad;
    kz_rng rest;            /* draws past the end come from here: a real stream, so the step
                             * runs on as the engine would (a loop of re-rolls ends) */
} kz_tape;

static inline uint32_t kz_bounded(kz_rng *r, uint32_t n);

#if defined(__GNUC__) || defined(__clang__)
#define KZ_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define KZ_UNLIKELY(x) (x)
#endif

#define KZ_TAPED(r) ((((r)->s[0] | (r)->s[1] | (r)->s[2]) == 0) && (r)->s[3] != 0)

/* out of line and cold: the normal path keeps only the predicted test of s[0..2] */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static uint32_t kz_tape_draw(kz_rng *r, uint32_t n) {
    kz_tape *t = (kz_tape *)(uintptr_t)r->s[3];
    uint32_t v = 0;
    if (t == 0) return 0;               /* the invalid all-zero state: as before, 0 */
    if (t->pos < t->len) {
        v = t->vals[t->pos];
        if (v >= n) v = n - 1;
    } else {
        if (t->need == 0) t->need = n;
        v = kz_bounded(&t->rest, n);
    }
    t->pos++;
    return v;
}

static inline uint64_t kz_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void kz_rng_seed(kz_rng *r, uint64_t seed) {
    uint64_t x = seed;
    r->s[0] = kz_splitmix64(&x);
    r->s[1] = kz_splitmix64(&x);
    r->s[2] = kz_splitmix64(&x);
    r->s[3] = kz_splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) r->s[0] = 1;
}

/* A new game's seeding of a state's own generator (each game's new_game): as kz_rng_seed,
 * but a taped generator stays taped, so a new game can be dealt from a tape.  Only for a
 * generator inside a state struct (always initialized: zeroed at allocation, or seeded). */
static inline void kz_rng_seed_state(kz_rng *r, uint64_t seed) {
    if (KZ_TAPED(r)) return;
    kz_rng_seed(r, seed);
}

static inline uint64_t kz_rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t kz_next(kz_rng *r) {
    uint64_t *s = r->s;
    const uint64_t result = kz_rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = kz_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1; exactly unbiased (Lemire 2019, "Fast random integer
 * generation in an interval").  n == 0 returns 0. */
static inline uint32_t kz_bounded(kz_rng *r, uint32_t n) {
    if (n <= 1) return 0;
    if (KZ_UNLIKELY(r->s[0] == 0) && (r->s[1] | r->s[2]) == 0) return kz_tape_draw(r, n);
    uint64_t m = (uint64_t)(uint32_t)(kz_next(r) >> 32) * (uint64_t)n;
    uint32_t l = (uint32_t)m;
    if (l < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(kz_next(r) >> 32) * (uint64_t)n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* kz_bounded without a branch on n <= 1: the same result and the same generator state after
 * (no draw when n <= 1), for a call site where n is often 1 at random, so that a branch on it
 * would often be mispredicted: the step is computed anyway, then kept or dropped by a mask.
 * It reads no tape: it draws a playout's random move (a player's choice), never a chance
 * event of the rules, and it is the hottest draw of the random playouts. */
static inline uint32_t kz_bounded_nb(kz_rng *r, uint32_t n) {
    const uint64_t s0 = r->s[0], s1 = r->s[1], s2 = r->s[2], s3 = r->s[3];
    const uint64_t x = kz_rotl(s1 * 5, 7) * 9;
    const uint64_t go = (uint64_t)0 - (uint64_t)(n > 1);    /* all ones: the step is taken */
    const uint64_t a = s3 ^ s1, b = s2 ^ s0;                 /* kz_next's change of s0, s1 */
    r->s[0] = s0 ^ (a & go);
    r->s[1] = s1 ^ (b & go);
    r->s[2] = s2 ^ ((s0 ^ (s1 << 17)) & go);
    r->s[3] = s3 ^ ((kz_rotl(a, 45) ^ s3) & go);
    uint64_t m = (x >> 32) * (uint64_t)n;       /* n <= 1: m >> 32 is 0 */
    uint32_t l = (uint32_t)m;
    if (l < n) {                                /* n == 1 here only with l == 0: t == 0 */
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(kz_next(r) >> 32) * (uint64_t)n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* One six-sided die: 1..6. */
static inline int kz_d6(kz_rng *r) { return 1 + (int)kz_bounded(r, 6); }

/* Uniform double in [0, 1). */
static inline double kz_uniform(kz_rng *r) { return (double)(kz_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Fisher-Yates shuffle of n bytes in place.  The generator is copied into a local for the
 * loop: a byte store may alias anything, so with r itself the compiler would reload and
 * store its four words around every swap (the same draws either way). */
static inline void kz_shuffle_u8(kz_rng *r, uint8_t *a, int n) {
    kz_rng g = *r;
    for (int i = n - 1; i > 0; --i) {
        int j = (int)kz_bounded(&g, (uint32_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
    *r = g;
}

#endif
