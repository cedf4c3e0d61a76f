/* krazy/evaluate.h -- turning the scores of an unfinished game into expected returns, for
 * the ops.evaluate of games with many rounds (search rollouts that stop at a round's end).
 *
 * The model: what is still to come adds noise of spread `tau` (points, or chips) to each
 * player's standing, so a player's chance to finish best is a softmax of the standings with
 * temperature tau (a logistic, the Bradley-Terry form).  The estimate is monotone (a better
 * standing never gets less) and tends to the hard ranking as tau -> 0.
 */
#ifndef KRAZY_EVALUATE_H
#define KRAZY_EVALUATE_H
#include <math.h>

/* Chance of each of n players to hold the LOWEST value at the end (lowest total wins:
 * KR-15, CR-16), written to out; they sum to 1.  tau > 0. */
static inline void kz_chance_lowest(const double *value, int n, double tau, double *out) {
    double lo = value[0], sum = 0.0;
    int i;
    for (i = 1; i < n; i++)
        if (value[i] < lo) lo = value[i];
    for (i = 0; i < n; i++) {
        out[i] = exp(-(value[i] - lo) / tau);
        sum += out[i];
    }
    for (i = 0; i < n; i++)
        out[i] /= sum;
}

/* kz_chance_lowest for a game of rounds: each round still to play adds independent noise
 * of logistic scale `spread` per round, so tau = spread * sqrt(rounds_left) (rounds_left
 * counts a round under way as a half; at least 0.5). */
static inline void kz_chance_lowest_rounds(const double *value, int n, double spread,
                                           double rounds_left, double *out) {
    kz_chance_lowest(value, n, spread * sqrt(rounds_left > 0.5 ? rounds_left : 0.5), out);
}

#endif
