"""The service over HTTP: an agent needs only the API's URL and its token.

    from governed_memory.shell.remote import Memory

    memory = Memory("http://127.0.0.1:8080", token)          # a user's or an agent's token
    memory.remember("以后都希望优先短信通知")                  # a user: into their own namespace
    print(memory.recall("how should we notify?").memories)
    print(memory.context("通知物流异常", budget=2000).text)
    memory.forget(key="notification.preference")

`Memory` is synchronous (scripts, notebooks); `RemoteClient` is the same over asyncio, with the
method names and models of the in-process `MemoryClient`. Both raise the service's own typed
errors (`memory.errors`), rebuilt from the API's problem details by their `code`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from governed_memory.memory.errors import ERROR_TYPES, MemoryServiceError, ServiceUnavailable
from governed_memory.memory.models import (
    DeletionReceipt,
    DeletionScope,
    EntityView,
    MemoryRecord,
    Model,
    PromotionResult,
    RecallResult,
    WriteResult,
)
from governed_memory.memory.models.context import ContextPackage, ContextValidation

M = TypeVar("M", bound=BaseModel)

#: Error classes by their code (`unauthenticated` → Unauthenticated, …).
BY_CODE: dict[str, type[MemoryServiceError]] = {cls.code: cls for cls in ERROR_TYPES.values()}
#: Seconds a call waits for the API (a deletion verifies every read path: give it time).
TIMEOUT = httpx.Timeout(60.0, connect=5.0)


class Context(Model):
    package: ContextPackage
    text: str


def _error(response: httpx.Response) -> MemoryServiceError:
    try:
        body = response.json()
    except ValueError:
        body = {}
    code = body.get("code") if isinstance(body, dict) else None
    cls = BY_CODE.get(code or "", MemoryServiceError)
    message = body.get("detail") if isinstance(body, dict) else None
    error = cls(message or f"HTTP {response.status_code}", field=body.get("field"))
    if cls is MemoryServiceError and code:
        error.code = code
    return error


def _checked(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise _error(response)
    return response.json()


def _body(**fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in fields.items():
        if v is None:
            continue
        out[k] = v.isoformat() if isinstance(v, datetime) else v
    return out


class RemoteClient:
    """The service's operations over HTTP, asynchronously (httpx)."""

    def __init__(self, url: str, token: str, *, timeout: httpx.Timeout = TIMEOUT) -> None:
        self.http = httpx.AsyncClient(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    async def __aenter__(self) -> RemoteClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            response = await self.http.request(method, path, **kw)
        except httpx.TransportError as exc:
            raise ServiceUnavailable(f"the memory API cannot be reached: {exc}") from None
        return _checked(response)

    async def whoami(self) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", "/v1/whoami")
        return found

    async def write(
        self,
        namespace: str,
        candidate: dict[str, Any],
        *,
        idempotency_key: str | None = None,
        at: datetime | None = None,
    ) -> WriteResult:
        body = _body(
            namespace=namespace, candidate=candidate, idempotency_key=idempotency_key, at=at
        )
        return WriteResult.model_validate(await self._call("POST", "/v1/memories", json=body))

    async def observe(
        self,
        namespace: str,
        text: str,
        *,
        thread: str | None = None,
        idempotency_key: str | None = None,
        at: datetime | None = None,
    ) -> WriteResult:
        body = _body(
            namespace=namespace, text=text, thread=thread, idempotency_key=idempotency_key, at=at
        )
        return WriteResult.model_validate(await self._call("POST", "/v1/observe", json=body))

    async def recall(
        self,
        namespaces: Sequence[str],
        *,
        task: str = "",
        query: str | None = None,
        keys: Sequence[str] = (),
        k: int = 5,
    ) -> RecallResult:
        body = _body(namespaces=list(namespaces), task=task, query=query, keys=list(keys), k=k)
        return RecallResult.model_validate(await self._call("POST", "/v1/recall", json=body))

    async def entity(self, name: str, namespaces: Sequence[str] = ()) -> EntityView:
        """An entity as the caller may read it (default: in the caller's own namespace)."""
        params = [("namespace", ns) for ns in namespaces]
        found = await self._call("GET", f"/v1/entities/{quote(name, safe='')}", params=params)
        return EntityView.model_validate(found)

    async def build_context(
        self, namespaces: Sequence[str], task: str, budget: dict[str, Any], **extra: Any
    ) -> Context:
        body = _body(namespaces=list(namespaces), task=task, budget=budget, **extra)
        return Context.model_validate(await self._call("POST", "/v1/context", json=body))

    async def validate_context(self, package: ContextPackage) -> ContextValidation:
        body = {"package": package.model_dump(mode="json")}
        found = await self._call("POST", "/v1/context/validate", json=body)
        return ContextValidation.model_validate(found)

    async def forget(self, scope: DeletionScope | dict[str, Any]) -> DeletionReceipt:
        s = scope.model_dump(exclude_none=True) if isinstance(scope, DeletionScope) else scope
        found = await self._call("POST", "/v1/forget", json={"scope": s})
        return DeletionReceipt.model_validate(found)

    async def promote(self, memory_id: str, target_namespace: str) -> PromotionResult:
        """Copy a memory into a shared namespace as the policy allows (docs/promotion.md)."""
        path = f"/v1/memories/{quote(memory_id, safe='')}/promote"
        found = await self._call("POST", path, json={"target_namespace": target_namespace})
        return PromotionResult.model_validate(found)

    async def receipt(self, deletion_id: str) -> DeletionReceipt:
        found = await self._call("GET", f"/v1/receipts/{deletion_id}")
        return DeletionReceipt.model_validate(found)

    async def history(self, memory_id: str) -> list[MemoryRecord]:
        found = await self._call("GET", f"/v1/memories/{memory_id}/history")
        return [MemoryRecord.model_validate(m) for m in found]

    async def put_principal(self, definition: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a principal (the token must be an admin's of its tenant)."""
        found: dict[str, Any] = await self._call("PUT", "/v1/principals", json=definition)
        return found

    async def my_memories(self) -> list[MemoryRecord]:
        found = await self._call("GET", "/v1/me/memories")
        return [MemoryRecord.model_validate(m) for m in found]


class Memory:
    """Memory for a script, in a few words, over the HTTP API (synchronous; nothing to close
    at exit, no event loop).

    A user's token writes into and reads from that user's own namespace unless another is
    given; an agent names the namespace (`namespace=` here or per call).
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        namespace: str | None = None,
        timeout: httpx.Timeout = TIMEOUT,
    ) -> None:
        self.http = httpx.Client(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        self._namespace = namespace

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            response = self.http.request(method, path, **kw)
        except httpx.TransportError as exc:
            raise ServiceUnavailable(f"the memory API cannot be reached: {exc}") from None
        return _checked(response)

    @property
    def namespace(self) -> str:
        """The namespace calls use by default: the one given, else the user's own."""
        if self._namespace is None:
            own = self._call("GET", "/v1/whoami").get("own_namespace")
            if own is None:
                raise BY_CODE["invalid_input"](
                    "an agent names its namespace: Memory(url, token, namespace=...)",
                    field="namespace",
                )
            self._namespace = own
        return self._namespace

    def remember(
        self,
        text: str | None = None,
        *,
        candidate: dict[str, Any] | None = None,
        namespace: str | None = None,
        thread: str | None = None,
    ) -> WriteResult:
        """Write what was said (`text`, extracted by the service) or a ready `candidate`."""
        ns = namespace or self.namespace
        if candidate is not None:
            body = _body(namespace=ns, candidate=candidate)
            return WriteResult.model_validate(self._call("POST", "/v1/memories", json=body))
        if text is None:
            raise BY_CODE["invalid_input"]("remember text or a candidate", field="text")
        body = _body(namespace=ns, text=text, thread=thread)
        return WriteResult.model_validate(self._call("POST", "/v1/observe", json=body))

    def recall(
        self, task: str, *, namespaces: Sequence[str] | None = None, k: int = 5
    ) -> RecallResult:
        body = _body(namespaces=list(namespaces or [self.namespace]), task=task, k=k)
        return RecallResult.model_validate(self._call("POST", "/v1/recall", json=body))

    def context(
        self, task: str, *, budget: int = 4000, namespaces: Sequence[str] | None = None
    ) -> Context:
        """A budgeted context package; `.text` is what to put before the model's next turn."""
        body = _body(
            namespaces=list(namespaces or [self.namespace]),
            task=task,
            budget={"total_tokens": budget},
        )
        return Context.model_validate(self._call("POST", "/v1/context", json=body))

    def forget(
        self,
        *,
        key: str | None = None,
        memory_id: str | None = None,
        text: str | None = None,
        namespace: str | None = None,
    ) -> DeletionReceipt:
        """Forget a key, one memory, what a sentence asks for, or (with nothing named) the
        whole namespace; returns the verified receipt."""
        scope = _body(
            namespace=namespace or self.namespace, key=key, memory_id=memory_id, text=text
        )
        found = self._call("POST", "/v1/forget", json={"scope": scope})
        return DeletionReceipt.model_validate(found)
