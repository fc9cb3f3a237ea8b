"""Property: any sequence of writes to one key leaves at most one value in force per valid
instant outside an open conflict group, keeps a linear history, and loses no write.

Runs the real pipeline (`decide`) against the real canonical store (SQLite), without Temporal:
the workflow only sequences these calls.
"""

from __future__ import annotations

import itertools
import os
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from governed_memory.memory.models import Principal, WriteRequest
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.write.extraction import RuleExtractor
from governed_memory.memory.write.pipeline import decide
from governed_memory.memory.write.stages import IdSource
from governed_memory.memory.write.state import StoreView
from tests.factories import T0

WRITERS = {
    "user": Principal(type="user", tenant="prop", id="u1"),
    "crm": Principal(type="service", tenant="prop", id="crm", write=["tenant/prop/user/*"]),
    "bot": Principal(type="agent", tenant="prop", id="bot", write=["tenant/prop/user/*"]),
}
SOURCES = ["user_assertion", "verified_tool_fact", "model_inference", "human_review"]

write_step = st.fixed_dictionaries(
    {
        "writer": st.sampled_from(sorted(WRITERS)),
        "channel": st.sampled_from(["sms", "email", "phone"]),
        "source": st.sampled_from(SOURCES),
        # valid_from relative to the recording time: most now, some late (in the past)
        "valid_offset_h": st.sampled_from([0, 0, 0, -24, -72, 1]),
    }
)

_stores: dict[str, Stores] = {}


def _store(tmp: Path) -> Stores:
    if "s" not in _stores:
        _stores["s"] = open_stores(Settings(data_dir=tmp))
        for p in WRITERS.values():
            if p.type != "user":
                _stores["s"].canonical.principals.put(p, T0)
    return _stores["s"]


@settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(write_step, min_size=1, max_size=8))
def test_one_key_many_writes(tmp_path_factory: Any, steps: list[dict[str, Any]]) -> None:
    stores = _store(tmp_path_factory.getbasetemp() / "prop")
    user = f"u{uuid.uuid4().hex[:10]}"
    namespace = f"tenant/prop/user/{user}"
    writers = dict(WRITERS.items())
    writers["user"] = Principal(type="user", tenant="prop", id=user)
    view = StoreView(stores)
    committed: list[str] = []
    outcomes = []
    for i, step in enumerate(steps):
        at = T0 + timedelta(hours=i)
        request = WriteRequest(
            principal=writers[step["writer"]].ref,
            namespace=namespace,
            idempotency_key=f"{user}-k{i}",
            candidate={
                "kind": "profile",
                "key": "notification.preference",
                "structured_value": {"channel": step["channel"]},
                "content": f"prefers {step['channel']}",
                "source_type": step["source"],
                "source_refs": [f"src://{i}?version=1"],
                "valid_from": (at + timedelta(hours=step["valid_offset_h"])).isoformat(),
            },
        )
        decision = decide(
            request,
            writers[step["writer"]],
            stores.policy,
            view,
            RuleExtractor(),
            workflow_id=f"w{i}",
            at=at,
            ids=IdSource(seed=f"{user}-{i}"),
        )
        plan = decision.plan(f"{user}-{i}")
        stores.canonical.commits.apply(plan)
        committed += [r.memory_id for r in plan.new_records]
        outcomes += decision.outcomes

    slot = stores.canonical.records.slot_state(namespace, "key:notification.preference")
    heads = stores.canonical.records.heads(committed)
    # nothing lost: every added memory exists; every no-op points at something that exists
    assert set(committed) <= set(heads)
    for o in outcomes:
        if o.decision in ("add", "update"):
            assert o.memory_id in heads
        if o.decision == "no_op" and o.relation == "DUPLICATE":
            assert o.matched_memory_ids
    # linear history per memory
    for memory_id in committed:
        versions = [v.version for v in stores.canonical.records.versions(memory_id)]
        assert versions == list(range(1, len(versions) + 1))
    # at most one value in force per valid instant, outside an open conflict group
    records = [r for r in slot.records if r.valid_from is not None]
    instants = sorted(
        {r.valid_from for r in records if r.valid_from is not None}
        | {r.valid_to for r in records if r.valid_to is not None}
    )
    probes = [*instants, *(a + (b - a) / 2 for a, b in itertools.pairwise(instants))]
    for t in probes:
        in_force = [
            r
            for r in records
            if r.readable_at(t) and r.conflict_group is None and r.status == "active"
        ]
        history = [r for r in records if r.readable_at(t) and r.conflict_group is None]
        assert len(in_force) <= 1, (t, in_force)
        assert len(history) <= 1, (
            t,
            [(h.structured_value, h.valid_from, h.valid_to) for h in history],
        )
