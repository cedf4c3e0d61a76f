"""Learned evaluation for the search: self-play data, small networks fitted with
NumPy, their export to the package's ``models/`` folder and the bots that play on them alone.

- :mod:`krazy_core.learn.model`: the shipped weights (``load_value_model``), a NumPy reference
  forward pass (``value_numpy``), :class:`ValueBot` (the value, greedy over one move) and
  :class:`PolicyBot` (the policy's most likely move); no search;
- :mod:`krazy_core.learn.train`: ``python -m krazy_core.learn.train krazy-kings --out DIR``
  (the value), ``... --policy`` (the policy prior, from ISMCTS self-play).

The C forward passes that the search runs without the GIL live in
``krazy_core/search/ismcts.pyx`` (``search(..., value="model")``, ``prior_from="model"``);
the policy's file format in ``krazy_core/search/policy_model.py``.
"""
