/* krazy/piles.h -- card piles shared by the games: a stock and a discard pile as arrays of
 * card bytes, bottom first.
 */
#ifndef KRAZY_PILES_H
#define KRAZY_PILES_H
#include <stdint.h>
#include "krazy/rng.h"

/* The discard pile except its top card goes under the stock, and the whole stock is
 * shuffled (KK-17, KR-13, CR-14).  Emptied slots are zeroed, so states compare by memcmp.
 * Returns how many cards moved (0 when the discard pile holds one card or none). */
static inline int kz_rebuild_stock(uint8_t *stock, int32_t *n_stock, uint8_t *discard,
                                   int32_t *n_discard, kz_rng *rng) {
    int32_t k = *n_discard - 1, i;
    if (k <= 0) return 0;
    for (i = 0; i < k; ++i) stock[*n_stock + i] = discard[i];
    *n_stock += k;
    discard[0] = discard[*n_discard - 1];
    for (i = 1; i < *n_discard; ++i) discard[i] = 0;
    *n_discard = 1;
    kz_shuffle_u8(rng, stock, *n_stock);
    return k;
}

#endif
