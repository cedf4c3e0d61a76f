"""Every meld question of the rummy games (the package that was ``games/melds.pyx``): the rules
and kind checks (``rules``), the free solver (``free``), contract feasibility (``contract``) and
the Python faces (``faces``), re-exported here."""
from krazy_core.games.melds import faces  # noqa: F401
from krazy_core.games.melds.faces import (  # noqa: F401
    MAX_HAND, BOOK, RUN, is_book, is_run, is_meld, deadwood_points, best_arrangement,
    going_out_discards, can_meld_all, crazy_meld_kind, crazy_best_arrangement,
    crazy_contract_feasible, _card_items, _fmt, _parse_kings_cards, _parse_crazy_cards,
    _set_contract_oracle, _set_oracle_loader, _set_contract_budget, _contract_budget_stats,
    _time_solver, _crazy_is, _wild_share_bound, _can_meld_all_unfiltered,
    _arrangement_pruned_and_not, _deadwood_below)
