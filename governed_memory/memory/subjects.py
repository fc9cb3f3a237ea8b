"""Who or what a memory is about, in one spelling.

A memory's `subject_ref` is stored as `{kind}:{id}`: `user:456`, `team:ops`, `tenant:shop-a`, or a
business entity (`order:A-7781`). Callers name a subject in any of three forms, all accepted and
turned into the stored one within a tenant:

    user:456                 the stored form
    user:shop-a/456          a principal ref (its tenant must be the request's)
    tenant/shop-a/user/456   the subject's namespace (`tenant/shop-a` is `tenant:shop-a`)

Anything else is an `InvalidInput` that lists these forms: a deletion of a subject spelled in a
way nothing is stored under would otherwise "pass" having deleted nothing.

A subject of a namespace scope kind (`user`, `team`, `project`, `agent`, `thread`, `tenant`) has a
namespace (`subject_namespace`): who may write there may speak for it. Any other kind is a business
entity (`order:…`, `parcel:…`), which any writer may name. A writer may name as a memory's subject
only its own subject or one whose namespace it may write (`may_speak_for`): otherwise a user could
plant, in their own namespace, memories about another user that this user could not erase.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from governed_memory.memory.errors import InvalidInput, InvalidNamespace, UnauthorizedNamespace
from governed_memory.memory.namespaces import SCOPES, Namespace, parse_namespace

if TYPE_CHECKING:
    from governed_memory.memory.models import Principal

_STORED = re.compile(r"[a-z][a-z0-9_]{0,31}:[^\s/:]{1,200}")
FORMS = "user:456, user:shop-a/456 or tenant/shop-a/user/456 (or an entity such as order:A-7781)"


def subject_of(namespace: Namespace | str) -> str:
    """The subject a namespace is about: `user:456` for `tenant/shop-a/user/456`."""
    ns = parse_namespace(namespace) if isinstance(namespace, str) else namespace
    return f"{ns.scope}:{ns.id}" if ns.scope else f"tenant:{ns.tenant}"


def canonical_subject(ref: str, tenant: str) -> str:
    """`ref` in the stored form, checked to be in `tenant` (`UnauthorizedNamespace` if in another);
    `InvalidInput` for any other form."""
    ref = ref.strip()
    if ref.startswith("tenant/"):
        ns = parse_namespace(ref)
        _same_tenant(ns.tenant, tenant, ref)
        return subject_of(ns)
    kind, sep, rest = ref.partition(":")
    if sep and rest.count("/") == 1:  # a principal ref: type:tenant/id
        owner, _, ident = rest.partition("/")
        _same_tenant(owner, tenant, ref)
        ref = f"{kind}:{ident}"
    if not _STORED.fullmatch(ref):
        raise InvalidInput(
            f"subject {ref!r} is not one of the accepted forms: {FORMS}", field="scope.subject_ref"
        )
    return ref


def _same_tenant(named: str, tenant: str, ref: str) -> None:
    """Another tenant's subject is out of the caller's reach, as its namespaces are for reads
    and writes (`unauthorized_namespace`), not a malformed request."""
    if named != tenant:
        raise UnauthorizedNamespace(
            f"subject {ref!r} is in tenant {named}, not {tenant}", field="scope.subject_ref"
        )


def subject_namespace(subject: str, tenant: str) -> str | None:
    """The namespace a stored subject is the subject of (`user:456` → `tenant/{tenant}/user/456`,
    `tenant:{tenant}` → `tenant/{tenant}`); None for a business entity (`order:A-7781`). A subject
    of a scope kind whose id no namespace can carry has none either, and is no entity: `""`."""
    kind, _, ident = subject.partition(":")
    if kind == "tenant":
        text = f"tenant/{ident}"
    elif kind in SCOPES:
        text = f"tenant/{tenant}/{kind}/{ident}"
    else:
        return None
    try:
        return str(parse_namespace(text))
    except InvalidNamespace:
        return ""


def own_subject(principal: Principal) -> str | None:
    """The subject a principal itself is (`user:123` for `user:shop-a/123`), if its type is a
    namespace scope kind."""
    return f"{principal.type}:{principal.id}" if principal.type in SCOPES else None


def may_speak_for(principal: Principal, subject: str) -> bool:
    """Whether `principal` may name `subject` (stored form) as what a memory is about: its own
    subject, a subject whose namespace it may write (in its tenant), or a business entity."""
    if subject == own_subject(principal):
        return True
    namespace = subject_namespace(subject, principal.tenant)
    if namespace is None:
        return True
    return (
        bool(namespace)
        and parse_namespace(namespace).tenant == principal.tenant
        and principal.can_write(namespace)
    )
