"""What a deletion covers and who may ask for it.

A scope (subject, namespace, key, source, or a request in words) resolves to memories, the
messages they were extracted from, and every summary derived from either (through lineage,
transitively). The result names everything by id only: it travels through workflow history.

A scope that names a namespace needs the right to delete there. A scope that spans namespaces (a
subject, a tool's reference) covers what lies in the namespaces its requester may delete; what
lies elsewhere is left alone and only counted (`withheld`, `withheld_namespaces`: numbers, never
which namespaces or what they hold), so a user's deletion of themselves erases everything they
may erase however many copies someone else keeps. A scope its requester may delete none of is
refused.

A promoted copy (`memory.promotion`: lineage from a memory to a memory that is not a summary)
goes with what it copies, wherever it lies: the one who may erase a memory erases its copies
too. The namespaces only such copies bring in (`copy_namespaces`) need no right to delete there,
and lose nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from governed_memory.memory.errors import InvalidInput, UnauthorizedNamespace
from governed_memory.memory.models import (
    ConversationMessage,
    DeletionScope,
    MemoryRecord,
    Principal,
)
from governed_memory.memory.models.deletion import MessageTarget, ResolvedScope, SummaryTarget
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.subjects import canonical_subject, subject_namespace, subject_of
from governed_memory.memory.summary import ThreadSummary
from governed_memory.memory.vocabulary import keys_to_forget

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


def resolve_words(
    text: str, namespace: str, existing: Iterable[str] | None = None
) -> DeletionScope:
    """A request in words ("忘掉我的通知偏好", "Please forget how I like to be notified",
    "删除你记得的关于我的一切") as the scope it asks for, in `namespace`, against the keys that
    `existing` there (when given): a request whose words name `profile.language` forgets the
    `reply.language` the namespace actually holds. Several candidates, or none it can tell,
    are refused with the keys to choose from: forgetting one of them would look done and not be."""
    if not _FORGET.search(text):
        raise InvalidInput(f"{text!r} does not ask to forget anything", field="scope.text")
    if _EVERYTHING.search(text):
        return DeletionScope(namespace=namespace)
    named = keys_to_forget(text)
    keys = named if existing is None else _existing_keys(text, named, set(existing))
    if len(keys) == 1:
        return DeletionScope(namespace=namespace, key=keys[0])
    if len(keys) > 1:
        raise InvalidInput(
            f"{text!r} could mean several things ({', '.join(sorted(keys))}); "
            "send one request for each, naming its key",
            field="scope.text",
        )
    if len(named) == 1:  # a known key the namespace does not hold: nothing to forget
        return DeletionScope(namespace=namespace, key=named[0])
    raise InvalidInput(
        f"could not tell what {text!r} asks to forget; name a key, a subject or a source",
        field="scope.text",
    )


def _existing_keys(text: str, named: list[str], existing: set[str]) -> list[str]:
    """The keys held in the namespace that the words name: those named outright, else those
    sharing the last part of a named key (`profile.language`, `reply.language`), else those
    whose own words appear in the request."""
    held = [k for k in named if k in existing]
    if held:
        return held
    tails = {k.rsplit(".", 1)[-1] for k in named}
    related = sorted(k for k in existing if k.rsplit(".", 1)[-1] in tails)
    if related:
        return related
    words = set(re.findall(r"[a-z]{4,}", text.lower()))
    return sorted(k for k in existing if words & set(re.split(r"[._]", k)) - {"profile"})


def _check_tenant(namespace: str, tenant: str) -> None:
    """Another tenant's namespace is refused as reads and writes refuse it."""
    if parse_namespace(namespace).tenant != tenant:
        raise UnauthorizedNamespace(
            f"namespace {namespace} is not in tenant {tenant}", field="scope.namespace"
        )


