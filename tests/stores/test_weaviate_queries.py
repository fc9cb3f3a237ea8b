"""The Weaviate projection's pure parts, with the weaviate-client's own objects and no server:
filters for every field of `SearchFilters` (built, serialised to gRPC by the client's own
converter, and evaluated on a record's properties), tenant names, a record's properties, hits from
result objects, failed batches; then what the projection does around them (tenant activation, a
failed write, a removal racing a write, a new embedder, a lost index), on the in-process stand-in
of `tests/stores/test_projection_contract.py`, and how settings choose the projection."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from weaviate.collections.classes.batch import BatchObject, BatchObjectReturn, ErrorObject
from weaviate.collections.classes.config import _CollectionConfigCreate
from weaviate.collections.classes.filters import _FilterAnd, _FilterNot, _FilterOr, _FilterValue
from weaviate.collections.classes.internal import MetadataReturn, Object
from weaviate.collections.filters import _FilterToGRPC
from weaviate.util import generate_uuid5

from governed_memory.memory.embedding import HashedNgramEmbedder
from governed_memory.memory.errors import (
    InvalidInput,
    ProjectionUnavailable,
    ProjectionWriteFailed,
    ServiceUnavailable,
)
from governed_memory.memory.models import SENSITIVITY_ORDER
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_projection
from governed_memory.memory.stores.projection import Hit, SearchFilters
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.stores.projection.weaviate import (
    LEDGER_PROPERTIES,
    NO_END,
    NO_START,
    IndexLedgerEntry,
    WeaviateProjection,
    admits_nothing,
    batch_failures,
    build_filters,
    client_params,
    content_grams,
    fuse_keyword,
    hits_from,
    object_id,
    place_filter,
    plain_config,
    properties_of,
    raise_on_failures,
    rows_config,
    tenant_name,
)
from tests.factories import NS, T0, record

AT = T0 + timedelta(hours=1)


def tree(f: Any) -> Any:
    """A filter as plain data: ("and"/"or"/"not", [...]) or (property, operator, value)."""
    if isinstance(f, _FilterAnd):
        return ("and", [tree(g) for g in f.filters])
    if isinstance(f, _FilterOr):
        return ("or", [tree(g) for g in f.filters])
    if isinstance(f, _FilterNot):
        return ("not", [tree(g) for g in f.filters])
    assert isinstance(f, _FilterValue)
    return (f.target, f.operator.value, f.value)


def filters(**over: Any) -> SearchFilters:
    base: dict[str, Any] = {
        "tenant_id": "shop-a",
        "namespaces": (NS,),
        "valid_at": AT,
        "not_expired_at": AT,
    }
    base.update(over)
    return SearchFilters(**base)


# ---------------------------------------------------------------------------- filters


def test_build_filters_has_one_condition_per_field() -> None:
    t = AT.timestamp()
    assert tree(build_filters(filters())) == (
        "and",
        [
            ("namespace", "ContainsAny", [NS]),
            ("status", "ContainsAny", ["active", "superseded"]),
            ("valid_from", "LessThanEqual", t),
            ("valid_to", "GreaterThan", t),
            ("expires_at", "GreaterThan", t),
            ("sensitivity_rank", "LessThanEqual", SENSITIVITY_ORDER["restricted"]),
        ],
    )
    wide = filters(
        namespaces=(NS, "tenant/shop-a/user/456"),
        kinds=("profile", "episodic"),
        statuses=None,
        valid_at=None,
        not_expired_at=None,
        max_sensitivity="internal",
    )
    assert tree(build_filters(wide)) == (
        "and",
        [
            ("namespace", "ContainsAny", [NS, "tenant/shop-a/user/456"]),
            ("kind", "ContainsAny", ["profile", "episodic"]),
            ("sensitivity_rank", "LessThanEqual", 1),
        ],
    )


@pytest.mark.parametrize(
    "f",
    [
        filters(),
        filters(kinds=("profile",), statuses=None, max_sensitivity="public"),
        filters(valid_at=None, not_expired_at=None),
    ],
)
def test_filters_serialise_with_the_clients_own_grpc_converter(f: SearchFilters) -> None:
    message = _FilterToGRPC.convert(build_filters(f))
    text = str(message)
    assert "OPERATOR_AND" in text
    assert '"namespace"' in text


def test_admits_nothing_for_empty_lists() -> None:
    assert not admits_nothing(filters())
    assert admits_nothing(filters(namespaces=()))
    assert admits_nothing(filters(kinds=()))
    assert admits_nothing(filters(statuses=()))
    assert not admits_nothing(filters(kinds=None, statuses=None))


def test_place_filter() -> None:
    assert tree(place_filter(NS, "t1", [3, 4])) == (
        "and",
        [
            ("namespace", "Equal", NS),
            ("thread", "Equal", "t1"),
            ("or", [("position", "Equal", 3), ("position", "Equal", 4)]),
        ],
    )


# ---------------------------------------------------------------------------- collections


def test_the_collections_as_the_client_sends_them() -> None:
    """The create requests, built by the client's own model (what `collections.create` sends)."""
    rows = _CollectionConfigCreate(**rows_config("GovernedMemory"))._to_dict()
    assert rows["class"] == "GovernedMemory"
    assert rows["multiTenancyConfig"] == {
        "enabled": True,
        "autoTenantCreation": True,
        "autoTenantActivation": True,
    }
    vector = rows["vectorConfig"]["default"]
    assert vector["vectorizer"] == {"none": {}}
    assert vector["vectorIndexConfig"]["distance"] == "cosine"
    assert rows["invertedIndexConfig"]["bm25"] == {"b": 0.4, "k1": 0.9}
    props = {p["name"]: p for p in rows["properties"]}
    assert set(props) >= set(properties_of(record(), 1))
    assert (props["words"]["tokenization"], props["words"]["indexSearchable"]) == (
        "whitespace",
        True,
    )
    assert (props["grams"]["tokenization"], props["grams"]["indexSearchable"]) == (
        "whitespace",
        True,
    )
    assert (props["namespace"]["tokenization"], props["namespace"]["indexFilterable"]) == (
        "field",
        True,
    )
    assert not props["content"]["indexSearchable"]
    assert not props["content"]["indexFilterable"]
    ledger = _CollectionConfigCreate(
        **plain_config("GovernedMemoryLedger", LEDGER_PROPERTIES)
    )._to_dict()
    assert "multiTenancyConfig" not in ledger
    assert {p["name"] for p in ledger["properties"]} == set(
        IndexLedgerEntry("m", "t", "t").properties()
    )


