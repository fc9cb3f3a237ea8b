"""Thread summaries: structured, cited, verified, versioned.

A summary holds confirmed facts, open questions, key decisions (with evidence refs), commitments
and deadlines, and uncertainties; each claim cites the messages it comes from
(`msg://{thread}/{position}`). `Summarizer` is the protocol; `ExtractiveSummarizer`, the offline
default, keeps the sentences that carry facts, decisions, commitments and questions and quotes
them verbatim, so it cannot lose a negation. Whatever summarizer ran, `verify` checks the result
before it is committed: every claim cites a message of the asked range, every negation in the
cited words survives in the claim, the range is the one asked. A summary that fails is replaced by
the extractive one, and the reason is recorded.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from pydantic import Field

from governed_memory.memory.errors import InvalidInput, NotFound, UnauthorizedNamespace
from governed_memory.memory.models import (
    AuditEvent,
    ConversationMessage,
    ExtractorInfo,
    MemoryRecord,
    Model,
    Principal,
)
from governed_memory.memory.models.summaries import SummarizeRequest
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.plans import (
    CommitPlan,
    LineageLink,
    RecordChange,
    SlotCheck,
    slot_for,
)
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.detectors import detect

_SENTENCE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]*")
_QUESTION = re.compile(
    r"[？?]\s*$|吗[？?]?$|呢[？?]?$|^(请问|what|how|when|where|why|which|can you|could you|"
    r"do you|is it|are you)\b",
    re.IGNORECASE,
)
_DECISION = re.compile(
    r"决定|选择|选|就要|不要|不用|算了|同意|确认|那就|给我|换|要.{0,6}(吧|的)|退款吧|"
    r"\b(let's|i'll take|i choose|go with|decided|agree|instead|i want|i'd like|"
    r"don't want|no need)\b",
    re.IGNORECASE,
)
_DEADLINE = re.compile(
    r"((这|本|下|上)?(周|星期)[一二三四五六日天]|[今明后]天|本周|这周|下周|月底|"
    r"\d+\s*(天|小时|日|个工作日)(内|之内|以内)?|\d+月\d+[日号])(前|之前|以前|内|之内)?|截止|到期|"
    r"\b(by|before|until|within)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tomorrow|today|tonight|end of \w+|\d+\s+(days?|hours?))\b|\bdeadline\b",
    re.IGNORECASE,
)
_PROMISE = re.compile(
    r"会为您|为您安排|将会|保证|承诺|马上|尽快|安排|\b(we will|we'll|i will|i'll|promise|shall)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"可能|也许|大概|不确定|不清楚|好像|似乎|或许|\b(maybe|might|perhaps|not sure|unsure|"
    r"probably|i think|seems)\b",
    re.IGNORECASE,
)
_CHATTER = re.compile(
    r"^(你好|您好|谢谢|多谢|好的|好|嗯|哦|抱歉|不好意思|对不起|没问题|hi|hello|thanks|thank you|"
    r"ok|okay|sorry|sure)[！!。.，,~～\s]*$",
    re.IGNORECASE,
)
NEGATION = re.compile(
    r"不|没|别|无|非|未|莫|勿|\b(no|not|never|none|nothing|nobody|neither|nor|without|"
    r"cannot|can't|don't|doesn't|didn't|won't|isn't|aren't|wasn't|weren't|shouldn't)\b",
    re.IGNORECASE,
)

SECTIONS = ("key_decisions", "commitments", "confirmed_facts", "open_questions", "uncertainties")


class Claim(Model):
    text: str = Field(min_length=1)
    refs: list[str] = Field(default_factory=list)
    speaker: str | None = None
    deadline: str | None = None


class SummaryBody(Model):
    """What a summarizer produces; the service adds range, version and verification."""

    confirmed_facts: list[Claim] = Field(default_factory=list)
    open_questions: list[Claim] = Field(default_factory=list)
    key_decisions: list[Claim] = Field(default_factory=list)
    commitments: list[Claim] = Field(default_factory=list)
    uncertainties: list[Claim] = Field(default_factory=list)

    def claims(self) -> list[Claim]:
        return [c for section in SECTIONS for c in getattr(self, section)]


class ThreadSummary(SummaryBody):
    """The structured value of a summary record."""

    thread: str
    source_range: tuple[int, int]
    summary_version: int = Field(ge=1)
    summarizer: ExtractorInfo
    #: None when the chosen summarizer's output passed verification; else why it was replaced.
    fallback_reason: str | None = None


class Summarizer(Protocol):
    info: ExtractorInfo

    def summarize(self, messages: Sequence[ConversationMessage]) -> SummaryBody: ...


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


class ExtractiveSummarizer:
    """Offline and deterministic: keeps the sentences that carry decisions, commitments and
    deadlines, facts, questions and uncertainties, quoted verbatim with their message refs."""

    info = ExtractorInfo(name="extractive-summarizer", version="1")

    def summarize(self, messages: Sequence[ConversationMessage]) -> SummaryBody:
        body = SummaryBody()
        for i, message in enumerate(messages):
            answered = any(m.speaker != message.speaker for m in messages[i + 1 :])
            for sentence in _sentences(message.text):
                if _CHATTER.match(sentence):
                    continue
                claim = Claim(text=sentence, refs=[message.ref], speaker=message.speaker)
                placed = False
                if _QUESTION.search(sentence):
                    if not answered:
                        body.open_questions.append(claim)
                    placed = True
                if _DECISION.search(sentence) and not _QUESTION.search(sentence):
                    body.key_decisions.append(claim)
                    placed = True
                deadline = _DEADLINE.search(sentence)
                if deadline or (_PROMISE.search(sentence) and message.speaker_type != "user"):
                    body.commitments.append(
                        claim.model_copy(
                            update={"deadline": deadline.group(0) if deadline else None}
                        )
                    )
                    placed = True
                if _HEDGE.search(sentence):
                    body.uncertainties.append(claim)
                    placed = True
                if not placed and len(sentence) >= 4:
                    body.confirmed_facts.append(claim)
        return body


def _negations(text: str) -> list[str]:
    return [m.group(0).lower() for m in NEGATION.finditer(text)]


def _closest_clause(claim: str, text: str) -> str:
    """The clause of `text` a claim most likely renders (by shared characters)."""
    clauses = [c for c in re.split(r"[，,。！？!?；;\n]", text) if c.strip()] or [text]
    wanted = set(claim.lower())
    return max(clauses, key=lambda c: len(wanted & set(c.lower())) / (len(set(c)) or 1))


def verify(
    body: SummaryBody,
    messages: Sequence[ConversationMessage],
    allowed_refs: set[str],
) -> list[str]:
    """Problems with a summary of these messages; an empty list means it may be committed."""
    problems: list[str] = []
    by_ref = {m.ref: m for m in messages}
    for claim in body.claims():
        if not claim.refs:
            problems.append(f"claim cites no message: {claim.text[:40]!r}")
            continue
        outside = [r for r in claim.refs if r not in allowed_refs]
        if outside:
            problems.append(f"claim cites messages outside the range: {outside}")
        for ref in claim.refs:
            message = by_ref.get(ref)
            if message is None:
                continue
            if claim.text in message.text:
                continue  # a verbatim quote keeps every word, negations included
            source = _closest_clause(claim.text, message.text)
            lost = [n for n in _negations(source) if n not in claim.text.lower()]
            if lost:
                problems.append(
                    f"claim drops the negation {lost[0]!r} of {ref}: {claim.text[:40]!r}"
                )
    return problems


_LABELS = {
    "zh": {
        "key_decisions": "决定",
        "commitments": "承诺与期限",
        "confirmed_facts": "事实",
        "open_questions": "未决问题",
        "uncertainties": "不确定",
    },
    "en": {
        "key_decisions": "Decisions",
        "commitments": "Commitments and deadlines",
        "confirmed_facts": "Facts",
        "open_questions": "Open questions",
        "uncertainties": "Uncertainties",
    },
}


def render(summary: ThreadSummary) -> str:
    """The summary as text (what search and context building see), quotes kept verbatim."""
    text = " ".join(c.text for c in summary.claims())
    zh = len(re.findall(r"[\u4e00-\u9fff]", text)) >= len(re.findall(r"[A-Za-z]", text)) / 3
    labels = _LABELS["zh" if zh else "en"]
    first, last = summary.source_range
    head = (
        f"对话 {summary.thread} 摘要（消息 {first}–{last}，第 {summary.summary_version} 版）"
        if zh
        else f"Summary of thread {summary.thread} (messages {first}–{last}, version "
        f"{summary.summary_version})"
    )
    lines = [head]
    for section in SECTIONS:
        claims: list[Claim] = getattr(summary, section)
        if claims:
            quoted = (
                "；".join(dict.fromkeys(c.text for c in claims))
                if zh
                else " / ".join(dict.fromkeys(c.text for c in claims))
            )
            lines.append(f"{labels[section]}：{quoted}" if zh else f"{labels[section]}: {quoted}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ planning


class SummaryPlan(Model):
    plan: CommitPlan | None
    #: The summary committed (or, unchanged, the current one).
    memory_id: str | None
    summary_version: int | None
    source_range: tuple[int, int] | None
    fallback_reason: str | None = None
    unchanged: bool = False
    dropped_claims: int = 0


def summary_key(thread: str) -> str:
    """The key of a thread's summary in its namespace (`thread_summary.<thread>`)."""
    cleaned = re.sub(r"[^a-z0-9._-]", "-", thread.lower()).strip("._-") or "thread"
    if cleaned != thread.lower():
        cleaned = f"{cleaned[:80]}-{hashlib.sha256(thread.encode()).hexdigest()[:8]}"
    return f"thread_summary.{cleaned[:100]}"