def resolve(
    stores: Stores,
    tenant: str,
    scope: DeletionScope,
    may_delete: Callable[[str], bool] | None = None,
) -> ResolvedScope:
    """Every memory, message and derived summary the scope covers, within one tenant; with
    `may_delete`, only what lies in the namespaces it allows (the rest is counted, not named)."""
    canonical = stores.canonical
    allowed = may_delete or (lambda _: True)
    withheld = _Withheld()
    scope = _plain(canonical, scope, tenant)
    named, whole_messages = _named(canonical, tenant, scope)
    records = _with_same_content(
        canonical, _summaries_last([r for r in named if allowed(r.namespace)])
    )
    copies = _promoted_copies(canonical, records)
    copied = {c.memory_id for c in copies}
    # what the scope names beyond the requester's namespaces, but for copies of what it erases
    withheld.apart([r for r in named if r.memory_id not in copied], allowed)
    whole_messages = {m: ns for m, ns in whole_messages.items() if withheld.keeps(ns, allowed)}
    have = {r.memory_id for r in records}
    records += [c for c in copies if c.memory_id not in have]
    live = [r for r in records if not (r.status == "deleted" and not r.content)]
    by_message = {
        m: target
        for m, target in _message_targets(canonical, tenant, live, whole_messages).items()
        if withheld.keeps(target.namespace, allowed)
    }
    memory_ids = [r.memory_id for r in live if r.kind != "summary"]
    summary_ids = _derived_summaries(
        canonical, list(by_message), memory_ids, [r.memory_id for r in live if r.kind == "summary"]
    )
    summaries = [
        t for t in _summary_targets(canonical, summary_ids) if withheld.keeps(t.namespace, allowed)
    ]
    subject, consents = _consents(canonical, tenant, scope, allowed)
    originals = [r for r in live if r.memory_id not in copied]
    namespaces = _covered_namespaces(scope, originals, by_message, summaries, allowed)
    if consents and subject:
        namespaces.append(subject)
    live_copies = [r for r in live if r.memory_id in copied]
    copy_namespaces = sorted({r.namespace for r in live_copies} - set(namespaces))
    return ResolvedScope(
        scope=scope,
        memory_ids=memory_ids,
        messages=list(by_message.values()),
        summaries=summaries,
        namespaces=sorted({*namespaces, *copy_namespaces}),
        copies=[r.memory_id for r in live_copies],
        copy_namespaces=copy_namespaces,
        keys=sorted({r.key for r in live if r.key and r.kind != "summary"}),
        withheld=withheld.count,
        withheld_namespaces=len(withheld.namespaces),
        consents=consents,
    )


def _consents(
    canonical: CanonicalStore, tenant: str, scope: DeletionScope, allowed: Callable[[str], bool]
) -> tuple[str | None, list[str]]:
    """The namespace of the subject a deletion is of (a subject, or a whole namespace's) and
    that subject's consents, when the requester may delete there: a subject erased keeps no
    consent (its purpose is the subject's own words)."""
    if scope.subject_ref is not None:
        subject = scope.subject_ref
    elif scope.whole_namespace:
        assert scope.namespace is not None
        subject = subject_of(scope.namespace)
    else:
        return None, []
    namespace = subject_namespace(subject, tenant)
    if not namespace or not allowed(namespace):
        return None, []
    if scope.namespace is not None and scope.namespace != namespace:
        return None, []  # the subject within another namespace: its consents are not there
    return namespace, [c.consent_id for c in canonical.consents.of_subject(tenant, subject)]


class _Withheld:
    """What a scope covers where its requester may not delete: counted, left alone."""

    def __init__(self) -> None:
        self.count = 0
        self.namespaces: set[str] = set()

    def keeps(self, namespace: str, allowed: Callable[[str], bool]) -> bool:
        if allowed(namespace):
            return True
        self.count += 1
        self.namespaces.add(namespace)
        return False

    def apart(
        self, records: list[MemoryRecord], allowed: Callable[[str], bool]
    ) -> list[MemoryRecord]:
        """The records the requester may delete; the others counted (erased ones are nothing
        to withhold)."""
        kept = []
        for r in records:
            if allowed(r.namespace):
                kept.append(r)
            elif r.content or r.status != "deleted":
                self.keeps(r.namespace, allowed)
        return kept


