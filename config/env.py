"""Typed readers for settings that come from the environment (after healthchecks' settings module)."""

from __future__ import annotations

import os

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_required(name: str, *, why: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set: {why}")
    return value


def production_secret_key(name: str) -> str:
    """A secret key strong enough by Django's own rule (``check --deploy``'s): a weak one lets anyone who
    guesses it forge sessions and password-reset links."""
    value = env_required(name, why="production (DEBUG=false) needs a long random secret key")
    weak = (
        len(value) < SECRET_KEY_MIN_LENGTH
        or len(set(value)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or value.startswith(SECRET_KEY_INSECURE_PREFIX)
    )
    if weak:
        raise ImproperlyConfigured(
            f"{name} is too weak for production (DEBUG=false): it needs at least {SECRET_KEY_MIN_LENGTH} "
            f"characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different, and must not start with "
            f"{SECRET_KEY_INSECURE_PREFIX!r}. Make one with: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    return value


def production_hosts(name: str) -> list[str]:
    """The site's host names: ``*`` would let any Host header through, and the links Classplay emails
    (password resets, invitations) are built from it."""
    hosts = env_list(name)
    if not hosts:
        env_required(name, why="production (DEBUG=false) needs the site's host names")
    if "*" in hosts:
        raise ImproperlyConfigured(
            f"{name} must name the site's host names in production (DEBUG=false), not '*': any Host "
            "header would be accepted, and the links Classplay emails are built from it"
        )
    return hosts
