"""Scenario cases (format v1; README, "Scenario cases"): parsing, with errors that name file
and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator

from memory.errors import InvalidInput
from memory.models import Principal

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
]


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
        }
        for name in need.get(self.op, ()):
            if getattr(self, name) in (None, [], ""):
                raise ValueError(f"op {self.op!r} needs {name!r}")
        if self.op == "recall" and not (self.namespace or self.namespaces):
            raise ValueError("op 'recall' needs 'namespace' or 'namespaces'")
        if self.op == "forget" and self.scope is None and not (self.text and self.namespace):
            raise ValueError("op 'forget' needs 'scope', or 'text' with 'namespace'")
        return self

    @property
    def read_namespaces(self) -> list[str]:
        return self.namespaces or ([self.namespace] if self.namespace else [])


class Case(_Loose):
    case_id: str = Field(min_length=1)
    title: str = ""
    tags: list[str] = Field(default_factory=list)
    actors: dict[str, Principal]
    steps: list[Step] = Field(min_length=1)

    @model_validator(mode="after")
    def _references(self) -> Case:
        ids: set[str] = set()
        for step in self._all_steps():
            if step.actor is not None and step.actor not in self.actors:
                raise ValueError(f"step actor {step.actor!r} is not among the actors")
            if step.op == "review" and step.target not in ids:
                raise ValueError(f"review target {step.target!r} is not an earlier step id")
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
