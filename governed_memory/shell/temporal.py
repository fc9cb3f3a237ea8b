"""How this service talks to Temporal: connection, workflow ids, search attributes.

Shared by the client, the worker and `memctl`, so that all of them use the same data converter
and the same id scheme (failures map back to typed errors in `activities.failures`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import BaseModel
from temporalio.client import Client
from temporalio.common import WorkflowIDReusePolicy
from temporalio.runtime import Runtime
from temporalio.service import TLSConfig

from governed_memory.memory.contracts.admission import digest_of
from governed_memory.memory.errors import InvalidInput, ServiceUnavailable
from governed_memory.memory.feedback import FeedbackStart
from governed_memory.memory.grants import SYSTEM
from governed_memory.memory.models import (
    BatchRequest,
    DeleteRequest,
    DeletionScope,
    ExpireRequest,
    PromoteRequest,
    RelayRequest,
    RepairRequest,
    ReviewStart,
    SummarizeRequest,
    WriteRequest,
)
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.shell import tracing
from governed_memory.shell.codec import Keyring, data_converter
from governed_memory.workflows.attributes import SEARCH_ATTRIBUTES, search_attributes

__all__ = [
    "SEARCH_ATTRIBUTES",
    "Route",
    "batch_workflow_id",
    "connect",
    "delete_workflow_id",
    "feedback_workflow_id",
    "promote_workflow_id",
    "route",
    "search_attributes",
    "summarize_workflow_id",
    "write_workflow_id",
]

WRITE_EXECUTION_TIMEOUT = timedelta(days=30)
DELETE_EXECUTION_TIMEOUT = timedelta(days=400)


def tls_config(settings: Settings) -> TLSConfig | bool:
    """The TLS the settings ask for: False (plain, the embedded dev server), True (the system's
    CAs), or a TLSConfig with a CA, a client certificate and key (mutual TLS) and the server
    name. A certificate without its key, or a file that is missing, is invalid input."""
    files = {
        "temporal_tls_ca_file": settings.temporal_tls_ca_file,
        "temporal_tls_cert_file": settings.temporal_tls_cert_file,
        "temporal_tls_key_file": settings.temporal_tls_key_file,
    }
    if not any(files.values()) and not settings.temporal_tls_server_name:
        return settings.temporal_tls
    if (files["temporal_tls_cert_file"] is None) != (files["temporal_tls_key_file"] is None):
        raise InvalidInput(
            "mutual TLS needs both a client certificate and its key", field="temporal_tls_key_file"
        )
    read: dict[str, bytes | None] = {}
    for name, path in files.items():
        if path is not None and not path.is_file():
            raise InvalidInput(f"{path} is not a file", field=name)
        read[name] = path.read_bytes() if path is not None else None
    return TLSConfig(
        server_root_ca_cert=read["temporal_tls_ca_file"],
        client_cert=read["temporal_tls_cert_file"],
        client_private_key=read["temporal_tls_key_file"],
        domain=settings.temporal_tls_server_name,
    )


def connect_options(settings: Settings) -> dict[str, Any]:
    """What `Client.connect` is given besides the address: namespace, converter, TLS, API key."""
    api_key = settings.temporal_api_key
    return {
        "namespace": settings.temporal_namespace,
        "data_converter": data_converter(Keyring.for_settings(settings)),
        "tls": tls_config(settings),
        "api_key": api_key.get_secret_value() if api_key is not None else None,
    }


async def connect(settings: Settings, runtime: Runtime | None = None) -> Client:
    """The Temporal client. With `settings.tracing`, its interceptors trace its calls and, inherited
    by every worker built on it, the workflows and activities they run (shell/tracing.py)."""
    options = connect_options(settings)
    interceptors = tracing.client_interceptors(settings)
    try:
        return await Client.connect(
            settings.temporal_address, runtime=runtime, interceptors=interceptors, **options
        )
    except RuntimeError as exc:  # the Rust core reports connection failures as RuntimeError
        raise ServiceUnavailable(
            f"cannot reach Temporal at {settings.temporal_address}: {exc}"
        ) from exc


def write_workflow_id(keys: ServiceKeys, tenant: str, principal: str, idempotency_key: str) -> str:
    """One run per writer and key: another principal's write with the same key is another write
    (and never attaches to this one's run or sees its outcome). Keyed: without the service's
    key nobody computes it, so nobody can squat it."""
    return f"write/{tenant}/{keys.derive('write', tenant, principal, idempotency_key)}"


def batch_workflow_id(keys: ServiceKeys, tenant: str, batch: BatchRequest) -> str:
    """One run per batch: the same writes again attach to it. The same keys with other content
    (an import run again with other options) is another batch, whose writes each return the
    decision their key already has."""
    return f"batch/{tenant}/{keys.derive('batch', tenant, digest_of(batch))}"


def delete_workflow_id(keys: ServiceKeys, tenant: str, principal: str, scope: DeletionScope) -> str:
    """One running deletion per requester and scope (a repeated request attaches to it); a scope
    names a subject, so the id is keyed: it gives neither away, and cannot be squatted."""
    return f"delete/{tenant}/{keys.derive('delete', tenant, principal, scope.fingerprint())}"


def summarize_workflow_id(keys: ServiceKeys, tenant: str, namespace: str, thread: str) -> str:
    """One running summary per thread of a namespace (thread `t` of another namespace is
    another conversation, summarised apart). Keyed: it gives neither away."""
    return f"summarize/{tenant}/{keys.derive('summarize', tenant, namespace, thread)}"


def feedback_workflow_id(keys: ServiceKeys, tenant: str, principal: str, event_id: str) -> str:
    """One run per caller and feedback event (the same event again attaches to it). Keyed."""
    return f"feedback/{tenant}/{keys.derive('feedback', tenant, principal, event_id)}"


def promote_workflow_id(
    keys: ServiceKeys, tenant: str, principal: str, memory_id: str, target: str
) -> str:
    """One running promotion per requester, memory and target (asked again, the same run, or
    after it the copy made or the review still open). Keyed."""
    return f"promote/{tenant}/{keys.derive('promote', tenant, principal, memory_id, target)}"


@dataclass(frozen=True)
class Route:
    """Where a request runs: its workflow, id, whom its grant is for, and how its id is
    reused."""

    workflow: str
    workflow_id: str
    principal: str
    tenant: str
    #: The `MemoryOperation` search attribute.
    operation: str
    runs_for: timedelta
    reuse: WorkflowIDReusePolicy


_SWEEPS: dict[type[BaseModel], tuple[str, str, timedelta]] = {
    RelayRequest: ("RelayOutbox", "relay", timedelta(hours=1)),
    ExpireRequest: ("ExpireMemories", "expire", timedelta(hours=1)),
    RepairRequest: ("RepairProjections", "repair", timedelta(hours=6)),
}


def route(keys: ServiceKeys, request: BaseModel) -> Route:
    """The one place a request becomes a run: its workflow and workflow id (keyed where it
    carries a subject or a principal), and the principal and tenant its grant names. A repeated
    request maps to the same id (but for sweeps, each its own run)."""
    reject, allow = WorkflowIDReusePolicy.REJECT_DUPLICATE, WorkflowIDReusePolicy.ALLOW_DUPLICATE
    if isinstance(request, WriteRequest):
        wid = write_workflow_id(keys, request.tenant, request.principal, request.idempotency_key)
        return Route(
            "WriteMemory", wid, request.principal, request.tenant, "write",
            WRITE_EXECUTION_TIMEOUT, reject,
        )  # fmt: skip
    if isinstance(request, BatchRequest):
        writers = {r.principal for r in request.requests}
        wid = batch_workflow_id(keys, request.tenant, request)
        # one writer's batch is that writer's; the service's own import may mix them
        principal = writers.pop() if len(writers) == 1 else SYSTEM
        return Route(
            "WriteBatch", wid, principal, request.tenant, "write_batch",
            WRITE_EXECUTION_TIMEOUT, reject,
        )  # fmt: skip
    if isinstance(request, DeleteRequest):
        wid = delete_workflow_id(keys, request.tenant, request.principal, request.scope)
        # once a deletion ended, the same request deletes again (what was written since)
        return Route(
            "DeleteSubject", wid, request.principal, request.tenant, "delete",
            DELETE_EXECUTION_TIMEOUT, allow,
        )  # fmt: skip
    if isinstance(request, SummarizeRequest):
        wid = summarize_workflow_id(keys, request.tenant, request.namespace, request.thread)
        return Route(
            "SummarizeThread", wid, request.principal, request.tenant, "summarize",
            WRITE_EXECUTION_TIMEOUT, allow,
        )  # fmt: skip
    if isinstance(request, PromoteRequest):
        wid = promote_workflow_id(
            keys, request.tenant, request.principal, request.memory_id, request.target_namespace
        )
        return Route(
            "PromoteMemory", wid, request.principal, request.tenant, "promote",
            WRITE_EXECUTION_TIMEOUT, allow,
        )  # fmt: skip
    if isinstance(request, FeedbackStart):
        feedback = request.feedback
        if feedback.event_id is None:
            raise InvalidInput("a feedback run is keyed by its event id", field="event_id")
        wid = feedback_workflow_id(keys, request.tenant, feedback.principal, feedback.event_id)
        return Route(
            "RecordFeedback", wid, feedback.principal, request.tenant, "feedback",
            WRITE_EXECUTION_TIMEOUT, reject,
        )  # fmt: skip
    if isinstance(request, ReviewStart):
        review = request.review
        return Route(
            "ReviewMemory", review.workflow_id, SYSTEM, review.tenant_id, "review",
            request.timeout + timedelta(days=1), reject,
        )  # fmt: skip
    sweep = _SWEEPS.get(type(request))
    if sweep is not None:
        workflow, name, within = sweep
        wid = f"sweep/{name}/{uuid.uuid4().hex}"
        return Route(workflow, wid, SYSTEM, "*", f"sweep_{name}", within, allow)
    raise InvalidInput(f"no workflow takes a {type(request).__name__}", field="workflow")
