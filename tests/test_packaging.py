"""pyproject.toml as the build backend reads it: nothing that makes every install print a deprecation warning."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_an_spdx_expression_the_backend_reads() -> None:
    # A table ({text = "MIT"}) is deprecated by setuptools 77 and later, which warns on every build; the plain
    # SPDX string needs 77 or later, so the build requires it.
    assert isinstance(PYPROJECT["project"]["license"], str)
    [setuptools] = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    least = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert least is not None and int(least.group(1)) >= 77
