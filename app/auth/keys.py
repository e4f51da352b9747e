"""API key strings: generation, parsing and hashing.

A key is `arb_` + a 12-character id + a 43-character secret (256 random bits). The id part is
stored in clear to find the key; the whole key is stored only as its SHA-256, compared in
constant time. A fast hash is enough for 256-bit random secrets (no dictionary to attack).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

KEY_PREFIX = "arb_"
ID_LENGTH = 12
SECRET_BYTES = 32
SECRET_LENGTH = 43  # token_urlsafe(32)
KEY_LENGTH = len(KEY_PREFIX) + ID_LENGTH + SECRET_LENGTH
_ID_ALPHABET = string.ascii_lowercase + string.digits
_SECRET_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


def generate() -> tuple[str, str]:
    """A new key and its public prefix (`arb_` + id), which finds it again."""
    key_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(ID_LENGTH))
    prefix = KEY_PREFIX + key_id
    return prefix + secrets.token_urlsafe(SECRET_BYTES), prefix


def prefix_of(key: str) -> str | None:
    """The lookup prefix of a well-formed key, or None for anything else."""
    if len(key) != KEY_LENGTH or not key.startswith(KEY_PREFIX):
        return None
    key_id = key[len(KEY_PREFIX) : len(KEY_PREFIX) + ID_LENGTH]
    secret = key[len(KEY_PREFIX) + ID_LENGTH :]
    if not all(c in _ID_ALPHABET for c in key_id) or not set(secret) <= _SECRET_ALPHABET:
        return None
    return KEY_PREFIX + key_id


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def matches(key: str, stored_digest: str) -> bool:
    """Whether the key hashes to the stored digest, in time independent of where they differ."""
    return hmac.compare_digest(digest(key).encode(), stored_digest.encode())


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets of any length (the configured admin key)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
