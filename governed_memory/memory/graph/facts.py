"""What the graph is told of a text: the entities it mentions (`Mention`), the relations it
states (`Relation`) and the names it says are one (`GraphFacts.aliases`), and the key an entity is
found by (`entity_key`). `_Found` gathers them as the extractor reads; `_Span` is where it found
one."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from governed_memory.memory.graph.lexicon import _TITLES

#: The person a memory is about (the namespace's subject), as a relation's end.
SELF = "self"


EntityKind = Literal["person", "place", "organisation", "id", "role", "thing"]


@dataclass(frozen=True, slots=True)
class Mention:
    #: The entity's key (`entity_key`): one entity wherever the same name is used.
    key: str
    #: The name as written.
    name: str
    kind: EntityKind
    #: Only a capitalised word opening a sentence ("Creating a family…", "Anna moved…"): a
    #: name only where some other memory the reader may read writes it as one.
    weak: bool = False


@dataclass(frozen=True, slots=True)
class Relation:
    subject: str
    predicate: str
    object: str


@dataclass(frozen=True, slots=True)
class GraphFacts:
    mentions: tuple[Mention, ...] = ()
    relations: tuple[Relation, ...] = ()
    #: (alias key, entity key): two names the text says are one entity.
    aliases: tuple[tuple[str, str], ...] = ()

    @property
    def keys(self) -> list[str]:
        return [m.key for m in self.mentions]


def entity_key(name: str, kind: EntityKind | None = None) -> str:
    """The key an entity is found by: its name, normalised (case, width, spacing, a possessive,
    a leading article or title); an identifier by its letters and digits only (ORD-A1B2 and
    ord a1b2 are one order); a role by its English word (儿子 and son are one)."""
    text = unicodedata.normalize("NFKC", name).strip()
    if kind == "id":
        return "id:" + re.sub(r"[^0-9a-z]", "", text.casefold())
    if kind == "role":
        return "role:" + text.casefold()
    text = re.sub(r"['’]s$", "", text)
    words = text.casefold().split()
    while words and (words[0] in ("the", "a", "an") or words[0].rstrip(".") in _TITLES):
        words = words[1:]
    return " ".join(words) or text.casefold()


@dataclass
class _Found:
    mentions: dict[str, Mention] = field(default_factory=dict)
    relations: dict[tuple[str, str, str], Relation] = field(default_factory=dict)
    aliases: dict[tuple[str, str], None] = field(default_factory=dict)

    def mention(self, name: str, kind: EntityKind, *, weak: bool = False) -> str:
        key = entity_key(name, kind)
        if key and (key not in self.mentions or (self.mentions[key].weak and not weak)):
            self.mentions[key] = Mention(key, name.strip(), kind, weak)
        return key

    def relate(self, subject: str, predicate: str, obj: str) -> None:
        if subject and obj and subject != obj:
            self.relations.setdefault((subject, predicate, obj), Relation(subject, predicate, obj))

    def alias(self, alias: str, key: str) -> None:
        if alias and key and alias != key:
            self.aliases[(alias, key)] = None

    def forget(self, keys: set[str]) -> None:
        """Drop these entities, with every relation and alias that names one."""
        for key in keys:
            self.mentions.pop(key, None)
        self.relations = {k: r for k, r in self.relations.items() if not keys & {k[0], k[2]}}
        self.aliases = {a: None for a in self.aliases if not keys & set(a)}

    def facts(self) -> GraphFacts:
        return GraphFacts(
            tuple(self.mentions.values()), tuple(self.relations.values()), tuple(self.aliases)
        )


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    key: str
    kind: EntityKind
