"""The operator search attributes (Keyword; never personal data): registered by `memctl dev`, by
the worker at start where the server allows it, and documented for production. Clients start
runs with `MemoryTenant` and `MemoryOperation`; workflows set `MemoryOutcome`."""

from __future__ import annotations

from temporalio.common import SearchAttributeKey, SearchAttributePair, TypedSearchAttributes

TENANT = SearchAttributeKey.for_keyword("MemoryTenant")
OPERATION = SearchAttributeKey.for_keyword("MemoryOperation")
OUTCOME = SearchAttributeKey.for_keyword("MemoryOutcome")
SEARCH_ATTRIBUTES = (TENANT, OPERATION, OUTCOME)


def search_attributes(tenant: str, operation: str) -> TypedSearchAttributes:
    return TypedSearchAttributes(
        [SearchAttributePair(TENANT, tenant), SearchAttributePair(OPERATION, operation)]
    )
