"""Table passwords: the store keeps them salted and hashed, and a guess is compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from hanabi.protocol import ErrorCode

from .session import Refused


def hash_password(password: str, salt: str = "") -> str:
    salt = salt or secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def check_password(stored: str | None, given: str | None, table: str) -> None:
    """Refuse unless ``given`` opens the table named ``table``, whose password hash is ``stored`` (None: open)."""
    if stored is None:
        return
    if given is None:
        raise Refused(ErrorCode.WRONG_PASSWORD, f"table {table!r} has a password: give it to join or watch")
    if not hmac.compare_digest(stored, hash_password(given, salt=stored.partition("$")[0])):
        raise Refused(ErrorCode.WRONG_PASSWORD, f"that is not the password of table {table!r}")
