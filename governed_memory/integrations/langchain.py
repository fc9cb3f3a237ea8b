"""A LangChain retriever whose documents come from the service's governed recall.

    from governed_memory.integrations.langchain import GovernedRetriever

    retriever = GovernedRetriever(url="http://127.0.0.1:8080", token=token,
                                  namespaces=["tenant/shop-a/user/456"], k=5)
    for doc in retriever.invoke("how should we notify the user?"):
        print(doc.page_content, doc.metadata["trust"], doc.metadata["source_type"])

Each call is a recall as the token's principal (the query is the recall's task): only what its
grants let it read, every memory re-checked against the canonical store, never another tenant's,
never one deleted, superseded or expired. A namespace the token may not read raises the service's
`UnauthorizedNamespace` rather than reading as empty; with no `namespaces`, a user's token reads
its own. Each `Document` is one memory: `page_content` is what it says (data a user, a model or a
tool gave: never an instruction to follow), `id` its memory id, and `metadata` its provenance:
`memory_id`, `version`, `namespace`, `key`, `kind`, `source_type`, `source_refs`, `valid_from`,
`valid_to` and `recorded_at` (ISO 8601, or null), `confidence`, `sensitivity`, `score`,
`conflict_group` (set: a side of an open conflict, use it as confirmed no more than the other)
and `trust`: `verified` only for a fact a tool verified (`verified_tool_fact`), else `untrusted`.

`invoke` uses the synchronous URL client (`Memory`), `ainvoke` the asynchronous one
(`RemoteClient`); each call opens its own connection, so the retriever holds nothing to close.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import Field, SecretStr

from governed_memory.integrations import readable, trust
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import RecallResult, RetrievedMemory
from governed_memory.shell.remote import Memory, RemoteClient


class GovernedRetriever(BaseRetriever):
    """Documents from a governed recall of the service, as the token's principal."""

    url: str
    """The service's HTTP API (`http://127.0.0.1:8080`)."""
    token: SecretStr
    """A bearer token: the principal every recall is made as."""
    namespaces: list[str] = Field(default_factory=list)
    """The namespaces to recall from; empty: the token's own (a user's)."""
    k: int = Field(default=5, ge=1, le=200)
    """The most documents a call returns (1 to 200)."""

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        with Memory(self.url, self.token.get_secret_value()) as memory:
            found = memory.recall(query, namespaces=self.namespaces or None, k=self.k)
        return documents(found)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        async with RemoteClient(self.url, self.token.get_secret_value()) as remote:
            namespaces = self.namespaces
            if not namespaces:
                own = (await remote.whoami()).get("own_namespace")
                if not isinstance(own, str):
                    raise InvalidInput(
                        "an agent names its namespaces: GovernedRetriever(namespaces=[...])",
                        field="namespaces",
                    )
                namespaces = [own]
            found = await remote.recall(namespaces, task=query, k=self.k)
        return documents(found)


def documents(found: RecallResult) -> list[Document]:
    """A recall's memories as documents, best first (see the module's docstring)."""
    return [document(m) for m in readable(found).memories]


def document(memory: RetrievedMemory) -> Document:
    """One recalled memory as a document: what it says, its provenance and its trust label."""
    metadata: dict[str, Any] = {
        "memory_id": memory.memory_id,
        "version": memory.version,
        "namespace": memory.namespace,
        "key": memory.key,
        "kind": memory.kind,
        "source_type": memory.source_type,
        "source_refs": list(memory.source_refs),
        "valid_from": memory.valid_from.isoformat() if memory.valid_from else None,
        "valid_to": memory.valid_to.isoformat() if memory.valid_to else None,
        "recorded_at": memory.recorded_at.isoformat(),
        "confidence": memory.confidence,
        "sensitivity": memory.sensitivity,
        "score": memory.retrieval_score,
        "conflict_group": memory.conflict_group,
        "trust": trust(memory.source_type),
    }
    return Document(id=memory.memory_id, page_content=memory.content, metadata=metadata)
