"""Activities that move the projection to the canonical state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities import typed_errors
from memory.models import Model, utcnow
from memory.stores import Stores
from memory.stores.projection import project


class ProjectInput(Model):
    memory_ids: list[str]
    #: Outbox events this projection settles; marked processed once the projection holds.
    outbox_seqs: list[int]


class ProjectionActivities:
    def __init__(self, stores: Stores) -> None:
        self.stores = stores

    def activities(self) -> list[Callable[..., Any]]:
        return [self.project_memories]

    @activity.defn(name="memory.project")
    @typed_errors
    def project_memories(self, inp: ProjectInput) -> int:
        count = project(self.stores.canonical, self.stores.projection, inp.memory_ids)
        self.stores.canonical.mark_processed(inp.outbox_seqs, utcnow())
        return count
