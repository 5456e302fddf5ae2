"""One or more sample messages of every type, shared by the protocol tests and the golden fixtures."""

from __future__ import annotations

from hanabi.engine import (
    Card,
    ChatPolicy,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    Outcome,
    Play,
    RearrangeEvent,
    Suit,
    TurnEvent,
    Variant,
    apply,
    new_game,
    view_for,
)
from hanabi.protocol import (
    PROTOCOL_VERSION,
    ActionRequest,
    AddBot,
    BotReason,
    CardNote,
    CardNotes,
    Chat,
    CreateTable,
    ErrorReply,
    GameClock,
    GameEvent,
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    GetReplay,
    GiveHost,
    Goodbye,
    HandSeat,
    Hello,
    Join,
    Joined,
    Leave,
    ListGames,
    ListOnline,
    ListTables,
    Message,
    Online,
    OpenReview,
    PauseRequest,
    Ping,
    Pong,
    PreMoveKind,
    Queued,
    QueueMove,
    RearrangeRequest,
    RemoveBot,
    ReplayFile,
    Review,
    ReviewLead,
    ReviewPoint,
    ReviewStep,
    SeatHanded,
    SeatInfo,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    TableInfo,
    Tables,
    ViewUpdate,
    Watchers,
    Welcome,
    WriteNote,
)

from bench.protocol import typical_game

TABLE = TableInfo(
    id=3, name="Friday night", variant=Variant.SIX_SUITS, empty_clues=False, all_or_nothing=True,
    chat=ChatPolicy.ALWAYS, seats=3,
    players=(SeatInfo("alice", False, True), None, SeatInfo("Robot Ross", True, True)),
    has_password=True, running=False, spectators=2, host=0,
)


def finished_game_messages() -> list[Message]:
    """A whole small game played to its end: views along the way and the game_over."""
    state = new_game(GameConfig(players=2, first_seat=0), seed="golden")
    out: list[Message] = []
    while not state.over:
        hand = state.hands[state.current]
        # Discard the oldest card when allowed, else clue rank 1 to the other seat: the game runs out the deck.
        action = Discard(hand[-1]) if state.clue_tokens < 8 else Clue(1 - state.current, rank=1)
        try:
            state = apply(state, action)
        except ValueError:
            state = apply(state, Play(hand[0]))
        out.append(GameEvent(game=9, event=state.events[-1]))
    assert state.outcome is not None
    out.append(ViewUpdate(game=9, view=view_for(state, 0)))
    out.append(GameOver(game=9, outcome=state.outcome, deck=state.deck, seed="golden"))
    return out


def all_messages() -> list[Message]:
    """At least one message of every type, with optional fields both set and unset."""
    game = typical_game(players=5, turns=25)
    return [
        Hello(PROTOCOL_VERSION, "hanabi-lan 0.1.0", "alice"),
        Hello(PROTOCOL_VERSION, "hanabi-lan 0.1.0", "Ålice 🎆", resume="tok-123_ABC", id=1),
        Welcome(PROTOCOL_VERSION, "hanabi-lan 0.1.0", "alice", "s3cr3t-token", "Welcome!\nBe nice.", id=1),
        Goodbye("server_shutdown", "the server is shutting down"),
        Goodbye("client_quit"),
        ListTables(id=2),
        Tables((TABLE, TABLE), id=2),
        Tables(()),
        TableChanged(TABLE),
        TableGone(3),
        CreateTable("Friday night", Variant.WILD_MULTICOLOR, 4, True, False, ChatPolicy.OFF, "pw", id=5),
        CreateTable("quick"),
        CreateTable("seeded", level="basic", seed="friday night", end_when_no_points=True, deck_plays=True, id=6),
        Join(3, 1, "pw", id=6),
        Join(3),
        Leave(),
        Spectate(3, None, id=7),
        AddBot(2),
        RemoveBot(2, id=8),
        GiveHost(1),
        Start(id=9),
        Joined(TABLE, 0),
        Joined(TABLE, None, id=6),
        SeatStatus(3, 1, False),
        HandSeat(1, "Bob 2", id=14),
        HandSeat(2),
        SeatHanded(3, 1, "Bot Ada", True, "Bob", "Alice"),
        GameStarted(3, 41),
        ActionRequest(Play(4), id=10),
        ActionRequest(Discard(0)),
        ActionRequest(Clue(1, colour=Suit.MULTICOLOR)),
        ActionRequest(Clue(4, rank=5), id=11),
        RearrangeRequest((3, 1, 2, 0), id=12),
        ViewUpdate(41, view_for(game, 2)),
        ViewUpdate(41, view_for(game, None)),
        GameEvent(41, game.events[-1]),
        GameEvent(41, TurnEvent(7, 1, Clue(0, colour=Suit.RED), touched=(2, 4))),
        GameEvent(41, TurnEvent(8, 2, Play(12), Card(Suit.BLUE, 5), True, (), 30, True)),
        GameEvent(41, RearrangeEvent(1, (5, 6, 7, 8))),
        GameOver(41, Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike"), game.deck, "12345"),
        GetReplay(41, id=13),
        ReplayFile(41, '{"players": ["a", "b"], "deck": []}', id=13),
        ListGames(),
        ListGames(id=14, seed="friday night"),
        Games((GameSummary(41, 3, ("alice", "bob"), Variant.NONE, 17, EndReason.FINAL_ROUND, 1_790_000_000),)),
        Games((GameSummary(42, 4, ("cat", "dan"), Variant.NONE, 23, EndReason.FINAL_ROUND, 1_790_000_000,
                           seed="friday night"),)),
        BotReason(41, 7, 1, "cluing seat 3 red: their R1 (slot 2) can be played"),
        Chat("hello there"),
        Chat("gg", table=3, sender="bob"),
        Ping(1),
        Pong(1),
        ErrorReply("action", "not_your_turn", "it is not your turn: seat 2 is to act", id=10),
        ErrorReply("", "bad_frame", "the frame is not valid msgpack"),
        Games((GameSummary(42, 3, ("alice", "bob"), Variant.NONE, 25, EndReason.PERFECT, 1_790_000_100, True),),
              id=14, total=51),
        ListOnline(id=15),
        Online(("alice", "bob", "Ålice 🎆"), id=15),
        Online((), total=0),
        Watchers(3, ("carol", "dave")),
        Watchers(3, ()),
        OpenReview(41, id=16),
        Review(3, 41, "alice", 12, 40, 7),
        Review(3, 41, "bob", 0, 0, None, id=17),
        ReviewStep(13, id=18),
        ReviewPoint(7),
        ReviewPoint(None, id=19),
        ReviewLead("bob"),
        WriteNote(7, "f", id=14),
        WriteNote(59),
        CardNotes(41, 2, (CardNote(7, "f"), CardNote(12, "turn 3: r1,b1 | turn 5: b1 ✓")), id=14),
        CardNotes(41, 0, ()),
        PauseRequest(True, id=14),
        GameClock(41, (118_250, 120_000, 95_000), 1, False),
        GameClock(41, (), None, True, "alice paused the game"),
        QueueMove(PreMoveKind.PLAY, 7, id=15),
        QueueMove(),
        Queued(41, PreMoveKind.DISCARD, 7),
        Queued(41, note="a clue touched the card you queued to discard, so the pre-move was cancelled: choose again"),
        CreateTable("Blitz", timed=True, time_base=30, time_per_turn=5),
    ]
