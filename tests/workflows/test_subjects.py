"""Who a memory may be about: a writer names only subjects it may speak for, through every door
(a single write, a batch), and a subject's deletion erases what its requester may delete and
counts, without naming them, what it could not — on the real worker, Temporal server and stores
(SQLite and Postgres)."""

from __future__ import annotations

import uuid

import pytest

from governed_memory.memory.errors import UnauthorizedNamespace
from governed_memory.memory.models import Principal
from governed_memory.shell.client import MemoryClient
from tests.factories import T0

PLANTED = {"kind": "semantic", "content": "456 每天很晚才回家", "subject_ref": "user:456"}


async def test_a_user_cannot_plant_a_memory_about_another_user(client: MemoryClient) -> None:
    run = uuid.uuid4().hex[:8]
    mallory, mallory_ns = f"user:shop-a/m{run}", f"tenant/shop-a/user/m{run}"
    single = await client.write(mallory, mallory_ns, PLANTED, at=T0)
    assert [(o.decision, o.reason) for o in single.outcomes] == [("reject", "subject_not_allowed")]
    batch = await client.write_batch(
        [
            client.write_request(mallory, mallory_ns, PLANTED, idempotency_key=f"{run}-a", at=T0),
            client.write_request(
                mallory,
                mallory_ns,
                {**PLANTED, "subject_ref": "tenant/shop-a/user/456"},
                idempotency_key=f"{run}-b",
                at=T0,
            ),
            client.write_request(
                mallory,
                mallory_ns,
                {"kind": "semantic", "content": "我每天很晚才回家"},
                idempotency_key=f"{run}-c",
                at=T0,
            ),
        ]
    )
    assert [[(o.decision, o.reason) for o in item.outcomes] for item in batch.items] == [
        [("reject", "subject_not_allowed")],
        [("reject", "subject_not_allowed")],
        [("add", None)],
    ]
    assert client.stores.canonical.records.subject_heads("shop-a", "user:456") == []
    trail = client.stores.canonical.audit.trail(workflow_id=single.workflow_id)
    refused = [row for row in trail if row["stage"] == "subject_validation"]
    assert [(r["outcome"], r["details"]) for r in refused] == [
        ("not_allowed", {"subject_kind": "user"})
    ]


TEAM = "tenant/shop-a/team/ops"
#: An agent that may write every user's namespace and the ops team's: it may speak for user 456
#: wherever it writes.
SCRIBE = Principal(
    type="agent",
    tenant="shop-a",
    id="scribe",
    read=["tenant/shop-a/user/*", TEAM],
    write=["tenant/shop-a/user/*", TEAM],
)


async def kept_about(client: MemoryClient, victim: str) -> tuple[str, str, str]:
    """The victim's own memory in their namespace, and two about them elsewhere (another
    user's namespace, a team's), written by an agent that may speak for them."""
    client.register_principal(SCRIBE)
    victim_ns = f"tenant/shop-a/user/{victim}"
    other_ns = f"tenant/shop-a/user/o{victim}"
    own = await client.write(
        f"user:shop-a/{victim}",
        victim_ns,
        {"kind": "semantic", "content": "我家楼下的快递柜总是满的"},
        at=T0,
    )
    elsewhere = await client.write(
        SCRIBE.ref,
        other_ns,
        {"kind": "semantic", "content": "邻居说他总在凌晨遛狗", "subject_ref": f"user:{victim}"},
        at=T0,
    )
    in_team = await client.write(
        SCRIBE.ref,
        TEAM,
        {"kind": "semantic", "content": "客户投诉过三次配送延误", "subject_ref": f"user:{victim}"},
        at=T0,
    )
    ids = (own.outcome.memory_id, elsewhere.outcome.memory_id, in_team.outcome.memory_id)
    assert all(ids), (own, elsewhere, in_team)
    return ids  # type: ignore[return-value]


async def test_a_subject_deletion_erases_what_its_requester_may_and_counts_the_rest(
    client: MemoryClient,
) -> None:
    victim = f"v{uuid.uuid4().hex[:8]}"
    own, elsewhere, in_team = await kept_about(client, victim)
    receipt = await client.forget(f"user:shop-a/{victim}", {"subject_ref": f"user:{victim}"})
    assert receipt.verification_status == "passed", [p for p in receipt.probes if not p.passed]
    assert receipt.canonical_records == 1
    assert (receipt.withheld, receipt.withheld_namespaces) == (2, 2)
    heads = client.stores.canonical.records.heads([own, elsewhere, in_team])
    assert (heads[own].status, heads[own].content) == ("deleted", "")
    assert heads[elsewhere].status == "active"  # not the victim's to erase
    assert heads[in_team].status == "active"
    # the receipt counts; it names neither the namespaces nor what they hold
    shown = receipt.model_dump_json()
    for secret in (f"o{victim}", "team/ops", "凌晨遛狗", "配送延误"):
        assert secret not in shown
    kept = client.receipt(receipt.deletion_id, f"user:shop-a/{victim}")
    assert (kept.withheld, kept.withheld_namespaces) == (2, 2)
    trail = client.stores.canonical.audit.trail(workflow_id=receipt.workflow_id)
    partial = [r for r in trail if r["stage"] == "delete_authorize"]
    assert [(r["outcome"], r["details"]["withheld"]) for r in partial] == [("partial", 2)]
    # an agent that may delete everywhere it wrote erases all of it
    client.register_principal(SCRIBE.model_copy(update={"delete": ["tenant/shop-a/user/*", TEAM]}))
    everything = await client.forget(SCRIBE.ref, {"subject_ref": f"user:{victim}"})
    assert everything.verification_status == "passed"
    assert (everything.withheld, everything.withheld_namespaces) == (0, 0)
    about = client.stores.canonical.records.subject_heads("shop-a", f"user:{victim}")
    assert {(r.status, r.content) for r in about} == {("deleted", "")}


async def test_a_scope_its_requester_may_delete_none_of_is_refused_without_naming_it(
    client: MemoryClient,
) -> None:
    victim = f"v{uuid.uuid4().hex[:8]}"
    _, elsewhere, in_team = await kept_about(client, victim)
    stranger = f"user:shop-a/s{victim}"
    with pytest.raises(UnauthorizedNamespace) as refused:
        await client.forget(stranger, {"subject_ref": f"user:{victim}"})
    assert f"o{victim}" not in str(refused.value)
    assert "team/ops" not in str(refused.value)
    with pytest.raises(UnauthorizedNamespace):  # a namespace named outright: refused as before
        await client.forget(stranger, {"namespace": f"tenant/shop-a/user/o{victim}"})
    heads = client.stores.canonical.records.heads([elsewhere, in_team])
    assert {h.status for h in heads.values()} == {"active"}
