"""The graph projection through the real service (Temporal, SQLite and Postgres canonical, the
graph in the embedded projection or shared in the canonical database): a
second hop linked only through an entity is recalled, in English and in Chinese; a restricted or
erased memory is neither reached nor reaching; a deletion takes its mentions, aliases and
relations with it (the `graph` probe); an entity two users both name stays apart per namespace;
a dropped graph is derived again by the repair."""

from __future__ import annotations

from datetime import timedelta

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import Principal
from governed_memory.memory.retrieval import RecallCache
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, NS, T0, USER


@pytest.fixture(params=["projection", "shared"])
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test here on both homes of the graph: the embedded projection's file, and the
    canonical database's tables a deployment on many hosts shares (SQLite and Postgres)."""
    return settings.model_copy(update={"graph": request.param})


OTHER = "user:shop-a/456"
OTHER_NS = "tenant/shop-a/user/456"
LATER = T0 + timedelta(days=1)

EN = [
    "Every December the customer sends a gift parcel to their sister Anna.",
    "Anna moved to Porto last spring.",
]
ZH = ["每学期开学前用户都给儿子小宇寄一箱零食。", "小宇现在在杭州读书。"]
DISTRACTORS = [
    "The customer prefers parcels to be left with the concierge.",
    "The customer's colleague Ben lives in Leeds.",
    "Customer asked for a refund on a broken kettle.",
    "The customer likes green tea and dislikes coffee.",
    "用户喜欢周末收快递。",
    "用户的同事李明住在成都。",
    "用户上次买的保温杯有划痕，已经退货。",
    "用户希望包裹放在快递柜。",
    "The customer's birthday gift wrapping should be plain.",
    "The customer ordered a blue raincoat in March.",
]


async def _write(
    client: MemoryClient, principal: str, namespace: str, text: str, **over: object
) -> str:
    result = await client.write(
        principal, namespace, {"kind": "semantic", "content": text, **over}, at=T0
    )
    memory_id = result.outcome.memory_id
    assert memory_id is not None, result.outcome
    return memory_id


async def _kept(client: MemoryClient, texts: list[str]) -> list[str]:
    return [await _write(client, USER, NS, t) for t in texts]


def _walk_off(client: MemoryClient) -> None:
    retrieval = client.stores.policy.retrieval.model_copy(update={"graph_hops": 0})
    client.stores.policy = client.stores.policy.model_copy(update={"retrieval": retrieval})


async def _recalled(client: MemoryClient, question: str, principal: str = USER) -> dict[str, str]:
    client.reader.cache = RecallCache(0, 0.0)  # each answer computed afresh
    result = await client.recall(principal, [NS], query=question, k=5, at=LATER)
    return {m.memory_id: " ".join(m.retrieval_reasons) for m in result.memories}


@pytest.mark.parametrize(
    ("texts", "question", "via"),
    [
        (EN, "Which city should this December's gift parcel go to?", "entity anna"),
        (ZH, "开学前那箱零食应该寄到哪个城市？", "entity 小宇"),
    ],
    ids=["english", "chinese"],
)
async def test_a_second_hop_linked_only_by_an_entity_is_recalled(
    client: MemoryClient, texts: list[str], question: str, via: str
) -> None:
    first, second = await _kept(client, texts)
    await _kept(client, DISTRACTORS)
    found = await _recalled(client, question)
    assert first in found
    assert second in found, found
    assert f"via {via} ← {first}" in found[second]
    # without the walk, the second hop is not found: the graph is what finds it
    _walk_off(client)
    assert second not in await _recalled(client, question)


