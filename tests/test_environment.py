"""The test processes' environment (tests/environment.py) is set before pytest loads its plugins, so that every
pytest process, the controller of ``-n auto`` included, caches the modules it rewrites."""

from __future__ import annotations

import os
import sys


def test_the_environment_is_set_before_pytest_imports_hypothesis() -> None:
    loaded = list(sys.modules)  # in the order imported
    assert loaded.index("tests.environment") < loaded.index("hypothesis")
    assert not sys.dont_write_bytecode and "PYTHONDONTWRITEBYTECODE" not in os.environ
