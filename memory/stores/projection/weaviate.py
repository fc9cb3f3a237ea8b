"""The Weaviate projection: the same `Projection` as the embedded one, on a Weaviate cluster that
every worker and API replica shares (weaviate-client v4, Weaviate ≥ 1.26).

Four collections, named from one prefix (default `GovernedMemory`):

- `GovernedMemory`: one object per projected memory (its current canonical state), with native
  multi-tenancy: each memory tenant is a Weaviate tenant (`tenant_name`), so one tenant's rows
  are never searched with another's. The vector is the service's own `Embedder`'s (no vectorizer
  module; cosine). Keyword search runs BM25 over two derived properties, the embedded
  projection's two keyword sides: `words` (the word terms of `memory.terms`: stemmed English,
  jieba-cut Chinese, whitespace-tokenized) and `grams` (the text's character trigrams,
  whitespace-tokenized), so Chinese is searched as the embedded projection searches it. Times
  are numbers (seconds since the epoch), an open end stored as ±1e15 (`NO_START`, `NO_END`), so
  every filter of `SearchFilters` is a plain comparison and needs no null index.
- `GovernedMemoryLedger` (not multi-tenant): one object per memory ever projected — its
  Weaviate tenant, the version and content hash last written, its write mark, its expiry,
  whether a row may be held, and how many times each version was written (`applies`). The
  `Projection` interface asks by memory id alone (state, remove, applies, repair's pages in id or
  write order, expired rows), across tenants: the ledger routes an id to its tenant and answers
  the ordered questions. It is written *before* a row (and marked not held only *after* a row is
  deleted), so every row has an entry; `state` reads the rows themselves, so a crash between the
  two writes leaves at worst an entry without its row, which the relay or repair then rewrites.
- `GovernedMemoryRemoved` (not multi-tenant): the canonical version at which a memory left the
  index — written only by `remove`, before the rows are deleted — so that no older version is
  ever written back (the embedded `proj_removed`). `upsert` checks it before writing and again
  after: a removal that raced the write deletes the row again.
- `GovernedMemoryMeta`: the schema version, the embedder's name and the epoch. Another schema or
  embedder drops all four and starts empty with a new epoch (as the embedded file does); a lost
  collection gives a new epoch too, so the next repair compares in full.

Write marks (`rows_written_after`) are microseconds since the epoch, taken when a row is written,
not a counter: Weaviate has no atomic increment or conditional write, so a counter shared by
several processes would repeat or skip. A mark is only read once it is `settle_seconds` old
(`last_written` is now minus that), so a write still in flight — or a host whose clock runs
behind by less than that — is compared by the next repair rather than skipped.

Search fuses the sides itself (`Hit.relevance`, as the embedded projection does): each keyword
side's BM25 as a share of its best hit's, and the cosine of our own vectors. Weaviate's relative
score fusion was not used: it maps the weakest hit of each side to 0, which recall's
`min_relevance` would then always drop, and it hides each side's rank. A keyword share is thus
relative to the query's best hit, where the embedded projection's is a share of the query's IDF
mass (Weaviate does not expose document frequencies).

Weaviate has no transactions: a write and a removal of the same memory racing each other can
leave the ledger's "held" hint wrong (never the rows: `state` reads them). The relay, repair and
recall's canonical re-check decide on what is actually indexed. A version entered in the ledger
whose row write then failed is counted once when written again (`applies` stays 1). Repair's
pages in id order rely on memory ids being lowercase ASCII (the service's are): Weaviate sorts
text without regard to case but compares it byte-wise in range filters.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt
import structlog
import weaviate
from weaviate.classes.config import (
    Configure,
    ConsistencyLevel,
    DataType,
    Property,
    StopwordsPreset,
    Tokenization,
    VectorDistances,
)
from weaviate.classes.data import DataObject
from weaviate.classes.init import AdditionalConfig, Auth, Timeout
from weaviate.classes.query import Filter, FilterReturn, MetadataQuery, Sort
from weaviate.classes.tenants import Tenant, TenantActivityStatus
from weaviate.collections.classes.batch import BatchObjectReturn
from weaviate.exceptions import WeaviateBaseError
from weaviate.util import generate_uuid5

from memory.embedding import Embedder
from memory.errors import (
    InvalidInput,
    ProjectionUnavailable,
    ProjectionWriteFailed,
)
from memory.models import SENSITIVITY_ORDER, MemoryRecord, Place, place_of
from memory.stores.projection import Hit, ProjectedState, SearchFilters
from memory.terms import index_words, normalise, query_trigrams, query_words

log = structlog.get_logger("memory.stores.projection.weaviate")
T = TypeVar("T")

SCHEMA_VERSION = "1"
#: The open ends of a time interval (seconds since the epoch; ±31.7 million years).
NO_START = -1e15
NO_END = 1e15
#: The name of the one vector each row carries.
VECTOR = "default"
#: At most this many objects per request (Weaviate's own query maximum is 10,000).
_PAGE = 1_000

_TENANT_PLAIN = re.compile(r"[a-z0-9-]{1,64}")
_PREFIX = re.compile(r"[A-Z][A-Za-z0-9]{0,40}")

#: What a row's search returns of it (never its text or terms: only what a `Hit` needs).
HIT_FIELDS = ["memory_id", "version", "namespace"]
LEDGER_FIELDS = [
    "memory_id",
    "tenant",
    "tenant_id",
    "namespace",
    "version",
    "content_hash",
    "held",
    "written",
    "expires_at",
    "applied",
]
REMOVED_FIELDS = ["memory_id", "version"]


# ---------------------------------------------------------------------------- pure functions


def tenant_name(tenant_id: str) -> str:
    """The Weaviate tenant of a memory tenant: valid for Weaviate (`[A-Za-z0-9_-]`, at most 64)
    and injective. An id of lowercase letters, digits and hyphens is its own name; any other id
    (capitals, other characters, longer than 64) is `t` + its safe characters + `_` + 32 hex
    digits of its SHA-256. Plain names hold no `_`, so the two forms never meet; all names are
    lowercase, so they stay apart even where a name's case were folded."""
    if _TENANT_PLAIN.fullmatch(tenant_id):
        return tenant_id
    safe = re.sub(r"[^a-z0-9-]", "-", tenant_id.lower())[:24]
    digest = hashlib.sha256(tenant_id.encode()).hexdigest()[:32]
    return f"t{safe}_{digest}"


