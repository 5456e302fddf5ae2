"""The test processes' environment, set before pytest loads its plugins (``-p tests.environment``, the first of
pyproject.toml's ``addopts``): temporary folders in memory, and the modules pytest rewrites cached.

Temporary folders (tmp_path, the servers' SQLite stores, the processes the tests start) live in memory where the
system has a tmpfs: every commit of a store syncs its file (synchronous=FULL), and on a disk shared with other
work one sync took tens of milliseconds, most of a store test's wall time. A process killed with SIGKILL leaves
its writes in the page cache on either, so the tests of surviving a kill check the same thing. A TMPDIR the user
set is kept.

Where the environment sets ``PYTHONDONTWRITEBYTECODE``, the modules pytest rewrites (for its asserts) are cached
all the same, under the system's temporary folder rather than in the tree: the test modules (10 s of CPU a
worker to collect them traced, 5 s when cached) and the modules of its plugins' packages, all of hypothesis
among them, which pytest-trio's plugin imports as pytest loads it, before any conftest: about 1 CPU-s in every
pytest process, the controller of ``-n auto`` included, when they could not be cached. Both are told to the
workers and the tests' processes through their environment, so that they hold from their start.
"""

from __future__ import annotations

import os
import sys
import tempfile

SHARED_MEMORY = "/dev/shm"
if "TMPDIR" not in os.environ and os.path.isdir(SHARED_MEMORY) and os.access(SHARED_MEMORY, os.W_OK | os.X_OK):
    os.environ["TMPDIR"] = tempfile.tempdir = SHARED_MEMORY

if sys.dont_write_bytecode:
    user = os.getuid() if hasattr(os, "getuid") else os.getlogin()  # a folder of one's own: never another's .pyc
    sys.pycache_prefix = os.path.join(tempfile.gettempdir(), f"hanabi-tests-pycache-{user}")
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
