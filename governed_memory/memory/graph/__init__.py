"""The graph: entities and relations derived from memories, for multi-hop recall and entity views.

A memory *mentions* entities (people, places, organisations, products, ids …) and may say how
two are *related* (sister of, lives in, moved to, ordered …). Nothing here is stored on its own:
the graph is a projection, derived from canonical records by the one sync path and erased with
them (`memory.stores.graph` keeps it beside the other indexes). This package is the pure part:
what a text says (`extract`) and the names entities go by (`entity_key`).

`extract` holds the entry points (`extract`, `facts_of`), `facts` what they return and the keys,
`lexicon` the words the extractor knows, `marked`, `english` and `chinese` the mentions each
finds, and `relations` the relations between them.
"""

from governed_memory.memory.graph.extract import EXTRACTOR_VERSION, extract, facts_of
from governed_memory.memory.graph.facts import GraphFacts, Mention, Relation, entity_key

__all__ = [
    "EXTRACTOR_VERSION",
    "GraphFacts",
    "Mention",
    "Relation",
    "entity_key",
    "extract",
    "facts_of",
]