def object_id(memory_id: str) -> str:
    """A memory's object UUID (the same in the rows and the ledger): deterministic, so writing
    a memory again replaces its object."""
    return str(generate_uuid5(memory_id))


def _seconds(value: datetime | None, open_end: float) -> float:
    return open_end if value is None else value.timestamp()


def content_grams(content: str) -> list[str]:
    """The text's character trigrams for the `grams` side (every window of three characters of
    its normalised text without a space; repeats kept, they are BM25's term frequency). A query's
    trigrams (`memory.terms.query_trigrams`) are windows of its words, so windows across a space
    would never be asked for."""
    norm = normalise(content)
    return [
        norm[i : i + 3]
        for i in range(len(norm) - 2)
        if not any(c.isspace() for c in norm[i : i + 3])
    ]


def properties_of(record: MemoryRecord, written: int) -> dict[str, Any]:
    """A record as the properties of its row. Open times become `NO_START` / `NO_END`; a
    memory not said at a place, or without key, leaves those properties out (Weaviate's null)."""
    props: dict[str, Any] = {
        "memory_id": record.memory_id,
        "tenant_id": record.tenant_id,
        "namespace": record.namespace,
        "kind": record.kind,
        "status": record.status,
        "sensitivity": record.sensitivity,
        "sensitivity_rank": SENSITIVITY_ORDER[record.sensitivity],
        "version": record.version,
        "content_hash": record.content_hash,
        "valid_from": _seconds(record.valid_from, NO_START),
        "valid_to": _seconds(record.valid_to, NO_END),
        "expires_at": _seconds(record.expires_at, NO_END),
        "recorded_at": record.recorded_at.timestamp(),
        "content": record.content,
        "words": index_words(record.content),
        "grams": " ".join(content_grams(record.content)),
        "written": written,
    }
    if record.key is not None:
        props["key"] = record.key
    place = place_of(record.namespace, record.source_refs)
    if place is not None:
        props["thread"], props["position"] = place[1], place[2]
    return props


def admits_nothing(f: SearchFilters) -> bool:
    """Whether no row can pass these filters (an empty list of namespaces, kinds or statuses):
    no query is sent then."""
    return (
        not f.namespaces
        or (f.kinds is not None and not f.kinds)
        or (f.statuses is not None and not f.statuses)
    )


def build_filters(f: SearchFilters) -> FilterReturn:
    """Every filter of `SearchFilters` as one Weaviate filter (the tenant is the query's own
    Weaviate tenant, not a filter). See `admits_nothing` for the filters no row passes."""
    parts = [Filter.by_property("namespace").contains_any(list(f.namespaces))]
    if f.kinds is not None:
        parts.append(Filter.by_property("kind").contains_any(list(f.kinds)))
    if f.statuses is not None:
        parts.append(Filter.by_property("status").contains_any(list(f.statuses)))
    if f.valid_at is not None:
        t = f.valid_at.timestamp()
        parts.append(Filter.by_property("valid_from").less_or_equal(t))
        parts.append(Filter.by_property("valid_to").greater_than(t))
    if f.not_expired_at is not None:
        parts.append(Filter.by_property("expires_at").greater_than(f.not_expired_at.timestamp()))
    parts.append(
        Filter.by_property("sensitivity_rank").less_or_equal(SENSITIVITY_ORDER[f.max_sensitivity])
    )
    return Filter.all_of(parts)


