"""The write step (`WriteService.write`, WriteMemory's one local activity) and batches, run
again for what they decided already: the stored outcome answers, nothing is committed twice,
and the reviews the first decision opened that are open still are started again (the run that
committed them may have died before it started them)."""

from __future__ import annotations

import uuid

from governed_memory.memory.contracts.writes import BatchInput, DecideInput, WriteInput
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services.writes import WriteService
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.shell.client import MemoryClient
from tests.factories import DRAFTER, NS, T0, USER, sms


def _service(stores: Stores, settings: Settings) -> tuple[WriteService, MemoryClient]:
    client = MemoryClient(None, settings, stores)  # type: ignore[arg-type]  # no Temporal here
    client.register_principal(DRAFTER)
    return WriteService(stores, settings, ServiceKeys.new()), client


def test_a_write_decided_before_starts_its_open_review_again(
    stores: Stores, settings: Settings
) -> None:
    writes, client = _service(stores, settings)
    request = client.write_request(DRAFTER.ref, NS, sms(), at=T0)
    decide = DecideInput(request=request, workflow_id="w/1", seed=uuid.uuid4().hex, now=T0)
    first = writes.write(WriteInput(decide=decide, commit_id="w/1#0"))
    assert not first.replayed
    assert first.commit is not None
    ((outcome,),) = [first.outcomes]
    assert outcome.decision == "defer"
    assert [s.review.review_id for s in first.reviews] == [outcome.review_id]

    again = writes.write(WriteInput(decide=decide, commit_id="w/1#0"))
    assert again.replayed
    assert again.commit is None  # nothing committed twice
    assert [(o.decision, o.review_id) for o in again.outcomes] == [("defer", outcome.review_id)]
    (start,) = again.reviews
    assert start.review == stores.canonical.reviews.get(outcome.review_id or "")
    assert start.grant is not None
    assert len(stores.canonical.reviews.find("shop-a", status=None)) == 1


def test_a_write_decided_before_with_no_review_starts_none(
    stores: Stores, settings: Settings
) -> None:
    writes, client = _service(stores, settings)
    request = client.write_request(USER, NS, sms(), at=T0)
    decide = DecideInput(request=request, workflow_id="w/2", seed=uuid.uuid4().hex, now=T0)
    writes.write(WriteInput(decide=decide, commit_id="w/2#0"))
    again = writes.write(WriteInput(decide=decide, commit_id="w/2#0"))
    assert again.replayed
    assert again.reviews == []


def test_a_batch_run_again_starts_the_reviews_it_opened(stores: Stores, settings: Settings) -> None:
    writes, client = _service(stores, settings)
    requests = [
        client.write_request(DRAFTER.ref, NS, sms(), at=T0),
        client.write_request(USER, NS, sms(key=None, kind="semantic", content="喜欢蓝色"), at=T0),
    ]
    batch = BatchInput(requests=requests, workflow_id="batch/1", seed=uuid.uuid4().hex, now=T0)
    first = writes.batch(batch)
    assert list(first.starts) == [0]
    again = writes.batch(batch)
    assert [[o.decision for o in item.outcomes] for item in again.items] == [
        [o.decision for o in item.outcomes] for item in first.items
    ]
    assert list(again.starts) == [0]
    assert [s.review.review_id for s in again.starts[0]] == [
        s.review.review_id for s in first.starts[0]
    ]
