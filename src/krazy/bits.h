/* krazy/bits.h -- bit counting on 64-bit card masks (hands are bit sets).
 *
 * __builtin_popcountll compiles to one instruction only when the target has POPCNT
 * (-mpopcnt / -march=...); on the baseline x86-64 target the build uses, it is a call
 * into libgcc (__popcountdi2), which was a tenth of an ISMCTS iteration on Krazy Kings.
 * kz_popcount64 is the instruction when available, else an inline SWAR count.
 */
#ifndef KRAZY_BITS_H
#define KRAZY_BITS_H
#include <stdint.h>
#include "krazy/portable.h"     /* the builtins for MSVC */

static inline int kz_popcount64(uint64_t x) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* 1 when x has exactly one bit set */
static inline int kz_single_bit(uint64_t x) { return (x != 0) & ((x & (x - 1)) == 0); }   /* no branch */

#endif
