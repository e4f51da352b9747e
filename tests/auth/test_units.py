"""Pure pieces: key strings, scopes, the auth-mode decision."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from app.auth import keys
from app.auth.callers import Scope, granted
from app.auth.mode import UnsafeConfiguration, is_loopback, resolve
from app.auth.service import parse_principals
from app.config import Settings
from app.kit.errors import Forbidden
from tests.auth.helpers import ADMIN_KEY


def test_keys_are_random_prefixed_and_parse_back() -> None:
    made = {keys.generate() for _ in range(50)}
    assert len({key for key, _ in made}) == 50
    for key, prefix in made:
        assert key.startswith("arb_")
        assert len(key) == keys.KEY_LENGTH
        assert keys.prefix_of(key) == prefix == key[:16]
        assert keys.matches(key, keys.digest(key))
        assert not keys.matches(key[:-1] + ("A" if key[-1] != "A" else "B"), keys.digest(key))


@pytest.mark.parametrize(
    "token",
    [
        "",
        "arb_",
        "Bearer arb_x",
        "arb_" + "A" * 12 + "b" * 43,  # upper case in the id part
        "arb_" + "a" * 12 + "b" * 42,  # one short
        "arb_" + "a" * 12 + "b" * 42 + "!",
        "xyz_" + "a" * 12 + "b" * 43,
        ADMIN_KEY,
    ],
)
def test_malformed_keys_have_no_prefix(token: str) -> None:
    assert keys.prefix_of(token) is None


def test_same_secret_compares_whole_strings() -> None:
    assert keys.same_secret(ADMIN_KEY, ADMIN_KEY)
    assert not keys.same_secret(ADMIN_KEY[:-1], ADMIN_KEY)
    assert not keys.same_secret("", ADMIN_KEY)


def test_scopes_include_the_lesser_ones() -> None:
    assert granted(["read"]) == {Scope.READ}
    assert granted(["write"]) == {Scope.READ, Scope.WRITE}
    assert granted(["admin"]) == {Scope.READ, Scope.WRITE, Scope.ADMIN}
    assert granted(["read", "bogus"]) == {Scope.READ}
    assert granted([]) == frozenset()


def test_principals_header() -> None:
    assert parse_principals("user:ann, group:hr,,group:hr ") == {"user:ann", "group:hr"}
    assert parse_principals("") == frozenset()
    with pytest.raises(Forbidden):
        parse_principals(",".join(f"p{n}" for n in range(101)))
    with pytest.raises(Forbidden):
        parse_principals("x" * 257)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("127.0.1.1", True),
     ("0.0.0.0", False), ("10.0.0.5", False), ("example.com", False), ("::", False)],
)  # fmt: skip
def test_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def settings(**values: object) -> Settings:
    return Settings.model_validate({"database_url": "postgresql://x/y", **values})


@pytest.mark.parametrize(
    ("values", "enabled"),
    [
        ({}, False),  # auto on loopback
        ({"host": "0.0.0.0"}, True),  # auto elsewhere
        ({"env": "production"}, True),  # auto in production, even on loopback
        ({"auth": "on"}, True),
        ({"auth": "off"}, False),
        ({"admin_key": ADMIN_KEY}, True),
        ({"admin_key": ADMIN_KEY, "host": "0.0.0.0", "env": "production"}, True),
    ],
)
def test_auth_mode(values: dict[str, object], enabled: bool) -> None:
    assert resolve(settings(**values)).enabled is enabled


@pytest.mark.parametrize(
    "values",
    [
        {"auth": "off", "host": "0.0.0.0"},
        {"auth": "off", "host": "192.168.1.10"},
        {"auth": "off", "admin_key": ADMIN_KEY},
        {"admin_key": "changeme", "env": "production"},
        {"admin_key": "short", "env": "test"},
    ],
)
def test_unsafe_settings_refuse_to_start(values: dict[str, object]) -> None:
    with pytest.raises(UnsafeConfiguration):
        resolve(settings(**values))


def test_weak_admin_key_is_allowed_in_development_only() -> None:
    assert resolve(settings(admin_key=SecretStr("dev"), env="development")).enabled


def test_rate_limit_defaults() -> None:
    assert resolve(settings(host="0.0.0.0")).rate_limit_per_minute == 600
    embedded = Settings.model_validate({"host": "0.0.0.0", "database_url": None})
    assert resolve(embedded).rate_limit_per_minute == 0
    assert resolve(settings()).rate_limit_per_minute == 0  # auth off: nothing to key by
    assert resolve(settings(host="0.0.0.0", rate_limit_per_minute=5)).rate_limit_per_minute == 5
