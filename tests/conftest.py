"""Shared fixtures: every registered game, made with its default table."""
import os

import pytest
from hypothesis import settings

import krazy_core

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# `krazy play` saves every game with a human (cli.play.autosave_path): the suite's games go to a
# folder of this run, never to the user's saves (subprocesses get it through tests' env helpers)
if not os.environ.get("KRAZY_SAVE_DIR"):
    import tempfile
    os.environ["KRAZY_SAVE_DIR"] = tempfile.mkdtemp(prefix="krazy-test-saves-")


def pytest_report_header(config):
    return f"krazy_core {krazy_core.__version__} from {os.path.dirname(os.path.abspath(krazy_core.__file__))}"


if os.environ.get("KRAZY_TEST_INSTALLED", "") not in ("", "0"):
    # the run of an installed wheel (.ci/run, cibuildwheel): the package under test must be the
    # installed one, never a krazy_core/ folder beside these tests
    _here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.abspath(krazy_core.__file__).startswith(_here + os.sep):
        raise pytest.UsageError(f"KRAZY_TEST_INSTALLED is set but krazy_core comes from {krazy_core.__file__}")


def pytest_collection_modifyitems(config, items):
    """``@slow_cases(id, ...)`` (``helpers.slow_cases``) on a parametrized test marks those of
    its cases slow; whole tests carry ``@pytest.mark.slow`` themselves."""
    seen: dict = {}
    for item in items:
        f = getattr(item, "function", None)
        cases = getattr(f, "slow_cases", None)
        if cases and getattr(item, "callspec", None) is not None:
            seen.setdefault(f, set()).add(item.callspec.id)
            if item.callspec.id in cases:
                item.add_marker(pytest.mark.slow)
    # a case id that names no case (a renamed parameter) would quietly join the fast tier:
    # checked whenever every case was collected (no -k, -m or single case asked for)
    if not config.option.keyword and not config.option.markexpr and \
            not any("[" in str(a) for a in config.args):
        for f, ids in seen.items():
            missing = f.slow_cases - ids
            if missing:
                raise pytest.UsageError(f"{f.__module__}.{f.__name__}: slow_cases names no case "
                                        f"{sorted(missing)} (its cases: {sorted(ids)})")
