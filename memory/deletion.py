"""Deletion: what a request covers, who may delete it, erasing it everywhere it is said, and
proof that no read path returns it.

A scope (subject, namespace, key, source, or a request in words) resolves to memories, the
messages they were extracted from, and every summary derived from either (through lineage,
transitively). Erasure tombstones the memories and blanks every version; blanks a message, or,
for a key scope, cuts out only the clauses that state that key; erases the derived summaries and
writes fresh ones from what remains. Verification then asks every read path for the erased text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import ahocorasick
from pydantic import Field

from memory.context import ContextBudget, ContextBuilder, ContextRequest
from memory.errors import InvalidInput, UnauthorizedNamespace
from memory.models import (
    READABLE_STATUSES,
    DeletionScope,
    MemoryRecord,
    Model,
    Principal,
    ProbeResult,
    RecallQuery,
)
from memory.namespaces import parse_namespace
from memory.plans import EraseResult, LedgerEntry, MessageErasure
from memory.retrieval import Reader, squash
from memory.stores import Stores
from memory.stores.projection import SearchFilters
from memory.summary import ExtractiveSummarizer, SummarizeRequest, ThreadSummary, plan_summary
from memory.sync.apply import sync
from memory.vocabulary import keys_to_forget
from memory.write.extraction import Extractor

REDACTED = "[已删除]"

_FORGET = re.compile(
    r"忘掉|忘记|忘了|删除|删掉|清除|清空|抹掉|别再记|不要再记|forget|delete|erase|remove|wipe|"
    r"clear|stop remembering",
    re.IGNORECASE,
)
_EVERYTHING = re.compile(
    r"一切|所有|全部|everything|all (of )?(the )?(data|memories|information|info)|all you know|"
    r"anything you (know|remember)",
    re.IGNORECASE,
)


def resolve_words(text: str, namespace: str) -> DeletionScope:
    """A request in words ("忘掉我的通知偏好", "Please forget how I like to be notified",
    "删除你记得的关于我的一切") as the scope it asks for, in `namespace`."""
    if not _FORGET.search(text):
        raise InvalidInput(f"{text!r} does not ask to forget anything", field="scope.text")
    if _EVERYTHING.search(text):
        return DeletionScope(namespace=namespace)
    keys = keys_to_forget(text)
    if len(keys) == 1:
        return DeletionScope(namespace=namespace, key=keys[0])
    if len(keys) > 1:
        # "忘掉我的通知偏好和联系时间": forgetting only one of them would look done and not be.
        raise InvalidInput(
            f"{text!r} asks to forget several things ({', '.join(sorted(keys))}); "
            "send one request for each",
            field="scope.text",
        )
    raise InvalidInput(
        f"could not tell what {text!r} asks to forget; name a key, a subject or a source",
        field="scope.text",
    )


class MessageTarget(Model):
    message_id: str
    namespace: str
    #: Erase only the clauses stating these keys; empty: the whole message.
    keys: list[str] = Field(default_factory=list)


class SummaryTarget(Model):
    memory_id: str
    namespace: str
    thread: str
    first: int
    last: int
    writer: str


class ResolvedScope(Model):
    """What a scope covers, by id (no content: this travels through workflow history)."""

    scope: DeletionScope
    memory_ids: list[str] = Field(default_factory=list)
    messages: list[MessageTarget] = Field(default_factory=list)
    summaries: list[SummaryTarget] = Field(default_factory=list)
    namespaces: list[str] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)

    @property
    def all_memory_ids(self) -> list[str]:
        return list(dict.fromkeys([*self.memory_ids, *(s.memory_id for s in self.summaries)]))


def _check_tenant(namespace: str, tenant: str) -> None:
    if parse_namespace(namespace).tenant != tenant:
        raise InvalidInput(f"namespace {namespace} is not in tenant {tenant}", field="scope")


def resolve(stores: Stores, tenant: str, scope: DeletionScope) -> ResolvedScope:
    """Every memory, message and derived summary the scope covers, within one tenant."""
    canonical = stores.canonical
    if scope.text is not None:
        assert scope.namespace is not None
        scope = resolve_words(scope.text, scope.namespace)
    if scope.namespace is not None:
        _check_tenant(scope.namespace, tenant)

    records: list[MemoryRecord]
    whole_messages: dict[str, str] = {}  # message id -> namespace
    if scope.source_ref is not None:
        records = canonical.records.citing(tenant, scope.source_ref)
        cited = canonical.messages.by_refs(tenant, [scope.source_ref])
        whole_messages.update({m.message_id: m.namespace for m in cited.values()})
    elif scope.subject_ref is not None:
        records = canonical.records.subject_heads(tenant, scope.subject_ref)
        if scope.namespace is not None:
            records = [r for r in records if r.namespace == scope.namespace]
    else:
        assert scope.namespace is not None
        records = canonical.records.namespace_heads(scope.namespace, scope.key)
        if scope.key is None:  # the whole namespace: its conversation too
            whole_messages.update(
                {
                    m.message_id: m.namespace
                    for m in canonical.messages.in_namespace(scope.namespace)
                }
            )
    records = [r for r in records if r.kind != "summary"] + [
        r for r in records if r.kind == "summary"
    ]
    # What states the same thing elsewhere in these namespaces goes too (same content).
    hashes = {(r.namespace, r.content_hash) for r in records if r.content}
    have = {r.memory_id for r in records}
    for namespace in {ns for ns, _ in hashes}:
        for other in canonical.records.namespace_heads(namespace):
            if (other.namespace, other.content_hash) in hashes and other.memory_id not in have:
                records.append(other)
                have.add(other.memory_id)
    live = [r for r in records if not (r.status == "deleted" and not r.content)]

    # The messages the memories were extracted from: for a keyed memory only the clauses that
    # state its key, for anything else the whole message.
    by_message: dict[str, MessageTarget] = {}
    refs = {ref for r in live for ref in r.source_refs if ref.startswith("msg://")}
    found = canonical.messages.by_refs(tenant, refs)
    for r in live:
        for ref in r.source_refs:
            message = found.get(ref)
            if message is None or r.kind == "summary":
                continue
            target = by_message.setdefault(
                message.message_id,
                MessageTarget(message_id=message.message_id, namespace=message.namespace),
            )
            if r.key is not None:
                target.keys = sorted({*target.keys, r.key})
            else:  # a memory without key stands for the whole message
                whole_messages[message.message_id] = message.namespace
    for message_id, namespace in whole_messages.items():
        by_message[message_id] = MessageTarget(message_id=message_id, namespace=namespace)

    # Derived summaries, transitively: from the messages and the memories.
    memory_ids = [r.memory_id for r in live if r.kind != "summary"]
    summary_ids = [r.memory_id for r in live if r.kind == "summary"]
    frontier_messages = list(by_message)
    frontier_memories = list(memory_ids) + summary_ids
    seen = set(summary_ids)
    while frontier_messages or frontier_memories:
        derived = canonical.lineage.derived_from(
            "message", frontier_messages
        ) + canonical.lineage.derived_from("memory", frontier_memories)
        frontier_messages, frontier_memories = [], [d for d in derived if d not in seen]
        seen.update(frontier_memories)
        summary_ids.extend(frontier_memories)
    heads = canonical.records.heads(summary_ids)
    summaries: list[SummaryTarget] = []
    for memory_id in summary_ids:
        head = heads.get(memory_id)
        if head is None or not head.structured_value:
            continue
        value = ThreadSummary.model_validate(head.structured_value)
        summaries.append(
            SummaryTarget(
                memory_id=memory_id,
                namespace=head.namespace,
                thread=value.thread,
                first=value.source_range[0],
                last=value.source_range[1],
                writer=head.written_by,
            )
        )
    namespaces = sorted(
        {
            *(r.namespace for r in live),
            *(m.namespace for m in by_message.values()),
            *(s.namespace for s in summaries),
            *([scope.namespace] if scope.namespace else []),
        }
    )
    return ResolvedScope(
        scope=scope,
        memory_ids=memory_ids,
        messages=list(by_message.values()),
        summaries=summaries,
        namespaces=namespaces,
        keys=sorted({r.key for r in live if r.key and r.kind != "summary"}),
    )


def authorize_deletion(principal: Principal, tenant: str, resolved: ResolvedScope) -> None:
    """All or nothing: a principal that may not delete in every covered namespace deletes
    nothing. A user may delete within its own namespace; others need a delete grant."""
    if principal.tenant != tenant:
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete in tenant {tenant}", field="scope"
        )
    denied = [ns for ns in resolved.namespaces if not principal.can_delete(ns)]
    if denied:
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete in {', '.join(denied)}", field="scope"
        )


def _redaction(
    text: str, keys: list[str], extractor: Extractor, timezone: str
) -> MessageErasure | None:
    """Cut out of a message the clauses that state these keys (None: nothing found to cut)."""
    found = extractor.extract(text, default_timezone=timezone)
    clauses = [c.clause for c in found.candidates if c.candidate.key in keys and c.clause]
    clauses += [s.clause for s in found.skipped if s.key in keys and s.clause]
    redacted = text
    removed: list[str] = []
    for clause in sorted(set(clauses), key=len, reverse=True):
        if clause in redacted:
            redacted = redacted.replace(clause, REDACTED)
            removed.append(clause)
    if not removed:
        return None
    return MessageErasure(message_id="", new_text=redacted, erased_parts=removed)


def erase(
    stores: Stores,
    deletion_id: str,
    resolved: ResolvedScope,
    at: datetime,
    extractor: Extractor,
) -> EraseResult:
    """Erase memories, messages (or their stating clauses) and derived summaries at once."""
    canonical = stores.canonical
    timezone = stores.policy.defaults.timezone
    tenant = resolved.namespaces[0].split("/")[1] if resolved.namespaces else ""
    erasures: list[MessageErasure] = []
    originals = {
        m.message_id: m
        for ns in {t.namespace for t in resolved.messages}
        for m in canonical.messages.in_namespace(ns)
    }
    for target in resolved.messages:
        message = originals.get(target.message_id)
        if message is None or message.status == "erased":
            continue
        cut = _redaction(message.text, target.keys, extractor, timezone) if target.keys else None
        if cut is not None and squash(cut.new_text or "") != squash(REDACTED):
            erasures.append(
                cut.model_copy(
                    update={"message_id": target.message_id, "key": ",".join(target.keys)}
                )
            )
        else:
            erasures.append(
                MessageErasure(message_id=target.message_id, erased_parts=[message.text])
            )
    ledger = LedgerEntry(
        deletion_id=deletion_id,
        tenant_id=tenant,
        scope=resolved.scope.model_dump(mode="json"),
        memory_ids=resolved.all_memory_ids,
        messages=[(e.message_id, e.key) for e in erasures],
        committed_at=at,
    )
    return canonical.erasure.erase(
        deletion_id, resolved.all_memory_ids, at, messages=erasures, ledger=ledger
    )


def regenerate_summaries(
    stores: Stores, resolved: ResolvedScope, at: datetime, deletion_id: str
) -> list[str]:
    """Summaries built on erased sources, written again from what remains (the erased ones are
    gone with everything else). A thread with nothing left keeps no summary."""
    made: list[str] = []
    latest: dict[str, SummaryTarget] = {}
    for target in resolved.summaries:
        if target.thread not in latest or target.last > latest[target.thread].last:
            latest[target.thread] = target
    tenant = resolved.namespaces[0].split("/")[1] if resolved.namespaces else ""
    for thread, target in latest.items():
        remaining = stores.canonical.messages.in_thread(tenant, thread)
        span = [m.position for m in remaining if target.first <= m.position <= target.last]
        if not span:
            continue
        memory_id = f"mem_regen_{deletion_id.removeprefix('del_')}_{len(made)}"
        try:
            planned = plan_summary(
                stores,
                SummarizeRequest(
                    principal=target.writer,
                    tenant=tenant,
                    thread=thread,
                    range=(min(span), max(span)),
                ),
                ExtractiveSummarizer(),
                workflow_id=f"regenerate/{deletion_id}",
                memory_id=memory_id,
                at=at,
                commit_id=f"regenerate/{deletion_id}/{thread}",
            )
        except (InvalidInput, UnauthorizedNamespace):
            continue  # nothing left to summarise, or its writer lost the right: stays erased
        if planned.plan is None or not planned.plan.new_records:
            continue
        record = planned.plan.new_records[0]
        if (
            not record.structured_value
            or not ThreadSummary.model_validate(record.structured_value).claims()
        ):
            continue
        stores.commit_and_project(planned.plan)
        made.append(record.memory_id)
    return made


# ------------------------------------------------------------------------------ verification


#: Recall and context probes ask with at most this many of the erased texts (spread over the
#: scope); every erased id is checked exhaustively by the store-level probes, and recall can
#: only return what the canonical re-check confirms.
READ_PATH_SAMPLE = 16
_MIN_NEEDLE = 4


class Needles:
    """The erased texts, found by containment (without spacing or punctuation) in one pass over
    a text however many there are (an Aho-Corasick automaton). Very short fragments ("好的")
    would match unrelated speech; they are looked for by id only."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._automaton: ahocorasick.Automaton | None = None
        flats = {flat for flat in (squash(t) for t in texts) if len(flat) >= _MIN_NEEDLE}
        if flats:
            self._automaton = ahocorasick.Automaton()
            for flat in flats:
                self._automaton.add_word(flat, flat)
            self._automaton.make_automaton()

    def __bool__(self) -> bool:
        return self._automaton is not None

    def found_in(self, text: str) -> bool:
        if self._automaton is None or not text:
            return False
        return next(self._automaton.iter(squash(text)), None) is not None


