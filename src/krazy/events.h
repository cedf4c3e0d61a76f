/* krazy/events.h -- the append-only event log a game writes while it applies an action.
 *
 * An event is 4 int32: (kind, player, a, b); kinds are per game and documented in the
 * game's module.  Search passes ev == NULL and nothing is recorded.  A failed allocation
 * drops the event (the log is for display and replay, never for the rules).
 */
#ifndef KRAZY_EVENTS_H
#define KRAZY_EVENTS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KZ_EV_WIDTH 4

typedef struct kz_events {
    int32_t *data;      /* n int32 values: n / KZ_EV_WIDTH events */
    int32_t n;          /* int32 values in use; a multiple of KZ_EV_WIDTH */
    int32_t cap;        /* int32 values allocated */
} kz_events;

static inline int kz_ev_reserve(kz_events *ev, int32_t need) {
    if (need <= ev->cap) return 0;
    int32_t cap = ev->cap ? ev->cap : 256;
    while (cap < need) {
        if (cap > (1 << 28)) return -1;
        cap *= 2;
    }
    int32_t *p = (int32_t *)realloc(ev->data, (size_t)cap * sizeof(int32_t));
    if (!p) return -1;
    ev->data = p;
    ev->cap = cap;
    return 0;
}

static inline void kz_ev_push(kz_events *ev, int32_t kind, int32_t player, int32_t a, int32_t b) {
    if (ev == NULL) return;
    if (kz_ev_reserve(ev, ev->n + KZ_EV_WIDTH) != 0) return;
    int32_t *d = ev->data + ev->n;
    d[0] = kind; d[1] = player; d[2] = a; d[3] = b;
    ev->n += KZ_EV_WIDTH;
}

static inline void kz_ev_free(kz_events *ev) {
    free(ev->data);
    ev->data = NULL; ev->n = 0; ev->cap = 0;
}

#endif
