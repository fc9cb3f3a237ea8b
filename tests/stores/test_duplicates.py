"""Distinct facts are never dropped as duplicates; true duplicates are, with their evidence.

The real pipeline (`decide_request`) against the real canonical store and embedded projection,
on SQLite and Postgres, committed and projected after each write as the workflow does, so the
vector search that proposes near-duplicates sees everything written before.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from governed_memory.memory.models import CandidateOutcome, Principal, WriteRequest
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.schema import audit_events
from governed_memory.memory.sync.commit import commit_and_project
from governed_memory.memory.write.decide import decide_request
from governed_memory.memory.write.extraction import RuleExtractor
from tests.factories import T0
from tests.unit.test_sameness import Fact, facts, rendered

TENANT = "shop-a"


def write(
    stores: Stores,
    user: str,
    content: str,
    i: int,
    *,
    kind: str = "episodic",
    principal: str | None = None,
    at_offset: timedelta = timedelta(0),
) -> CandidateOutcome:
    at = T0 + timedelta(minutes=i) + at_offset
    request = WriteRequest(
        principal=principal or f"user:{TENANT}/{user}",
        namespace=f"tenant/{TENANT}/user/{user}",
        idempotency_key=f"{user}-{i}-{uuid.uuid4().hex[:6]}",
        candidate={"kind": kind, "content": content},
        at=at,
    )
    decision = decide_request(
        stores,
        request,
        RuleExtractor(),
        workflow_id=f"write/{TENANT}/{request.idempotency_key}",
        seed=request.idempotency_key,
        now=at,
        allow_override=True,
    )
    commit_and_project(stores, decision.plan(f"commit-{request.idempotency_key}"))
    [outcome] = decision.outcomes
    return outcome


def active(stores: Stores, user: str) -> list[str]:
    heads = stores.canonical.records.namespace_heads(f"tenant/{TENANT}/user/{user}")
    return sorted(r.content for r in heads if r.status == "active")


ISSUE_PAIRS = [
    (
        "The customer ordered 2 bags of jasmine rice for delivery to the Northgate locker on "
        "Monday",
        "The customer ordered 3 bags of jasmine rice for delivery to the Northgate locker on "
        "Monday",
    ),
    (
        "Customer reported that parcel SF1234567890 was delivered to the wrong address on Friday",
        "Customer reported that parcel SF1234567891 was delivered to the wrong address on Friday",
    ),
    ("FLT event number 0 for u0", "FLT event number 30 for u0"),
    ("客户订了2袋茉莉香米，周一送到北门自提柜", "客户订了3袋茉莉香米，周一送到北门自提柜"),
    ("用户说运单SF1234567890送错了地址", "用户说运单SF1234567891送错了地址"),
]


@pytest.mark.parametrize(("first", "second"), ISSUE_PAIRS)
def test_distinct_facts_are_both_kept(stores: Stores, first: str, second: str) -> None:
    user = uuid.uuid4().hex[:8]
    assert write(stores, user, first, 0).decision == "add"
    outcome = write(stores, user, second, 1)
    assert (outcome.decision, outcome.relation) == ("add", "NEW")
    assert active(stores, user) == sorted([first, second])


def test_the_same_order_with_a_new_amount_supersedes(stores: Stores) -> None:
    user = uuid.uuid4().hex[:8]
    old = "The user said the refund of 120 yuan for order A-7781 has not arrived yet"
    new = "The user said the refund of 420 yuan for order A-7781 has not arrived yet"
    first = write(stores, user, old, 0)
    outcome = write(stores, user, new, 1)
    assert (outcome.decision, outcome.relation) == ("update", "SUPERSEDES")
    assert outcome.matched_memory_ids == [first.memory_id]
    assert active(stores, user) == [new]
    # the old statement is history, not lost
    assert first.memory_id is not None
    [closed] = stores.canonical.records.heads([first.memory_id]).values()
    assert closed.status == "superseded"
    assert closed.valid_to is not None


def test_a_correction_supersedes_and_a_new_detail_refines(stores: Stores) -> None:
    user = uuid.uuid4().hex[:8]
    rice = "The customer ordered 2 bags of jasmine rice for delivery on Monday"
    write(stores, user, rice, 0)
    corrected = "Actually, the customer ordered 3 bags of jasmine rice for delivery on Monday"
    outcome = write(stores, user, corrected, 1)
    assert outcome.relation == "SUPERSEDES"
    assert active(stores, user) == [corrected]

    parcel = "Order A-7781 was delivered to the wrong address"
    write(stores, user, parcel, 2)
    outcome = write(stores, user, parcel + " on Friday", 3)
    assert (outcome.decision, outcome.relation) == ("update", "REFINEMENT")


def test_the_same_event_from_another_writer_at_once_conflicts(stores: Stores) -> None:
    user = uuid.uuid4().hex[:8]
    crm = Principal(type="service", tenant=TENANT, id="crm", write=[f"tenant/{TENANT}/user/*"])
    stores.canonical.principals.put(crm, T0)
    text = "Refund of 120 yuan for order A-7781 was approved"
    write(stores, user, text, 0)
    outcome = write(
        stores,
        user,
        text.replace("120", "150"),
        0,
        principal=f"service:{TENANT}/crm",
    )
    # a service's statement (user_assertion by default) at the same instant as the user's
    assert outcome.relation == "CONFLICTS"
    assert outcome.conflict_group is not None


def test_a_duplicate_records_what_it_matched_and_why(stores: Stores) -> None:
    user = uuid.uuid4().hex[:8]
    first = write(stores, user, "The parcel for order A-7781 hasn't arrived yet.", 0)
    again = write(stores, user, "the parcel for order a7781 has not arrived", 1)
    assert (again.decision, again.relation) == ("no_op", "DUPLICATE")
    assert again.matched_memory_ids == [first.memory_id]
    with stores.canonical.engine.connect() as conn:
        rows = conn.execute(
            select(audit_events.c.details).where(
                audit_events.c.stage == "resolve", audit_events.c.outcome == "DUPLICATE"
            )
        ).all()
    details = [r.details if isinstance(r.details, dict) else json.loads(r.details) for r in rows]
    [mine] = [d for d in details if d["matched"] == [first.memory_id]]
    assert mine["why"] == "no_salient_difference"
    compared = mine["compared"][first.memory_id]
    assert compared["same"] is True
    assert compared["differences"] == []
    assert compared["similarity"] is not None
    assert compared["similarity"] > 0.5
    # and a NEW decision records the near memories it told apart, and how
    other = write(stores, user, "The parcel for order A-7782 hasn't arrived yet.", 2)
    assert other.relation == "NEW"


def test_six_hundred_distinct_events_are_six_hundred_memories(stores: Stores) -> None:
    user = uuid.uuid4().hex[:8]
    decisions = [
        write(stores, user, f"FLT event number {i} for u{i % 30}", i).decision for i in range(600)
    ]
    assert decisions.count("add") == 600
    assert len(active(stores, user)) == 600
    # and sent again, every one of them is a duplicate of itself
    again = [
        write(stores, user, f"FLT event number {i} for u{i % 30}.", 600 + i)
        for i in range(0, 600, 37)
    ]
    assert {(o.decision, o.relation) for o in again} == {("no_op", "DUPLICATE")}
    assert len(active(stores, user)) == 600


SUCCESSOR = {
    "qty": lambda v: v % 99 + 1,
    "amount": lambda v: v % 5000 + 1,
    "day": lambda v: (v + 1) % 7,
    "hour": lambda v: (v + 1) % 24,
    "who": lambda v: (v + 1) % 4,
}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    fact=facts,
    lang=st.sampled_from(["en", "zh"]),
    change=st.sampled_from(["qty", "amount", "day", "hour", "negated", "who", None]),
)
def test_decisions_follow_the_gist(
    stores: Stores, data: st.DataObject, fact: Fact, lang: str, change: str | None
) -> None:
    """Through the pipeline: a respelling is a DUPLICATE, a salient change never is."""
    user = uuid.uuid4().hex[:8]
    first = data.draw(rendered(fact, lang))
    assert write(stores, user, first, 0).decision == "add"
    if change is None:
        second = data.draw(rendered(fact, lang))
        assert write(stores, user, second, 1).relation == "DUPLICATE", (first, second)
        return
    value: Any = getattr(fact, change)
    other = (not value) if isinstance(value, bool) else SUCCESSOR[change](value)
    second = data.draw(rendered(replace(fact, **{change: other}), lang))
    outcome = write(stores, user, second, 1)
    assert outcome.relation != "DUPLICATE", (first, second)
    assert outcome.decision in ("add", "update")
