"""A memory as a row of the Weaviate projection: the Weaviate tenant of its memory tenant, its
object id (the same in the rows and the ledger), and its properties (times as numbers, an open
end as `NO_START` / `NO_END`; the two keyword sides' terms, `words` and `grams`)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Any

from weaviate.util import generate_uuid5

from governed_memory.memory.models import SENSITIVITY_ORDER, MemoryRecord, place_of
from governed_memory.memory.terms import index_words, normalise

#: The open ends of a time interval (seconds since the epoch; ±31.7 million years).
NO_START = -1e15
NO_END = 1e15
#: The name of the one vector each row carries.
VECTOR = "default"


_TENANT_PLAIN = re.compile(r"[a-z0-9-]{1,64}")


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
