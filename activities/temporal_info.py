"""What Temporal itself keeps, read from the server: the namespace's retention of closed runs
and its archival settings. A deletion receipt states them, and its backup deadline covers the
retention: a closed run's (encrypted) payloads live until Temporal drops them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity
from temporalio.api.enums.v1 import ArchivalState
from temporalio.api.workflowservice.v1 import DescribeNamespaceRequest
from temporalio.client import Client

from memory.models import TemporalRetention


class TemporalActivities:
    def __init__(self, client: Client) -> None:
        self.client = client

    def activities(self) -> list[Callable[..., Any]]:
        return [self.namespace_retention]

    @activity.defn(name="memory.namespace_retention")
    async def namespace_retention(self, namespace: str) -> TemporalRetention:
        found = await self.client.workflow_service.describe_namespace(
            DescribeNamespaceRequest(namespace=namespace)
        )
        config = found.config
        ttl = config.workflow_execution_retention_ttl
        return TemporalRetention(
            namespace=namespace,
            retention_seconds=ttl.seconds
            if config.HasField("workflow_execution_retention_ttl")
            else None,
            history_archival=ArchivalState.Name(config.history_archival_state),
            visibility_archival=ArchivalState.Name(config.visibility_archival_state),
        )