def place_filter(namespace: str, thread: str, positions: Sequence[int]) -> FilterReturn:
    """The rows said at these positions of one thread of one namespace."""
    return Filter.all_of(
        [
            Filter.by_property("namespace").equal(namespace),
            Filter.by_property("thread").equal(thread),
            Filter.any_of([Filter.by_property("position").equal(p) for p in positions]),
        ]
    )


def ids_filter(memory_ids: Iterable[str]) -> FilterReturn:
    """The objects of these memories (by their deterministic UUIDs)."""
    return Filter.by_id().contains_any([object_id(m) for m in memory_ids])


def vector_of(obj: Any) -> npt.NDArray[np.float32] | None:
    """A result object's vector (None when the query did not ask for it)."""
    raw = (getattr(obj, "vector", None) or {}).get(VECTOR)
    return None if raw is None else np.asarray(raw, dtype=np.float32)


Side = Literal["words", "grams", "vector", "rows"]


def hits_from(objects: Sequence[Any], side: Side = "rows") -> list[Hit]:
    """Hits from result objects, in their order. A keyword side's score is its BM25 as a share
    of the best one's (in [0, 1]); the vector side's is the cosine (1 − cosine distance) with its
    rank; `rows` (a lookup) sets no score. The vector is attached whenever it was returned."""
    hits: list[Hit] = []
    scores = [float(getattr(o.metadata, "score", None) or 0.0) for o in objects]
    best = max(scores, default=0.0)
    for rank, (obj, score) in enumerate(zip(objects, scores, strict=True), 1):
        props: Mapping[str, Any] = obj.properties
        hit = Hit(
            str(props["memory_id"]),
            int(props["version"]),
            str(props["namespace"]),
            vector=vector_of(obj),
        )
        if side == "words":
            hit.word_score = score / best if best > 0 else 0.0
        elif side == "grams":
            hit.trigram_score = score / best if best > 0 else 0.0
        elif side == "vector":
            distance = obj.metadata.distance
            hit.vector_score = None if distance is None else 1.0 - float(distance)
            hit.vector_rank = rank
        hits.append(hit)
    return hits


def fuse_keyword(words: Sequence[Hit], grams: Sequence[Hit]) -> list[Hit]:
    """The two keyword sides as one list, a hit on both carrying both scores, ranked by their
    sum (`keyword_rank`), as the embedded projection ranks them."""
    fused: dict[str, Hit] = {h.memory_id: h for h in words}
    for hit in grams:
        seen = fused.get(hit.memory_id)
        if seen is None:
            fused[hit.memory_id] = hit
        else:
            seen.trigram_score = hit.trigram_score
            if seen.vector is None:
                seen.vector = hit.vector
    ranked = sorted(fused.values(), key=lambda h: (-(h.word_score + h.trigram_score), h.memory_id))
    for rank, hit in enumerate(ranked, 1):
        hit.keyword_rank = rank
    return ranked


#: Quoted text in Weaviate's messages (a property's value, as it may quote it).
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def batch_failures(result: BatchObjectReturn) -> list[str]:
    """What a batch write reports as failed, one line per object: its UUID and the message,
    quoted text masked and cut short (the error may reach workflow history and logs, and a
    message may quote a memory's content)."""
    return [
        f"{error.object_.uuid}: {_QUOTED.sub('…', error.message)[:160]}"
        for _, error in sorted(result.errors.items(), key=lambda e: e[0])
    ]


def raise_on_failures(result: BatchObjectReturn, what: str) -> None:
    """Weaviate's batch writes do not raise: a failed object is raised here, typed."""
    failures = batch_failures(result)
    if result.has_errors or failures:
        shown = "; ".join(failures[:5]) + (
            f" (+{len(failures) - 5} more)" if len(failures) > 5 else ""
        )
        raise ProjectionWriteFailed(f"Weaviate refused {len(failures)} {what}: {shown}")


