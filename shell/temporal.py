"""How this service talks to Temporal: connection, workflow ids, search attributes.

Shared by the client, the worker and `memctl`, so that all of them use the same data converter
and the same id scheme (failures map back to typed errors in `activities.failures`).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from temporalio.client import Client
from temporalio.runtime import Runtime

from memory.errors import ServiceUnavailable
from memory.settings import Settings
from shell.codec import Keyring, data_converter
from workflows.attributes import SEARCH_ATTRIBUTES, search_attributes

__all__ = [
    "SEARCH_ATTRIBUTES",
    "connect",
    "delete_workflow_id",
    "search_attributes",
    "write_workflow_id",
]

WRITE_EXECUTION_TIMEOUT = timedelta(days=30)
DELETE_EXECUTION_TIMEOUT = timedelta(days=400)


async def connect(settings: Settings, runtime: Runtime | None = None) -> Client:
    try:
        return await Client.connect(
            settings.temporal_address,
            runtime=runtime,
            namespace=settings.temporal_namespace,
            data_converter=data_converter(Keyring.for_settings(settings)),
        )
    except RuntimeError as exc:  # the Rust core reports connection failures as RuntimeError
        raise ServiceUnavailable(
            f"cannot reach Temporal at {settings.temporal_address}: {exc}"
        ) from exc


def _safe(part: str) -> str:
    """Workflow ids are visible to operators: keep them free of personal data and odd bytes."""
    if len(part) <= 80 and all(c.isalnum() or c in "-_.:" for c in part):
        return part
    return "h" + hashlib.sha256(part.encode()).hexdigest()[:32]


def write_workflow_id(tenant: str, principal: str, idempotency_key: str) -> str:
    """One run per writer and key: another principal's write with the same key is another write
    (and never attaches to this one's run or sees its outcome)."""
    writer = hashlib.sha256(principal.encode()).hexdigest()[:12]
    return f"write/{tenant}/{writer}/{_safe(idempotency_key)}"


def delete_workflow_id(tenant: str, scope_fingerprint: str) -> str:
    return f"delete/{tenant}/{scope_fingerprint}"
