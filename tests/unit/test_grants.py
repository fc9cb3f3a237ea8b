"""Grants are each their own: the same request granted twice in one second gives two grants
(a run claims its grant; an honest second start must not find it claimed), both valid."""

from __future__ import annotations

from datetime import UTC, datetime

from governed_memory.memory.contracts.admission import digest_of
from governed_memory.memory.grants import Grants
from governed_memory.memory.models import CloseReceiptInput
from governed_memory.memory.secrets import ServiceKeys


def test_two_grants_for_one_request_in_one_second_differ_and_both_verify() -> None:
    grants = Grants(ServiceKeys.new())
    request = CloseReceiptInput(deletion_id="del_x")
    now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    first = grants.issue(
        "CloseDeletionReceipt", "backup-expiry/t/del_x", request, "system", "t", now=now
    )
    second = grants.issue(
        "CloseDeletionReceipt", "backup-expiry/t/del_x", request, "system", "t", now=now
    )
    assert first != second
    for grant in (first, second):
        found = grants.verify(
            grant,
            operation="CloseDeletionReceipt",
            workflow_id="backup-expiry/t/del_x",
            digest=digest_of(request),
            started_at=now,
        )
        assert found.principal == "system"
