"""Deletions and expiry: start (resolve, authorize, a pending receipt), erase, write summaries
again, repair, verify, the final receipt, the backup deadline; and the expiry sweep."""

from __future__ import annotations

import json
import os
from datetime import timedelta

import structlog

from governed_memory.memory import metrics
from governed_memory.memory.contracts.deletions import (
    CloseInput,
    EraseInput,
    ExpireInput,
    ExpireResult,
    ReceiptTimer,
    ReceiptTimerInput,
    RepairInput,
    SavedReceipt,
    StartDeletionInput,
    StartedDeletion,
    VerifyInput,
)
from governed_memory.memory.deletion import (
    authorize_deletion,
    erase,
    regenerate_summaries,
    resolve,
    verify_erased,
)
from governed_memory.memory.deletion.runs import carrying_runs
from governed_memory.memory.errors import PolicyRefusal, RequestMismatch
from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.models import (
    AuditEvent,
    CloseReceiptInput,
    DeletionReceipt,
    ProbeResult,
)
from governed_memory.memory.plans import EraseResult
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services import Progress, no_progress
from governed_memory.memory.services.admission import Admission
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync
from governed_memory.memory.write.extraction import Extractor, RuleExtractor
from governed_memory.memory.write.stages import effective_time

log = structlog.get_logger("governed_memory.memory.services.deletions")


def closer_workflow_id(receipt: DeletionReceipt) -> str:
    """The workflow that closes a receipt at its backup deadline."""
    return f"backup-expiry/{receipt.tenant_id}/{receipt.deletion_id}"


#: How long a plan staged by a run that never committed it is kept before the expiry sweep
#: deletes it (a run in flight commits within seconds).
STAGED_PLANS_KEPT = timedelta(days=1)