def _spread(items: list[str], n: int) -> list[str]:
    """At most `n` items, evenly spread over the list (deterministic)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def verify_erased(
    stores: Stores,
    *,
    requester: Principal,
    resolved: ResolvedScope,
    probes: list[dict[str, str | None]],
    generations_before: dict[str, int],
    at: datetime,
    progress: Callable[[Any], None] = lambda _: None,
) -> list[ProbeResult]:
    """Ask every read path for what was erased; each probe passes only if nothing comes back:
    canonical by id and by key, keyword search with the erased text, vector search with its
    embedding, recall and context building as the owner and as an agent, summaries,
    conversation history, projection rows, and the cache (every namespace's generation moved)."""
    canonical, projection = stores.canonical, stores.projection
    erased = set(resolved.all_memory_ids)
    texts = [str(p["content"]) for p in probes if p["content"]]
    needles = Needles(texts)
    namespaces = resolved.namespaces
    results: list[ProbeResult] = []

    def probe(name: str, leaked: int, detail: str = "") -> None:
        progress(name)
        results.append(ProbeResult(probe=name, passed=leaked == 0, returned=leaked, detail=detail))

    heads = canonical.records.heads(erased)
    leaked_heads = [m for m, r in heads.items() if r.status != "deleted" or r.content]
    leaked_versions = canonical.records.unblanked(erased)
    probe(
        "canonical_by_id",
        len(leaked_heads) + len(leaked_versions),
        f"{len(heads)} memories tombstoned, every version blanked",
    )
    by_key = [
        r
        for r in canonical.records.key_records(namespaces, resolved.keys, READABLE_STATUSES)
        if r.memory_id in erased or needles.found_in(r.content)
    ]
    probe("canonical_by_key", len(by_key))

    tenant = parse_namespace(namespaces[0]).tenant if namespaces else requester.tenant
    wide = SearchFilters(tenant_id=tenant, namespaces=tuple(namespaces), statuses=None)
    # The keyword read path with a spread of the texts; then every indexed row of the scope
    # is read and looked through for any of them.
    keyword_ids = {
        h.memory_id
        for t in _spread(texts, READ_PATH_SAMPLE * 4)
        for h in projection.keyword_search(t, wide, 50)
    }
    indexed = {m for m, text in projection.scan(wide) if m in erased or needles.found_in(text)}
    vector_ids = {
        h.memory_id
        for v in (stores.embedder.embed(_spread(texts, READ_PATH_SAMPLE * 4)) if texts else [])
        for h in projection.vector_search(v, wide, 20)
    }
    found_heads = canonical.records.heads(keyword_ids | vector_ids)

    def leaking(ids: set[str]) -> int:
        return sum(
            1
            for m in ids
            if m in erased or (m in found_heads and needles.found_in(found_heads[m].content))
        )

    probe("keyword_search", leaking(keyword_ids))
    probe("vector_search", leaking(vector_ids))
    probe(
        "projection_rows",
        len(set(projection.state(list(erased))) | indexed),
        "no indexed row is an erased memory or holds an erased text",
    )

    readers = [requester]
    for ns in {parse_namespace(n) for n in namespaces}:
        owner = Principal(type="user", tenant=ns.tenant, id=ns.id or "")
        if ns.scope == "user" and all(r.ref != owner.ref for r in readers):
            readers.append(owner)
    agents = [
        p
        for p in canonical.principals.of_tenant(tenant)
        if p.type == "agent" and any(p.can_read(ns) for ns in namespaces)
    ][:3]
    reader = Reader(stores)
    builder = ContextBuilder(reader)
    for who, label in [*((r, "owner") for r in readers[:2]), *((a, "agent") for a in agents)]:
        readable = [ns for ns in namespaces if who.can_read(ns)]
        if not readable:
            continue
        leaked = 0
        asked = _spread(texts, READ_PATH_SAMPLE)
        for text in asked or [""]:
            recall = reader.recall(
                RecallQuery(
                    principal=who.ref,
                    namespaces=readable,
                    query=text or None,
                    task=text or "forget",
                    keys=resolved.keys,
                    k=50,
                    at=at,
                ),
                now=at,
                use_cache=False,
            )
            leaked += sum(
                1 for m in recall.memories if m.memory_id in erased or needles.found_in(m.content)
            )
        probe(f"recall_as_{label}", leaked, f"{who.ref}; asked with {len(asked)} of {len(texts)}")
        threads = sorted({t.thread for t in resolved.summaries})
        package = builder.build(
            ContextRequest(
                principal=who.ref,
                namespaces=readable,
                task=texts[0] if texts else "forget",
                budget=ContextBudget(total_tokens=16000, reserved_output_tokens=0),
                thread=threads[0] if threads else None,
                at=at,
            )
        )
        # The goal is the probe's own words: look everywhere else in the package.
        shown = "\n".join(i.content for i in package.items if i.kind != "current_goal")
        probe(f"context_as_{label}", int(needles.found_in(shown)), who.ref)

    summaries = [
        r
        for ns in namespaces
        for r in canonical.records.namespace_heads(ns)
        if r.kind == "summary" and r.status in READABLE_STATUSES
    ]
    probe("summaries", sum(1 for r in summaries if needles.found_in(r.content)))
    messages = [m for ns in namespaces for m in canonical.messages.in_namespace(ns)]
    probe("conversation_history", sum(1 for m in messages if needles.found_in(m.text)))
    now = canonical.generations.read(namespaces)
    stale = [ns for ns in namespaces if now[ns][0] <= generations_before.get(ns, 0)]
    probe("cache", len(stale), "every namespace's generation moved past the deletion")
    return results


# ------------------------------------------------------------------------------ restores


def load_journal(path: Path) -> list[LedgerEntry]:
    if not path.exists():
        raise InvalidInput(f"{path}: no deletion journal", field="journal")
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                entries.append(LedgerEntry.model_validate_json(line))
            except ValueError as exc:
                raise InvalidInput(f"{path}:{number}: not a ledger entry ({exc})") from None
    return entries


def reapply(stores: Stores, entries: list[LedgerEntry], extractor: Extractor) -> dict[str, int]:
    """Apply recorded deletions again to a store restored from an older backup: whatever they
    erased and is back is erased again (with its fences and ledger row), and unprojected.
    Deletions still in force are left alone."""
    canonical = stores.canonical
    counts = {"deletions": 0, "reapplied": 0, "memories": 0, "messages": 0}
    timezone = stores.policy.defaults.timezone
    for entry in entries:
        counts["deletions"] += 1
        heads = canonical.records.heads(entry.memory_ids)
        back = [m for m, r in heads.items() if r.content or r.status != "deleted"]
        erasures: list[MessageErasure] = []
        messages = {
            m.message_id: m
            for ns in {r.namespace for r in heads.values()} | _namespaces_of(stores, entry)
            for m in canonical.messages.in_namespace(ns)
        }
        for message_id, keys in entry.messages:
            message = messages.get(message_id)
            if message is None or message.status == "erased":
                continue
            cut = _redaction(message.text, keys.split(","), extractor, timezone) if keys else None
            if keys and cut is None:
                continue  # already redacted: nothing states the key any more
            erasures.append(
                cut.model_copy(update={"message_id": message_id, "key": keys})
                if cut is not None
                else MessageErasure(message_id=message_id, erased_parts=[message.text])
            )
        if not back and not erasures:
            continue
        result = canonical.erasure.erase(
            entry.deletion_id, back, entry.committed_at, messages=erasures, ledger=entry
        )
        canonical.erasure.drop_probes(entry.deletion_id)
        sync(canonical, stores.projection, entry.memory_ids, result.outbox_seqs)
        counts["reapplied"] += 1
        counts["memories"] += len(result.memory_ids)
        counts["messages"] += len(erasures)
    return counts


def _namespaces_of(stores: Stores, entry: LedgerEntry) -> set[str]:
    scope = DeletionScope.model_validate(entry.scope)
    found = {ns for ns, _ in entry.fences}
    if scope.namespace:
        found.add(scope.namespace)
    return found
