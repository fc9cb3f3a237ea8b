"""The service where agent builders already are: LangGraph and LangChain, over the URL client.

    governed_memory.integrations.langgraph   `GovernedStore`: LangGraph's long-term memory store
                                             (`BaseStore`) backed by the service
    governed_memory.integrations.langchain   `GovernedRetriever`: a LangChain retriever whose
                                             documents come from a governed recall

Both speak the HTTP API with a bearer token (`governed_memory.shell.remote`), so an agent's graph
needs the service's URL and a token, nothing of the service itself (the `langgraph` extra:
`langgraph` and `langchain-core`). Every operation passes the service's governance as any other
door's would: writes are screened (a secret, a prompt injection or anything else the policy
refuses raises the service's `PolicyRefusal`, never stored), reads are governed recalls (the
caller's grants, re-checked against the canonical store, never another tenant's, never a deleted
or superseded memory) and deletions are verified ones, each with its receipt. docs/api.md
("LangGraph and LangChain") shows both.

This module holds what the two share, and imports neither library.
"""

from __future__ import annotations

from typing import Literal

from governed_memory.memory.errors import UnauthorizedNamespace
from governed_memory.memory.models import RecallResult

Trust = Literal["verified", "untrusted"]


def trust(source_type: str) -> Trust:
    """A memory's trust label: `verified` only for a fact a tool verified; everything else is
    `untrusted` data (what a user or a model said), never an instruction to follow."""
    return "verified" if source_type == "verified_tool_fact" else "untrusted"


def readable(result: RecallResult) -> RecallResult:
    """`result`, unless a namespace asked for is not the caller's to read: then the service's
    `UnauthorizedNamespace`, rather than an answer that reads as "nothing there"."""
    if result.refused_namespaces:
        raise UnauthorizedNamespace(
            f"the token may not read {', '.join(result.refused_namespaces)}", field="namespaces"
        )
    return result
