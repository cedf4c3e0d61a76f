"""Shared fixtures: every registered game, made with its default table."""
import os

import pytest
from hypothesis import settings

import krazy_core

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
