"""Field checks shared by every game's ``state_from_dict``: each raises
``InvalidStateError`` naming the field, its expected type and range, and the bad value."""

from krazy_core.errors import InvalidStateError
from krazy_core.errors import ConfigError


def json_int(body, key, lo, hi):
    """``body[key]``, an int (not a bool) in ``lo..hi``."""
    v = body[key]
    if type(v) is not int or not lo <= v <= hi:
        raise InvalidStateError(f"{key!r} must be an int in {lo}..{hi}, got {v!r}")
    return v


def json_bool(body, key):
    """``body[key]``, true or false."""
    v = body[key]
    if type(v) is not bool:
        raise InvalidStateError(f"{key!r} must be true or false, got {v!r}")
    return v


def json_ints(body, key, n, lo, hi):
    """``body[key]``, a list of ``n`` ints in ``lo..hi``."""
    v = body[key]
    if not isinstance(v, list) or len(v) != n or any(type(x) is not int or not lo <= x <= hi for x in v):
        raise InvalidStateError(f"{key!r} must be {n} ints in {lo}..{hi}, got {v!r}")
    return v


def is_bool(x):
    """Whether ``x`` is a bool: Python's or numpy's (``numpy.True_``).  numpy's bool has
    ``__index__`` in numpy < 2.1 (``numpy.True_.__index__() == 1``), so a check of "an int
    with ``__index__``, never a bool" asks this, not ``isinstance(x, bool)``: the round
    ``numpy.True_`` was read as round 1 on Python 3.9 (numpy 2.0)."""
    return isinstance(x, bool) or (type(x).__module__ == "numpy" and type(x).__name__ in ("bool", "bool_"))


def flag(name, v):
    """A rule option that is on or off (``ace_wrap``, ``overlapping_runs``) as a bool: ``True``
    or ``False`` (numpy's bool too), else ``ValueError`` naming it -- a truthy string such as
    ``'no'`` turned the rule on."""
    if is_bool(v):
        return bool(v)
    raise ValueError(f"{name} must be True or False, got {v!r}")


def c_int(x, what="argument"):
    """``x`` as an int that fits a C ``int``: the argument check of the compiled methods that
    take an int (an action id, a seat, a card code, a count).  Raises ``TypeError`` for a
    non-integer (as a typed argument did) and ``ValueError`` for an int outside
    -2**31 .. 2**31-1 -- not the ``OverflowError`` a ``def f(int x)`` signature raises
    (the documented error of a bad number is a ``ValueError``)."""
    import operator
    v = operator.index(x)
    if not -2**31 <= v < 2**31:
        raise ValueError(f"{what} {v!r} is out of range")
    return v


def c_count(x, what, lo=1, hi=2**63 - 1):
    """``x`` as an int count in ``lo..hi``: the check of a size or work-budget argument
    (``num_envs``, ``threads``, ``n_games``).  ``x`` is an ``int`` or has ``__index__`` (a
    numpy integer), never a ``bool``.  Raises ``ConfigError`` for anything else: a float, a
    string, a count out of range however large (not the ``OverflowError`` a
    ``def f(long long n)`` signature raises)."""
    if is_bool(x) or not hasattr(type(x), "__index__"):
        raise ConfigError(f"{what} must be an int in {lo}..{hi}, got {x!r}")
    v = x.__index__()
    if not lo <= v <= hi:
        raise ConfigError(f"{what} must be an int in {lo}..{hi}, got {v!r}")
    return v


def index_in(x, lo, hi):
    """``x`` as an int when it is an integer in ``lo..hi`` -- an ``int`` or anything with
    ``__index__`` (a numpy integer), never a ``bool`` -- else ``None``: the check of a
    helper's small int argument (a round, a wild rank), whose caller raises its own
    ``ValueError`` (``numpy.int64(3)`` was refused as "round must be 1..7, got np.int64(3)")."""
    if is_bool(x) or not hasattr(type(x), "__index__"):
        return None
    v = x.__index__()
    return v if type(v) is int and lo <= v <= hi else None


def action_int(action):
    """``int(action)`` for a game's ``action_to_string``: a ``ValueError`` for an infinite
    float too (``int(inf)`` raises ``OverflowError``), as for any id outside the table."""
    try:
        return int(action)
    except OverflowError:
        raise ValueError(f"action {action!r} is not an action id") from None
