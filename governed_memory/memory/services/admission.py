"""Admission: the first thing every workflow run does, and every Update before it changes
anything. A run is admitted only with a grant the service signed for this very run (its type, id,
input and start time: `memory.grants`); the principal the run acts for is the grant's, never its
input's word. A refusal is typed (`Unauthenticated`), counted and logged (ids only), and changes
nothing. What a run acts on beyond that (a review row, a receipt's deadline, the records a plan
changes) is read from the canonical store by id, by the service that acts on it.
"""

from __future__ import annotations

from datetime import UTC, datetime

import structlog

from governed_memory.memory import metrics
from governed_memory.memory.contracts.admission import (
    CONTINUING,
    AdmitInput,
    Admitted,
    ContinueInput,
)
from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.grants import SYSTEM, Grant, Grants
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.canonical import CanonicalStore

log = structlog.get_logger("governed_memory.memory.services.admission")


class Admission:
    def __init__(self, keys: ServiceKeys, settings: Settings, canonical: CanonicalStore) -> None:
        self.grants = Grants(keys, start_seconds=settings.grant_start_seconds)
        self.canonical = canonical

    def verify(self, inp: AdmitInput) -> Grant:
        """The run's grant, verified against the run itself and whom its input names."""
        try:
            if inp.attempt != 1 or inp.cron_schedule:
                raise Unauthenticated(
                    "a run is started once: not retried or repeated by Temporal", field="grant"
                )
            grant = self.grants.verify(
                inp.grant,
                operation=inp.operation,
                workflow_id=inp.workflow_id,
                digest=inp.digest,
                started_at=inp.started_at,
            )
            if grant.principal != SYSTEM:
                for named in inp.principals:
                    if named != grant.principal:
                        raise Unauthenticated(
                            f"the grant proves {grant.principal}, not {named}", field="principal"
                        )
            if inp.tenant is not None and grant.tenant not in (inp.tenant, "*"):
                raise Unauthenticated("the grant is for another tenant", field="tenant")
            # One grant, one run (a Schedule's grant is for the runs it starts, each its own id).
            if not grant.scheduled and inp.grant is not None:
                holder = self.canonical.admissions.claim(
                    inp.grant, inp.run_id, inp.workflow_id, datetime.now(UTC)
                )
                if holder != inp.run_id:
                    raise Unauthenticated("the grant admitted another run already", field="grant")
        except Unauthenticated as refused:
            metrics.ADMISSIONS_REFUSED.labels(inp.operation).inc()
            log.warning(
                "run refused",
                operation=inp.operation,
                workflow_id=inp.workflow_id,
                reason=refused.message,
            )
            raise
        return grant

    def admit(self, inp: AdmitInput) -> Admitted:
        grant = self.verify(inp)
        return Admitted(principal=grant.principal, tenant=grant.tenant)

    def continuation(self, inp: ContinueInput) -> str:
        """The grant a sweep's continuation (continue-as-new: the same type and id, a new input)
        is admitted by: the service vouches for what its own workflow code carries on. Only the
        sweeps continue as new."""
        if inp.operation not in CONTINUING:
            raise Unauthenticated(f"{inp.operation} does not continue as new", field="grant")
        return self.grants.issue(inp.operation, inp.workflow_id, inp.digest, SYSTEM, "*")