class DeletionService:
    """The run asking was admitted already (`workflows.admit`), but for the receipt's timer,
    which is admitted here against the stored receipt."""

    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        keys: ServiceKeys,
        admission: Admission,
        extractor: Extractor | None = None,
    ):
        self.stores = stores
        self.settings = settings
        self.keys = keys
        self.admission = admission
        self.grants = Grants(keys, start_seconds=settings.grant_start_seconds)
        self.extractor = extractor or RuleExtractor()

    def start(self, inp: StartDeletionInput) -> StartedDeletion:
        """Resolve the scope (words included) within what the requester may delete, authorize
        it, and persist a pending receipt (with what it leaves alone, counted). A refusal is
        audited and deletes nothing."""
        request = inp.request
        canonical = self.stores.canonical
        deletion_id = "del_" + self.keys.derive("deletion-id", inp.seed, length=24)
        before = canonical.receipts.started(deletion_id)
        if before is not None:
            # A retry after this start committed (the worker died before the workflow heard
            # of it): the scope stays what it was, even if the erase has emptied it since.
            return StartedDeletion.model_validate(before)
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = canonical.principals.get(request.principal)
        resolved = resolve(
            self.stores, request.tenant, request.scope, may_delete=principal.can_delete
        )
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
            deletion_id=deletion_id,
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
            withheld=resolved.withheld,
            withheld_namespaces=resolved.withheld_namespaces,
            copies_erased=len(resolved.copies),
        )
        if resolved.withheld:
            # What the scope covers beyond the requester's namespaces stays, counted (never
            # named: not which namespaces, not what they hold).
            canonical.commits.record_audit(
                request.tenant,
                request.scope.namespace,
                inp.workflow_id,
                [
                    AuditEvent(
                        stage="delete_authorize",
                        outcome="partial",
                        reason_code="unauthorized_namespace",
                        principal=principal.ref,
                        details={
                            "scope": request.scope.describe(),
                            "withheld": resolved.withheld,
                            "withheld_namespaces": resolved.withheld_namespaces,
                        },
                    )
                ],
                at,
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
        requester = self.stores.canonical.receipts.get(inp.deletion_id).requested_by
        result = erase(
            self.stores, inp.deletion_id, inp.resolved, inp.at, self.extractor, by=requester
        )
        if result.invalidated:
            # Memories elsewhere that stood on the subject's consents: out of every read path.
            sync(
                self.stores.canonical,
                self.stores.projection,
                result.invalidated,
                result.invalidated_seqs,
            )
        resolved = set(inp.resolved.all_memory_ids)
        late = [m for m in result.memory_ids if m not in resolved]
        if late:
            # Copies promoted after the scope was resolved went with their sources: out of the
            # projection too (the run projects what it resolved).
            sync(self.stores.canonical, self.stores.projection, late)
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
        receipt = self.stores.canonical.receipts.get(inp.deletion_id)
        return carrying_runs(self.stores, receipt.tenant_id, inp.resolved, receipt.workflow_id)

    def regenerate(self, inp: EraseInput, progress: Progress = no_progress) -> list[str]:
        progress("regenerating")
        return regenerate_summaries(self.stores, inp.resolved, inp.at, inp.deletion_id)

    def repair(self, inp: RepairInput, progress: Progress = no_progress) -> int:
        """Erase again (idempotent) and project every touched memory from canonical: what a
        failed probe found is removed from every index."""
        progress("repairing")
        erased = erase(self.stores, inp.deletion_id, inp.resolved, inp.at, self.extractor)
        if erased.invalidated:
            sync(self.stores.canonical, self.stores.projection, erased.invalidated)
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

    def save_receipt(self, receipt: DeletionReceipt) -> SavedReceipt:
        canonical = self.stores.canonical
        canonical.receipts.save(receipt, receipt.completed_at or receipt.requested_at)
        if receipt.elapsed_seconds is not None:
            metrics.DELETION_SECONDS.observe(receipt.elapsed_seconds)
        # Probe material is kept only as long as verification needs it, whatever its outcome:
        # a failed deletion must not keep what it was asked to erase.
        canonical.erasure.drop_probes(receipt.deletion_id)
        canonical.db.compact(["deletion_probes"])
        if receipt.verification_status != "passed" or receipt.backup_retention_deadline is None:
            return SavedReceipt()
        closer_id = closer_workflow_id(receipt)
        closer = CloseReceiptInput(deletion_id=receipt.deletion_id)
        grant = self.grants.issue(
            "CloseDeletionReceipt", closer_id, closer, SYSTEM, receipt.tenant_id
        )
        return SavedReceipt(closer_id=closer_id, closer=closer.model_copy(update={"grant": grant}))

    def receipt_timer(self, inp: ReceiptTimerInput) -> ReceiptTimer:
        """Admit the run that closes a receipt: its grant, and that it is the child the receipt's
        own deletion started; then the stored deadline, and how long to wait for it."""
        self.admission.verify(inp.admission)
        receipt = self.stores.canonical.receipts.get(inp.deletion_id)
        if inp.admission.workflow_id != closer_workflow_id(receipt) or (
            inp.parent_workflow_id is None or inp.parent_workflow_id != receipt.workflow_id
        ):
            raise RequestMismatch(
                "a receipt is closed only by the run its own deletion started", field="run"
            )
        deadline = receipt.backup_retention_deadline
        if receipt.verification_status != "passed" or deadline is None:
            raise RequestMismatch("this receipt waits for no backup deadline", field="receipt")
        # The deadline is on the deletion's clock (an evaluation clock, or now): wait as long
        # as the retention lasts, and at least until the deadline itself.
        wait = max(deadline - receipt.requested_at, deadline - inp.now, timedelta(0))
        return ReceiptTimer(deadline=deadline, wait=wait)

    def close_receipt(self, inp: CloseInput) -> DeletionReceipt:
        """The backup retention deadline (the stored one) passed: the receipt is closed
        (backups expired). Before it, the receipt stays open."""
        receipts = self.stores.canonical.receipts
        receipt = receipts.get(inp.deletion_id)
        deadline = receipt.backup_retention_deadline
        if deadline is None or inp.now < deadline:
            raise RequestMismatch(
                "the receipt's backup deadline has not passed yet", field="deadline"
            )
        if receipt.backup_status != "expired":
            receipt.backup_status = "expired"
            receipt.closed_at = deadline
            receipts.save(receipt, deadline)
        return receipt

    def expire(self, inp: ExpireInput) -> ExpireResult:
        at = effective_time(inp.at, inp.now, self.settings.allow_clock_override)
        canonical = self.stores.canonical
        result = canonical.erasure.expire(at, inp.limit)
        # Plans a failed run staged and never committed go after a day; the record of which run
        # a grant admitted, once the grant could admit nothing any more (its start window).
        canonical.staged.sweep(at - STAGED_PLANS_KEPT)
        window = timedelta(seconds=self.settings.grant_start_seconds)
        canonical.admissions.sweep(inp.now - 2 * window)
        if result.memory_ids:
            sync(canonical, self.stores.projection, result.memory_ids, result.outbox_seqs)
            log.info("expired", count=len(result.memory_ids), namespaces=len(result.namespaces))
        return ExpireResult(
            expired=result.memory_ids,
            namespaces=result.namespaces,
            more=len(result.memory_ids) >= inp.limit,
        )
