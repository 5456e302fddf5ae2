"""The frame dumper shows messages as JSON and refusals as the peer would get them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hanabi.protocol import Chat, Ping, encode
from hanabi.protocol.dump import main


def test_dump_hex_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frames.hex"
    path.write_text(" ".join(f"{b:02x}" for b in encode(Ping(3)) + encode(Chat("hi"))))
    assert main([str(path), "--hex"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["t"] for line in lines] == ["ping", "chat"]
    assert json.loads(lines[0])["n"] == 3


def test_dump_reports_refusals_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frames.bin"
    path.write_bytes(encode(Ping(1)) + b"\x00\x00\x00\x01\xc1" + encode(Ping(2)) + b"\x00\x00")
    assert main([str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("{") and out[2].startswith("{")
    assert out[1].startswith("refused (bad_frame):")
    assert out[3] == "incomplete: 2 bytes at the end do not make a whole frame"


def test_dump_refuses_by_peer_and_explains_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frames.bin"
    path.write_bytes(encode(Chat("x", table=1, sender="bob")))
    assert main([str(path), "--peer", "client"]) == 0  # a client may send chat too
    path.write_bytes(b"\xff\xff\xff\xff")
    assert main([str(path)]) == 1
    assert "frame_too_large" in capsys.readouterr().out
    path.write_text("zz")
    assert main([str(path), "--hex"]) == 2
    assert main([str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "not hex text" in err and "cannot read" in err
