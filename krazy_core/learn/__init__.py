"""Learned evaluation for the search (issue 18): self-play data, a small value network fitted
with NumPy, its export to the package's ``models/`` folder and a greedy one-ply bot on it.

- :mod:`krazy_core.learn.model`: the shipped weights (``load_value_model``), a NumPy reference
  forward pass (``value_numpy``) and :class:`ValueBot` (no search);
- :mod:`krazy_core.learn.train`: ``python -m krazy_core.learn.train krazy-kings --out DIR``.

The C forward pass that the search runs without the GIL lives in
``krazy_core/search/ismcts.pyx`` (``search(..., value="model")``).
"""