# ---------------------------------------------------------------------------- tenant names


VALID_TENANT = re.compile(r"[A-Za-z0-9_-]{1,64}")


def test_tenant_names_are_valid_and_injective() -> None:
    ids = [
        "shop-a",
        "Shop-A",
        "shop_a",
        "shop a",
        "shop.a",
        "shop/a",
        "",
        "商户甲",
        "商户乙",
        "a" * 64,
        "a" * 65,
        "a" * 200,
        "a" * 200 + "b",
        "tshop-a_0123456789abcdef0123456789abcdef",
        tenant_name("Shop-A"),
    ]
    names = [tenant_name(i) for i in ids]
    assert all(VALID_TENANT.fullmatch(n) for n in names), names
    assert len(set(names)) == len(ids)
    # Apart even where case were folded.
    assert len({n.lower() for n in names}) == len(ids)
    assert tenant_name("shop-a") == "shop-a"  # a plain id is its own name
    assert tenant_name("Shop-A") == tenant_name("Shop-A")  # deterministic
    assert tenant_name("Shop-A").startswith("tshop-a_")


# ---------------------------------------------------------------------------- properties


def test_properties_of_a_record_with_open_times() -> None:
    r = record(
        content="用户偏好短信通知 at 3pm",
        valid_from=None,
        valid_to=None,
        expires_at=None,
        key=None,
        source_refs=["tool://crm/1", "msg://t-9/12"],
        sensitivity="confidential",
    )
    props = properties_of(r, 42)
    assert props["valid_from"] == NO_START
    assert props["valid_to"] == NO_END
    assert props["expires_at"] == NO_END
    assert props["recorded_at"] == r.recorded_at.timestamp()
    assert "key" not in props
    assert (props["thread"], props["position"]) == ("t-9", 12)
    assert props["sensitivity_rank"] == SENSITIVITY_ORDER["confidential"]
    assert props["written"] == 42
    assert props["content"] == r.content
    assert props["version"] == 1
    assert "3pm" in props["words"] or "3" in props["words"]
    assert all(" " not in g for g in props["grams"].split(" "))
    # Every value is what Weaviate stores: text, a number or an integer, never None.
    assert all(v is not None for v in props.values())
    assert isinstance(props["valid_to"], float)