def plan_summary(
    stores: Stores,
    request: SummarizeRequest,
    summarizer: Summarizer,
    *,
    workflow_id: str,
    memory_id: str,
    at: datetime,
    commit_id: str,
) -> SummaryPlan:
    """Load the range, summarise, verify (falling back to the extractive summarizer), and plan
    the commit: the new summary version, the previous one superseded, lineage to every message
    and memory used. Raises a typed error (and plans nothing) for bad input."""
    principal, thread_messages, namespace = _load_thread(stores, request)
    key = summary_key(request.thread)
    slot = slot_for(key, "")
    state = stores.canonical.records.slot_state(namespace, slot)
    previous_record = next((r for r in state.records if r.status == "active"), None)
    previous = (
        ThreadSummary.model_validate(previous_record.structured_value)
        if previous_record is not None and previous_record.structured_value
        else None
    )
    first, last, carry = _choose_range(request, thread_messages, previous)
    if first > last:  # nothing said since the last summary: it stands
        return SummaryPlan(
            plan=None,
            memory_id=previous_record.memory_id if previous_record else None,
            summary_version=previous.summary_version if previous else None,
            source_range=previous.source_range if previous else None,
            unchanged=True,
        )
    messages = [m for m in thread_messages if first <= m.position <= last]
    if not messages:
        raise InvalidInput(f"no messages in [{first}, {last}]", field="range")

    body, used, fallback_reason = _summarise_verified(summarizer, messages)
    kept, dropped = _without_unsayable(body)
    if carry is not None:
        for section in SECTIONS:
            setattr(kept, section, [*getattr(carry, section), *getattr(kept, section)])
        source_range = (carry.source_range[0], last)
    else:
        source_range = (first, last)
    summary = ThreadSummary(
        **kept.model_dump(),
        thread=request.thread,
        source_range=source_range,
        summary_version=(previous.summary_version + 1) if previous else 1,
        summarizer=used,
        fallback_reason=fallback_reason,
    )
    record = _summary_record(
        stores,
        request,
        summary,
        namespace=namespace,
        key=key,
        memory_id=memory_id,
        at=at,
        written_by=principal.ref,
    )
    plan = CommitPlan(
        commit_id=commit_id,
        tenant_id=request.tenant,
        namespace=namespace,
        at=at,
        slots=[SlotCheck(slot=slot, expected_version=state.version)],
        workflow_id=workflow_id,
        new_records=[record],
        changes=_superseding(previous_record, memory_id, at),
        audit=[_audit(summary, previous_record, memory_id, principal.ref, dropped)],
        lineage=_lineage(memory_id, messages, previous_record if carry is not None else None),
    )
    return SummaryPlan(
        plan=plan,
        memory_id=memory_id,
        summary_version=summary.summary_version,
        source_range=source_range,
        fallback_reason=fallback_reason,
        dropped_claims=dropped,
    )


