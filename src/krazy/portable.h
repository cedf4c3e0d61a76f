/* krazy/portable.h -- the GCC/clang builtins the C code uses, for compilers without them.
 *
 * The rules and the search count and find bits with __builtin_ctz, __builtin_ctzll,
 * __builtin_clzll, __builtin_popcount and __builtin_popcountll.  GCC and clang (also
 * clang-cl) have them; for MSVC this header defines them (BitScanForward/Reverse, and a
 * SWAR count, which needs no POPCNT in the CPU) under the same names.  setup.py puts it in
 * front of every module MSVC compiles (/FI); krazy/bits.h includes it too.  Results are the
 * builtins' own on every input they define (ctz/clz of 0 is undefined there, as here).
 *
 * KZ_PORTABLE_FALLBACK (for tests on GCC/clang): defines the kz_pt_* functions in plain C
 * without replacing the builtins, so a test can compare the two.
 */
#ifndef KRAZY_PORTABLE_H
#define KRAZY_PORTABLE_H

#if (defined(_MSC_VER) && !defined(__clang__)) || defined(KZ_PORTABLE_FALLBACK)

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define KZ_PT_INLINE static __forceinline
#else
#define KZ_PT_INLINE static inline
#endif

KZ_PT_INLINE int kz_pt_popcountll(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
KZ_PT_INLINE int kz_pt_popcount(unsigned int x) { return kz_pt_popcountll((unsigned long long)x); }

#if defined(_MSC_VER) && !defined(__clang__)
KZ_PT_INLINE int kz_pt_ctz(unsigned int x) {
    unsigned long i;
    _BitScanForward(&i, (unsigned long)x);
    return (int)i;
}
KZ_PT_INLINE int kz_pt_clz32(unsigned int x) {
    unsigned long i;
    _BitScanReverse(&i, (unsigned long)x);
    return 31 - (int)i;
}
#if defined(_M_X64) || defined(_M_ARM64) || defined(_M_ARM64EC)
KZ_PT_INLINE int kz_pt_ctzll(unsigned long long x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
KZ_PT_INLINE int kz_pt_clzll(unsigned long long x) {
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#define KZ_PT_HAVE_64 1
#endif
#else  /* plain C: one bit at a time is slow but only tests use it */
KZ_PT_INLINE int kz_pt_ctz(unsigned int x) {
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
KZ_PT_INLINE int kz_pt_clz32(unsigned int x) {
    int n = 0;
    while (!(x & 0x80000000u)) { x <<= 1; n++; }
    return n;
}
#endif

#ifndef KZ_PT_HAVE_64
KZ_PT_INLINE int kz_pt_ctzll(unsigned long long x) {
    unsigned int lo = (unsigned int)x;
    return lo ? kz_pt_ctz(lo) : 32 + kz_pt_ctz((unsigned int)(x >> 32));
}
KZ_PT_INLINE int kz_pt_clzll(unsigned long long x) {
    unsigned int hi = (unsigned int)(x >> 32);
    return hi ? kz_pt_clz32(hi) : 32 + kz_pt_clz32((unsigned int)x);
}
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define __builtin_popcountll(x) kz_pt_popcountll((unsigned long long)(x))
#define __builtin_popcount(x) kz_pt_popcount((unsigned int)(x))
#define __builtin_ctz(x) kz_pt_ctz((unsigned int)(x))
#define __builtin_ctzll(x) kz_pt_ctzll((unsigned long long)(x))
#define __builtin_clzll(x) kz_pt_clzll((unsigned long long)(x))
#endif

#endif  /* MSVC or KZ_PORTABLE_FALLBACK */
#endif
