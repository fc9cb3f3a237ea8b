"""Namespaces and namespace patterns, parsed strictly.

A namespace is `tenant/{t}` or `tenant/{t}/{scope}/{id}` with scope one of user, team, project,
agent, thread. Patterns use `*` for exactly one segment and `**` for any number (zero included);
a pattern must still start with `tenant/` and may not use a wildcard for the literal words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, cast

from governed_memory.memory.errors import InvalidNamespace

Scope = Literal["user", "team", "project", "agent", "thread"]
SCOPES: frozenset[str] = frozenset({"user", "team", "project", "agent", "thread"})

_TENANT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}$")


@dataclass(frozen=True, slots=True)
class Namespace:
    tenant: str
    scope: Scope | None = None
    id: str | None = None

    def __str__(self) -> str:
        if self.scope is None:
            return f"tenant/{self.tenant}"
        return f"tenant/{self.tenant}/{self.scope}/{self.id}"


def check_tenant(tenant: str) -> str:
    if not isinstance(tenant, str) or not _TENANT.match(tenant):
        raise InvalidNamespace(f"invalid tenant id {tenant!r}", field="tenant")
    return tenant


@lru_cache(maxsize=4096)
def parse_namespace(text: str) -> Namespace:
    """Parse a namespace or raise `InvalidNamespace`; never guesses or normalises."""
    if not isinstance(text, str):
        raise InvalidNamespace("namespace must be a string", field="namespace")
    parts = text.split("/")
    if len(parts) not in (2, 4) or parts[0] != "tenant":
        raise InvalidNamespace(
            f"invalid namespace {text!r}: expected tenant/{{t}} or tenant/{{t}}/"
            "user|team|project|agent|thread/{id}",
            field="namespace",
        )
    if not _TENANT.match(parts[1]):
        raise InvalidNamespace(f"invalid tenant in namespace {text!r}", field="namespace")
    if len(parts) == 2:
        return Namespace(parts[1])
    scope, ident = parts[2], parts[3]
    if scope not in SCOPES:
        raise InvalidNamespace(f"invalid scope {scope!r} in namespace {text!r}", field="namespace")
    if not _ID.match(ident):
        raise InvalidNamespace(f"invalid id {ident!r} in namespace {text!r}", field="namespace")
    return Namespace(parts[1], cast(Scope, scope), ident)


def user_namespace(tenant: str, user_id: str) -> str:
    return str(parse_namespace(f"tenant/{tenant}/user/{user_id}"))


@dataclass(frozen=True, slots=True)
class NamespacePattern:
    text: str
    segments: tuple[str, ...]

    @property
    def tenant(self) -> str:
        return self.segments[1]

    def matches(self, namespace: str) -> bool:
        return _match(self.segments, tuple(namespace.split("/")))

    def could_match_tenant(self, tenant: str) -> bool:
        return self.segments[1] in ("*", "**", tenant)


def _match(pattern: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match(rest, parts[i:]) for i in range(len(parts) + 1))
    if not parts:
        return False
    if head == "*" or head == parts[0]:
        return _match(rest, parts[1:])
    return False


@lru_cache(maxsize=4096)
def parse_pattern(text: str) -> NamespacePattern:
    """Parse a namespace pattern (`tenant/shop-a/user/*`, `tenant/shop-a/**`)."""
    if not isinstance(text, str) or not text.startswith("tenant/"):
        raise InvalidNamespace(f"invalid namespace pattern {text!r}", field="pattern")
    segments = tuple(text.split("/"))
    if len(segments) < 2 or len(segments) > 4:
        raise InvalidNamespace(f"invalid namespace pattern {text!r}", field="pattern")
    tenant = segments[1]
    # The tenant segment may be a literal only: a pattern never spans tenants.
    if not _TENANT.match(tenant):
        raise InvalidNamespace(f"invalid tenant in namespace pattern {text!r}", field="pattern")
    for i, seg in enumerate(segments[2:], start=2):
        if seg == "**":
            continue
        if seg == "*":
            continue
        if i == 2 and seg not in SCOPES:
            raise InvalidNamespace(f"invalid scope {seg!r} in pattern {text!r}", field="pattern")
        if i == 3 and not _ID.match(seg):
            raise InvalidNamespace(f"invalid id {seg!r} in pattern {text!r}", field="pattern")
    if "**" in segments[2:-1]:
        raise InvalidNamespace(f"'**' may only end a pattern: {text!r}", field="pattern")
    return NamespacePattern(text, segments)


def matches_any(patterns: tuple[str, ...] | list[str], namespace: str) -> bool:
    return any(parse_pattern(p).matches(namespace) for p in patterns)
