"""`memctl bench retrieval --locomo PATH`: does recall find what matters, measured on LoCoMo.

The measure of `../shared/eval/locomo/README.md`, through the product. Each turn of a
conversation is an episodic memory in that conversation's user namespace, written through
`write_batch` as the user: content `"{speaker}: {text}"`, the session's date as its valid time,
its source `msg://{sample_id}-s{session}/{turn}`. It is recorded now, as an import of an old
conversation is. The packaged policy runs with episodic retention lengthened to ten years: the
conversations are years old, and this measures finding, not forgetting. Each question of
categories 1–4 with evidence is asked through `recall(query=question, k=20)` as that user, now.
R@k is the share of a question's evidence turns among the top k, averaged over questions; per
category and overall. A refused turn counts as not found; the report also gives the same run's
R@k over the questions none of whose evidence was refused (`product_evidence_kept`).

Beside it, in the same run and over the same turns (`"{speaker}: {text}"`, no governance):
BM25 over word tokens (rank_bm25) and char 3–5-gram TF-IDF (scikit-learn), the README's
baselines; and, when the `peer` extra is installed, mem0 (`shell.eval.peer`), with its add and
search latencies. Also reported: turns the write path refused (and why), write throughput,
and recall latency. The data is evaluation data: it is read from the path given, never kept
in the repo.

The same measure runs on a small Chinese set of the same shape written for this project
(`corpora/locomo.zh.dev.json`: customer service, travel booking, a personal assistant and a
software help desk; questions paraphrase their evidence), beside BM25 over jieba words and char
1–3-gram TF-IDF.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from governed_memory.memory.errors import InvalidInput

KS = (5, 10, 20)
_DATE = re.compile(r"(\d{1,2}:\d{2}\s*[ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", re.I)


@dataclass
class Turn:
    source: str  # msg://{sample_id}-s{session}/{turn}
    dia_id: str
    content: str
    at: datetime


@dataclass
class Question:
    text: str
    category: int
    evidence: list[str]  # sources


@dataclass
class Conversation:
    sample_id: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)

    @property
    def namespace(self) -> str:
        return f"tenant/locomo/user/{_safe(self.sample_id)}"

    @property
    def user(self) -> str:
        return f"user:locomo/{_safe(self.sample_id)}"


def _safe(sample_id: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", sample_id.lower())


def session_time(text: str) -> datetime:
    """`1:56 pm on 8 May, 2023` → 2023-05-08T13:56Z."""
    m = _DATE.search(text)
    if m is None:
        raise InvalidInput(f"not a LoCoMo session date: {text!r}", field="locomo")
    clock, day, month, year = m.groups()
    parsed = datetime.strptime(
        f"{clock.replace(' ', '').upper()} {day} {month} {year}", "%I:%M%p %d %B %Y"
    )
    return parsed.replace(tzinfo=UTC)


def load(path: Path) -> list[Conversation]:
    import json

    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}", field="locomo") from None
    out = []
    for sample in raw:
        conv = Conversation(str(sample["sample_id"]))
        c = sample["conversation"]
        by_dia: dict[str, str] = {}
        for key in sorted(
            (k for k in c if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1])
        ):
            session = int(key.split("_")[1])
            at = session_time(c[f"{key}_date_time"])
            for turn in c[key]:
                dia = turn["dia_id"]
                number = dia.split(":")[1]
                source = f"msg://{conv.sample_id}-s{session}/{number}"
                by_dia[dia] = source
                conv.turns.append(Turn(source, dia, f"{turn['speaker']}: {turn['text']}", at))
        for qa in sample["qa"]:
            category = int(qa.get("category", 0))
            evidence = [by_dia[e] for e in qa.get("evidence", []) if e in by_dia]
            if category in (1, 2, 3, 4) and evidence:
                conv.questions.append(Question(qa["question"], category, evidence))
        out.append(conv)
    return out


def recall_at(found: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(found[:k])
    return sum(e in top for e in evidence) / len(evidence)


class Scores:
    def __init__(self) -> None:
        self.by_category: dict[int, list[dict[int, float]]] = defaultdict(list)

    def add(self, category: int, found: Sequence[str], evidence: Sequence[str]) -> None:
        self.by_category[category].append({k: recall_at(found, evidence, k) for k in KS})

    def table(self) -> dict[str, dict[str, float]]:
        rows: dict[str, dict[str, float]] = {}
        everything: list[dict[int, float]] = []
        for category in sorted(self.by_category):
            got = self.by_category[category]
            everything += got
            rows[f"category {category}"] = _means(got)
        rows["overall"] = _means(everything)
        return rows


def _means(rows: list[dict[int, float]]) -> dict[str, float]:
    out: dict[str, float] = {"questions": float(len(rows))}
    for k in KS:
        out[f"R@{k}"] = round(sum(r[k] for r in rows) / len(rows), 3) if rows else 0.0
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _chinese_words(text: str) -> list[str]:
    """jieba's words (rjieba), punctuation left out: BM25's tokens for Chinese."""
    import rjieba

    return [w for w in rjieba.cut(text.lower()) if re.fullmatch(r"\w+", w)]


#: Per language, the baselines' tokens: BM25's words and the char n-grams of TF-IDF (whole
#: Chinese words are 1–3 characters; English char n-grams inside word boundaries, 3–5).
BASELINE_TOKENS: dict[str, tuple[Any, str, tuple[int, int]]] = {
    "en": (_words, "char_wb", (3, 5)),
    "zh": (_chinese_words, "char", (1, 3)),
}


def baselines(
    conversations: list[Conversation], language: str = "en", refused: Collection[str] = ()
) -> dict[str, Scores]:
    """BM25 over word tokens and char n-gram TF-IDF (`BASELINE_TOKENS`) over each
    conversation's turns; `<name>_evidence_kept` over the questions none of whose evidence is
    among the `refused` sources (the product's refusals: the same questions as its own)."""
    from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]
    from sklearn.feature_extraction.text import TfidfVectorizer  # type: ignore[import-untyped]

    words, analyzer, ngrams = BASELINE_TOKENS[language]
    bm25, tfidf, bm25_kept, tfidf_kept = Scores(), Scores(), Scores(), Scores()
    for conv in conversations:
        docs = [t.content for t in conv.turns]
        sources = [t.source for t in conv.turns]
        index = BM25Okapi([words(d) for d in docs])
        vectorizer = TfidfVectorizer(analyzer=analyzer, ngram_range=ngrams, sublinear_tf=True)
        matrix = vectorizer.fit_transform(docs)
        for q in conv.questions:
            kept = not set(refused) & set(q.evidence)
            scores = index.get_scores(words(q.text))
            ranked = sorted(range(len(docs)), key=lambda i: -scores[i])[:20]
            bm25.add(q.category, [sources[i] for i in ranked], q.evidence)
            if kept:
                bm25_kept.add(q.category, [sources[i] for i in ranked], q.evidence)
            sims = (matrix @ vectorizer.transform([q.text]).T).toarray().ravel()
            ranked = sorted(range(len(docs)), key=lambda i: -sims[i])[:20]
            tfidf.add(q.category, [sources[i] for i in ranked], q.evidence)
            if kept:
                tfidf_kept.add(q.category, [sources[i] for i in ranked], q.evidence)
    return {
        "bm25": bm25,
        "char_tfidf": tfidf,
        "bm25_evidence_kept": bm25_kept,
        "char_tfidf_evidence_kept": tfidf_kept,
    }


