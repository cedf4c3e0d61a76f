# cython: language_level=3
"""Layout contract of the information-set MCTS (``ismcts.pyx``): one flat C node pool per
tree and one worker struct per thread.  Nothing here holds a Python object, so a worker's
iterations run without the GIL."""
from libc.stdint cimport int32_t, int64_t
from krazy_core._ops cimport kz_ops, kz_rng, KZ_MAX_PLAYERS


ctypedef struct kz_node:
    int32_t action          # action that led here from `parent` (-1 at the root)
    int32_t player          # seat that played `action` (-1 at the root)
    int32_t parent          # index of the parent node in the pool (-1 at the root)
    int32_t first_child     # index of the first child (-1: none); children form a list
    int32_t visits          # iterations that went through this node
    int32_t avail           # iterations in which `action` was legal for `player` at `parent`
    double reward           # sum over visits of `player`'s return (the player who acted)


ctypedef struct kz_link:
    # the sibling list, kept apart from the statistics (links[i] belongs to nodes[i]): the
    # walk over a node's children reads 8 bytes a child, a pool small enough to stay cached
    int32_t key             # action | player << 24 of the node (KZ_LINK_* below)
    int32_t next_sibling    # index of the next child of `parent` (-1: last)


ctypedef struct kz_tree:
    kz_node *nodes          # the pool: nodes[0] is the root; children are appended
    kz_link *links          # links[i]: node i's key and next sibling (same length as nodes)
    int32_t n               # nodes in use
    int32_t cap             # nodes allocated
    int32_t max_nodes       # the pool never grows past this; the search then stops expanding
    float *prior            # prior[i]: the policy model's probability of node i's action at its
                            # parent (prior_from="model"); NULL when the search has no policy


