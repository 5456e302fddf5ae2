"""Table passwords: the store keeps them salted and hashed, and a guess is compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from hanabi.protocol import ErrorCode

from .session import Refused


def hash_password(password: str) -> str:
    salt = secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def password_matches(stored: str, given: str) -> bool:
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(digest, hashlib.sha256((salt + given).encode()).hexdigest())


def check_password(stored: str | None, given: str | None, table: str) -> None:
    """Refuse unless ``given`` opens the table named ``table``, whose password hash is ``stored`` (None: open)."""
    if stored is None:
        return
    if given is None:
        raise Refused(ErrorCode.WRONG_PASSWORD, f"table {table!r} has a password: give it to join or watch")
    if not password_matches(stored, given):
        raise Refused(ErrorCode.WRONG_PASSWORD, f"that is not the password of table {table!r}")
