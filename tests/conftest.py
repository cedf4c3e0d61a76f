"""Shared fixtures: every registered game, made with its default table."""
import os

import pytest
from hypothesis import settings

import krazy_core

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_report_header(config):
    return f"krazy_core {krazy_core.__version__} from {os.path.dirname(os.path.abspath(krazy_core.__file__))}"


if os.environ.get("KRAZY_TEST_INSTALLED", "") not in ("", "0"):
    # the run of an installed wheel (.ci/run, cibuildwheel): the package under test must be the
    # installed one, never a krazy_core/ folder beside these tests
    _here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.abspath(krazy_core.__file__).startswith(_here + os.sep):
        raise pytest.UsageError(f"KRAZY_TEST_INSTALLED is set but krazy_core comes from {krazy_core.__file__}")
