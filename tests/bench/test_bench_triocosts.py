"""The Trio costs benchmark runs and reports (a smoke test: its figures are read, never asserted)."""

from __future__ import annotations

import re

import pytest

from bench.triocosts import CASES, main


def test_the_benchmark_prints_a_figure_per_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--runs", "1", "--scale", "0.005"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CASES)
    for line, (name, _, _) in zip(lines, CASES, strict=True):
        assert re.fullmatch(rf" *\d+\.\d µs  {re.escape(name)}", line)