def _plain(canonical: CanonicalStore, scope: DeletionScope, tenant: str) -> DeletionScope:
    """A request in words as the scope it asks for (against the keys held), a subject in its
    stored form; the namespace checked to be the tenant's."""
    if scope.namespace is not None:
        _check_tenant(scope.namespace, tenant)
    if scope.text is not None:
        assert scope.namespace is not None
        held = {r.key for r in canonical.records.namespace_heads(scope.namespace) if r.key}
        scope = resolve_words(scope.text, scope.namespace, held)
    if scope.subject_ref is not None:
        subject = canonical_subject(scope.subject_ref, tenant)
        scope = scope.model_copy(update={"subject_ref": subject})
    source = scope.source_ref or ""
    if source.startswith("msg://") and scope.namespace is None:
        raise InvalidInput(
            "a message reference needs its namespace: thread ids are a namespace's",
            field="scope.namespace",
        )
    return scope


def _named(
    canonical: CanonicalStore, tenant: str, scope: DeletionScope
) -> tuple[list[MemoryRecord], dict[str, str]]:
    """The memories the scope names, and the messages it names whole (id -> namespace): those
    citing a source and the source itself, a subject's, or a namespace's (or one key in it; the
    whole namespace takes its conversation too)."""
    whole_messages: dict[str, str] = {}
    if scope.source_ref is not None:
        records = canonical.records.citing(tenant, scope.source_ref)
        if scope.namespace is not None:
            records = [r for r in records if r.namespace == scope.namespace]
            cited = canonical.messages.by_refs(tenant, scope.namespace, [scope.source_ref])
            whole_messages.update({m.message_id: m.namespace for m in cited.values()})
    elif scope.memory_id is not None:
        head = canonical.records.head(scope.memory_id)
        records = [head] if head is not None and head.namespace == scope.namespace else []
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
    return records, whole_messages


def _summaries_last(records: list[MemoryRecord]) -> list[MemoryRecord]:
    return [r for r in records if r.kind != "summary"] + [r for r in records if r.kind == "summary"]


def _with_same_content(
    canonical: CanonicalStore, records: list[MemoryRecord]
) -> list[MemoryRecord]:
    """What states the same thing elsewhere in these namespaces goes too (same content):
    appended to `records`, which is returned."""
    hashes = {(r.namespace, r.content_hash) for r in records if r.content}
    have = {r.memory_id for r in records}
    for namespace in {ns for ns, _ in hashes}:
        for other in canonical.records.namespace_heads(namespace):
            if (other.namespace, other.content_hash) in hashes and other.memory_id not in have:
                records.append(other)
                have.add(other.memory_id)
    return records


def _promoted_copies(canonical: CanonicalStore, records: list[MemoryRecord]) -> list[MemoryRecord]:
    """The copies promoted from these memories, transitively (a copy promoted on again goes
    too), wherever they lie: lineage from a memory to a memory that is not a summary."""
    have = {r.memory_id for r in records}
    frontier = [r.memory_id for r in records if r.kind != "summary"]
    found: list[MemoryRecord] = []
    while frontier:
        derived = [d for d in canonical.lineage.derived_from("memory", frontier) if d not in have]
        heads = canonical.records.heads(derived)
        copies = [heads[d] for d in derived if d in heads and heads[d].kind != "summary"]
        have.update(c.memory_id for c in copies)
        found += copies
        frontier = [c.memory_id for c in copies]
    return found


