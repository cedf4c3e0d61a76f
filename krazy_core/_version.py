"""The version of krazy_core: the one place it is written (pyproject.toml reads it from here,
``krazy_core.__version__`` and ``krazy --version`` show it; CHANGELOG.md says what changed)."""

__version__ = "0.1.0"
