"""The service boundary's one check of who is asking.

Every workflow input names a principal and carries its token; the first thing each service does
with a request is to have the token prove that principal (`memory.identity`). A missing, forged,
expired, foreign or someone else's token is refused as `Unauthenticated` and audited, and
nothing else happens.
"""

from __future__ import annotations

from datetime import datetime

from memory.errors import Unauthenticated
from memory.identity import Claims, Identity, identity_for
from memory.models import AuditEvent
from memory.settings import Settings
from memory.stores import Stores

#: Where a refusal is audited when the request did not say which tenant it was for.
UNKNOWN_TENANT = "-"


class Gate:
    def __init__(self, stores: Stores, identity: Identity) -> None:
        self.stores = stores
        self.identity = identity

    def admit(
        self,
        token: str | None,
        principal: str | None,
        *,
        tenant: str | None,
        namespace: str | None,
        workflow_id: str | None,
        at: datetime,
    ) -> Claims:
        """The verified claims of `token`, which must prove `principal` when one is named (a
        read by bearer token names none: the token says who asks)."""
        verifier = self.identity.verifier
        try:
            if principal is None:
                return verifier.verify(token)
            return verifier.principal(token, principal)
        except Unauthenticated as refused:
            self.stores.canonical.commits.record_audit(
                tenant or UNKNOWN_TENANT,
                namespace,
                workflow_id,
                [
                    AuditEvent(
                        stage="authenticate",
                        outcome="refused",
                        decision="reject",
                        reason_code=refused.code,
                        principal=principal,
                        details={"message": refused.message},
                    )
                ],
                at,
            )
            raise


class GatedService:
    """A service that requests reach: its stores, its settings, and the gate its requests pass
    (the identity given, or the one the settings describe)."""

    def __init__(self, stores: Stores, settings: Settings, identity: Identity | None) -> None:
        self.stores = stores
        self.settings = settings
        self.gate = Gate(stores, identity or identity_for(settings))
