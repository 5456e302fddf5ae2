"""Benchmarks: scripts run from the top of the repository (``python bench/engine.py``), never installed.

A package only so that the tests can import them (``bench.protocol``); each
script imports nothing but ``hanabi.*``.
"""