def _load_thread(
    stores: Stores, request: SummarizeRequest
) -> tuple[Principal, list[ConversationMessage], str]:
    """The requesting principal, the thread's messages and its namespace, once the principal is
    known to be of the tenant, to read the namespace and write there, and the thread to exist
    in it. A thread the principal may not read is no thread to it: the answer is the same
    `NotFound` whether or not someone else's namespace holds a thread of that id."""
    canonical = stores.canonical
    principal = canonical.principals.get(request.principal)
    namespace = request.namespace
    if principal.tenant != request.tenant or parse_namespace(namespace).tenant != request.tenant:
        raise UnauthorizedNamespace(f"{principal.ref} is not in tenant {request.tenant}")
    readable = principal.can_read(namespace)
    thread_messages = (
        canonical.messages.in_thread(request.tenant, namespace, request.thread) if readable else []
    )
    if not thread_messages:
        raise NotFound(f"no thread {request.thread!r} to summarise", field="thread")
    if not principal.can_write(namespace):
        raise UnauthorizedNamespace(
            f"{principal.ref} may not write a summary in {namespace}", field="namespace"
        )
    return principal, thread_messages, namespace


def _choose_range(
    request: SummarizeRequest,
    thread_messages: Sequence[ConversationMessage],
    previous: ThreadSummary | None,
) -> tuple[int, int, ThreadSummary | None]:
    """The [first, last] positions to summarise and the summary to carry over: the range asked
    (checked, nothing carried), or else everything since the previous summary, carried on (first
    is then past last when nothing was said since)."""
    positions = [m.position for m in thread_messages]
    if request.range is not None:
        first, last = request.range
        if first < 1 or last < first:
            raise InvalidInput(f"invalid range [{first}, {last}]", field="range")
        if last > max(positions):
            raise InvalidInput(
                f"range ends at {last} but thread {request.thread} has {max(positions)} messages",
                field="range",
            )
        return first, last, None
    first = previous.source_range[1] + 1 if previous else min(positions)
    return first, max(positions), previous


