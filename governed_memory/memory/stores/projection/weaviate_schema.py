"""The Weaviate projection's collections: the properties of the rows, the ledger, the removal
marks and the meta collection, their configurations, and making them (anew when they were made
for another schema or embedder)."""

from __future__ import annotations

import uuid
from typing import Any

import structlog
import weaviate
from weaviate.classes.config import (
    Configure,
    DataType,
    Property,
    StopwordsPreset,
    Tokenization,
    VectorDistances,
)
from weaviate.classes.data import DataObject
from weaviate.exceptions import WeaviateBaseError
from weaviate.util import generate_uuid5

from governed_memory.memory.stores.projection.weaviate_client import raise_on_failures
from governed_memory.memory.stores.projection.weaviate_rows import VECTOR

log = structlog.get_logger("governed_memory.memory.stores.projection.weaviate")


SCHEMA_VERSION = "1"


def _text(name: str, *, searchable: bool = False, filterable: bool = True) -> Property:
    """A text property: searchable ones are whitespace-tokenized (we make their terms), filtered
    ones are compared whole (`field`), one indexed neither way has no tokenization."""
    tokenization = (
        Tokenization.WHITESPACE if searchable else Tokenization.FIELD if filterable else None
    )
    return Property(
        name=name,
        data_type=DataType.TEXT,
        tokenization=tokenization,
        index_filterable=filterable,
        index_searchable=searchable,
    )


def _number(name: str, data_type: DataType) -> Property:
    return Property(name=name, data_type=data_type, index_filterable=True)


ROW_PROPERTIES = [
    _text("memory_id"),
    _text("tenant_id"),
    _text("namespace"),
    _text("kind"),
    _text("key"),
    _text("status"),
    _text("sensitivity"),
    _number("sensitivity_rank", DataType.INT),
    _number("version", DataType.INT),
    _text("content_hash"),
    _number("valid_from", DataType.NUMBER),
    _number("valid_to", DataType.NUMBER),
    _number("expires_at", DataType.NUMBER),
    _number("recorded_at", DataType.NUMBER),
    # The text itself is kept (deletion verification reads it) but not indexed: the two keyword
    # sides are `words` and `grams`, tokenized by us.
    _text("content", filterable=False),
    _text("words", searchable=True, filterable=False),
    _text("grams", searchable=True, filterable=False),
    _text("thread"),
    _number("position", DataType.INT),
    _number("written", DataType.INT),
]

LEDGER_PROPERTIES = [
    _text("memory_id"),
    _text("tenant"),
    _text("tenant_id"),
    _text("namespace"),
    _number("version", DataType.INT),
    _text("content_hash"),
    Property(name="held", data_type=DataType.BOOL, index_filterable=True),
    _number("written", DataType.INT),
    _number("expires_at", DataType.NUMBER),
    _text("applied", filterable=False),
]

REMOVED_PROPERTIES = [_text("memory_id"), _number("version", DataType.INT)]
META_PROPERTIES = [_text("k"), _text("v", filterable=False)]


def rows_config(name: str) -> dict[str, Any]:
    """`collections.create`'s arguments for the rows: a tenant per memory tenant (created and
    activated on use), our own vectors (cosine), and BM25 as the embedded projection has it
    (Anserini's k1 and b, for short passages; function words are dropped from queries by
    `memory.terms`, not by Weaviate)."""
    return {
        "name": name,
        "multi_tenancy_config": Configure.multi_tenancy(
            enabled=True, auto_tenant_creation=True, auto_tenant_activation=True
        ),
        "vector_config": Configure.Vectors.self_provided(
            name=VECTOR,
            vector_index_config=Configure.VectorIndex.hnsw(distance_metric=VectorDistances.COSINE),
        ),
        "inverted_index_config": Configure.inverted_index(
            bm25_k1=0.9, bm25_b=0.4, stopwords_preset=StopwordsPreset.NONE
        ),
        "properties": ROW_PROPERTIES,
    }


def plain_config(name: str, properties: list[Property]) -> dict[str, Any]:
    """`collections.create`'s arguments for a bookkeeping collection (no tenants; a flat vector
    index that holds no vector)."""
    return {
        "name": name,
        "vector_config": Configure.Vectors.self_provided(
            vector_index_config=Configure.VectorIndex.flat()
        ),
        "properties": properties,
    }


def _meta(client: weaviate.WeaviateClient, meta_name: str) -> dict[str, str]:
    """What the meta collection holds (schema, embedder, epoch)."""
    meta = client.collections.get(meta_name)
    found = meta.query.fetch_objects(limit=100, return_properties=["k", "v"])
    return {str(o.properties["k"]): str(o.properties["v"]) for o in found.objects}


def _init_schema(
    client: weaviate.WeaviateClient,
    names: tuple[str, str, str, str],
    embedder_name: str,
    prefix: str,
) -> None:
    """Create what is missing; drop everything when it was made for another schema or
    embedder (repair rebuilds it from canonical); an epoch for a new index."""
    rows_name, ledger_name, removed_name, meta_name = names
    exists = {n: client.collections.exists(n) for n in names}
    if exists[meta_name]:
        stored = _meta(client, meta_name)
        other = stored and (
            stored.get("schema") != SCHEMA_VERSION or stored.get("embedder") != embedder_name
        )
        if other or not (exists[rows_name] and exists[ledger_name]):
            # Another shape, or the rows lost: a new index (and a new epoch).
            log.warning(
                "weaviate projection starts anew",
                prefix=prefix,
                schema=stored.get("schema"),
                embedder=stored.get("embedder"),
            )
            client.collections.delete([n for n in names if exists[n]])
            exists = dict.fromkeys(names, False)
    for name, config in (
        (rows_name, rows_config(rows_name)),
        (ledger_name, plain_config(ledger_name, LEDGER_PROPERTIES)),
        (removed_name, plain_config(removed_name, REMOVED_PROPERTIES)),
        (meta_name, plain_config(meta_name, META_PROPERTIES)),
    ):
        if not exists[name]:
            try:
                client.collections.create(**config)
            except WeaviateBaseError:
                if not client.collections.exists(name):  # not another process's creation
                    raise
    meta = client.collections.get(meta_name)
    raise_on_failures(
        meta.data.insert_many(
            [
                DataObject(properties={"k": k, "v": v}, uuid=generate_uuid5(k))
                for k, v in (("schema", SCHEMA_VERSION), ("embedder", embedder_name))
            ]
        ),
        "meta objects",
    )
    # The first process to write the epoch sets it: an insert fails on an existing UUID.
    try:
        meta.data.insert({"k": "epoch", "v": uuid.uuid4().hex}, uuid=generate_uuid5("epoch"))
    except WeaviateBaseError:
        if "epoch" not in _meta(client, meta_name):
            raise
