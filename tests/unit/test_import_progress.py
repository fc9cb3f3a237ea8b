"""The import's progress moves as each WriteBatch run completes (several in flight), and while
none does it says what it waits on: a missing worker at once, not after the client's timeout."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from governed_memory.memory.models import (
    BatchItem,
    BatchResult,
    CandidateOutcome,
    WriteRequest,
)
from governed_memory.shell.importer import write_episodes
from tests.factories import NS, USER, sms


def _requests(n: int) -> list[WriteRequest]:
    return [
        WriteRequest.model_validate(
            {
                "principal": USER,
                "namespace": NS,
                "candidate": sms(),
                "idempotency_key": f"k{i}",
            }
        )
        for i in range(n)
    ]


def _done(batch: Sequence[WriteRequest]) -> BatchResult:
    return BatchResult(
        workflow_id="batch",
        items=[
            BatchItem(
                idempotency_key=r.idempotency_key or "", outcomes=[CandidateOutcome(decision="add")]
            )
            for r in batch
        ],
    )


async def test_progress_moves_per_batch_and_counts_decisions() -> None:
    seen: list[tuple[int, str]] = []
    started: list[int] = []

    async def write(batch: Sequence[WriteRequest]) -> BatchResult:
        started.append(len(batch))
        await asyncio.sleep(0.01 * len(started))  # later batches take longer
        return _done(batch)

    async def polling() -> bool:
        return True

    counts = await write_episodes(
        write, polling, _requests(25), 10, lambda n, on: seen.append((n, on)), in_flight=2
    )
    assert counts == {"add": 25}
    assert started == [10, 10, 5]
    written = [n for n, _ in seen]
    assert written == sorted(written)
    assert written[-1] == 25
    assert {10, 20} <= set(written)  # it moved after each batch, not only at the end


async def test_it_says_when_no_worker_polls() -> None:
    seen: list[str] = []
    release = asyncio.Event()

    async def write(batch: Sequence[WriteRequest]) -> BatchResult:
        await release.wait()
        return _done(batch)

    async def polling() -> bool:
        return False

    def progress(n: int, on: str) -> None:
        seen.append(on)
        if len(seen) == 3:
            release.set()  # a worker came

    await write_episodes(write, polling, _requests(3), 10, progress, every=0.01)
    assert "waiting for a worker" in seen[0]
    assert "memctl worker" in seen[0]