def _long_retention() -> Path:
    """The packaged policy with episodic memories kept ten years: LoCoMo's conversations span
    months, years before today, and this measures finding, not forgetting (retention has its
    own tests)."""
    import tempfile

    from governed_memory.memory.policy import DEFAULT_POLICY_FILE

    text = DEFAULT_POLICY_FILE.read_text(encoding="utf-8")
    longer = re.sub(r"(?m)^episodic_days\s*=\s*\d+", "episodic_days = 3650", text)
    if longer == text:
        raise InvalidInput("the packaged policy has no episodic_days to lengthen", field="policy")
    path = Path(tempfile.mkdtemp(prefix="memory-locomo-")) / "policy.toml"
    path.write_text(longer, encoding="utf-8")
    return path


#: The consent an import can carry, as its purpose: the people in the conversations agreed to
#: keeping them, special categories included (the write path then stores those turns as
#: restricted). Each conversation's user records it first; its id is each write's consent_ref.
IMPORT_CONSENT = "keeping these recorded conversations, special categories included"


async def run_product(
    conversations: list[Conversation], consent: str | None = None
) -> dict[str, Any]:
    """Write every turn through write_batch (with, when `consent` is given, a consent for that
    purpose recorded by each conversation's user and cited by each write), ask every question
    through recall."""
    from governed_memory.memory.models import cut
    from governed_memory.shell.bench.service import service

    product, kept_only, graphless = Scores(), Scores(), Scores()
    refused: Counter[str] = Counter()
    refused_sources: set[str] = set()
    latencies: list[float] = []
    written = 0
    write_seconds = 0.0
    async with service("retrieval", _long_retention()) as (client, _env):
        with_graph, without_graph = walking(client)
        for conv in conversations:
            consent_ref = (
                client.give_consent(conv.user, conv.user, consent).consent_id if consent else None
            )
            requests = [
                client.write_request(
                    conv.user,
                    conv.namespace,
                    {
                        "kind": "episodic",
                        "content": t.content,
                        "source_refs": [t.source],
                        "valid_from": t.at.isoformat(),
                        **({"consent_ref": consent_ref} if consent_ref else {}),
                    },
                    idempotency_key=f"{conv.sample_id}-{t.dia_id}",
                )
                for t in conv.turns
            ]
            source_of = {f"{conv.sample_id}-{t.dia_id}": t.source for t in conv.turns}
            started = time.perf_counter()
            for chunk in cut(requests):
                result = await client.write_batch(chunk)
                for item in result.items:
                    for o in item.outcomes:
                        if o.decision in ("add", "update"):
                            written += 1
                        else:
                            refused[o.reason or o.decision] += 1
                            refused_sources.add(source_of[item.idempotency_key])
            write_seconds += time.perf_counter() - started
            for q in conv.questions:
                t0 = time.perf_counter()
                found = await client.recall(conv.user, [conv.namespace], query=q.text, k=20)
                latencies.append((time.perf_counter() - t0) * 1000)
                sources = [m.source_refs[0] if m.source_refs else "" for m in found.memories]
                product.add(q.category, sources, q.evidence)
                if not refused_sources & set(q.evidence):
                    kept_only.add(q.category, sources, q.evidence)
                # the same question with no graph walk, for the difference it makes
                client.stores.policy = without_graph
                alone = await client.recall(conv.user, [conv.namespace], query=q.text, k=20)
                client.stores.policy = with_graph
                graphless.add(
                    q.category,
                    [m.source_refs[0] if m.source_refs else "" for m in alone.memories],
                    q.evidence,
                )
        embedder = client.stores.embedder.name
    turns = sum(len(c.turns) for c in conversations)
    ordered = sorted(latencies)
    return {
        "scores": product,
        "kept_only": kept_only,
        "graphless": graphless,
        "refused_sources": refused_sources,
        "embedder": embedder,
        "turns": turns,
        "written": written,
        "refused": dict(refused),
        "writes_per_second": round(turns / write_seconds, 1) if write_seconds else 0.0,
        "recall_ms": {
            "p50": round(statistics.median(ordered), 2) if ordered else 0.0,
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2) if ordered else 0.0,
        },
    }


