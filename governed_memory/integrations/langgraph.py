"""LangGraph's long-term memory store (`BaseStore`) backed by the governed memory service.

    from langgraph.graph import StateGraph
    from governed_memory.integrations.langgraph import GovernedStore

    store = GovernedStore("http://127.0.0.1:8080", token, prefix=("tenant", "shop-a"))
    graph = StateGraph(State).add_node(...).compile(store=store)
    # in a node: runtime.store (or get_store())
    store.put(("user", "456"), "food.preference", {"content": "likes spicy food", "level": 3})
    store.search(("user", "456"), query="what does the user like to eat?")
    store.delete(("user", "456"), "food.preference")

How LangGraph's words map to the service's:

- **Namespaces.** A namespace tuple, after the store's `prefix`, is the service's namespace, one
  label per segment: `("tenant", "shop-a", "user", "456")` is `tenant/shop-a/user/456`. With
  `prefix=("tenant", "shop-a")` the same is `("user", "456")`, and items come back with the prefix
  taken off. Anything that is not a whole namespace of the service (`tenant/{t}` or
  `tenant/{t}/user|team|project|agent|thread/{id}`) is refused (`InvalidNamespace`), and a label
  may not hold `/`. A search's `namespace_prefix` names one whole namespace: it searches that one,
  not the namespaces below it.
- **Keys.** A key is the memory's key (`food.preference`: lower-case letters, digits, `.`, `_`
  and `-`; else `InvalidInput`). A memory without key (one the service extracted from what a user
  said, a summary) comes back from a search with its memory id (`mem_…`) as its key: it can be
  deleted by it, not read by it (`get` takes keys; a key starting `mem_` is never a memory key).
- **Values.** A put is a structured write of one candidate: the value is its `structured_value`,
  the value's `content` (a string) says it in words, and a value without one is said as its
  JSON. The memory's kind is the store's `kind` (default `semantic`). A get or search gives back
  the structured value (a memory written without one: `{"content": …}`); a get, a plain `Item`
  (as any store's, so that a checkpoint keeps it), a search, `GovernedItem`s whose `memory` is
  the recalled memory itself, with its provenance, and whose `trust` is its label.

What the service decides:

- **A put is a screened write.** A value the service refuses (a secret, a prompt injection, a
  sensitive category without consent, a source the caller may not claim, …) or keeps nothing of
  raises `PolicyRefusal` whose `code` is the service's reason (`secret`, `prompt_injection`, …):
  nothing was stored. A write that waits for a reviewer (`defer`: an agent whose writes are
  `candidate_only`, a less trusted value against a stored one) returns normally and is not read
  back until a reviewer approves it. A namespace the token may not write raises
  `UnauthorizedNamespace`.
- **A get or a search is a governed recall**: the caller's grants, every memory re-checked against
  the canonical store, never another tenant's, never one deleted, superseded or expired. A
  namespace the token may not read raises `UnauthorizedNamespace` rather than reading as empty.
  When a key's stored values conflict (both kept until a reviewer settles it), get gives the
  best-ranked side; a search gives each with its `memory.conflict_group`: use neither as
  confirmed.
- **A delete (a put of `None`) is a verified deletion** (`forget`) of the key's memories, or of one
  memory by its id: every read path is probed, and a deletion refused or not verified raises.

Not supported, and said so:

- a search without `query` (`NotImplementedError`): the service recalls what fits a query, it
  does not list a namespace (`GET /v1/export` does, for auditors and owners); `filter` is applied
  to the recalled values (exact match, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`);
- TTLs (`supports_ttl` is false; a put with `ttl` raises `NotImplementedError`): the service's
  policy sets retention per kind; `index` is ignored, as by any store without an index config:
  the service indexes every memory by what it says;
- `list_namespaces` lists only the namespaces the token's grants name outright (a user's own, an
  agent's grants without wildcards), whether or not they hold anything: the service does not
  enumerate the namespaces a pattern (`tenant/shop-a/user/*`) reaches.

Synchronous and asynchronous calls share one `RemoteClient` on an event loop of the store's own
(a daemon thread, started on first use): `batch` waits for it, `abatch` awaits it without blocking
the caller's loop. `close()` (or `with`/`async with`) stops it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from collections.abc import Coroutine, Iterable, Mapping
from typing import Any, TypeVar

import httpx
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from governed_memory.integrations import Trust, readable, trust
from governed_memory.memory.errors import InvalidInput, MemoryServiceError, PolicyRefusal
from governed_memory.memory.models import Kind, RetrievedMemory, WriteResult, check_key
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.shell.remote import TIMEOUT, RemoteClient

T = TypeVar("T")
#: The most memories one recall returns (the service's bound).
MAX_K = 200
#: How a memory id starts: such a key names a memory without key, never a memory key.
MEMORY_ID = "mem_"


class GovernedItem(SearchItem):
    """A search result: a LangGraph item read through a governed recall, with `memory`, what the
    service returned (provenance, validity, confidence, conflict group); `score` is its retrieval
    score."""

    __slots__ = ("memory",)

    def __init__(self, memory: RetrievedMemory, namespace: tuple[str, ...]) -> None:
        super().__init__(
            namespace=namespace,
            key=memory.key or memory.memory_id,
            value=_value(memory),
            created_at=memory.recorded_at,
            updated_at=memory.recorded_at,
            score=memory.retrieval_score,
        )
        self.memory = memory

    @property
    def trust(self) -> Trust:
        """`verified` only for a fact a tool verified; else `untrusted` data."""
        return trust(self.memory.source_type)


class GovernedStore(BaseStore):
    """LangGraph's `BaseStore` over the service's HTTP API, as the token's principal (see the
    module's docstring for the mapping and what is refused)."""

    supports_ttl = False

    def __init__(
        self,
        url: str,
        token: str,
        *,
        prefix: tuple[str, ...] = (),
        kind: Kind = "semantic",
        timeout: httpx.Timeout = TIMEOUT,
    ) -> None:
        self.url = url
        self.prefix = tuple(prefix)
        self.kind: Kind = kind
        self._token = token
        self._timeout = timeout
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._remote: RemoteClient | None = None

    # ------------------------------------------------------------------ the store's own loop

    def _submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run `coro` on the store's loop (started on first use)."""
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="governed-store", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            loop = self._loop
        return asyncio.run_coroutine_threadsafe(coro, loop)

    def _remote_client(self) -> RemoteClient:
        if self._remote is None:  # on the store's loop: one client, one connection pool
            self._remote = RemoteClient(self.url, self._token, timeout=self._timeout)
        return self._remote

    def close(self) -> None:
        """Close the connection pool and stop the store's loop (it starts again if used)."""
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is None or thread is None:
            return
        remote, self._remote = self._remote, None
        if remote is not None:
            asyncio.run_coroutine_threadsafe(remote.close(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def __enter__(self) -> GovernedStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    async def __aenter__(self) -> GovernedStore:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ BaseStore

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """The operations in order, each through the service (blocks until all are done)."""
        return self._submit(self._run(list(ops))).result()

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """The operations in order, each through the service."""
        return await asyncio.wrap_future(self._submit(self._run(list(ops))))

    async def _run(self, ops: list[Op]) -> list[Result]:
        remote = self._remote_client()
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(await self._get(remote, op))
            elif isinstance(op, SearchOp):
                results.append(await self._search(remote, op))
            elif isinstance(op, PutOp):
                await self._put(remote, op)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(await self._namespaces(remote, op))
            else:
                raise NotImplementedError(f"GovernedStore does not run {type(op).__name__}")
        return results

    # ------------------------------------------------------------------ the operations

    async def _get(self, remote: RemoteClient, op: GetOp) -> Item | None:
        namespace = self.namespace_of(op.namespace)
        if op.key.startswith(MEMORY_ID):
            raise NotImplementedError(
                f"get takes a memory key; {op.key!r} is a memory id (a memory without key): "
                "find it with search(query=...), delete it by its id"
            )
        key = _memory_key(op.key)
        found = readable(await remote.recall([namespace], keys=[key], k=10))
        mine = [m for m in found.memories if m.key == key and m.namespace == namespace]
        if not mine:
            return None
        best = mine[0]  # a plain Item, as any store's get: a checkpoint keeps it as it is
        at = best.recorded_at
        return Item(
            value=_value(best), key=key, namespace=op.namespace, created_at=at, updated_at=at
        )

    async def _search(self, remote: RemoteClient, op: SearchOp) -> list[SearchItem]:
        namespace = self.namespace_of(op.namespace_prefix)
        if not op.query:
            raise NotImplementedError(
                "GovernedStore searches by query (a governed recall): pass query=...; "
                "the service does not list a namespace"
            )
        wanted = op.offset + op.limit
        k = MAX_K if op.filter else min(max(wanted, 1), MAX_K)
        found = readable(await remote.recall([namespace], query=op.query, k=k))
        items: list[SearchItem] = [
            GovernedItem(m, self._langgraph_namespace(m.namespace))
            for m in found.memories
            if m.namespace == namespace
        ]
        if op.filter:
            items = [i for i in items if _matches(i.value, op.filter)]
        return items[op.offset : wanted]

    async def _put(self, remote: RemoteClient, op: PutOp) -> None:
        namespace = self.namespace_of(op.namespace)
        if op.ttl is not None:
            raise NotImplementedError(
                "GovernedStore keeps no TTL: the service's policy sets retention per kind"
            )
        if op.value is None:
            await self._delete(remote, namespace, op.key)
            return
        key = _memory_key(op.key)
        written = await remote.write(namespace, self.candidate(key, op.value))
        _kept(written, namespace, key)

    async def _delete(self, remote: RemoteClient, namespace: str, key: str) -> None:
        scope: dict[str, str] = {"namespace": namespace}
        if key.startswith(MEMORY_ID):
            scope["memory_id"] = key
        else:
            scope["key"] = _memory_key(key)
        receipt = await remote.forget(scope)
        if receipt.verification_status not in ("passed", "nothing_matched"):
            why = receipt.refused_reason or "a read path still returned it"
            error = MemoryServiceError(
                f"the deletion of {key!r} in {namespace} was {receipt.verification_status}: "
                f"{why} (receipt {receipt.deletion_id})",
                field="key",
            )
            error.code = f"deletion_{receipt.verification_status}"
            raise error

    async def _namespaces(
        self, remote: RemoteClient, op: ListNamespacesOp
    ) -> list[tuple[str, ...]]:
        me = await remote.whoami()
        named = [me.get("own_namespace"), *me.get("read", [])]
        found: dict[tuple[str, ...], None] = {}
        for text in named:
            if not isinstance(text, str) or "*" in text:
                continue
            parts = tuple(text.split("/"))
            if parts[: len(self.prefix)] != self.prefix or len(parts) == len(self.prefix):
                continue
            ns = parts[len(self.prefix) :]
            if all(_namespace_matches(c, ns) for c in op.match_conditions or ()):
                found[ns[: op.max_depth] if op.max_depth is not None else ns] = None
        return sorted(found)[op.offset : op.offset + op.limit]

    # ------------------------------------------------------------------ the mapping

    def namespace_of(self, namespace: tuple[str, ...]) -> str:
        """The service's namespace for a LangGraph namespace (after the store's prefix)."""
        labels = (*self.prefix, *namespace)
        for label in labels:
            if not isinstance(label, str) or not label or "/" in label:
                raise InvalidInput(
                    f"invalid namespace label {label!r} in {labels}: a label is one "
                    "segment of the service's namespace (no '/')",
                    field="namespace",
                )
        text = "/".join(labels)
        return str(parse_namespace(text))

    def _langgraph_namespace(self, namespace: str) -> tuple[str, ...]:
        parts = tuple(namespace.split("/"))
        if parts[: len(self.prefix)] == self.prefix:
            return parts[len(self.prefix) :]
        return parts

    def candidate(self, key: str, value: Mapping[str, Any]) -> dict[str, Any]:
        """The write a put is: one candidate of the store's kind, `key` as its key, the value as
        its structured value, said in words by the value's `content` (else by its JSON)."""
        structured = dict(value)
        content = structured.get("content")
        if not isinstance(content, str) or not content.strip():
            content = json.dumps(structured, ensure_ascii=False, sort_keys=True)
        return {
            "kind": self.kind,
            "key": key,
            "content": content,
            "structured_value": structured,
        }


def _value(memory: RetrievedMemory) -> dict[str, Any]:
    """An item's value: the memory's structured value (one without: what it says)."""
    return dict(memory.structured_value or {"content": memory.content})


def _memory_key(key: str) -> str:
    if key.startswith(MEMORY_ID):
        raise InvalidInput(
            f"{key!r} is a memory id: a memory key never starts with {MEMORY_ID!r}", field="key"
        )
    checked = check_key(key)
    assert checked is not None
    return checked


def _kept(written: WriteResult, namespace: str, key: str) -> None:
    """Raise `PolicyRefusal` (its code the service's reason) when the write kept nothing."""
    for outcome in written.outcomes:
        refused = outcome.decision == "reject" or (
            outcome.decision == "no_op" and outcome.reason != "duplicate"
        )
        if refused:
            reason = outcome.reason or outcome.decision
            error = PolicyRefusal(
                f"the service kept nothing of {key!r} in {namespace}: {reason} "
                f"(write {written.workflow_id})",
                field="value",
            )
            error.code = reason
            raise error


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        ours = namespace[: len(path)]
    else:
        ours = namespace[len(namespace) - len(path) :]
    return all(p in ("*", n) for p, n in zip(path, ours, strict=True))


def _matches(value: Mapping[str, Any], filter: Mapping[str, Any]) -> bool:
    """Whether a recalled value passes a LangGraph filter (exact values, or `$eq`, `$ne`, `$gt`,
    `$gte`, `$lt`, `$lte`; a nested mapping filters a nested value)."""
    for field, wanted in filter.items():
        have = value.get(field)
        if isinstance(wanted, Mapping) and any(str(k).startswith("$") for k in wanted):
            if not all(_compare(have, op, v) for op, v in wanted.items()):
                return False
        elif isinstance(wanted, Mapping):
            if not isinstance(have, Mapping) or not _matches(have, wanted):
                return False
        elif have != wanted:
            return False
    return True


def _compare(have: Any, op: str, wanted: Any) -> bool:
    if op == "$eq":
        return bool(have == wanted)
    if op == "$ne":
        return bool(have != wanted)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise NotImplementedError(f"GovernedStore filters do not support {op}")
    try:
        a, b = float(have), float(wanted)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
