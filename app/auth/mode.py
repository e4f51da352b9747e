"""Whether keys are required, decided once at start-up from the settings and the bind address.

- `ARBOR_ADMIN_KEY` set: keys are required (`ARBOR_AUTH=off` with it is refused).
- `ARBOR_AUTH=on`: keys are required; without ARBOR_ADMIN_KEY a first admin key is generated.
- `ARBOR_AUTH=off`: no keys, every request is the admin of `default`; only on a loopback bind.
- `ARBOR_AUTH=auto` (default): off on a loopback bind outside production, on otherwise.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass

from app.config import Settings

logger = logging.getLogger(__name__)

MIN_ADMIN_KEY_CHARS = 24
DEFAULT_RATE_LIMIT_PER_MINUTE = 600
PLACEHOLDERS = frozenset({"changeme", "change-me", "secret", "admin", "password", "arbor"})


class UnsafeConfiguration(RuntimeError):
    """The settings would expose the service; it refuses to start."""


@dataclass(frozen=True, slots=True)
class AuthMode:
    enabled: bool
    rate_limit_per_minute: int


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def resolve(settings: Settings) -> AuthMode:
    """The auth mode of these settings, or UnsafeConfiguration."""
    admin_key = settings.admin_key.get_secret_value() if settings.admin_key else None
    if admin_key is not None:
        if settings.auth == "off":
            raise UnsafeConfiguration("ARBOR_AUTH=off contradicts ARBOR_ADMIN_KEY; unset one.")
        weak = len(admin_key) < MIN_ADMIN_KEY_CHARS or admin_key.lower() in PLACEHOLDERS
        if weak and settings.env != "development":
            raise UnsafeConfiguration(
                f"ARBOR_ADMIN_KEY must be at least {MIN_ADMIN_KEY_CHARS} random characters "
                "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`)."
            )
        if weak:
            logger.warning("ARBOR_ADMIN_KEY is weak; it would be refused outside development")
    if settings.auth == "off" and not is_loopback(settings.host):
        raise UnsafeConfiguration(
            f"Refusing to serve on {settings.host} with ARBOR_AUTH=off: without keys anyone who "
            "reaches the port is an admin. Set ARBOR_ADMIN_KEY, or bind to 127.0.0.1."
        )
    if admin_key is not None or settings.auth == "on":
        enabled = True
    elif settings.auth == "off":
        enabled = False
    else:
        enabled = not (is_loopback(settings.host) and settings.env != "production")
    limit = settings.rate_limit_per_minute
    if limit is None:
        zero_config = settings.database_url is None or not enabled
        limit = 0 if zero_config else DEFAULT_RATE_LIMIT_PER_MINUTE
    return AuthMode(enabled=enabled, rate_limit_per_minute=limit)


def announce(mode: AuthMode, settings: Settings) -> None:
    """Say loudly when nothing is protected."""
    if not mode.enabled:
        logger.warning(
            "AUTHENTICATION IS OFF: every request acts as the admin of project 'default'. "
            "This is only allowed on a loopback bind (%s); set ARBOR_ADMIN_KEY to require keys.",
            settings.host,
        )
    if mode.rate_limit_per_minute:
        logger.info("rate limit: %d requests per minute per key", mode.rate_limit_per_minute)