#: The Chinese development set of the same shape (written for this project; see its README).
CHINESE_DEV = Path(__file__).parent / "corpora" / "locomo.zh.dev.json"


def walking(client: Any) -> tuple[Any, Any]:
    """The client's policy with and without the graph walk; results computed afresh each time
    (no recall cache: the two must not answer for each other)."""
    from governed_memory.memory.retrieval import RecallCache

    client.reader.cache = RecallCache(0, 0.0)
    policy = client.stores.policy
    off = policy.retrieval.model_copy(update={"graph_hops": 0})
    return policy, policy.model_copy(update={"retrieval": off})


async def run_retrieval_bench(path: Path, chinese: Path | None = CHINESE_DEV) -> dict[str, Any]:
    """The measure on the LoCoMo file at `path` and, when given, on the Chinese set; then the
    two-hop set (`shell.eval.twohop`)."""
    from governed_memory.shell.eval.twohop import TWOHOP, TWOHOP2, run_twohop_bench

    report = await _measure(path, "en")
    if chinese is not None:
        report["chinese"] = await _measure(chinese, "zh")
    report["twohop"] = await run_twohop_bench(TWOHOP)
    report["twohop2"] = await run_twohop_bench(TWOHOP2)
    return report


async def _measure(path: Path, language: str) -> dict[str, Any]:
    conversations = load(path)
    if not conversations:
        raise InvalidInput(f"no conversations in {path}", field="locomo")
    measured = await run_product(conversations)
    others = baselines(conversations, language, measured["refused_sources"])
    report: dict[str, Any] = {
        "path": str(path),
        "conversations": [c.sample_id for c in conversations],
        "questions": sum(len(c.questions) for c in conversations),
        "embedder": measured["embedder"],
        "turns": measured["turns"],
        "written": measured["written"],
        "refused": measured["refused"],
        "writes_per_second": measured["writes_per_second"],
        "recall_ms": measured["recall_ms"],
        "product": measured["scores"].table(),
        # The same run, each question asked again with no graph walk.
        "product_without_graph": measured["graphless"].table(),
        # The same run, over the questions none of whose evidence the write path refused:
        # how well recall finds what was kept.
        "product_evidence_kept": measured["kept_only"].table(),
        **{name: s.table() for name, s in others.items()},
    }
    if language == "en":
        # mem0 over the same turns and questions, when the `peer` extra is installed.
        import asyncio

        from governed_memory.shell.eval.peer import run_mem0

        report["mem0"] = await asyncio.to_thread(run_mem0, conversations)
    if measured["refused"]:
        # The same import again, carrying a consent: every turn is then stored, the special
        # categories as restricted, which a reader of the default ceiling (internal) is never
        # given: governance, not search, is what the refused turns' questions lack.
        consented = await run_product(conversations, IMPORT_CONSENT)
        report["with_consent"] = {
            "consent_purpose": IMPORT_CONSENT,
            "written": consented["written"],
            "refused": consented["refused"],
            "product": consented["scores"].table(),
        }
    return report