ctypedef struct kz_worker:
    const kz_ops *ops       # the game's C function table
    const void *root        # the root state (read only, shared by all workers)
    void *scratch           # ops.state_size bytes: the determinization being played out
    int32_t *legal          # ops.max_legal actions: legal actions at the current state
    int32_t *mark           # ops.num_distinct_actions generation stamps (one per action)
    int32_t *avail          # ops.max_legal: the available children of the node being left
    int32_t gen             # current generation of `mark` (always even)
    kz_tree tree            # this worker's tree
    kz_rng rng              # this worker's PRNG: determinizations, expansion, rollouts
    int32_t searcher        # seat searching (to act at the root)
    int32_t heuristic       # 1: roll out with ops.heuristic_action; 0: uniformly at random
    int32_t max_rollout     # rollout length cap in actions; < 0: play out to the end
    int32_t horizon_round   # 1: rollouts stop where ops.round_index changes (a round ends)
    double exploration      # UCT constant c in mean + c * sqrt(ln(avail) / visits)
    int32_t opp_heuristic   # 1: opponents play ops.heuristic_action in the tree too (no
                            # opponent nodes: the tree branches on the searcher's moves only)
    int32_t omniscient      # 1: no determinization (a "cheating" search that sees the
                            # hidden cards and future dice: a diagnostic upper bound)
    double prior            # progressive bias: the heuristic's move gets + prior / (visits + 1)
                            # and is expanded first (0: off; needs ops.heuristic_action)
    int64_t max_iterations  # stop after this many iterations (< 0: no cap)
    double deadline         # stop at this CLOCK_MONOTONIC time in seconds (<= 0: none)
    int64_t iterations      # iterations done (out)
    int64_t rollout_actions # actions applied in rollouts (out)
    int64_t tree_actions    # actions applied while descending the tree (out)
    int32_t max_depth       # deepest node reached (out)
    int32_t tree_depth      # the tree never grows below this depth (< 0: no limit); an
                            # iteration rolls out from the first node that deep
    int32_t truncated       # rollouts cut by max_rollout (out)
    # paired root ("common random numbers"): each determinization, with the same future
    # dice and rollout draws, is played once after each root action in turn
    int32_t paired          # 1: paired root rounds; 0: plain UCT at the root
    int32_t round_n         # root actions in the current round
    int32_t round_pos       # next root action of the round (round_n: start a new round)
    int32_t _pad2
    void *det               # ops.state_size bytes: the round's determinization
    int32_t *round_actions  # ops.max_legal: the round's root actions
    double *round_ret       # ops.max_legal: the searcher's return after each of them
    double *best_share      # ops.num_distinct_actions: rounds in which the action did best
                            # (ties shared); the paired policy
    kz_rng round_rng        # draws each round's determinization and its rollout seed
    kz_rng det_rng          # the round's rollout PRNG, restored before each root action
    # learned value at a rollout cutoff (value="model"): an MLP over each seat's
    # observation tensor, v = sigmoid(w2 . relu(x @ w1 + b1) + b2), normalized over the seats
    int32_t value_model     # 1: back up the model's values where a rollout stops unfinished
    int32_t v_inputs        # T: ops.tensor_size floats in; w1 is (T, v_hidden), input-major
    int32_t v_hidden        # H: hidden units
    int32_t v_loser         # 1: one loser (KA-15): the chances not to lose, normalized as losses
    const float *v_w1       # T * H (read only; the arrays belong to the Python model)
    const float *v_b1       # H
    const float *v_w2       # H
    float v_b2
    float *v_obs            # T floats: scratch observation tensor
    float *v_h              # H floats: scratch hidden layer
    int32_t *v_nz           # T: scratch, the indices of the tensor's nonzero inputs
    float *v_nzv            # T: scratch, their values
    int32_t *v_on           # H: scratch, the hidden units above 0
    # learned policy as the selection prior (prior_from="model"): an MLP over the
    # acting seat's observation tensor, logits = relu(x @ w1 + b1) @ w2 + b2, softmax over
    # the legal actions; child i gets + prior * P(a) * sqrt(avail) / (1 + visits) (PUCT-style)
    # and the untried action of highest P is expanded first
    int32_t policy_prior    # 1: the prior comes from the policy model (not the heuristic)
    int32_t p_inputs        # T: ops.tensor_size
    int32_t p_hidden        # H
    int32_t p_actions       # A: ops.num_distinct_actions
    const float *p_w1       # T * H (read only; the arrays belong to the Python model)
    const float *p_b1       # H
    const float *p_w2       # A * H: w2 transposed, one contiguous row of H weights an action
    const float *p_b2       # A
    float *p_obs            # T floats: scratch observation tensor
    float *p_h              # H floats: scratch hidden layer
    int32_t *p_nz           # T: scratch, the indices of the tensor's nonzero inputs
    float *p_nzv            # T: scratch, their values
    int32_t *p_on           # H: scratch, the hidden units the second layer adds
    double *p_prob          # ops.max_legal: the policy over w.legal at the node being expanded
    # chance nodes (chance_nodes=True): below each action node, one child per observation of
    # the searcher after it (a hash of its observation tensor), so deeper decisions are keyed
    # by what the searcher has seen (the rolls, its draws) instead of pooled over them
    int32_t chance_nodes
    int32_t c_inputs        # ops.tensor_size
    float *c_obs            # c_inputs floats: scratch observation tensor
    # belief weighting (beliefs=N, ops.belief_logweight): N determinizations drawn once per
    # search and played in proportion to their weights (sampling importance resampling),
    # each with new future chance draws (ops.redraw) every time it is played
    int32_t pool_cap        # N: worlds to draw (0: off, every iteration determinizes anew)
    int32_t pool_n          # worlds drawn (0: not yet; the first iteration draws them)
    char *pool              # pool_cap * ops.state_size bytes: the worlds
    double *pool_cdf        # pool_cap: their cumulative weights, the last 1.0
    double pool_ess         # the weights' effective sample size (sum w)^2 / sum w^2 (out)
    double pool_tau         # the power the weights were tempered to, in (0, 1] (out)
    double pool_deadline    # the search's own deadline for drawing the pool (<= 0: none);
                            # `deadline` may be a slice of it (run(interruptible=True))
    int32_t opp_belief      # 1 (opponents="belief"): after the pool is drawn, the seats it
                            # finds heuristic-like (pool_heur >= BELIEF_KIND) play the
                            # heuristic in the tree (opp_mask), the others are tree nodes
    int32_t opp_mask        # bit q: seat q's moves are ops.heuristic_action, no tree node
    double pool_heur[KZ_MAX_PLAYERS]   # per seat, the pool's posterior that it is of the
                            # model's first kind (KK: heuristic-like); -1: no evidence (out)