def test_properties_of_a_record_with_times_and_no_place() -> None:
    r = record(expires_at=T0 + timedelta(days=1), source_refs=["tool://crm/1"])
    props = properties_of(r, 1)
    assert props["valid_from"] == T0.timestamp()
    assert props["expires_at"] == (T0 + timedelta(days=1)).timestamp()
    assert props["key"] == "notification.preference"
    assert "thread" not in props
    assert "position" not in props


def test_content_grams_keep_repeats_and_skip_spaces() -> None:
    assert content_grams("abcab") == ["abc", "bca", "cab"]
    assert content_grams("aaaa") == ["aaa", "aaa"]
    assert content_grams("ab cd") == []
    assert content_grams("海关退运") == ["海关退", "关退运"]
    assert content_grams("ＡＢＣ") == ["abc"]  # NFKC and case, as queries are read


def test_object_ids_are_the_clients_uuid5() -> None:
    assert object_id("mem_1") == str(generate_uuid5("mem_1"))
    assert object_id("mem_1") != object_id("mem_2")


def test_ledger_entry_round_trip() -> None:
    e = IndexLedgerEntry("mem_1", "shop-a", "shop-a", NS, 3, "h", True, 17, 12.5, {1: 1, 3: 2})
    assert IndexLedgerEntry.from_properties(e.properties()) == e
    bare = IndexLedgerEntry.from_properties({"memory_id": "mem_2"})
    assert (bare.version, bare.held, bare.expires_at, bare.applied) == (0, False, NO_END, {})


# ---------------------------------------------------------------------------- hits


def _object(
    memory_id: str,
    *,
    score: float | None = None,
    distance: float | None = None,
    vector: list[float] | None = None,
) -> Object[Any, Any]:
    return Object(
        uuid=uuid.UUID(object_id(memory_id)),
        metadata=MetadataReturn(score=score, distance=distance),
        properties={"memory_id": memory_id, "version": 2, "namespace": NS},
        references=None,
        vector={"default": vector} if vector is not None else {},
        collection="GovernedMemory",
    )


def test_hits_from_a_keyword_side_are_shares_of_the_best() -> None:
    objects = [_object("a", score=4.0, vector=[1.0, 0.0]), _object("b", score=1.0)]
    words = hits_from(objects, "words")
    assert [(h.memory_id, h.version, h.namespace) for h in words] == [("a", 2, NS), ("b", 2, NS)]
    assert [h.word_score for h in words] == [1.0, 0.25]
    assert words[0].vector is not None
    assert words[0].vector.dtype == np.float32
    assert words[1].vector is None
    grams = hits_from(objects, "grams")
    assert [h.trigram_score for h in grams] == [1.0, 0.25]
    assert all(h.word_score == 0 for h in grams)


def test_hits_from_the_vector_side_carry_cosine_and_rank() -> None:
    objects = [_object("a", distance=0.1, vector=[0.6, 0.8]), _object("b", distance=0.7)]
    hits = hits_from(objects, "vector")
    assert [h.vector_rank for h in hits] == [1, 2]
    assert hits[0].vector_score == pytest.approx(0.9)
    assert hits[1].vector_score == pytest.approx(0.3)
    assert hits[0].vector is not None
    assert hits_from([], "vector") == []
    (row,) = hits_from([_object("c")])
    assert (row.score, row.vector_score, row.keyword_rank) == (0.0, None, None)


