"""How this service talks to Temporal: connection, workflow ids, search attributes.

Shared by the client, the worker and `memctl`, so that all of them use the same data converter
and the same id scheme (failures map back to typed errors in `activities.failures`).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from temporalio.client import Client
from temporalio.runtime import Runtime
from temporalio.service import TLSConfig

from memory.errors import InvalidInput, ServiceUnavailable
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
    options = connect_options(settings)
    try:
        return await Client.connect(settings.temporal_address, runtime=runtime, **options)
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
