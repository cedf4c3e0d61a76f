/* krazy/ops.h -- the table of C functions every game fills in (DESIGN.md, "Search").
 *
 * A state is one fixed-size struct (state_size bytes) holding everything, its PRNG
 * included: a copy is a memcpy.  The search (krazy_core/search/ismcts.pyx) and the generic
 * Python State (krazy_core/_state.pyx) know only this table.  Every function is plain C,
 * runs without the GIL and never fails on a state that passed validation.
 */
#ifndef KRAZY_OPS_H
#define KRAZY_OPS_H
#include <stdint.h>
#include "krazy/rng.h"
#include "krazy/events.h"

#define KZ_TERMINAL (-4)        /* current_player() of a finished game (OpenSpiel's kTerminalPlayerId) */
#define KZ_MAX_PLAYERS 8

typedef struct kz_ops {
    const char *game_id;
    int32_t state_size;             /* bytes in one state struct */
    int32_t num_distinct_actions;   /* actions are ints in [0, num_distinct_actions) */
    int32_t max_legal;              /* upper bound on the number of legal actions */
    int32_t max_players;
    /* seat to act, or KZ_TERMINAL */
    int (*current_player)(const void *st);
    /* writes the legal actions, sorted ascending and unique, to out; returns how many */
    int (*legal_actions)(const void *st, int32_t *out);
    /* applies a legal action (unchecked: the caller checked legality); ev may be NULL */
    int (*apply_action)(void *st, int32_t action, kz_events *ev);
    int (*is_terminal)(const void *st);
    /* writes num_players returns */
    void (*returns)(const void *st, double *out);
    int (*num_players)(const void *st);
    /* resamples everything `player` has not seen (other hands, stock order) consistently
     * with what they have seen, and reseeds the state's own PRNG from rng (future dice and
     * shuffles are unknown too). */
    void (*determinize)(void *st, int player, kz_rng *rng);
    /* the game's heuristic move for the player to act, using only that player's view;
     * must return a legal action.  May be NULL (then search rolls out at random). */
    int32_t (*heuristic_action)(const void *st, kz_rng *rng);
    /* starts a new game in st, keeping the options and player count already in st (set by
     * the game's Python constructor), shuffled and dealt from seed.  Used by in-core
     * playout loops (simulate_random) and arenas. */
    void (*new_game)(void *st, uint64_t seed);
    /* OPTIONAL (NULL: one long episode).  A number that changes whenever a round of a
     * multi-round game ends (a rummy round, a KrassKariert hand): search rollouts with
     * horizon "round" stop at the first change and back up evaluate(). */
    int32_t (*round_index)(const void *st);
    /* OPTIONAL (NULL: use returns()).  The game's estimate of the final returns of a state
     * that is not terminal (same scale as returns(): expected returns from the public scores
     * and, mid-round, the hands in st), for rollouts cut by a horizon or max_rollout.  On a
     * terminal state it writes returns(). */
    void (*evaluate)(const void *st, double *out);
    /* OPTIONAL (NULL: callers use legal_actions).  A uniformly random legal action for the
     * player to act, or -1 when there is none (terminal): exactly
     *     n = legal_actions(st, out); return n > 0 ? out[kz_bounded(rng, n)] : -1;
     * (the same single draw from rng, the same pick), only faster: the game may count and
     * pick from its own representation without writing the list.  Search rollouts and
     * in-core playouts use it; tests/test_conformance.py checks the equivalence. */
    int32_t (*random_action)(const void *st, kz_rng *rng);
    /* OPTIONAL (NULL: callers loop over random_action and apply_action).  A random playout
     * with events off: applies up to max_steps actions (max_steps < 0: no cap) exactly as
     *     steps = 0;
     *     while (steps != max_steps && !is_terminal(st)) {
     *         a = random_action(st, rng);  if (a < 0) break;
     *         apply_action(st, a, NULL);  steps++;
     *     }
     * does (the same draws, the same final state) and returns steps: one call instead of
     * three through the table per action, so the game can inline them.  Search rollouts
     * (rollout "random" without a round horizon) and in-core playouts use it;
     * tests/test_conformance.py checks the equivalence. */
    int32_t (*random_playout)(void *st, kz_rng *rng, int32_t max_steps);
    /* OPTIONAL (0 and NULL: none).  Floats in one observation tensor, and a function that
     * writes `player`'s tensor (tensor_size float32, zeros included) to out: exactly what
     * State.observation_tensor(player) returns, for a seat 0 <= player < num_players (the
     * caller checks it).  The vectorized env (krazy_core/vector.pyx) reads it without the
     * GIL; tests/test_envs_ops.py checks the equivalence in every game. */
    int32_t tensor_size;
    void (*observation_tensor)(const void *st, int player, float *out);
    /* OPTIONAL (NULL: never).  1 when the game is over because its turn cap ended it
     * (Krazy Kings' max_turns, KK-20) rather than by play; 0 otherwise.  The RL envs report
     * such an end as a truncation. */
    int (*truncated)(const void *st);
    /* OPTIONAL (NULL: the state bytes cannot be loaded).  The game's one validator of a
     * loaded struct, called by both loaders (game.state_from_json after it filled the struct
     * from the JSON body, game.state_from_bytes after it copied the struct in): checks every
     * field of st -- options equal to ref's (a fresh state of the same game), counters,
     * seats and card codes in range, the card multiset exactly the deck, the phase
     * consistent, a legal action for the player to act -- and recomputes the fields derived
     * from the others.  Returns NULL when st is a state play can reach (as far as the checks
     * tell), else a static message saying what is wrong; never reads out of st's arrays. */
    const char *(*validate)(void *st, const void *ref);
    /* OPTIONAL (0: no check).  Event kinds are 1..max_event_kind (both loaders check). */
    int32_t max_event_kind;
    /* OPTIONAL (NULL: callers write observation_tensor and scan it).  The nonzero entries
     * of `player`'s observation tensor: writes their indices, ascending, to idx and their
     * values to val (at most tensor_size each) and returns how many -- exactly the i with
     * out[i] != 0.0 (a NaN counts, +-0 does not) of observation_tensor's out, and out[i].
     * The tensor is mostly one-hot zeros; the learned models of the search read only its
     * nonzeros.  tests/test_policy.py checks the equivalence. */
    int32_t (*observation_nonzeros)(const void *st, int player, int32_t *idx, float *val);
    /* OPTIONAL (NULL: the search draws its worlds unweighted).  Belief weighting: the log
     * of the likelihood of the opponents' observed choices (each seat but `player`) in the
     * world `st`, a determinization of a state seen by `player` (kz_ops.determinize), under
     * the game's opponent model, a mixture of two kinds of player.  When seat_loglik is not
     * NULL, seat_loglik[2 q] and [2 q + 1] get seat q's log likelihood under each kind alone
     * (0 for the player and seats without evidence).  The search draws a pool of worlds and
     * plays them in proportion to these weights. */
    double (*belief_logweight)(const void *st, int player, double *seat_loglik);
    /* OPTIONAL (with belief_logweight).  New future chance draws (dice, shuffles) for a
     * determinized world, from rng: a pooled world played again is a new sample. */
    void (*redraw)(void *st, kz_rng *rng);
} kz_ops;

#endif
