"""Consents: recorded, listed and revoked for a caller the door proved (`MemoryClient.prove`).

Who may do what (memory/consents.py): the subject themself, or a principal that may write the
subject's namespace, records and revokes a consent; they, a principal that may read the
subject's namespace, and the tenant's overseers list them. To anyone else a consent does not
exist (`not_found`). Revoking one invalidates every readable memory that cited it, in the same
transaction, and the projection follows at once. The audit names consents by id, never their
purpose.
"""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.consents import (
    Consent,
    ConsentRequest,
    ConsentRevocation,
    check_subject,
    may_manage,
    may_see,
    new_consent_id,
)
from governed_memory.memory.errors import Forbidden, NotFound
from governed_memory.memory.models import AuditEvent, utcnow
from governed_memory.memory.services.access import Caller
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.subjects import canonical_subject, own_subject, subject_namespace
from governed_memory.memory.sync.apply import sync
from governed_memory.memory.write.screening import redact_secrets
from governed_memory.memory.write.stages import effective_time


class ConsentService:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def _at(self, at: datetime | None) -> datetime:
        return effective_time(at, utcnow(), self.settings.allow_clock_override)

    def give(
        self, caller: Caller, request: ConsentRequest, *, at: datetime | None = None
    ) -> Consent:
        """Record a consent of `request.subject`, given by the caller."""
        when = self._at(at)
        subject = check_subject(canonical_subject(request.subject, caller.tenant), caller.tenant)
        if not may_manage(caller.principal, subject):
            raise Forbidden(
                f"{caller.ref} may not record a consent for {subject}: only the subject, or a "
                "principal that may write its namespace",
                field="subject",
            )
        consent = Consent(
            consent_id=new_consent_id(),
            tenant_id=caller.tenant,
            subject_ref=subject,
            # a secret said in the purpose is not kept (as in every message kept)
            purpose=redact_secrets(request.purpose),
            given_by=caller.ref,
            given_at=when,
        )
        self.stores.canonical.consents.record(consent)
        self._audit(caller, consent, "given", when)
        return consent

    def of_subject(self, caller: Caller, subject: str | None = None) -> list[Consent]:
        """A subject's consents (by default the caller's own), revoked ones too."""
        wanted = own_subject(caller.principal) if subject is None else subject
        if wanted is None:
            raise NotFound("name the subject whose consents to list", field="subject")
        wanted = canonical_subject(wanted, caller.tenant)
        if not (may_see(caller.principal, wanted) or caller.oversees(caller.tenant)):
            return []  # as for a subject without consents: nothing to learn from a refusal
        return self.stores.canonical.consents.of_subject(caller.tenant, wanted)

    def revoke(
        self, caller: Caller, consent_id: str, *, at: datetime | None = None
    ) -> ConsentRevocation:
        """Revoke a consent: every readable memory that cited it is invalidated (a new version,
        its outbox event, an audit row) in the same transaction, then projected."""
        when = self._at(at)
        canonical = self.stores.canonical
        consent = canonical.consents.get(consent_id)
        if consent is None or consent.tenant_id != caller.tenant:
            raise NotFound(f"no consent {consent_id!r}", field="consent_id")
        if not may_manage(caller.principal, consent.subject_ref):
            if may_see(caller.principal, consent.subject_ref) or caller.oversees(caller.tenant):
                raise Forbidden(
                    f"{caller.ref} may not revoke a consent of {consent.subject_ref}",
                    field="consent_id",
                )
            raise NotFound(f"no consent {consent_id!r}", field="consent_id")
        first = consent.revoked_at is None
        done = canonical.consents.revoke(caller.tenant, consent_id, caller.ref, when)
        if first:
            self._audit(caller, consent, "revoked", when, invalidated=len(done.memory_ids))
        if done.memory_ids:
            sync(canonical, self.stores.projection, done.memory_ids, done.outbox_seqs)
        revoked = canonical.consents.get(consent_id)
        assert revoked is not None
        return ConsentRevocation(consent=revoked, invalidated=done.memory_ids)

    def _audit(
        self, caller: Caller, consent: Consent, outcome: str, at: datetime, **details: int
    ) -> None:
        namespace = subject_namespace(consent.subject_ref, consent.tenant_id) or None
        self.stores.canonical.commits.record_audit(
            consent.tenant_id,
            namespace,
            None,
            [
                AuditEvent(
                    stage="consent",
                    outcome=outcome,
                    principal=caller.ref,
                    details={"consent_id": consent.consent_id, **details},
                )
            ],
            at,
        )