def test_fuse_keyword_ranks_by_both_sides() -> None:
    words = [Hit("a", 1, NS, word_score=1.0), Hit("b", 1, NS, word_score=0.5)]
    grams = [Hit("b", 1, NS, trigram_score=1.0), Hit("c", 1, NS, trigram_score=0.2)]
    fused = fuse_keyword(words, grams)
    assert [(h.memory_id, h.keyword_rank) for h in fused] == [("b", 1), ("a", 2), ("c", 3)]
    assert (fused[0].word_score, fused[0].trigram_score) == (0.5, 1.0)
    # The relevance the projection gives them is in [0, 1].
    embedder = HashedNgramEmbedder()
    assert all(0 <= h.relevance(embedder) <= 1 for h in fused)


# ---------------------------------------------------------------------------- failed batches


def _failed(n: int) -> BatchObjectReturn:
    result = BatchObjectReturn()
    for i in range(n):
        result.errors[i] = ErrorObject(
            message=f"bad property {i}",
            object_=BatchObject(collection="GovernedMemory", uuid=object_id(f"m{i}"), index=i),
        )
    result.has_errors = n > 0
    return result


def test_a_failed_batch_raises_a_typed_retryable_error() -> None:
    raise_on_failures(_failed(0), "rows")  # nothing failed: nothing raised
    assert batch_failures(_failed(2)) == [
        f"{object_id('m0')}: bad property 0",
        f"{object_id('m1')}: bad property 1",
    ]
    with pytest.raises(ProjectionWriteFailed, match="refused 7 rows") as caught:
        raise_on_failures(_failed(7), "rows")
    assert isinstance(caught.value, ServiceUnavailable)
    assert caught.value.retryable
    assert "(+2 more)" in str(caught.value)


def test_a_failed_batch_never_repeats_the_values_weaviate_quotes() -> None:
    result = _failed(1)
    result.errors[0].message = "invalid text property 'content': 'I live at 12 Rose Lane' too long"
    with pytest.raises(ProjectionWriteFailed) as caught:
        raise_on_failures(result, "rows")
    assert "Rose Lane" not in str(caught.value)
    assert "invalid text property" in str(caught.value)


def test_client_params_from_the_url() -> None:
    assert client_params("http://weaviate:8080", 50051) == {
        "http_host": "weaviate",
        "http_port": 8080,
        "http_secure": False,
        "grpc_host": "weaviate",
        "grpc_port": 50051,
        "grpc_secure": False,
    }
    secure = client_params("https://cluster.example.com", 443)
    assert (secure["http_port"], secure["http_secure"], secure["grpc_secure"]) == (443, True, True)
    with pytest.raises(InvalidInput):
        client_params("weaviate:8080", 50051)


# ---------------------------------------------------------------------------- choosing it


def test_settings_choose_the_projection(tmp_path: Path) -> None:
    embedder = HashedNgramEmbedder()
    embedded = open_projection(Settings(data_dir=tmp_path), embedder)
    assert isinstance(embedded, EmbeddedProjection)
    embedded.close()
    chosen = open_projection(
        Settings(
            data_dir=tmp_path,
            projection="weaviate",
            weaviate_url="http://127.0.0.1:9",  # nothing listens: connecting is left to first use
            weaviate_api_key="k",
            weaviate_grpc_port=50052,
        ),
        embedder,
    )
    assert isinstance(chosen, WeaviateProjection)
    assert chosen.name == "weaviate"
    with pytest.raises(ProjectionUnavailable, match="Weaviate unreachable") as caught:
        chosen.state(["mem_1"])
    assert caught.value.retryable
    chosen.close()
    with pytest.raises(InvalidInput, match="not a Weaviate HTTP URL"):
        open_projection(
            Settings(data_dir=tmp_path, projection="weaviate", weaviate_url="weaviate:8080"),
            embedder,
        )


def test_the_embedded_path_never_imports_the_weaviate_client(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from governed_memory.memory.settings import Settings\n"
        "from governed_memory.memory.stores import open_stores\n"
        f"s = open_stores(Settings(data_dir={str(tmp_path)!r}))\n"
        "s.close()\n"
        "assert 'weaviate' not in sys.modules, 'weaviate imported'\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
