"""Scenario cases (format v1 and its task extension; docs/evaluation.md, "Scenario cases"):
parsing, with errors that name file and field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import Principal

Op = Literal[
    "observe",
    "propose",
    "tool_fact",
    "review",
    "forget",
    "summarize",
    "expire",
    "repair",
    "recall",
    "context",
    "concurrent",
    "task",
    "feedback",
]

MODES = "ABCDE"

#: The seed's action strings (`expected_action` given as a string), beside the canonical names
#: `notify:CHANNEL`, `reply:LANGUAGE`, `call:HOURS`, `ask_clarification` and `proceed`.
_SEED_ACTIONS: tuple[tuple[re.Pattern[str], str, str | None], ...] = (
    (
        re.compile(
            r"send_(sms|email|phone|app_push|wechat|whatsapp|telegram|line)(?:_after_policy_check)?"
        ),
        "notify",
        "channel",
    ),
    (
        re.compile(
            r"(?:notify|notify_by)_(sms|email|phone|app_push|wechat|whatsapp|telegram|line)"
        ),
        "notify",
        "channel",
    ),
    (re.compile(r"reply_in_([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)"), "reply", "language"),
    (re.compile(r"ask(?:_clarification|_user|_the_user)?|clarify"), "ask_clarification", None),
)
_CANONICAL = {"notify": "channel", "reply": "language", "call": "hours"}


def expected_actions(value: Any) -> list[dict[str, Any]]:
    """`expected_action` as the objects an action is matched against (any of): an object, a
    list of them, a canonical name (`notify:sms`, `reply:en`, `call:09:00-18:00 Asia/Shanghai`,
    `ask_clarification`, `proceed`) or one of the seed's strings (`send_sms_after_policy_check`,
    `reply_in_en`, `ask_user`)."""
    if isinstance(value, list):
        if not value:
            raise ValueError("expected_action: an empty list")
        return [a for v in value for a in expected_actions(v)]
    if isinstance(value, dict):
        if not isinstance(value.get("action"), str):
            raise ValueError("expected_action: an object needs 'action'")
        return [value]
    if not isinstance(value, str) or not value:
        raise ValueError("expected_action: an object, a list, or an action name")
    name, sep, param = value.partition(":")
    if sep and name in _CANONICAL and param:
        return [{"action": name, _CANONICAL[name]: param}]
    if value in ("ask_clarification", "proceed"):
        return [{"action": value}]
    for pattern, action, field in _SEED_ACTIONS:
        match = pattern.fullmatch(value)
        if match:
            return [{"action": action, field: match[1]} if field else {"action": action}]
    raise ValueError(f"expected_action: unknown action name {value!r}")


def _modes(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str | list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"modes: a string or list of letters of {MODES!r}")
    letters = "".join(value).upper()
    if not letters or any(m not in MODES for m in letters):
        raise ValueError(f"modes: letters of {MODES!r}, got {value!r}")
    return "".join(m for m in MODES if m in letters)


#: What an item naming memories holds (`includes`, `must_use`, a feedback step's `memory`).
_ITEM_FIELDS = frozenset({"key", "value", "from_step", "content_contains"})


class _Loose(BaseModel):
    # Known fields are typed strictly; unknown ones are ignored, so that a later revision of the
    # format that adds fields still runs.
    model_config = ConfigDict(extra="ignore")


class Budget(_Loose):
    total_tokens: int = Field(gt=0)
    reserved_output_tokens: int = Field(default=0, ge=0)
    memory_tokens: int | None = Field(default=None, gt=0)


class Step(_Loose):
    op: Op
    id: str | None = None
    actor: str | None = None
    at: AwareDatetime | None = None
    expect: Any = None
    namespace: str | None = None
    namespaces: list[str] | None = None
    thread: str | None = None
    text: str | None = None
    candidate: dict[str, Any] | None = None
    target: str | None = None
    decision: Literal["approve", "reject"] | None = None
    scope: dict[str, Any] | None = None
    range: tuple[int, int] | None = None
    task: str | None = None
    query: str | None = None
    keys: list[str] | None = None
    kinds: list[str] | None = None
    k: int = Field(default=5, gt=0)
    valid_at: AwareDatetime | None = None
    budget: Budget | None = None
    instructions: str | None = None
    steps: list[Step] | None = None
    # the task extension (op `task`; docs/evaluation.md, "Task modes")
    expected_action: Any = None
    must_use: list[dict[str, Any]] = Field(default_factory=list)
    must_not_use: list[dict[str, Any]] = Field(default_factory=list)
    forbidden_namespaces: list[str] | None = None
    inject: dict[str, Any] | None = None
    modes: str | None = None
    # the feedback extension (op `feedback`; docs/evaluation.md, "Feedback steps"): the memory
    # judged (an earlier step's id, or an item as in `includes`), the feedback's `type` (not
    # checked here: the service decides, and the step's checks say what it should), and the
    # request's optional fields as `MemoryClient.feedback` takes them
    memory: str | dict[str, Any] | None = None
    feedback_type: str | None = Field(
        default=None, validation_alias=AliasChoices("type", "feedback_type")
    )
    source: str | None = None
    run_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    correction: dict[str, Any] | None = None
    memory_version: int | None = None
    event_id: str | None = None

    _check_modes = field_validator("modes", mode="before")(_modes)

    @model_validator(mode="after")
    def _required(self) -> Step:
        need: dict[str, tuple[str, ...]] = {
            "observe": ("actor", "namespace", "text"),
            "propose": ("actor", "namespace", "candidate"),
            "tool_fact": ("actor", "namespace", "candidate"),
            "review": ("actor", "target", "decision"),
            "forget": ("actor",),
            "summarize": ("thread",),
            "recall": ("actor",),
            "context": ("actor", "namespace"),
            "concurrent": ("steps",),
            "task": ("actor", "task", "expected_action"),
            "feedback": ("actor", "memory", "feedback_type"),
        }
        for name in need.get(self.op, ()):
            if getattr(self, name) in (None, [], ""):
                shown = "type" if name == "feedback_type" else name
                raise ValueError(f"op {self.op!r} needs {shown!r}")
        if isinstance(self.memory, dict) and not _ITEM_FIELDS & set(self.memory):
            raise ValueError(
                "memory: a step id, or an item with key/value, from_step or content_contains"
            )
        if self.op == "recall" and not (self.namespace or self.namespaces):
            raise ValueError("op 'recall' needs 'namespace' or 'namespaces'")
        if self.op == "forget" and self.scope is None and not (self.text and self.namespace):
            raise ValueError("op 'forget' needs 'scope', or 'text' with 'namespace'")
        if self.op == "task":
            if not (self.namespace or self.namespaces):
                raise ValueError("op 'task' needs 'namespace' or 'namespaces'")
            expected_actions(self.expected_action)
            for name in ("must_use", "must_not_use"):
                for item in getattr(self, name):
                    if not _ITEM_FIELDS & set(item):
                        raise ValueError(
                            f"{name}: each item needs key/value, from_step or content_contains"
                        )
            if self.inject is not None:
                candidate = self.inject.get("candidate", self.inject)
                if not isinstance(candidate, dict) or not candidate.get("content"):
                    raise ValueError("inject: a candidate (or {candidate, actor}) with content")
        return self

    @property
    def expected(self) -> list[dict[str, Any]]:
        return expected_actions(self.expected_action) if self.expected_action is not None else []

    @property
    def read_namespaces(self) -> list[str]:
        return self.namespaces or ([self.namespace] if self.namespace else [])

    @property
    def memory_item(self) -> dict[str, Any]:
        """A feedback step's `memory` as an item (`{from_step}` for a step id)."""
        if isinstance(self.memory, str):
            return {"from_step": self.memory}
        return dict(self.memory or {})


