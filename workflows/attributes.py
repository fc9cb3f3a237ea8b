"""The operator search attributes (Keyword; never personal data): registered by `memctl dev`, by
the worker at start where the server allows it, and documented for production. Clients start
runs with `MemoryTenant` and `MemoryOperation` (a deletion also with `MemorySubject`);
workflows set `MemoryOutcome`."""

from __future__ import annotations

from temporalio.common import SearchAttributeKey, SearchAttributePair, TypedSearchAttributes

TENANT = SearchAttributeKey.for_keyword("MemoryTenant")
OPERATION = SearchAttributeKey.for_keyword("MemoryOperation")
OUTCOME = SearchAttributeKey.for_keyword("MemoryOutcome")
#: A deletion's subject as a keyed hash (`memctl deletions subject-key`): "every deletion for
#: user 123" is a filter in the UI, and the visibility store never holds the id itself.
SUBJECT = SearchAttributeKey.for_keyword("MemorySubject")
SEARCH_ATTRIBUTES = (TENANT, OPERATION, OUTCOME, SUBJECT)


#: `MemoryTenant` of a sweep: it covers every tenant.
ALL_TENANTS = "*"


def search_attributes(
    tenant: str, operation: str, subject_key: str | None = None
) -> TypedSearchAttributes:
    pairs = [SearchAttributePair(TENANT, tenant), SearchAttributePair(OPERATION, operation)]
    if subject_key is not None:
        pairs.append(SearchAttributePair(SUBJECT, subject_key))
    return TypedSearchAttributes(pairs)
