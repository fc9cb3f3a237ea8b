"""The Weaviate client: connecting to a cluster by its HTTP URL, and the failures of a batch
write, which Weaviate reports rather than raises, raised as `ProjectionWriteFailed` (quoted text
masked: a message may quote a memory's content)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import weaviate
from weaviate.classes.init import AdditionalConfig, Auth, Timeout
from weaviate.collections.classes.batch import BatchObjectReturn

from governed_memory.memory.errors import InvalidInput, ProjectionWriteFailed

#: Quoted text in Weaviate's messages (a property's value, as it may quote it).
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def batch_failures(result: BatchObjectReturn) -> list[str]:
    """What a batch write reports as failed, one line per object: its UUID and the message,
    quoted text masked and cut short (the error may reach workflow history and logs, and a
    message may quote a memory's content)."""
    return [
        f"{error.object_.uuid}: {_QUOTED.sub('…', error.message)[:160]}"
        for _, error in sorted(result.errors.items(), key=lambda e: e[0])
    ]


def raise_on_failures(result: BatchObjectReturn, what: str) -> None:
    """Weaviate's batch writes do not raise: a failed object is raised here, typed."""
    failures = batch_failures(result)
    if result.has_errors or failures:
        shown = "; ".join(failures[:5]) + (
            f" (+{len(failures) - 5} more)" if len(failures) > 5 else ""
        )
        raise ProjectionWriteFailed(f"Weaviate refused {len(failures)} {what}: {shown}")


def client_params(url: str, grpc_port: int) -> dict[str, Any]:
    """`weaviate.connect_to_custom`'s address arguments for a cluster's HTTP URL (gRPC on the
    same host, secure when HTTP is)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(f"not a Weaviate HTTP URL: {url!r}", field="weaviate_url")
    secure = parts.scheme == "https"
    return {
        "http_host": parts.hostname,
        "http_port": parts.port or (443 if secure else 80),
        "http_secure": secure,
        "grpc_host": parts.hostname,
        "grpc_port": grpc_port,
        "grpc_secure": secure,
    }


def connect_client(url: str, api_key: str | None, grpc_port: int) -> weaviate.WeaviateClient:
    """A connected client (API key authentication when a key is given)."""
    return weaviate.connect_to_custom(
        **client_params(url, grpc_port),
        auth_credentials=Auth.api_key(api_key) if api_key else None,
        additional_config=AdditionalConfig(timeout=Timeout(init=10, query=30, insert=60)),
    )
