"""`memctl bench duplicates`: how the write pipeline decides DUPLICATE, on pairs of statements.

A corpus holds pairs `(a, b)` labelled by class: true duplicates (a re-sent message, or `b` says
`a` again with other spacing, punctuation, case, width, fillers, contractions, spellings of a
value, a moved time phrase, other words) and false ones (`b` is another fact: a number, quantity,
amount, date, time, identifier, name, polarity, word or role differs). Each pair runs through the
product's own write path — `a` then `b` as episodic memories of a fresh user, decided by the
pipeline and committed to a real canonical store and projection — and `b`'s decision is counted.
A load of 600 distinct events in one namespace (`"{tag} event number {i} for u{i % 30}"`) is
written the same way.

Beside it, in the same run, the rule the product used before (a near-duplicate is any memory whose
hashed n-gram vector has cosine ≥ 0.92, or the same whitespace-normalised text) on the same pairs.
Targets: no false duplicates; at least 95 % of the true ones caught.
"""

from __future__ import annotations

import json
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from governed_memory.memory.embedding import HashedNgramEmbedder
from governed_memory.memory.models import WriteRequest, content_hash
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.sync.commit import commit_and_project
from governed_memory.memory.write.decide import decide_request
from governed_memory.memory.write.extraction import RuleExtractor

CORPORA = Path(__file__).with_name("corpora")
DEFAULT_CORPORA = (
    CORPORA / "duplicates.dev.json",
    CORPORA / "duplicates.heldout.json",
    CORPORA / "duplicates.heldout2.json",
)
#: The former rule's threshold (policy `near_duplicate_similarity` before this measure).
BASELINE_COSINE = 0.92
#: Classes of true duplicates that say the same in other words: reported apart, since telling
#: them from a changed fact needs a model of meaning the offline default does not have.
REWORDED = "reworded"
T0 = datetime(2026, 7, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Pair:
    corpus: str
    cls: str
    duplicate: bool
    lang: str
    a: str
    b: str


def load_corpus(path: Path) -> list[Pair]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    name = path.stem.removeprefix("duplicates.")
    return [
        Pair(name, r["class"], bool(r["duplicate"]), r.get("lang", ""), r["a"], r["b"])
        for r in rows
    ]


class _Writer:
    """Episodic writes of users through the pipeline, committed and projected at once."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self.extractor = RuleExtractor()
        self.n = 0
        self.seconds: list[float] = []

    def write(self, user: str, text: str) -> tuple[str, str | None]:
        self.n += 1
        at = T0 + timedelta(seconds=self.n)
        request = WriteRequest(
            principal=f"user:bench/{user}",
            namespace=f"tenant/bench/user/{user}",
            idempotency_key=f"dup-{self.n}",
            candidate={"kind": "episodic", "content": text},
            at=at,
        )
        started = time.perf_counter()
        decision = decide_request(
            self.stores,
            request,
            self.extractor,
            workflow_id=f"bench/{self.n}",
            seed=f"dup-{self.n}",
            now=at,
            allow_override=True,
        )
        commit_and_project(self.stores, decision.plan(f"bench-{self.n}"))
        self.seconds.append(time.perf_counter() - started)
        outcome = decision.outcomes[0]
        return outcome.decision, outcome.relation


def _baseline_duplicate(embedder: HashedNgramEmbedder, a: str, b: str) -> bool:
    if content_hash(a) == content_hash(b):
        return True
    vectors = embedder.embed([a, b])
    return float(vectors[0] @ vectors[1]) >= BASELINE_COSINE


def _event_load(writer: _Writer, embedder: HashedNgramEmbedder, n: int = 600) -> dict[str, Any]:
    user = f"load-{uuid.uuid4().hex[:8]}"
    texts = [f"FLT event number {i} for u{i % 30}" for i in range(n)]
    relations = [writer.write(user, t)[1] for t in texts]
    vectors = embedder.embed(texts)
    sims = vectors @ vectors.T
    baseline = sum(1 for i in range(1, n) if float(np.max(sims[i, :i])) >= BASELINE_COSINE)
    return {
        "events": n,
        "product_duplicates": relations.count("DUPLICATE"),
        "baseline_duplicates": baseline,
        "memories": sum(
            1
            for r in writer.stores.canonical.records.namespace_heads(f"tenant/bench/user/{user}")
            if r.status == "active"
        ),
    }


def measure(paths: list[Path]) -> dict[str, Any]:
    pairs = [p for path in paths if path.exists() for p in load_corpus(path)]
    embedder = HashedNgramEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        stores = open_stores(Settings(data_dir=Path(tmp), allow_clock_override=True))
        try:
            writer = _Writer(stores)
            rows = []
            refused = []
            for p in pairs:
                user = uuid.uuid4().hex[:10]
                first, _ = writer.write(user, p.a)
                if first not in ("add", "update"):
                    # refused by policy (a secret, a special category …): nothing to repeat
                    refused.append({"corpus": p.corpus, "class": p.cls, "first": first, "a": p.a})
                    continue
                decision, relation = writer.write(user, p.b)
                rows.append(
                    {
                        "corpus": p.corpus,
                        "class": p.cls,
                        "duplicate": p.duplicate,
                        "lang": p.lang,
                        "first": first,
                        "decision": decision,
                        "relation": relation,
                        "product": relation == "DUPLICATE",
                        "baseline": _baseline_duplicate(embedder, p.a, p.b),
                        "a": p.a,
                        "b": p.b,
                    }
                )
            load = _event_load(writer, embedder)
            write_ms = sorted(s * 1000 for s in writer.seconds)
        finally:
            stores.close()
    return {
        "corpora": [str(p) for p in paths if p.exists()],
        "pairs": rows,
        "refused_first": refused,
        "classes": _by_class(rows),
        "summary": _summary(rows),
        "event_load": load,
        "write_ms_p50": round(write_ms[len(write_ms) // 2], 2) if write_ms else None,
    }


def _by_class(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, bool, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["corpus"], r["duplicate"], r["class"])].append(r)
    return [
        {
            "corpus": corpus,
            "duplicate": dup,
            "class": cls,
            "pairs": len(items),
            "product": sum(r["product"] for r in items),
            "baseline": sum(r["baseline"] for r in items),
        }
        for (corpus, dup, cls), items in sorted(
            groups.items(), key=lambda kv: (kv[0][0], not kv[0][1], kv[0][2])
        )
    ]


def _rates(rows: list[dict[str, Any]], who: str) -> dict[str, Any]:
    true = [r for r in rows if r["duplicate"]]
    kept_words = [r for r in true if r["class"] != REWORDED]
    false = [r for r in rows if not r["duplicate"]]
    caught = sum(r[who] for r in true)
    caught_kept = sum(r[who] for r in kept_words)
    return {
        "false_duplicates": sum(r[who] for r in false),
        "false_pairs": len(false),
        "true_caught": caught,
        "true_pairs": len(true),
        "true_rate": round(caught / len(true), 3) if true else None,
        "true_rate_same_words": round(caught_kept / len(kept_words), 3) if kept_words else None,
    }


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for corpus in [*sorted({r["corpus"] for r in rows}), "all"]:
        chosen = rows if corpus == "all" else [r for r in rows if r["corpus"] == corpus]
        out[corpus] = {who: _rates(chosen, who) for who in ("product", "baseline")}
    return out
