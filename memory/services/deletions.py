"""Deletions and expiry: start (resolve, authorize, a pending receipt), erase, write summaries
again, repair, verify, the final receipt, the backup deadline; and the expiry sweep."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta

import structlog

from memory import metrics
from memory.deletion import (
    ResolvedScope,
    authorize_deletion,
    erase,
    regenerate_summaries,
    resolve,
    verify_erased,
)
from memory.deletion.runs import carrying_runs
from memory.errors import PolicyRefusal
from memory.identity import Identity
from memory.models import AuditEvent, DeleteRequest, DeletionReceipt, Model, ProbeResult
from memory.plans import EraseResult
from memory.services import Progress, no_progress
from memory.services.gate import GatedService
from memory.settings import Settings
from memory.stores import Stores
from memory.sync.apply import sync
from memory.write.extraction import Extractor, RuleExtractor
from memory.write.stages import effective_time

log = structlog.get_logger("memory.services.deletions")

#: How long a plan staged by a run that never committed it is kept before the expiry sweep
#: deletes it (a run in flight commits within seconds).
STAGED_PLANS_KEPT = timedelta(days=1)


class StartDeletionInput(Model):
    request: DeleteRequest
    deletion_id: str
    workflow_id: str
    now: datetime


class StartedDeletion(Model):
    receipt: DeletionReceipt
    resolved: ResolvedScope
    generations: dict[str, int]
    at: datetime


class EraseInput(Model):
    deletion_id: str
    resolved: ResolvedScope
    at: datetime


class RepairInput(Model):
    deletion_id: str
    resolved: ResolvedScope
    regenerated: list[str]
    at: datetime


class VerifyInput(Model):
    deletion_id: str
    principal: str
    resolved: ResolvedScope
    generations: dict[str, int]
    at: datetime


class CloseReceiptInput(Model):
    deletion_id: str
    #: The backup retention deadline (stated on the receipt) and how long that is from the
    #: deletion: the timer waits `wait` (evaluation runs on a clock of their own).
    at: datetime
    wait: timedelta = timedelta(0)


class ExpireInput(Model):
    #: Clock override (evaluation and tests only); `now` otherwise.
    at: datetime | None = None
    now: datetime
    limit: int = 500


class ExpireResult(Model):
    expired: list[str]
    namespaces: list[str]
    more: bool


class Deletions(GatedService):
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        extractor: Extractor | None = None,
        identity: Identity | None = None,
    ):
        super().__init__(stores, settings, identity)
        self.extractor = extractor or RuleExtractor()

    def start(self, inp: StartDeletionInput) -> StartedDeletion:
        """Resolve the scope (words included), authorize it all or nothing, and persist a
        pending receipt. A refusal is audited and deletes nothing."""
        request = inp.request
        canonical = self.stores.canonical
        before = canonical.receipts.started(inp.deletion_id)
        if before is not None:
            # A retry after this start committed (the worker died before the workflow heard
            # of it): the scope stays what it was, even if the erase has emptied it since.
            return StartedDeletion.model_validate(before)
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        self.gate.admit(
            request.token,
            request.principal,
            tenant=request.tenant,
            namespace=request.scope.namespace,
            workflow_id=inp.workflow_id,
            at=at,
        )
        principal = canonical.principals.get(request.principal)
        resolved = resolve(self.stores, request.tenant, request.scope)
        try:
            authorize_deletion(principal, request.tenant, resolved)
        except PolicyRefusal as refusal:
            canonical.commits.record_audit(
                request.tenant,
                request.scope.namespace,
                inp.workflow_id,
                [
                    AuditEvent(
                        stage="delete_authorize",
                        outcome="refused",
                        decision="reject",
                        reason_code=refusal.code,
                        principal=principal.ref,
                        details={"scope": request.scope.describe(), "message": refusal.message},
                    )
                ],
                at,
            )
            raise
        receipt = DeletionReceipt(
            deletion_id=inp.deletion_id,
            tenant_id=request.tenant,
            subject_ref=resolved.scope.describe(),
            scope=request.scope,
            resolved_scope=resolved.scope,
            requested_by=principal.ref,
            requested_at=at,
            indexes_removed=list(self.stores.projection.indexes),
            backup_retention_deadline=at + self.stores.policy.backup.retention,
            workflow_id=inp.workflow_id,
            storage_limits=canonical.db.erasure_limits(),
        )
        marks = canonical.generations.read(resolved.namespaces)
        started = StartedDeletion(
            receipt=receipt,
            resolved=resolved,
            generations={ns: generation for ns, (generation, _) in marks.items()},
            at=at,
        )
        canonical.receipts.save(receipt, at, started=started.model_dump(mode="json"))
        return started

    def erase(self, inp: EraseInput, progress: Progress = no_progress) -> EraseResult:
        progress("erasing")
        result = erase(self.stores, inp.deletion_id, inp.resolved, inp.at, self.extractor)
        self._journal(inp.deletion_id)
        log.info(
            "scope erased",
            deletion_id=inp.deletion_id,
            memories=len(inp.resolved.memory_ids),
            versions=result.versions_erased,
            messages=result.messages_erased,
        )
        return result

    def _journal(self, deletion_id: str) -> None:
        """Append the ledger entry to the journal file kept outside the database, so that a
        store restored from an older backup can have the deletion applied again."""
        path = self.settings.deletion_journal_file
        ledger = self.stores.canonical.erasure.ledger()
        entries = [e for e in ledger if e.deletion_id == deletion_id]
        if not entries:
            return
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with open(fd, "a", encoding="utf-8") as journal:
            journal.write(json.dumps(entries[0].model_dump(mode="json"), ensure_ascii=False) + "\n")
            journal.flush()
            os.fsync(journal.fileno())

    def carrying_runs(self, inp: EraseInput) -> list[str]:
        """The workflow ids whose Temporal histories carried the scope's content."""
        tenant = self.stores.canonical.receipts.get(inp.deletion_id).tenant_id
        return carrying_runs(self.stores, tenant, inp.resolved)

    def regenerate(self, inp: EraseInput, progress: Progress = no_progress) -> list[str]:
        progress("regenerating")
        return regenerate_summaries(self.stores, inp.resolved, inp.at, inp.deletion_id)

    def repair(self, inp: RepairInput, progress: Progress = no_progress) -> int:
        """Erase again (idempotent) and project every touched memory from canonical: what a
        failed probe found is removed from every index."""
        progress("repairing")
        erase(self.stores, inp.deletion_id, inp.resolved, inp.at, self.extractor)
        ids = [*inp.resolved.all_memory_ids, *inp.regenerated]
        sync(self.stores.canonical, self.stores.projection, ids)
        return len(ids)

    def verify(self, inp: VerifyInput, progress: Progress = no_progress) -> list[ProbeResult]:
        canonical = self.stores.canonical
        return verify_erased(
            self.stores,
            requester=canonical.principals.get(inp.principal),
            resolved=inp.resolved,
            probes=canonical.erasure.probes(inp.deletion_id),
            generations_before=inp.generations,
            at=inp.at,
            progress=progress,
        )

    def save_receipt(self, receipt: DeletionReceipt) -> None:
        canonical = self.stores.canonical
        canonical.receipts.save(receipt, receipt.completed_at or receipt.requested_at)
        if receipt.elapsed_seconds is not None:
            metrics.DELETION_SECONDS.observe(receipt.elapsed_seconds)
        # Probe material is kept only as long as verification needs it, whatever its outcome:
        # a failed deletion must not keep what it was asked to erase.
        canonical.erasure.drop_probes(receipt.deletion_id)
        canonical.db.compact(["deletion_probes"])

    def close_receipt(self, inp: CloseReceiptInput) -> DeletionReceipt:
        """The backup retention deadline passed: the receipt is closed (backups expired)."""
        receipts = self.stores.canonical.receipts
        receipt = receipts.get(inp.deletion_id)
        if receipt.backup_status != "expired":
            receipt.backup_status = "expired"
            receipt.closed_at = inp.at
            receipts.save(receipt, inp.at)
        return receipt

    def expire(self, inp: ExpireInput) -> ExpireResult:
        at = effective_time(inp.at, inp.now, self.settings.allow_clock_override)
        canonical = self.stores.canonical
        result = canonical.erasure.expire(at, inp.limit)
        # Plans a failed run staged and never committed go after a day.
        canonical.staged.sweep(at - STAGED_PLANS_KEPT)
        if result.memory_ids:
            sync(canonical, self.stores.projection, result.memory_ids, result.outbox_seqs)
            log.info("expired", count=len(result.memory_ids), namespaces=len(result.namespaces))
        return ExpireResult(
            expired=result.memory_ids,
            namespaces=result.namespaces,
            more=len(result.memory_ids) >= inp.limit,
        )
