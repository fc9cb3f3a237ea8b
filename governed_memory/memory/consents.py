"""Consents: what a subject agreed to, recorded, so that a memory's `consent_ref` means something.

A consent has an id the service draws at random (`cns_…`, not guessable), its tenant and
subject, a purpose in words, who gave it and when, and when it was revoked (and by whom). It is
given by the subject themself (a user for `user:<id>`) or by a principal that may write the
subject's namespace; only subjects that have a namespace (users, teams, projects, agents,
threads, the tenant) give consents, never a business entity.

A candidate's `consent_ref` must name a consent recorded for that candidate's subject and not
revoked at the write's time (`in_force`); otherwise the write pipeline refuses it
(`consent_unknown`): a made-up reference changes nothing. Revoking a consent invalidates every
readable memory that depends on it (`memory.stores.canonical.consents`), and a deletion of its
subject deletes it, purpose and all.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import AwareDatetime, Field, field_validator

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import Model, Principal
from governed_memory.memory.subjects import may_speak_for, own_subject, subject_namespace

#: The longest purpose a consent keeps (its words are the subject's; erased with the subject).
MAX_PURPOSE = 500


class Consent(Model):
    consent_id: str
    """The consent's id (`cns_…`, random): what a candidate's `consent_ref` names."""
    tenant_id: str
    """The tenant it is in."""
    subject_ref: str
    """Whose consent it is, in stored form (`user:456`, `team:ops`)."""
    purpose: str
    """What it was given for, in words (at most 500 characters)."""
    given_by: str
    """The principal that recorded it: the subject themself, or one that may write the subject's
    namespace."""
    given_at: AwareDatetime
    """When it was recorded."""
    revoked_at: AwareDatetime | None = None
    """When it was revoked; null while in force."""
    revoked_by: str | None = None
    """The principal that revoked it; null while in force."""

    def in_force(self, tenant_id: str, subject_ref: str, at: datetime) -> bool:
        """Whether a memory of `subject_ref` written at `at` may cite this consent."""
        return (
            self.tenant_id == tenant_id
            and self.subject_ref == subject_ref
            and (self.revoked_at is None or self.revoked_at > at)
        )


class ConsentRequest(Model):
    """A consent to record: for `subject` (any accepted subject form), for `purpose`."""

    subject: str = Field(min_length=1, max_length=256)
    purpose: str = Field(min_length=1, max_length=MAX_PURPOSE)

    @field_validator("purpose")
    @classmethod
    def _purpose(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v:
            raise InvalidInput("a consent states its purpose", field="purpose")
        return v


class ConsentRevocation(Model):
    """A revoked consent, and the memories its revocation invalidated (ids)."""

    consent: Consent
    """The consent, now revoked."""
    invalidated: list[str] = Field(default_factory=list)
    """The memories that cited it, invalidated by the revocation (ids)."""


def new_consent_id() -> str:
    return f"cns_{uuid.uuid4().hex}"


def check_subject(subject: str, tenant: str) -> str:
    """`subject` (stored form) if it may give a consent: one with a namespace."""
    if not subject_namespace(subject, tenant):
        raise InvalidInput(
            f"{subject!r} cannot give a consent: only a person or a namespace's subject "
            "(user:…, team:…, project:…, agent:…, thread:…, tenant:…) can",
            field="subject",
        )
    return subject


def may_manage(principal: Principal, subject: str) -> bool:
    """Whether `principal` may record or revoke a consent of `subject`: the subject themself, or
    a principal that may write the subject's namespace."""
    return bool(subject_namespace(subject, principal.tenant)) and may_speak_for(principal, subject)


def may_see(principal: Principal, subject: str) -> bool:
    """Whether `principal` may list `subject`'s consents: who may manage them, or a principal
    that may read the subject's namespace."""
    if may_manage(principal, subject) or subject == own_subject(principal):
        return True
    namespace = subject_namespace(subject, principal.tenant)
    return namespace is not None and namespace != "" and principal.can_read(namespace)
