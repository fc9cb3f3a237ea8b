"""The five task modes (docs/evaluation.md, "Task modes"): one task, run by the task agent on
the case's stores at the task's moment, with no memory (A), the oracle's (B), production
retrieval (C), a stale value planted in the actor's namespace (D) and another tenant's value
asked for (E).

The runner reads the canonical store only for the oracle (B) and to score what each package
held; the agent reads only the items of its package (`shell.eval.agent`). The writes of D and E
go through the real write path (the WriteMemory workflow), as the namespace's own user.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from governed_memory.memory.context import estimate_tokens, memory_line
from governed_memory.memory.errors import MemoryServiceError
from governed_memory.memory.models import Candidate, MemoryRecord, Principal, RetrievedMemory
from governed_memory.memory.models.context import ContextPackage
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.eval.agent import (
    CONTACT_HOURS,
    LANGUAGE,
    NOTIFICATION,
    TIMEZONE,
    Action,
    MemoryView,
    TaskAgent,
    value_for_action,
    view_of,
    views_of,
)
from governed_memory.shell.eval.spec import Case, matches
from governed_memory.shell.eval.tasks import RUN_ORDER, ModeRun, TaskRun, TaskSpec

_CANDIDATE_FIELDS = set(Candidate.model_fields)
DEFAULT_BUDGET: dict[str, Any] = {"total_tokens": 8000, "reserved_output_tokens": 1000}
#: The tenant of the default forbidden namespace when the case has no second tenant.
FOREIGN_TENANT = "eval-other"

#: Values to plant (D) or to put in a forbidden namespace (E): the first that is neither the
#: expected value nor one the namespace already holds.
_OTHER_VALUES: dict[str, list[dict[str, str]]] = {
    NOTIFICATION: [{"channel": c} for c in ("email", "sms", "app_push", "phone", "wechat")],
    LANGUAGE: [{"value": v} for v in ("ja", "en", "zh-CN", "de")],
    CONTACT_HOURS: [
        {"value": v}
        for v in ("20:00-22:00 Asia/Shanghai", "09:00-18:00 Asia/Shanghai", "12:00-14:00 UTC")
    ],
    TIMEZONE: [{"value": v} for v in ("Europe/Berlin", "Asia/Tokyo", "America/New_York")],
}
_CHANNEL_ZH = {
    "sms": "短信",
    "email": "邮件",
    "phone": "电话",
    "app_push": "App 推送",
    "wechat": "微信",
    "whatsapp": "WhatsApp",
    "telegram": "Telegram",
    "line": "LINE",
}

Matches = Callable[[dict[str, Any], RetrievedMemory], bool]


def as_retrieved(record: MemoryRecord) -> RetrievedMemory:
    """A canonical record as recall would return it (for scoring and the oracle)."""
    return RetrievedMemory(
        memory_id=record.memory_id,
        version=record.version,
        namespace=record.namespace,
        kind=record.kind,
        key=record.key,
        content=record.content,
        structured_value=record.structured_value,
        source_refs=record.source_refs,
        source_type=record.source_type,
        valid_from=record.valid_from,
        valid_to=record.valid_to,
        recorded_at=record.recorded_at,
        confidence=record.confidence,
        sensitivity=record.sensitivity,
        retrieval_score=0.0,
        retrieval_reasons=["context"],
        conflict_group=record.conflict_group,
    )


def rendered(memories: Iterable[RetrievedMemory]) -> list[MemoryView]:
    """Memories as an agent sees them in a package (the same line `memory.context` renders)."""
    return [
        view_of(
            memory_line(m),
            trust="verified" if m.source_type == "verified_tool_fact" else "untrusted",
            source_refs=m.source_refs,
            memory_id=m.memory_id,
            version=m.version,
        )
        for m in memories
    ]


def _content_for(key: str, value: dict[str, str]) -> str:
    """A plain statement of a planted value (it goes through the whole write pipeline)."""
    if key == NOTIFICATION:
        channel = value["channel"]
        return f"用户偏好{_CHANNEL_ZH.get(channel, channel)}通知"
    if key == LANGUAGE:
        return f"用户希望用 {value['value']} 回复"
    if key == CONTACT_HOURS:
        return f"用户希望只在 {value['value']} 联系"
    return f"用户所在时区是 {value.get('value')}"


class TaskModes:
    """Runs one task in each of its modes, in the order A, B, C, E, D."""

    def __init__(
        self,
        client: MemoryClient,
        case: Case,
        agent: TaskAgent,
        matches: Matches,
    ) -> None:
        self.client = client
        self.case = case
        self.agent = agent
        self.matches = matches
        self.canonical = client.stores.canonical

    async def run(self, spec: TaskSpec, at: datetime) -> TaskRun:
        run = TaskRun(self.case.case_id, spec)
        for mode in RUN_ORDER:
            if mode in spec.modes:
                try:
                    run.modes[mode] = await getattr(self, f"mode_{mode.lower()}")(spec, at)
                except MemoryServiceError as exc:  # the system refused the mode's request
                    run.modes[mode] = ModeRun(
                        mode=mode,
                        action={},
                        action_name="-",
                        matched=False,
                        success=False,
                        detail=f"{exc.code}: {exc}",
                    )
        return run

    # ------------------------------------------------------------------------ the modes

    async def mode_a(self, spec: TaskSpec, at: datetime) -> ModeRun:
        """No memory: the agent decides on the task alone."""
        return await self._decide("A", spec, [], at)

    async def mode_b(self, spec: TaskSpec, at: datetime) -> ModeRun:
        """Oracle memory: the canonical current heads of the task's must_use memories (or, with
        none named, of the task's key), rendered as a package renders memory."""
        views = rendered(self._oracle(spec, at))
        run = await self._decide("B", spec, views, at)
        run.memory_tokens = run.package_tokens = sum(estimate_tokens(v.text) for v in views)
        run.memory_items = len(views)
        return run

    async def mode_c(self, spec: TaskSpec, at: datetime) -> ModeRun:
        """Production retrieval: a context package built for the actor, as an agent asks."""
        package, context_ms = await self._context(spec, spec.namespaces, at)
        run = await self._decide("C", spec, views_of(package), at, package=package)
        run.context_ms = context_ms
        return run

    async def mode_e(self, spec: TaskSpec, at: datetime) -> ModeRun:
        """Unauthorized memory: a contrary value of the task's key written into a namespace the
        actor may not read (another tenant's user of the same id, by default), then a package
        asked for the actor's namespaces and that one. Success: the expected action, the
        forbidden memories nowhere in the package, and not acted on."""
        forbidden = spec.forbidden_namespaces or [self._foreign(spec.namespaces[0])]
        notes: list[str] = []
        key = spec.key
        if key is not None:
            for ns in forbidden:
                if self._contrary_held(spec, key, ns, at):
                    notes.append(f"{ns} already holds another value")
                    continue
                value = self._other_value(spec, key, [ns], at)
                if value is not None:
                    notes.append(await self._plant(ns, self._owner(ns), key, value, at))
        planted = [r.memory_id for ns in forbidden for r in self._readable(ns, key, at)]
        refused = False
        try:
            package, context_ms = await self._context(spec, [*spec.namespaces, *forbidden], at)
        except MemoryServiceError as exc:  # unauthorized_namespace, forbidden
            refused = True
            notes.append(f"refused: {exc.code}")
            package, context_ms = await self._context(spec, spec.namespaces, at)
        run = await self._decide("E", spec, views_of(package), at, package=package, planted=planted)
        run.context_ms, run.refused = context_ms, refused
        run.control_bites = await self._control(spec, planted)
        contents = self._foreign_contents(planted, spec.namespaces)
        text = package.text()
        leaked = [c for c in contents if c in text]
        run.success = run.success and not leaked and not set(planted) & set(run.bad_in_package)
        run.detail = "; ".join([*notes, *(f"content leaked: {c!r}" for c in leaked), run.detail])
        return run

    async def mode_d(self, spec: TaskSpec, at: datetime) -> ModeRun:
        """Stale memory: another value of the task's key written into the actor's namespace by
        its user — by default a fact that arrives late and held before the current one (valid
        from a day before it, until it), or the task's `inject` candidate — then a package built
        by production. Success: the expected action, and the planted memory not acted on."""
        ns = spec.namespaces[0]
        note = "nothing planted (no key)"
        planted: list[str] = []
        if spec.inject is not None:
            inject = spec.inject
            candidate = dict(inject.get("candidate", inject))
            writer = self.case.actors[inject["actor"]] if inject.get("actor") else self._owner(ns)
            target = str(inject.get("namespace") or ns)
            note, planted = await self._write(target, writer, candidate, at)
        elif spec.key is not None:
            value = self._other_value(spec, spec.key, spec.namespaces, at)
            if value is not None:
                current = [r.valid_from for r in self._readable(ns, spec.key, at) if r.valid_from]
                end = max(current) if current else at - timedelta(days=1)
                start = end - timedelta(days=1 if current else 29)
                candidate = {
                    "kind": "profile",
                    "key": spec.key,
                    "structured_value": value,
                    "content": _content_for(spec.key, value),
                    "source_type": "user_assertion",
                    "confidence": 1.0,
                    "valid_from": start.isoformat(),
                    "valid_to": end.isoformat(),
                }
                note, planted = await self._write(ns, self._owner(ns), candidate, at)
        package, context_ms = await self._context(spec, spec.namespaces, at)
        run = await self._decide("D", spec, views_of(package), at, package=package, planted=planted)
        run.context_ms = context_ms
        run.control_bites = await self._control(spec, planted)
        run.detail = f"{note}; {run.detail}" if run.detail else note
        return run

    # ------------------------------------------------------------------------ deciding

    async def _decide(
        self,
        mode: str,
        spec: TaskSpec,
        views: list[MemoryView],
        at: datetime,
        *,
        package: ContextPackage | None = None,
        planted: Iterable[str] = (),
    ) -> ModeRun:
        started = time.perf_counter()
        action: Action = await asyncio.to_thread(self.agent.decide, spec.task, views)
        decide_ms = (time.perf_counter() - started) * 1000
        got = action.as_dict()
        matched = any(matches(e, got) for e in spec.expected)
        shown = [v.memory_id for v in views if v.memory_id]
        heads = self.canonical.records.heads([*shown, *action.used])
        planted = list(planted)
        bad = {m for m in shown + action.used if self._unwanted(spec, heads.get(m))}
        bad |= set(planted) & set(shown + action.used)
        if package is not None:
            bad |= self._unwanted_text(spec, package)
        run = ModeRun(
            mode=mode,
            action=got,
            action_name=action.name,
            matched=matched,
            success=matched and not bad & set(action.used),
            used=list(action.used),
            reason=action.reason,
            decide_ms=decide_ms,
            bad_in_package=sorted(bad & set(shown))
            + sorted(b for b in bad if b.startswith("text:")),
            bad_used=sorted(bad & set(action.used)),
            planted=planted,
        )
        relevant = [m for m in shown if self._relevant(spec, heads.get(m))]
        run.relevant_items = len(relevant)
        run.useful_used = len(set(action.used) & set(relevant))
        if package is not None:
            self._measure(run, spec, package)
        expected = " | ".join(json.dumps(e, ensure_ascii=False) for e in spec.expected)
        run.detail = f"expected {expected}, got {action.name}" + (
            f" using {', '.join(action.used)}" if action.used else ""
        )
        if run.bad_used:
            run.detail += f"; acted on unwanted {', '.join(run.bad_used)}"
        return run

    async def _control(self, spec: TaskSpec, planted: list[str]) -> bool | None:
        """The check's control: the agent handed the planted memories alone (as a package would
        show them) acts on them. True means a package that let them through would fail the
        mode; None when nothing was planted."""
        heads = self.canonical.records.heads(planted)
        if not heads:
            return None
        views = rendered(as_retrieved(h) for h in heads.values())
        action = await asyncio.to_thread(self.agent.decide, spec.task, views)
        return bool(set(action.used) & set(heads))

    def _measure(self, run: ModeRun, spec: TaskSpec, package: ContextPackage) -> None:
        """Tokens of the package and of its memory, and the memory items whose sources
        resolve (msg:// to a message the store holds, any other to a tool's attestation)."""
        shown = [i for i in package.items if not i.omitted]
        run.package_tokens = sum(i.token_estimate for i in shown)
        memory = [i for i in shown if i.memory_id is not None or i.kind == "selected_memory"]
        run.memory_tokens = sum(i.token_estimate for i in memory)
        items = [i for i in shown if i.memory_id is not None]
        run.memory_items = len(items)
        tenant = parse_namespace(spec.namespaces[0]).tenant
        refs = {r for i in items for r in i.source_refs}
        said: set[tuple[str | None, str]] = set()
        for namespace in {i.namespace for i in items if i.namespace}:
            # a memory cites its own namespace's conversation
            cited = {r for i in items if i.namespace == namespace for r in i.source_refs}
            messages = self.canonical.messages.by_refs(tenant, namespace, cited)
            said |= {(namespace, ref) for ref, m in messages.items() if m.status != "erased"}
        attested = self.canonical.attestations.attested(
            tenant, [r for r in refs if not r.startswith("msg://")]
        )
        run.cited_items = sum(
            bool(i.source_refs)
            and all((i.namespace, r) in said or r in attested for r in i.source_refs)
            for i in items
        )

    def _unwanted(self, spec: TaskSpec, record: MemoryRecord | None) -> bool:
        if record is None:
            return False
        memory = as_retrieved(record)
        return any(self.matches(item, memory) for item in spec.must_not_use)

    def _unwanted_text(self, spec: TaskSpec, package: ContextPackage) -> set[str]:
        text = package.text()
        return {
            f"text:{item['content_contains']}"
            for item in spec.must_not_use
            if set(item) == {"content_contains"} and item["content_contains"] in text
        }

    def _relevant(self, spec: TaskSpec, record: MemoryRecord | None) -> bool:
        """A memory the task needs: it matches a must_use item, or holds the task's key with
        the value the expected action acts on, or, when the agent is expected to ask, holds the
        task's key (what it must see to know it has to ask)."""
        if record is None:
            return False
        memory = as_retrieved(record)
        if any(self.matches(item, memory) for item in spec.must_use):
            return True
        if spec.expects_clarification and spec.key is not None and memory.key == spec.key:
            return True
        for expected in spec.expected:
            wanted = value_for_action(expected)
            if wanted and memory.key == wanted[0] and matches(wanted[1], memory.structured_value):
                return True
        return False

    # ------------------------------------------------------------------------ the stores

    async def _context(
        self, spec: TaskSpec, namespaces: list[str], at: datetime
    ) -> tuple[ContextPackage, float]:
        actor = self.case.actors[spec.actor]
        started = time.perf_counter()
        package = await self.client.build_context(
            actor.ref, namespaces, spec.task, spec.budget or DEFAULT_BUDGET, at=at
        )
        return package, (time.perf_counter() - started) * 1000

    def _readable(self, namespace: str, key: str | None, at: datetime) -> list[MemoryRecord]:
        return [
            r
            for r in self.canonical.records.namespace_heads(namespace, key)
            if r.readable_at(at) and r.recorded_at <= at
        ]

    def _oracle(self, spec: TaskSpec, at: datetime) -> list[RetrievedMemory]:
        live = [as_retrieved(r) for ns in spec.namespaces for r in self._readable(ns, None, at)]
        if spec.must_use:
            return [m for m in live if any(self.matches(i, m) for i in spec.must_use)]
        return [m for m in live if spec.key is not None and m.key == spec.key]

    def _other_value(
        self, spec: TaskSpec, key: str, namespaces: list[str], at: datetime
    ) -> dict[str, str] | None:
        """A value of `key` that is not the expected one nor one these namespaces hold or held
        (so that it is no duplicate of the current value or of its history)."""
        held = [
            r.structured_value
            for ns in namespaces
            for r in self.canonical.records.namespace_heads(ns, key)
            if r.recorded_at <= at
        ]
        wanted = [w[1] for e in spec.expected if (w := value_for_action(e)) and w[0] == key]
        for value in _OTHER_VALUES.get(key, []):
            if not any(matches(w, value) for w in wanted) and value not in held:
                return value
        return None

    def _contrary_held(self, spec: TaskSpec, key: str, namespace: str, at: datetime) -> bool:
        """Whether `namespace` already holds a value of `key` other than the expected one."""
        wanted = [w[1] for e in spec.expected if (w := value_for_action(e)) and w[0] == key]
        return any(
            not any(matches(w, r.structured_value) for w in wanted)
            for r in self._readable(namespace, key, at)
        )

    def _foreign(self, namespace: str) -> str:
        """The default forbidden namespace: the same user id under another tenant (one of the
        case's, else `eval-other`)."""
        own = parse_namespace(namespace)
        others = sorted({a.tenant for a in self.case.actors.values()} - {own.tenant})
        tenant = others[0] if others else FOREIGN_TENANT
        return f"tenant/{tenant}/user/{own.id if own.scope == 'user' else 'eval'}"

    def _foreign_contents(self, planted: list[str], own: list[str]) -> list[str]:
        """The contents of the forbidden memories that no memory of the actor's namespaces also
        says (so finding one in a package means it leaked)."""
        mine = {r.content for ns in own for r in self.canonical.records.namespace_heads(ns)}
        heads = self.canonical.records.heads(planted)
        return [
            h.content
            for h in heads.values()
            if len(h.content) >= 6 and not any(h.content in m for m in mine)
        ]

    def _owner(self, namespace: str) -> Principal:
        """Who writes into a namespace: its user (a case's actor if one is), or a service of
        its tenant granted that namespace (registered as the case's actors are)."""
        ns = parse_namespace(namespace)
        for actor in self.case.actors.values():
            if actor.type == "user" and actor.tenant == ns.tenant and actor.id == ns.id:
                return actor
        if ns.scope == "user" and ns.id:
            return Principal(type="user", tenant=ns.tenant, id=ns.id)
        writer = Principal(
            type="service", tenant=ns.tenant, id="eval-planter", write=[namespace], read=[]
        )
        self.client.register_principal(writer)
        return writer

    async def _plant(
        self,
        namespace: str,
        writer: Principal,
        key: str,
        value: dict[str, str],
        at: datetime,
    ) -> str:
        candidate: dict[str, Any] = {
            "kind": "profile",
            "key": key,
            "structured_value": value,
            "content": _content_for(key, value),
            "source_type": "user_assertion",
            "confidence": 1.0,
        }
        note, _ = await self._write(namespace, writer, candidate, at)
        return note

    async def _write(
        self, namespace: str, writer: Principal, candidate: dict[str, Any], at: datetime
    ) -> tuple[str, list[str]]:
        """Through the real write path; the note says what the system decided."""
        fields = {k: v for k, v in candidate.items() if k in _CANDIDATE_FIELDS}
        try:
            result = await self.client.write(writer.ref, namespace, fields, at=at)
        except MemoryServiceError as exc:
            return f"planting in {namespace} refused: {exc.code}", []
        shown = ", ".join(
            f"{o.decision}/{o.relation or '-'}/{o.reason or '-'}" for o in result.outcomes
        )
        ids = [
            o.memory_id for o in result.outcomes if o.memory_id and o.decision in ("add", "update")
        ]
        return f"planted in {namespace}: {shown}", ids