class Case(_Loose):
    case_id: str = Field(min_length=1)
    title: str = ""
    tags: list[str] = Field(default_factory=list)
    actors: dict[str, Principal]
    steps: list[Step] = Field(min_length=1)
    #: The task modes to run (docs/evaluation.md, "Task modes"); a task step's own `modes` wins.
    modes: str | None = None

    _check_modes = field_validator("modes", mode="before")(_modes)

    @model_validator(mode="after")
    def _references(self) -> Case:
        ids: set[str] = set()
        for step in self._all_steps():
            if step.actor is not None and step.actor not in self.actors:
                raise ValueError(f"step actor {step.actor!r} is not among the actors")
            if step.op == "review" and step.target not in ids:
                raise ValueError(f"review target {step.target!r} is not an earlier step id")
            for item in [*step.must_use, *step.must_not_use]:
                if "from_step" in item and item["from_step"] not in ids:
                    raise ValueError(f"from_step {item['from_step']!r} is not an earlier step id")
            named = step.memory_item.get("from_step") if step.op == "feedback" else None
            if named is not None and named not in ids:
                raise ValueError(f"feedback memory {named!r} is not an earlier step id")
            inject_actor = (step.inject or {}).get("actor")
            if inject_actor is not None and inject_actor not in self.actors:
                raise ValueError(f"inject actor {inject_actor!r} is not among the actors")
            if step.id is not None:
                ids.add(step.id)
        return self

    def _all_steps(self) -> list[Step]:
        out: list[Step] = []
        for step in self.steps:
            out.append(step)
            out.extend(step.steps or [])
        return out


def load_case(path: Path) -> Case:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput(f"{path}: no such case file", field="path") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
    try:
        return Case.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise InvalidInput(f"{path}: {where}: {message}", field=where) from None


def case_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*.json")))
        elif path.exists():
            files.append(path)
        else:
            raise InvalidInput(f"{path}: no such file or folder", field="path")
    if not files:
        raise InvalidInput("no case files found", field="path")
    return files


def matches(expected: Any, actual: Any) -> bool:
    """How a case's expectations match: a list means any of; dicts match as subsets; else
    equality."""
    if isinstance(expected, list):
        return any(matches(e, actual) for e in expected)
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items()
        )
    return bool(expected == actual)