def _summarise_verified(
    summarizer: Summarizer, messages: Sequence[ConversationMessage]
) -> tuple[SummaryBody, ExtractorInfo, str | None]:
    """The summarizer's body if it passes verification, else the extractive one; with the
    summarizer used and why the first was replaced (None if it was not)."""
    allowed = {m.ref for m in messages}
    body = summarizer.summarize(messages)
    problems = verify(body, messages, allowed)
    if problems:
        return (
            ExtractiveSummarizer().summarize(messages),
            ExtractiveSummarizer.info,
            "; ".join(problems[:3]),
        )
    return body, summarizer.info, None


def _without_unsayable(body: SummaryBody) -> tuple[SummaryBody, int]:
    """The claims a memory may hold, and how many were dropped: quoted secrets, injections and
    special categories stay in the (erasable) history only."""
    kept = SummaryBody()
    dropped = 0
    for section in SECTIONS:
        for claim in getattr(body, section):
            if detect(claim.text):
                dropped += 1
            else:
                getattr(kept, section).append(claim)
    return kept, dropped


def _summary_record(
    stores: Stores,
    request: SummarizeRequest,
    summary: ThreadSummary,
    *,
    namespace: str,
    key: str,
    memory_id: str,
    at: datetime,
    written_by: str,
) -> MemoryRecord:
    """The new summary version as a memory: rendered text, structured value, cited messages."""
    record = MemoryRecord(
        memory_id=memory_id,
        tenant_id=request.tenant,
        namespace=namespace,
        subject_ref=f"thread:{request.thread}",
        kind="summary",
        key=key,
        content=render(summary),
        structured_value=summary.model_dump(mode="json"),
        source_refs=sorted(
            {r for c in summary.claims() for r in c.refs}, key=lambda r: (len(r), r)
        ),
        source_type="derived_summary",
        confidence=0.9,
        sensitivity=stores.policy.defaults.sensitivity,
        valid_from=at,
        valid_to=None,
        recorded_at=at,
        expires_at=None,
        consent_ref=None,
        status="active",
        version=1,
        content_hash="",
        extractor=summary.summarizer,
        written_by=written_by,
    )
    return record.saying()


def _superseding(
    previous_record: MemoryRecord | None, memory_id: str, at: datetime
) -> list[RecordChange]:
    """The previous summary (if any) superseded by the new one."""
    if previous_record is None:
        return []
    return [
        RecordChange(
            memory_id=previous_record.memory_id,
            expected_version=previous_record.version,
            status="superseded",
            valid_to=at,
            conflict_group=None,
            change=f"superseded_by:{memory_id}",
        )
    ]


def _lineage(
    memory_id: str,
    messages: Sequence[ConversationMessage],
    carried: MemoryRecord | None,
) -> list[LineageLink]:
    """The new summary derives from every message summarised and from the summary it carries
    on (if any)."""
    lineage = [
        LineageLink(
            derived_id=memory_id, derived_version=1, source_kind="message", source_id=m.message_id
        )
        for m in messages
    ]
    if carried is not None:
        lineage.append(
            LineageLink(
                derived_id=memory_id,
                derived_version=1,
                source_kind="memory",
                source_id=carried.memory_id,
            )
        )
    return lineage


def _audit(
    summary: ThreadSummary,
    previous_record: MemoryRecord | None,
    memory_id: str,
    principal_ref: str,
    dropped: int,
) -> AuditEvent:
    """The audit event of the summary: verified or fallback, new or superseding."""
    return AuditEvent(
        stage="summarize",
        outcome="fallback" if summary.fallback_reason else "verified",
        decision="update" if previous_record else "add",
        relation="SUPERSEDES" if previous_record else "NEW",
        memory_id=memory_id,
        memory_version=1,
        principal=principal_ref,
        extractor=summary.summarizer,
        details={
            "thread": summary.thread,
            "source_range": list(summary.source_range),
            "summary_version": summary.summary_version,
            "fallback_reason": summary.fallback_reason,
            "dropped_claims": dropped,
        },
    )
