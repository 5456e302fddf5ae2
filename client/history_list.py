"""The history: the server's finished games (yours first), to look at alone, review with the table, or save.

``h`` in the lobby asks the server for its finished games (``list_games``)
and for your own record over them (``get_stats``), shown on top, a line per
player count and variant you played; then the games, one per line: when, the variant, the score, who played (a
★ marks the games you sat at, which the server lists first). On the chosen
game, Enter (or ``o``) opens it alone, as a private replay on this screen;
``w`` has your table review it together (the host's power); ``s`` saves it
as a file. Esc or ``q`` goes back to the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from hanabi.protocol.messages import GameSummary, GetReplay, GetStats, ListGames, OpenReview, Stats
from hanabi.protocol.table_rules import open_review_refusal
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .model import ClientModel
from .wrapping import cut

if TYPE_CHECKING:
    from .app import ClientApp


@dataclass
class HistoryUi:
    selected: int = 0


def when(summary: GameSummary) -> str:
    """The local date and time a game finished, to the minute."""
    return datetime.fromtimestamp(summary.finished_at).strftime("%Y-%m-%d %H:%M")


def history_fragments(model: ClientModel, ui: HistoryUi, width: int) -> StyleAndTextTuples:
    """The list of finished games, the chosen one highlighted, then what the keys do with it."""
    games = model.games
    out: StyleAndTextTuples = [*record_fragments(model.stats, width),
                               ("class:label", "Finished games on this server (★ yours, listed first)\n"),
                               ("class:label", f"  {'#':>4}  {'Finished':<16} {'Variant':<18} Score  Players\n")]
    if not games:  # the model counts an answer's games: None is no answer yet
        out.append(("class:label", "\n  The list is on its way.\n" if model.games_total is None else
                    "\n  No finished game on this server yet: a game shows here once it ends.\n"))
    for i, g in enumerate(games):
        mark = "▶" if i == ui.selected else " "
        mine = "★" if g.yours else " "
        score = f"{g.score:>2}" + (" (ended early)" if g.end.value == "terminated" else "")
        # The coach helped: not a score played alone. Before the names, so that a narrow screen cuts names, not it.
        advised = "(advice) " if g.advice else ""
        head = f"{mark}{mine}{g.id:>4}  {when(g):<16} {cut(g.variant.title, 18):<18} {score:<5}  {advised}"
        room = max(20, width - 1) - len(head)  # what the names have: cut with "…", or none on a narrow screen
        line = head + cut(", ".join(g.players), room) if room >= 4 else head.rstrip()
        out.append(("class:selected" if i == ui.selected else "", line))
        out.append(("", "\n"))
    if model.games_total is not None and model.games_total > len(games):
        out.append(("class:label", f"  (the latest {len(games)} of {model.games_total} games)\n"))
    # At most 80 columns: the window does not wrap, and Esc must not be cut off.
    out.append(("class:keys", " Enter/o look alone · w review with your table · s save · r refresh · Esc back "))
    return out


def record_fragments(stats: Stats | None, width: int) -> StyleAndTextTuples:
    """Our record, a line per player count and variant: games, mean and best score, perfect games, strike-outs,
    and how many were played with bots and with advice (nothing until the server's answer comes)."""
    if stats is None:
        return []
    if not stats.lines:
        return [("class:label", f"Your record ({stats.name}): no finished game yet\n\n")]
    games = sum(line.games for line in stats.lines)
    bots = sum(line.with_bots for line in stats.lines)
    advice = sum(line.with_advice for line in stats.lines)
    out: StyleAndTextTuples = [("class:label", f"Your record ({stats.name}): {games} game{'s' if games > 1 else ''}, "
                                               f"{bots} with bots, {advice} with advice\n")]
    for line in stats.lines:
        games_word = "game " if line.games == 1 else "games"
        text = (f"  {line.players}p {cut(line.variant.title, 16):<16} {line.games:>3} {games_word}  "
                f"mean {line.mean:4.1f}  best {line.best:>2}  perfect {line.perfect}  struck out {line.strikeouts}")
        out.append(("", cut(text, max(20, width - 1)) + "\n"))
    out.append(("", "\n"))
    return out


class HistoryActions:
    """What one ``ClientApp`` does on the history screen."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self.ui: HistoryUi | None = None

    def open(self) -> None:
        if self.app.send(ListGames()):
            self.app.send(GetStats())
            self.ui = HistoryUi()

    def close(self) -> None:
        self.ui = None

    def chosen(self) -> GameSummary | None:
        games = self.app.get_model().games
        if self.ui is None or not games:
            return None
        self.ui.selected = max(0, min(self.ui.selected, len(games) - 1))
        return games[self.ui.selected]

    def move(self, step: int) -> None:
        count = len(self.app.get_model().games)
        if self.ui is not None and count:
            self.ui.selected = (self.ui.selected + step) % count

    def refresh(self) -> None:
        if self.app.send(ListGames()):
            self.app.send(GetStats())

    def on_chosen(self, key: str) -> None:
        """``o`` looks at the chosen game alone, ``w`` reviews it with the table, ``s`` saves its replay."""
        game = self.chosen()
        if game is None:
            self.app.note("there is no finished game to choose yet", True)
        elif key == "o":
            self.look_alone(game)
        elif key == "w":
            self.review_with_table(game)
        else:
            self.save(game)

    def look_alone(self, game: GameSummary) -> None:
        if self.app.send(GetReplay(game.id)):
            self.app.review.open_private(game.id)
            self.app.hint(f"Game {game.id}, alone: ←→ step, Home/End the ends, q back to the list.")

    def review_with_table(self, game: GameSummary) -> None:
        model = self.app.get_model()
        if model.table is None or model.seat is None:
            self.app.note("to review a game together, sit at a table first (its host opens the review)", True)
            return
        refusal = open_review_refusal(model.table, model.seat)
        if refusal is not None:
            self.app.note(refusal.message, True)
            return
        if self.app.send(OpenReview(game.id)):
            self.close()

    def save(self, game: GameSummary) -> None:
        model = self.app.get_model()
        if model.replay is not None and model.replay[0] == game.id:
            self.app.write_replay(game.id, model.replay[1], game.variant)
        elif self.app.send(GetReplay(game.id)):
            self.app.ui.save_wanted = game.id
            self.app.note("Asking the server for the replay…")