def client_params(url: str, grpc_port: int) -> dict[str, Any]:
    """`weaviate.connect_to_custom`'s address arguments for a cluster's HTTP URL (gRPC on the
    same host, secure when HTTP is)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(f"not a Weaviate HTTP URL: {url!r}", field="weaviate_url")
    secure = parts.scheme == "https"
    return {
        "http_host": parts.hostname,
        "http_port": parts.port or (443 if secure else 80),
        "http_secure": secure,
        "grpc_host": parts.hostname,
        "grpc_port": grpc_port,
        "grpc_secure": secure,
    }


def connect_client(url: str, api_key: str | None, grpc_port: int) -> weaviate.WeaviateClient:
    """A connected client (API key authentication when a key is given)."""
    return weaviate.connect_to_custom(
        **client_params(url, grpc_port),
        auth_credentials=Auth.api_key(api_key) if api_key else None,
        additional_config=AdditionalConfig(timeout=Timeout(init=10, query=30, insert=60)),
    )


# ---------------------------------------------------------------------------- ledger entries


@dataclass
class IndexLedgerEntry:
    """What the ledger knows of one memory (see the module's docstring)."""

    memory_id: str
    tenant: str
    tenant_id: str
    namespace: str = ""
    version: int = 0
    content_hash: str = ""
    held: bool = False
    written: int = 0
    expires_at: float = NO_END
    #: How many times each version was written.
    applied: dict[int, int] = field(default_factory=dict)

    def properties(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "tenant": self.tenant,
            "tenant_id": self.tenant_id,
            "namespace": self.namespace,
            "version": self.version,
            "content_hash": self.content_hash,
            "held": self.held,
            "written": self.written,
            "expires_at": self.expires_at,
            "applied": json.dumps({str(v): n for v, n in sorted(self.applied.items())}),
        }

    @classmethod
    def from_properties(cls, props: Mapping[str, Any]) -> IndexLedgerEntry:
        expires = props.get("expires_at")
        return cls(
            memory_id=str(props["memory_id"]),
            tenant=str(props.get("tenant") or ""),
            tenant_id=str(props.get("tenant_id") or ""),
            namespace=str(props.get("namespace") or ""),
            version=int(props.get("version") or 0),
            content_hash=str(props.get("content_hash") or ""),
            held=bool(props.get("held")),
            written=int(props.get("written") or 0),
            expires_at=NO_END if expires is None else float(expires),
            applied={int(v): int(n) for v, n in json.loads(props.get("applied") or "{}").items()},
        )


# ---------------------------------------------------------------------------- schema


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


# ---------------------------------------------------------------------------- the projection


class WeaviateProjection:
    name: str = "weaviate"
    indexes: tuple[str, ...] = ("vector", "search")

    def __init__(
        self,
        connect: Callable[[], weaviate.WeaviateClient],
        embedder: Embedder,
        *,
        prefix: str = "GovernedMemory",
        settle_seconds: float = 60.0,
    ) -> None:
        """`connect` opens the client, on first use (a cluster down when the process starts
        fails the calls that need it, not the process). `prefix` names the collections."""
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"collection prefix {prefix!r}: a capital, then letters or digits")
        self.embedder = embedder
        self.prefix = prefix
        self.rows_name = prefix
        self.ledger_name = f"{prefix}Ledger"
        self.removed_name = f"{prefix}Removed"
        self.meta_name = f"{prefix}Meta"
        self._connect = connect
        self._settle_us = int(settle_seconds * 1_000_000)
        self._lock = threading.RLock()
        self._client: weaviate.WeaviateClient | None = None
        self._active: set[str] = set()
        self._last_mark = 0

    # ------------------------------------------------------------------------ connection, schema

    def _db(self) -> weaviate.WeaviateClient:
        with self._lock:
            if self._client is None:
                try:
                    client = self._connect()
                except WeaviateBaseError as exc:
                    raise ProjectionUnavailable(f"Weaviate unreachable: {exc}") from exc
                try:
                    self._init_schema(client)
                except BaseException:
                    client.close()
                    raise
                self._client = client
            return self._client

    @property
    def _names(self) -> tuple[str, str, str, str]:
        return self.rows_name, self.ledger_name, self.removed_name, self.meta_name

    def _meta(self, client: weaviate.WeaviateClient) -> dict[str, str]:
        meta = client.collections.get(self.meta_name)
        found = meta.query.fetch_objects(limit=100, return_properties=["k", "v"])
        return {str(o.properties["k"]): str(o.properties["v"]) for o in found.objects}

    def _init_schema(self, client: weaviate.WeaviateClient) -> None:
        """Create what is missing; drop everything when it was made for another schema or
        embedder (repair rebuilds it from canonical); an epoch for a new index."""
        names = self._names
        exists = {n: client.collections.exists(n) for n in names}
        if exists[self.meta_name]:
            stored = self._meta(client)
            other = stored and (
                stored.get("schema") != SCHEMA_VERSION
                or stored.get("embedder") != self.embedder.name
            )
            if other or not (exists[self.rows_name] and exists[self.ledger_name]):
                # Another shape, or the rows lost: a new index (and a new epoch).
                log.warning(
                    "weaviate projection starts anew",
                    prefix=self.prefix,
                    schema=stored.get("schema"),
                    embedder=stored.get("embedder"),
                )
                client.collections.delete([n for n in names if exists[n]])
                exists = dict.fromkeys(names, False)
        for name, config in (
            (self.rows_name, rows_config(self.rows_name)),
            (self.ledger_name, plain_config(self.ledger_name, LEDGER_PROPERTIES)),
            (self.removed_name, plain_config(self.removed_name, REMOVED_PROPERTIES)),
            (self.meta_name, plain_config(self.meta_name, META_PROPERTIES)),
        ):
            if not exists[name]:
                try:
                    client.collections.create(**config)
                except WeaviateBaseError:
                    if not client.collections.exists(name):  # not another process's creation
                        raise
        meta = client.collections.get(self.meta_name)
        raise_on_failures(
            meta.data.insert_many(
                [
                    DataObject(properties={"k": k, "v": v}, uuid=generate_uuid5(k))
                    for k, v in (("schema", SCHEMA_VERSION), ("embedder", self.embedder.name))
                ]
            ),
            "meta objects",
        )
        # The first process to write the epoch sets it: an insert fails on an existing UUID.
        try:
            meta.data.insert({"k": "epoch", "v": uuid.uuid4().hex}, uuid=generate_uuid5("epoch"))
        except WeaviateBaseError:
            if "epoch" not in self._meta(client):
                raise
        self._active.clear()

    def _plain(self, name: str) -> Any:
        """A bookkeeping collection, read and written at quorum (read-after-write across
        replicas: the ordering of ledger, removal marks and rows relies on it)."""
        return self._db().collections.get(name).with_consistency_level(ConsistencyLevel.QUORUM)

    def _open(self, tenant: str, *, create: bool) -> Any:
        """The rows collection in a Weaviate tenant, made active when it was found inactive or
        offloaded (None: it does not exist and `create` is off). Tenants found active are
        remembered; `_in` looks again when a call in one fails."""
        rows = self._db().collections.get(self.rows_name)
        if tenant not in self._active:
            found = rows.tenants.get_by_name(tenant)
            if found is None:
                if not create:
                    return None
                try:
                    rows.tenants.create(Tenant(name=tenant))
                except WeaviateBaseError:
                    if not rows.tenants.exists(tenant):  # not another process's creation
                        raise
            elif found.activity_status != TenantActivityStatus.ACTIVE:
                rows.tenants.update(
                    Tenant(name=tenant, activity_status=TenantActivityStatus.ACTIVE)
                )
            with self._lock:
                self._active.add(tenant)
        return rows.with_tenant(tenant)

    def _in(self, tenant: str, action: Callable[[Any], T], *, create: bool = False) -> T | None:
        """`action` on the rows of a Weaviate tenant (None: the tenant does not exist). A
        tenant remembered as active may have been deactivated or offloaded since: on a failure
        it is looked up (and activated) again, and the action tried once more."""
        known = tenant in self._active
        rows = self._open(tenant, create=create)
        if rows is None:
            return None
        try:
            return action(rows)
        except WeaviateBaseError:
            if not known:
                raise
            with self._lock:
                self._active.discard(tenant)
            rows = self._open(tenant, create=create)
            return None if rows is None else action(rows)

    def drop(self) -> None:
        """Delete the four collections (tests, and an operator discarding the index)."""
        client = self._db()
        client.collections.delete([n for n in self._names if client.collections.exists(n)])
        with self._lock:
            self._active.clear()

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # ------------------------------------------------------------------------ bookkeeping

    def _marks(self, n: int) -> list[int]:
        """`n` write marks: microseconds since the epoch, increasing within this process."""
        with self._lock:
            base = max(time.time_ns() // 1_000, self._last_mark + 1)
            self._last_mark = base + n - 1
        return list(range(base, base + n))

    def _entries(self, memory_ids: Sequence[str]) -> dict[str, IndexLedgerEntry]:
        ledger = self._plain(self.ledger_name)
        out: dict[str, IndexLedgerEntry] = {}
        ids = list(dict.fromkeys(memory_ids))
        for i in range(0, len(ids), _PAGE):
            chunk = ids[i : i + _PAGE]
            found = ledger.query.fetch_objects(
                filters=ids_filter(chunk), limit=len(chunk), return_properties=LEDGER_FIELDS
            )
            for obj in found.objects:
                entry = IndexLedgerEntry.from_properties(obj.properties)
                out[entry.memory_id] = entry
        return out

    def _write_entries(self, entries: Iterable[IndexLedgerEntry]) -> None:
        objects = [
            DataObject(properties=e.properties(), uuid=object_id(e.memory_id)) for e in entries
        ]
        ledger = self._plain(self.ledger_name)
        for i in range(0, len(objects), _PAGE):
            raise_on_failures(ledger.data.insert_many(objects[i : i + _PAGE]), "ledger entries")

    def _removed(self, memory_ids: Sequence[str]) -> dict[str, int]:
        removed = self._plain(self.removed_name)
        out: dict[str, int] = {}
        ids = list(dict.fromkeys(memory_ids))
        for i in range(0, len(ids), _PAGE):
            chunk = ids[i : i + _PAGE]
            found = removed.query.fetch_objects(
                filters=ids_filter(chunk), limit=len(chunk), return_properties=REMOVED_FIELDS
            )
            out.update(
                {
                    str(o.properties["memory_id"]): int(o.properties["version"])
                    for o in found.objects
                }
            )
        return out

    def _rows_of(self, entries: Iterable[IndexLedgerEntry]) -> dict[str, ProjectedState]:
        """What the rows themselves hold for these memories (by the tenants the ledger names)."""
        by_tenant: dict[str, list[str]] = {}
        for e in entries:
            if e.tenant:
                by_tenant.setdefault(e.tenant, []).append(e.memory_id)
        out: dict[str, ProjectedState] = {}

        def read(ids: list[str]) -> Callable[[Any], None]:
            def run(rows: Any) -> None:
                for i in range(0, len(ids), _PAGE):
                    chunk = ids[i : i + _PAGE]
                    found = rows.query.fetch_objects(
                        filters=ids_filter(chunk),
                        limit=len(chunk),
                        return_properties=["memory_id", "version", "content_hash", "namespace"],
                    )
                    for o in found.objects:
                        p = o.properties
                        out[str(p["memory_id"])] = ProjectedState(
                            int(p["version"]), str(p["content_hash"]), str(p["namespace"])
                        )

            return run

        for tenant, ids in by_tenant.items():
            self._in(tenant, read(ids))
        return out

    def _delete_rows(self, tenant: str, memory_ids: Sequence[str]) -> None:
        def run(rows: Any) -> None:
            for i in range(0, len(memory_ids), _PAGE):
                done = rows.data.delete_many(where=ids_filter(memory_ids[i : i + _PAGE]))
                if done.failed:
                    raise ProjectionWriteFailed(
                        f"Weaviate failed to delete {done.failed} of {done.matches} rows"
                    )

        self._in(tenant, run)

    # ------------------------------------------------------------------------ writes

    def upsert(
        self,
        records: Sequence[MemoryRecord],
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None:
        """Project these canonical states (embedding them unless `vectors` are given): the
        ledger first, then the rows, then the removal marks again (a removal that raced this
        write deletes what it wrote)."""
        if not records:
            return
        if vectors is None:
            vectors = self.embedder.embed([r.content for r in records])
        ids = [r.memory_id for r in records]
        entries = self._entries(ids)
        removed = self._removed(ids)
        chosen: dict[str, tuple[MemoryRecord, npt.NDArray[np.float32]]] = {}
        for record, vector in zip(records, vectors, strict=True):
            entry = entries.get(record.memory_id)
            if (entry is not None and entry.held and entry.version > record.version) or (
                removed.get(record.memory_id, 0) >= record.version
            ):
                continue  # older than what the index has held or removed
            chosen[record.memory_id] = (record, vector)
        if not chosen:
            return
        marks = dict(zip(chosen, self._marks(len(chosen)), strict=True))
        written: list[IndexLedgerEntry] = []
        for memory_id, (record, _) in chosen.items():
            old = entries.get(memory_id)
            applied = dict(old.applied) if old is not None else {}
            # The same version and hash already entered as held: this completes (or repeats)
            # that write, which was counted then (a write interrupted between ledger and row).
            again = (
                old is not None
                and old.held
                and (old.version, old.content_hash) == (record.version, record.content_hash)
            )
            if not again:
                applied[record.version] = applied.get(record.version, 0) + 1
            written.append(
                IndexLedgerEntry(
                    memory_id=memory_id,
                    tenant=tenant_name(record.tenant_id),
                    tenant_id=record.tenant_id,
                    namespace=record.namespace,
                    version=record.version,
                    content_hash=record.content_hash,
                    held=True,
                    written=marks[memory_id],
                    expires_at=_seconds(record.expires_at, NO_END),
                    applied=applied,
                )
            )
            if old is not None and old.tenant and old.tenant != tenant_name(record.tenant_id):
                self._delete_rows(old.tenant, [memory_id])  # moved to another tenant
        self._write_entries(written)
        by_tenant: dict[str, list[DataObject[dict[str, Any], None]]] = {}
        for memory_id, (record, vector) in chosen.items():
            by_tenant.setdefault(record.tenant_id, []).append(
                DataObject(
                    properties=properties_of(record, marks[memory_id]),
                    uuid=object_id(memory_id),
                    vector={VECTOR: vector.astype(np.float32).tolist()},
                )
            )
        for tenant_id, objects in by_tenant.items():

            def write(rows: Any, objects: list[DataObject[dict[str, Any], None]] = objects) -> None:
                for i in range(0, len(objects), _PAGE):
                    raise_on_failures(rows.data.insert_many(objects[i : i + _PAGE]), "rows")

            self._in(tenant_name(tenant_id), write, create=True)
        late = self._removed(list(chosen))
        undo = [m for m, (r, _) in chosen.items() if late.get(m, 0) >= r.version]
        if undo:
            log.info("a removal raced a projection: its rows removed again", rows=len(undo))
            self.remove(undo)

    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        """Remove these rows; with `versions` (the canonical versions that are not to be
        held), remember them first so that no older version is written back."""
        if not memory_ids:
            return
        ids = list(dict.fromkeys(memory_ids))
        if versions is not None:
            asked: dict[str, int] = {}
            for m, v in zip(memory_ids, versions, strict=True):
                if v > 0:
                    asked[m] = max(asked.get(m, 0), v)
            known = self._removed(list(asked))
            marks = [
                DataObject(
                    properties={"memory_id": m, "version": max(v, known.get(m, 0))},
                    uuid=object_id(m),
                )
                for m, v in asked.items()
            ]
            removed = self._plain(self.removed_name)
            for i in range(0, len(marks), _PAGE):
                raise_on_failures(removed.data.insert_many(marks[i : i + _PAGE]), "removal marks")
        entries = self._entries(ids)
        by_tenant: dict[str, list[str]] = {}
        for e in entries.values():
            if e.tenant:
                by_tenant.setdefault(e.tenant, []).append(e.memory_id)
        for tenant, tenant_ids in by_tenant.items():
            self._delete_rows(tenant, tenant_ids)
        # Only then the ledger: no row held. What it said of the content (its namespace, hash and
        # expiry) is not kept.
        self._write_entries(
            IndexLedgerEntry(
                memory_id=e.memory_id,
                tenant=e.tenant,
                tenant_id=e.tenant_id,
                version=e.version,
                written=e.written,
                applied=e.applied,
            )
            for e in entries.values()
        )

    # ------------------------------------------------------------------------ reads by id

    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]:
        return self._rows_of(self._entries(memory_ids).values())

    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
        return {
            (m, v): n for m, e in self._entries(memory_ids).items() for v, n in e.applied.items()
        }

    @property
    def epoch(self) -> str:
        """The index's epoch, read from Weaviate: collections lost underneath (or made anew by
        another process) give a new one."""
        client = self._db()
        with self._lock:
            present = all(client.collections.exists(n) for n in self._names)
            value = self._meta(client).get("epoch") if present else None
            if value is None:
                self._init_schema(client)
                value = self._meta(client)["epoch"]
        return value

    # ------------------------------------------------------------------------ repair's pages

    def _ledger_page(
        self, filters: FilterReturn, limit: int, *, sort: str | None = None
    ) -> list[IndexLedgerEntry]:
        found = self._plain(self.ledger_name).query.fetch_objects(
            filters=filters,
            sort=Sort.by_property(sort, ascending=True) if sort else None,
            limit=limit,
            return_properties=LEDGER_FIELDS,
        )
        return [IndexLedgerEntry.from_properties(o.properties) for o in found.objects]

    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
    ) -> dict[str, ProjectedState]:
        """Rows in memory id order with `after` < id ≤ `upto` (either bound open if None): the
        ledger's held entries in that order, each checked against its row."""
        out: dict[str, ProjectedState] = {}
        cursor = after
        while len(out) < limit:
            parts = [Filter.by_property("held").equal(True)]
            if cursor is not None:
                parts.append(Filter.by_property("memory_id").greater_than(cursor))
            if upto is not None:
                parts.append(Filter.by_property("memory_id").less_or_equal(upto))
            size = min(_PAGE, limit - len(out))
            page = self._ledger_page(Filter.all_of(parts), size, sort="memory_id")
            rows = self._rows_of(page)
            out.update((e.memory_id, rows[e.memory_id]) for e in page if e.memory_id in rows)
            if len(page) < size:
                break
            cursor = page[-1].memory_id
        return out

    def _horizon(self) -> int:
        return time.time_ns() // 1_000 - self._settle_us

    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]:
        """(write mark, memory id) of rows written (added or overwritten) after mark
        `written`, in write order, up to `last_written()`: younger marks wait for the next
        call. Marks tying at a page's end are all taken or all left (a cursor on the last mark
        returned skips none), so a page may hold more than `limit` when many tie."""
        horizon = self._horizon()
        out: list[tuple[int, str]] = []
        cursor = written
        while len(out) < limit:
            size = min(_PAGE, limit - len(out))
            page = self._ledger_page(
                Filter.all_of(
                    [
                        Filter.by_property("written").greater_than(cursor),
                        Filter.by_property("written").less_or_equal(horizon),
                    ]
                ),
                size + 1,
                sort="written",
            )
            full = len(page) > size
            if full:
                after, page = page[size], page[:size]
                if page[-1].written == after.written:  # a tie straddles the page's end
                    kept = [e for e in page if e.written != after.written]
                    page = kept or self._ledger_page(
                        Filter.by_property("written").equal(after.written), 10_000
                    )
            out.extend((e.written, e.memory_id) for e in page)
            if not full:
                break
            cursor = page[-1].written
        return out

    def last_written(self) -> int:
        """The newest mark a repair may take as compared: now, less the settle time."""
        return self._horizon()

    def expired_rows(self, at: datetime, limit: int) -> list[str]:
        page = self._ledger_page(
            Filter.all_of(
                [
                    Filter.by_property("held").equal(True),
                    Filter.by_property("expires_at").less_or_equal(at.timestamp()),
                ]
            ),
            min(limit, 10_000),
        )
        return [e.memory_id for e in page]

    # ------------------------------------------------------------------------ search

    def _search_side(
        self, rows: Any, query: str, prop: str, filters: SearchFilters, limit: int
    ) -> list[Hit]:
        if not query:
            return []
        found = rows.query.bm25(
            query=query,
            query_properties=[prop],
            filters=build_filters(filters),
            limit=limit,
            return_metadata=MetadataQuery(score=True),
            return_properties=HIT_FIELDS,
            include_vector=True,
        )
        return hits_from(found.objects, "words" if prop == "words" else "grams")

    def _keyword(self, rows: Any, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        words = self._search_side(rows, " ".join(query_words(text)), "words", filters, limit)
        grams = self._search_side(rows, " ".join(query_trigrams(text)), "grams", filters, limit)
        return fuse_keyword(words, grams)

    def _read(self, filters: SearchFilters, action: Callable[[Any], list[Hit]]) -> list[Hit]:
        """`action` on the rows of the filters' tenant (nothing when no row can pass, or the
        tenant has none)."""
        if admits_nothing(filters):
            return []
        return self._in(tenant_name(filters.tenant_id), action) or []

    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Word and trigram BM25, fused: the rows the words or the trigrams of `text` find."""
        hits = self._read(filters, lambda rows: self._keyword(rows, text, filters, limit)[:limit])
        for hit in hits:
            hit.score = hit.relevance(self.embedder)
        return hits

    def _vector(
        self, rows: Any, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        found = rows.query.near_vector(
            near_vector=vector.astype(np.float32).tolist(),
            target_vector=VECTOR,
            filters=build_filters(filters),
            limit=limit,
            return_metadata=MetadataQuery(distance=True),
            return_properties=HIT_FIELDS,
            include_vector=True,
        )
        return hits_from(found.objects, "vector")

    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        return self._read(filters, lambda rows: self._vector(rows, vector, filters, limit))

    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Hybrid: the keyword sides and (when the embedder's similarity counts in ranking) the
        vector side, each proposing `limit` rows, fused by `Hit.relevance`."""

        def run(rows: Any) -> list[Hit]:
            fused = {h.memory_id: h for h in self._keyword(rows, text, filters, limit)}
            if self.embedder.ranking_weight > 0:
                query = self.embedder.embed([text])[0]
                for hit in self._vector(rows, query, filters, limit):
                    seen = fused.get(hit.memory_id)
                    if seen is None:
                        fused[hit.memory_id] = hit
                    else:
                        seen.vector_score, seen.vector_rank = hit.vector_score, hit.vector_rank
                        seen.vector = hit.vector
                # A keyword hit beyond the vector side's top rows is still scored by its cosine
                # (else its relevance would be its keyword sides alone, undiluted).
                for hit in fused.values():
                    if hit.vector_score is None and hit.vector is not None:
                        hit.vector_score = float(hit.vector @ query)
            for hit in fused.values():
                hit.score = hit.relevance(self.embedder)
            return sorted(fused.values(), key=lambda h: (-h.score, h.memory_id))[:limit]

        return self._read(filters, run)

    def scan(self, filters: SearchFilters) -> Iterator[tuple[str, str]]:
        """Every row of the filters' namespaces as (memory id, indexed text), read with the
        tenant's cursor: deletion verification looks for the erased texts in all of it."""
        if not filters.namespaces:
            return
        rows = self._open(tenant_name(filters.tenant_id), create=False)
        if rows is None:
            return
        wanted = set(filters.namespaces)
        for obj in rows.iterator(return_properties=["memory_id", "namespace", "content"]):
            props = obj.properties
            if props.get("namespace") in wanted:
                yield str(props["memory_id"]), str(props.get("content") or "")

    def at_places(self, places: Sequence[Place], filters: SearchFilters) -> list[Hit]:
        """The rows said at these places (namespace, thread, position) that the filters pass,
        with their projected embeddings (recall's diversity compares them)."""
        if not places:
            return []
        by_thread: dict[tuple[str, str], list[int]] = {}
        for namespace, thread, position in places:
            by_thread.setdefault((namespace, thread), []).append(position)

        def run(rows: Any) -> list[Hit]:
            base = build_filters(filters)
            hits: list[Hit] = []
            for (namespace, thread), positions in by_thread.items():
                for i in range(0, len(positions), 200):
                    chunk = positions[i : i + 200]
                    found = rows.query.fetch_objects(
                        filters=base & place_filter(namespace, thread, chunk),
                        limit=_PAGE,
                        return_properties=HIT_FIELDS,
                        include_vector=True,
                    )
                    hits.extend(hits_from(found.objects))
            return hits

        return self._read(filters, run)

    def compact(self) -> tuple[bool, str]:
        """What a removal can reach in Weaviate is done when `remove` returns: the objects are
        deleted (tombstoned in the tenant's LSM segments, never returned again), and Weaviate
        drops their bytes when it compacts those segments in the background; no API forces it."""
        return (
            True,
            "objects deleted from Weaviate (tombstoned; segment files are compacted by Weaviate "
            "in the background, no API forces it; the cluster's own backups keep them until they "
            "expire)",
        )