async def test_a_memory_above_the_readers_ceiling_is_neither_reached_nor_reaching(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    assert BOT.sensitivity_ceiling == "internal"
    first = await _write(client, USER, NS, EN[0])
    hidden = await _write(client, USER, NS, EN[1], sensitivity="confidential")
    await _kept(client, DISTRACTORS)
    question = "Which city should this December's gift parcel go to?"
    assert hidden not in await _recalled(client, question, BOT.ref)
    # reaching: a source above the ceiling lends nothing to what the reader may see
    secret = await _write(
        client,
        USER,
        NS,
        "The customer's nephew Oskar keeps the spare key.",
        sensitivity="confidential",
    )
    seen = await _write(client, USER, NS, "Oskar studies at Lund University.")
    found = await _recalled(client, "who keeps the spare key?", BOT.ref)
    assert secret not in found
    assert seen not in found
    del first


async def test_an_erased_memory_leaves_nothing_in_the_graph(client: MemoryClient) -> None:
    first, second = await _kept(client, EN)
    graph = client.stores.projection
    wide = SearchFilters(tenant_id="shop-a", namespaces=(NS,), statuses=None)
    said = graph.entities_of([second], wide)[second]  # type: ignore[attr-defined]
    assert "porto" in {e.key for e in said}
    receipt = await client.forget(USER, {"namespace": NS, "memory_id": second}, at=LATER)
    assert receipt.verification_status == "passed", [p for p in receipt.probes if not p.passed]
    assert "graph" in receipt.indexes_removed
    assert next(p for p in receipt.probes if p.probe == "graph").passed
    assert graph.graph_leftovers() == 0  # type: ignore[attr-defined]
    assert graph.entities_of([second], wide) == {}  # type: ignore[attr-defined]
    anna = graph.entity("anna", wide, 50)  # type: ignore[attr-defined]
    assert anna.memory_ids == [first]
    assert all(r.memory_id == first for r in anna.relations)
    # Porto was named by the erased memory only: no entity, no name left
    porto = graph.entity("porto", wide, 50)  # type: ignore[attr-defined]
    assert porto.names == {}
    assert porto.memory_ids == []
    # and the erased memory is not reached from the one that stays
    found = await _recalled(client, "Which city should this December's gift parcel go to?")
    assert second not in found


async def test_an_entity_two_users_name_stays_apart(client: MemoryClient) -> None:
    reader = Principal(
        type="agent",
        tenant="shop-a",
        id="both",
        read=["tenant/shop-a/user/*"],
        write=["tenant/shop-a/user/*"],
    )
    client.register_principal(reader)
    first = await _write(client, USER, NS, EN[0])
    theirs = await _write(client, OTHER, OTHER_NS, "Anna moved to Porto last spring.")
    await _kept(client, DISTRACTORS)
    question = "Which city should this December's gift parcel go to?"
    found = await client.recall(reader.ref, [NS], query=question, k=5, at=LATER)
    ids = {m.memory_id for m in found.memories}
    assert first in ids
    assert theirs not in ids  # another user's Anna is not this user's sister
    graph = client.stores.projection
    mine = SearchFilters(tenant_id="shop-a", namespaces=(NS,))
    assert graph.entity("anna", mine, 50).memory_ids == [first]  # type: ignore[attr-defined]


async def test_a_dropped_graph_is_derived_again_by_the_repair(client: MemoryClient) -> None:
    first, second = await _kept(client, EN)
    graph = client.stores.projection
    wide = SearchFilters(tenant_id="shop-a", namespaces=(NS,), statuses=None)
    graph.drop_graph()  # type: ignore[attr-defined]
    assert graph.entities_of([first, second], wide) == {}  # type: ignore[attr-defined]
    report = await client.repair()
    assert report.full  # a new epoch: every row compared
    assert report.mismatches.get("stale", 0) >= 2, report
    assert report.repaired >= 2, report
    said = graph.entities_of([second], wide)[second]  # type: ignore[attr-defined]
    assert {e.key for e in said} == {"anna", "porto"}
    again = await client.repair()
    assert again.repaired == 0


async def test_an_entity_is_shown_as_the_reader_may_read_it(client: MemoryClient) -> None:
    """`GET /v1/entities/{name}`: names, relations with the memory behind each and its valid
    time, the memories that mention it; another user sees nothing of it, and asking for a
    namespace one may not read is refused by name, as recall refuses it."""
    import httpx

    from governed_memory.shell.http.app import create_app

    first, second = await _kept(client, EN)
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        mine = await http.get(
            "/v1/entities/Anna", headers={"Authorization": f"Bearer {client.token_for(USER)}"}
        )
        assert mine.status_code == 200, mine.text
        view = mine.json()
        assert view["key"] == "anna"
        assert view["names"] == {"Anna": 2, "sister": 1}  # the names it goes by, counted
        assert "role:sister" in view["aliases"]
        assert {m["memory_id"] for m in view["memories"]} == {first, second}
        relations = {
            (r["subject"], r["predicate"], r["object"], r["memory_id"]) for r in view["relations"]
        }
        assert ("self", "sister", "anna", first) in relations
        assert ("anna", "moved_to", "porto", second) in relations
        # the role finds the same person
        sister = await http.get(
            "/v1/entities/sister", headers={"Authorization": f"Bearer {client.token_for(USER)}"}
        )
        assert sister.json()["key"] == "role:sister"
        theirs = await http.get(
            "/v1/entities/Anna",
            params={"namespace": NS},
            headers={"Authorization": f"Bearer {client.token_for(OTHER)}"},
        )
        assert theirs.status_code == 200, theirs.text
        assert theirs.json()["memories"] == []
        assert theirs.json()["relations"] == []
        assert theirs.json()["refused_namespaces"] == [NS]
        no_token = await http.get("/v1/entities/Anna")
        assert no_token.status_code == 401
    # erased: gone from the view
    await client.forget(USER, {"namespace": NS, "memory_id": second}, at=LATER)
    view_after = client.entity(USER, "Anna")
    assert {m.memory_id for m in view_after.memories} == {first}
    assert all(r.memory_id == first for r in view_after.relations)


async def test_the_memory_page_says_what_is_known_about_whom(client: MemoryClient) -> None:
    import httpx

    from governed_memory.shell.http.app import create_app

    first, second = await _kept(client, EN)
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        signed = await http.post(
            "/page/login",
            data={"token": client.token_for(USER)},
            headers={"Origin": "http://api"},
        )
        assert signed.status_code in (200, 303), signed.text
        page = await http.get("/page")
        assert "What is known about" in page.text
        known = page.text[page.text.index("id=known") :]
        assert "<strong>Anna</strong>" in known
        assert f"/page/memories/{second}" in known  # each line cites its memory
        assert f"/page/memories/{first}" in known


async def test_a_word_that_only_opens_sentences_links_nothing(client: MemoryClient) -> None:
    """ "Lucky" opens two sentences and names nothing: the walk does not join what it opens
    (a name the reader's memories write mid-sentence, like Anna above, does)."""
    lake = await _write(client, USER, NS, "Lucky for us, the weather held at the lake cabin.")
    desk = await _write(client, USER, NS, "Lucky charms cover the top of the customer's desk.")
    await _kept(client, DISTRACTORS)
    found = await _recalled(client, "how was the weather at the lake cabin?")
    assert lake in found
    assert not any("via entity lucky" in reasons for reasons in found.values()), found
    del desk


async def test_a_context_says_what_is_known_about_whom_the_task_names(
    client: MemoryClient,
) -> None:
    """The context package's entity summary: each relation stated of the entity the task names,
    as a sentence with its valid time, pinned to the memory that states it; a memory the
    reader may not read states nothing there."""
    client.register_principal(BOT)
    sister = await _write(client, USER, NS, EN[0])
    moved = await _write(client, USER, NS, EN[1], valid_from="2026-03-01T00:00:00Z")
    hidden = await _write(
        client, USER, NS, "Anna works at Nordbank in Porto.", sensitivity="confidential"
    )
    await _kept(client, DISTRACTORS)
    package = await client.build_context(
        BOT.ref, [NS], "Write a birthday card to Anna.", {"total_tokens": 4000}, at=LATER
    )
    known = {i.content: i for i in package.items if i.kind == "entity_summary"}
    assert known[f"the user's sister: Anna (from {T0:%Y-%m-%d})"].memory_id == sister
    assert known["Anna moved to Porto (from 2026-03-01)"].memory_id == moved
    assert known["Anna moved to Porto (from 2026-03-01)"].version == 1
    assert not any("Nordbank" in c for c in known), known
    assert hidden not in {p.memory_id for p in package.pinned}
    assert "[entity_summary | trust=untrusted]" in package.text()
    # the caller may ask about an entity the task does not name; no entity, no section
    asked = await client.build_context(
        BOT.ref, [NS], "Summarise the week.", {"total_tokens": 4000}, at=LATER, entities=["Porto"]
    )
    assert any("Porto" in i.content for i in asked.items if i.kind == "entity_summary")
    none = await client.build_context(BOT.ref, [NS], "Summarise the week.", {"total_tokens": 4000})
    assert not [i for i in none.items if i.kind == "entity_summary"]


async def test_a_writer_may_propose_the_entities_and_relations_its_text_states(
    client: MemoryClient,
) -> None:
    """Hints travel with the memory's version: the graph takes them beside what the extractor
    finds (here a place the extractor does not take for one), the entity view shows the
    relation, and a hint the text does not say, or an unknown relation, is refused with nothing
    stored."""
    lake = {"name": "lake house", "kind": "place"}
    first = await _write(
        client,
        USER,
        NS,
        "Every winter the wool socks go to the lake house.",
        graph={"entities": [lake]},
    )
    second = await _write(
        client,
        USER,
        NS,
        "The lake house is in Bergen these days.",
        graph={
            "entities": [lake, {"name": "Bergen", "kind": "place"}],
            "relations": [{"subject": "lake house", "predicate": "located_in", "object": "Bergen"}],
        },
    )
    await _kept(client, DISTRACTORS)
    question = "Where should the wool socks go this winter?"
    found = await _recalled(client, question)
    assert first in found
    assert f"via entity lake house ← {first}" in found.get(second, ""), found
    view = client.entity(USER, "lake house", [NS])
    assert [(r.predicate, r.object_name, r.memory_id) for r in view.relations] == [
        ("located_in", "Bergen", second)
    ]
    _walk_off(client)
    assert second not in await _recalled(client, question)

    # erased with the memory: every version's hints blanked, nothing left in the graph
    receipt = await client.forget(USER, {"namespace": NS, "memory_id": second}, at=LATER)
    assert receipt.verification_status == "passed", [p for p in receipt.probes if not p.passed]
    assert client.stores.canonical.records.unblanked([second]) == set()
    assert client.entity(USER, "Bergen", [NS]).memories == []

    before = len(client.export(USER, NS).memories)
    for hints, said in (
        ({"entities": [{"name": "Oslo"}]}, "entity 0: a name or alias is not in the memory's text"),
        (
            {
                "entities": [lake],
                "relations": [
                    {"subject": "lake house", "predicate": "ignore_rules", "object": "self"}
                ],
            },
            "unknown relation: one of",
        ),
        (
            {
                "entities": [lake],
                "relations": [{"subject": "lake house", "predicate": "owns", "object": "Oslo"}],
            },
            "relation 0: an end names none of the memory's entities",
        ),
    ):
        with pytest.raises(InvalidInput, match=said) as refused:
            await _write(client, USER, NS, "The lake house needs a new roof.", graph=hints)
        # the refusal names the hint by position, never by what it says
        assert "Oslo" not in str(refused.value)
        assert "ignore_rules" not in str(refused.value)
    assert len(client.export(USER, NS).memories) == before
