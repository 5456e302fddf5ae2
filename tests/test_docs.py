"""The README and docs/ as a reader finds them: short enough, pointing at files that exist, runnable as written.

The README is the player's page: its test command is the one CI runs (``.ci/run`` runs "the README's test
command"), so the two must not drift apart; the files it sends readers to must exist; and no page speaks of
how the program was made (work sessions, numbered issues) rather than of the program.
"""

from __future__ import annotations

import re
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
README = TOP / "README.md"

# The prose of the repository: the pages, and the comments and docstrings of the code, tests and benchmarks.
PROSE_SUFFIXES = {".md", ".py", ".toml"}
PROSE_FOLDERS = ("docs", "engine", "protocol", "server", "client", "tests", "bench", ".ci")

# "issue 12", "issues 11 and 14", "the fifth session", "other engineers": history of the work, not of the program.
HISTORY = re.compile(
    r"\bissues? \d+|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|this|last|previous|next) session\b"
    r"|\bengineers?\b",
    re.IGNORECASE,
)


def _readme_test_command() -> str:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    commands = [line for block in blocks for line in block.splitlines() if "python -m pytest" in line]
    assert len(commands) == 1, f"the README should show one test command, found {commands}"
    return commands[0].strip()


def test_the_readme_is_a_five_minute_read() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; the rest belongs in docs/"


def test_ci_runs_the_readmes_test_command_as_written() -> None:
    command = _readme_test_command()
    ci = (TOP / ".ci" / "run").read_text(encoding="utf-8")
    # CI starts from a fresh environment, so it may remove .venv first; the command itself is word for word.
    assert command in ci.splitlines(), f".ci/run does not run the README's test command: {command}"


def test_every_page_the_readme_links_to_exists() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README.read_text(encoding="utf-8"))
    assert links, "the README should send readers on to docs/"
    missing = [link for link in links if not (TOP / link).exists()]
    assert not missing, f"the README links to files that do not exist: {missing}"


def _prose_files() -> list[Path]:
    files = [README]
    for folder in PROSE_FOLDERS:
        files += [p for p in (TOP / folder).rglob("*") if p.is_file() and (p.suffix in PROSE_SUFFIXES or
                                                                           folder == ".ci")]
    return files


def test_no_page_or_comment_tells_the_history_of_the_work() -> None:
    here = Path(__file__).resolve()
    found = []
    for path in _prose_files():
        if path == here:  # the pattern above names what it looks for
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path.relative_to(TOP)}:{number}: {line.strip()}")
    assert not found, "history of the work, not of the program:\n" + "\n".join(found)


def test_the_readmes_key_table_names_the_coach_and_the_moments() -> None:
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    assert any(row.startswith("| `a` |") and "advice" in row for row in rows), "the key table lacks `a` (advice)"
    assert any(row.startswith("| `m`/`M`") and "moment" in row for row in rows), "the key table lacks `m`/`M`"
