"""What a text says of entities and their relations, offline, in English and Chinese.

`extract(text)` finds:

- **mentions**: proper names (English capitalised runs; Chinese person, place and organisation
  names as jieba tags them, reduplicated given names such as 婷婷, a surname with a form of
  address such as 王阿姨), identifiers (order, parcel, account and ticket ids, plates: letters
  and digits together, or long digit runs), and kin and role words said of the person the memory
  is about ("my sister", 儿子), each role one entity per namespace (`role:sister`);
- **aliases**: names the text itself says are one ("my sister Anna" makes `role:sister` an alias
  of Anna; "Anna (we call her Annie)", "姐姐Anna");
- **relations** between two entities it names (`self` is the person the memory is about):
  kinship and roles, moving, living, working and studying somewhere, owning, ordering,
  delivering, marrying, managing.

Entity keys are names normalised (`entity_key`): the same name is one entity wherever it is
mentioned within what a reader may read (the graph never joins across namespaces a reader may
not read: `memory.stores.graph`). Heuristic and deterministic; `EXTRACTOR_VERSION` changes when
what it finds changes, and the projection then derives its graph again.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol

from governed_memory.memory.graph.chinese import _chinese
from governed_memory.memory.graph.english import _english
from governed_memory.memory.graph.facts import SELF, EntityKind, GraphFacts, _Found, _Span
from governed_memory.memory.graph.lexicon import _ROLE_WORDS
from governed_memory.memory.graph.marked import _ids, _named
from governed_memory.memory.graph.relations import _relations

#: Bump when extraction changes: the graph projection is derived again from canonical.
EXTRACTOR_VERSION = "2"

_SENTENCES = re.compile(r"[^.!?。！？；;\n]+[.!?。！？；;]*")


class Hints(Protocol):
    """What a writer proposed (`memory.models.GraphHints`, already checked against the text)."""

    @property
    def entities(self) -> Sequence[HintedEntity]: ...
    @property
    def relations(self) -> Sequence[HintedRelation]: ...


class HintedEntity(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def aliases(self) -> Sequence[str]: ...


class HintedRelation(Protocol):
    @property
    def subject(self) -> str: ...
    @property
    def predicate(self) -> str: ...
    @property
    def object(self) -> str: ...


def facts_of(text: str, hints: Hints | None = None) -> GraphFacts:
    """What `text` says to the graph: what the extractor finds, and what its writer proposed
    (`hints`, names the text says: the caller keeps only those, `GraphHints.still_said`). A
    role predicate of `self` ("sister": Anna) makes the role an alias of the person, as the
    extractor does for "my sister Anna"."""
    found = extract(text)
    if hints is None or not (hints.entities or hints.relations):
        return found
    more = _Found(
        {m.key: m for m in found.mentions},
        {(r.subject, r.predicate, r.object): r for r in found.relations},
        dict.fromkeys(found.aliases),
    )
    key_of: dict[str, str] = {SELF.casefold(): SELF}
    for entity in hints.entities:
        kind: EntityKind = entity.kind if entity.kind in _HINT_KINDS else "thing"  # type: ignore[assignment]
        key = more.mention(entity.name, kind)
        key_of[_fold(entity.name)] = key
        for alias in entity.aliases:
            alias_key = more.mention(alias, kind)
            key_of[_fold(alias)] = key
            more.alias(alias_key, key)
    for relation in hints.relations:
        subject, obj = key_of.get(_fold(relation.subject)), key_of.get(_fold(relation.object))
        if subject is None or obj is None:
            continue
        more.relate(subject, relation.predicate, obj)
        if subject == SELF and relation.predicate in _ROLE_WORDS:
            more.alias(more.mention(relation.predicate, "role"), obj)
    return more.facts()


_HINT_KINDS = frozenset({"person", "place", "organisation", "id", "thing"})


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def extract(text: str) -> GraphFacts:
    """The entities `text` mentions, the names it says are one, and the relations it states."""
    found = _Found()
    overlapped: set[str] = set()
    spoken: set[str] = set()
    for sentence in _SENTENCES.finditer(unicodedata.normalize("NFKC", text)):
        s = sentence.group()
        offset = sentence.start()
        spans = _named(s, found) + _ids(s, found) + _english(s, found) + _chinese(s, found)
        spans.sort(key=lambda sp: (sp.start, -sp.end))
        kept: list[_Span] = []
        for sp in spans:  # overlapping spans: the first, longest one wins
            if kept and sp.start < kept[-1].end:
                overlapped.add(sp.key)
                continue
            kept.append(sp)
        spoken.update(sp.key for sp in kept)
        _relations(s, kept, found)
        del offset
    # A name found only inside a longer one ("汪星" of "汪星厨房") is not an entity of its own.
    found.forget(overlapped - spoken)
    return found.facts()