def _message_targets(
    canonical: CanonicalStore,
    tenant: str,
    live: list[MemoryRecord],
    whole_messages: dict[str, str],
) -> dict[str, MessageTarget]:
    """The messages the memories were extracted from: for a keyed memory only the clauses that
    state its key, for anything else the whole message; then the messages named whole. Adds
    the messages of keyless memories to `whole_messages`."""
    by_message: dict[str, MessageTarget] = {}
    found: dict[str, dict[str, ConversationMessage]] = {}
    for namespace in sorted({r.namespace for r in live}):
        # a memory cites its own namespace's conversation
        refs = {
            ref
            for r in live
            if r.namespace == namespace
            for ref in r.source_refs
            if ref.startswith("msg://")
        }
        found[namespace] = canonical.messages.by_refs(tenant, namespace, refs) if refs else {}
    for r in live:
        for ref in r.source_refs:
            message = found[r.namespace].get(ref)
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
    return by_message


def _derived_summaries(
    canonical: CanonicalStore,
    message_ids: list[str],
    memory_ids: list[str],
    summary_ids: list[str],
) -> list[str]:
    """Derived summaries, transitively: from the messages and the memories. Returns
    `summary_ids` (the summaries already in scope) extended with every one derived."""
    frontier_messages = list(message_ids)
    frontier_memories = list(memory_ids) + summary_ids
    seen = set(summary_ids)
    while frontier_messages or frontier_memories:
        derived = canonical.lineage.derived_from(
            "message", frontier_messages
        ) + canonical.lineage.derived_from("memory", frontier_memories)
        frontier_messages, frontier_memories = [], [d for d in derived if d not in seen]
        seen.update(frontier_memories)
        summary_ids.extend(frontier_memories)
    return summary_ids


def _summary_targets(canonical: CanonicalStore, summary_ids: list[str]) -> list[SummaryTarget]:
    """Each summary with the thread range it covers and who wrote it (to write it again)."""
    heads = canonical.records.heads(summary_ids)
    summaries: list[SummaryTarget] = []
    for memory_id in summary_ids:
        head = heads.get(memory_id)
        if head is None or head.kind != "summary" or not head.structured_value:
            continue  # a promoted copy is a memory of the scope, not a summary
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
    return summaries


def _covered_namespaces(
    scope: DeletionScope,
    live: list[MemoryRecord],
    by_message: dict[str, MessageTarget],
    summaries: list[SummaryTarget],
    allowed: Callable[[str], bool],
) -> list[str]:
    """Every namespace anything covered lives in (and the scope's own, when it may be deleted):
    what deleting needs the right to, and whose generations move."""
    named = [scope.namespace] if scope.namespace and allowed(scope.namespace) else []
    return sorted(
        {
            *(r.namespace for r in live),
            *(m.namespace for m in by_message.values()),
            *(s.namespace for s in summaries),
            *named,
        }
    )


def authorize_deletion(principal: Principal, tenant: str, resolved: ResolvedScope) -> None:
    """Refuse what the principal may not ask at all: a deletion in another tenant, a scope that
    names a namespace it may not delete, or one that covers only what it may not delete. What a
    spanning scope covers beyond the principal's namespaces was left out by `resolve` (counted in
    `withheld`). A user may delete within its own namespace; others need a delete grant. No
    refusal names a namespace the requester did not name itself."""
    if principal.tenant != tenant:
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete in tenant {tenant}", field="scope"
        )
    named = resolved.scope.namespace
    if named is not None and not principal.can_delete(named):
        raise UnauthorizedNamespace(f"{principal.ref} may not delete in {named}", field="scope")
    if resolved.withheld and not resolved.namespaces:
        raise UnauthorizedNamespace(
            f"{principal.ref} may delete nothing {resolved.scope.describe()} covers",
            field="scope",
        )
    if any(
        not principal.can_delete(ns)
        for ns in resolved.namespaces
        if ns not in resolved.copy_namespaces  # what lies there is a copy of what it erases
    ):
        # resolved without the principal's rights (`resolve(..., may_delete=...)` leaves out
        # what it may not delete): nothing of it
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete all {resolved.scope.describe()} covers",
            field="scope",
        )
