"""What a text says, and whether two texts say the same thing.

A text's *gist* is the sequence of what carries meaning in it once everything that does not is set
aside: whitespace, punctuation, case, full-/half-width forms, zero-width characters, filler words
("please", "just", "the", 的, 了, 吧 …) and the spelling of a value — "two" and "2", "两袋" and
"2袋", "¥120" and "120 yuan", "July 1" and "7月1日", "3pm" and "15:00", "A-7781" and "a7781".
Two texts say the same thing exactly when their gists are equal; that is the whole DUPLICATE rule
for memories without a key, and the dedupe rule of recall and context building.

Every token of a gist is typed. All kinds except `word` are *salient details*: `number`,
`quantity` (a number with its unit), `amount` (a number with its currency), `date`, `time`,
`identifier` (order, parcel, account and phone-like tokens, e-mail addresses, links) and
`negation`; a capitalised word inside a sentence counts as a named `entity`. Character n-gram
vectors cannot see that "2 bags" and "3 bags", or two tracking numbers, are different facts; the
gist can, so vector similarity only ever *proposes* a stored memory for comparison, and the gist
decides (`compare`).

`compare` also tells a restatement with a changed detail apart from a new fact: when the only
differences are salient details and the new text either names the same business entity (an
anchored identifier: "order A-7781", "运单 SF1234567890") or says it corrects something
("actually", "其实", "更正"), it is the same event with a new detail — the write pipeline then
resolves it like a new value of a key (REFINEMENT, SUPERSEDES or CONFLICTS, with history and
review). Anything else that differs is a different fact: NEW.

Everything here is deterministic, offline and pure. The gist's canonical form is versioned
(`GIST_VERSION`): stored gists (the `gist` column) are recomputed by a migration when it changes.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from governed_memory.memory.sameness.tokens import (
    Token,
    _anchors,
    _identify,
    _merge,
    _scan,
    _settle_time,
    prepare,
)
from governed_memory.memory.sameness.wording import active, reword, synonyms
from governed_memory.memory.sameness.words import _ATTACHED, _CORRECTION

GIST_VERSION = "g2"

#: The kinds of token that are salient details (everything but plain words).
SALIENT_KINDS = frozenset(
    {"number", "quantity", "amount", "date", "time", "identifier", "negation"}
)

__all__ = [
    "GIST_VERSION",
    "SALIENT_KINDS",
    "Analysis",
    "Comparison",
    "Statement",
    "Token",
    "analyse",
    "compare",
    "gist_hash",
    "gist_of",
    "prepare",
    "redundant",
    "same_statement",
]


@dataclass(frozen=True, slots=True)
class Analysis:
    """A text taken apart: its tokens in order, and what `compare` needs about them."""

    tokens: tuple[Token, ...]
    #: Identifiers that name a business entity (preceded by "order", "运单" …, or long).
    anchors: frozenset[str]
    #: The text says it corrects something ("actually …", "其实 …").
    correction: bool
    #: The canonical keys of the tokens, in order: what the gist hashes.
    keys: tuple[str, ...]
    #: Its salient details (every token but plain words, and names) as a multiset.
    details: tuple[str, ...]

    @property
    def gist(self) -> str:
        return gist_hash(self.keys)


def gist_hash(keys: Iterable[str]) -> str:
    digest = hashlib.sha256("\x1f".join(keys).encode()).hexdigest()[:40]
    return f"{GIST_VERSION}:{digest}"


@lru_cache(maxsize=16384)
def analyse(text: str) -> Analysis:
    prepared = prepare(reword(text))
    stated = _CORRECTION.sub(" ", prepared)
    tokens = _identify(_merge(_scan(stated)))
    settled = tuple(_settle_time(synonyms(active(tokens))))
    return Analysis(
        tokens=settled,
        anchors=_anchors(tokens),
        correction=stated != prepared,
        keys=tuple(t.key for t in settled),
        details=tuple(sorted(t.key for t in settled if t.detail != "wording")),
    )


def gist_of(content: str, structured_value: Mapping[str, Any] | None = None) -> str:
    """The gist hash of a memory: what its text says, and its structured value if it has one."""
    keys = analyse(content).keys
    if structured_value:
        keys = (*keys, "value:" + json.dumps(structured_value, sort_keys=True, ensure_ascii=False))
    return gist_hash(keys)


# --------------------------------------------------------------------------------------------
# Comparison


@dataclass(frozen=True, slots=True)
class Comparison:
    #: Nothing meaningful differs: the same statement.
    same: bool
    #: What differs, by class: amount, date, entity, identifier, negation, number, quantity,
    #: time, wording. Empty when `same`.
    differences: tuple[str, ...]
    #: Only salient details differ (no wording), and something is shared.
    detail_only: bool
    #: The new text says everything the old one says, plus details.
    adds_only: bool
    #: Both name the same business entity (an anchored identifier).
    shared_anchor: bool
    #: An identifier that names an entity differs: another order, another parcel.
    anchor_changed: bool
    #: The new text says it corrects something.
    correction: bool

    @property
    def changed_detail(self) -> bool:
        """The same event with a detail changed: a restatement to resolve against the old one
        (REFINEMENT, SUPERSEDES or CONFLICTS), not a different fact."""
        if self.same or not self.detail_only:
            return False
        if self.anchor_changed and not self.correction:
            return False  # another order, another parcel: another fact
        return self.shared_anchor or self.correction

    def evidence(self) -> dict[str, Any]:
        return {
            "same": self.same,
            "differences": list(self.differences),
            "changed_detail": self.changed_detail,
        }


def compare(old: str, new: str) -> Comparison:
    a, b = analyse(old), analyse(new)
    shared_anchor = bool(a.anchors & b.anchors)
    if a.keys == b.keys:
        return Comparison(True, (), False, False, shared_anchor, False, b.correction)
    matcher = difflib.SequenceMatcher(None, a.keys, b.keys, autojunk=False)
    classes: set[str] = set()
    adds_only = True
    shared = 0
    anchor_changed = False
    anchors = a.anchors | b.anchors
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            shared += i2 - i1
            continue
        adds_only = adds_only and op == "insert"
        span = (*a.tokens[i1:i2], *b.tokens[j1:j2])
        detailed = any(t.kind != "word" for t in span)
        for t in span:
            if detailed and t.kind == "word" and t.value in _ATTACHED:
                continue  # "on" of "on Friday" belongs to the date it introduces
            classes.add(t.detail)
            anchor_changed = anchor_changed or (t.kind == "identifier" and t.value in anchors)
    detail_only = "wording" not in classes and shared > 0
    return Comparison(
        same=False,
        differences=tuple(sorted(classes)),
        detail_only=detail_only,
        adds_only=adds_only and detail_only,
        shared_anchor=shared_anchor,
        anchor_changed=anchor_changed,
        correction=b.correction,
    )


class Statement(Protocol):
    """What `same_statement` reads of a memory (a record or a retrieved memory)."""

    @property
    def key(self) -> str | None: ...
    @property
    def content(self) -> str: ...
    @property
    def structured_value(self) -> dict[str, Any] | None: ...
    @property
    def conflict_group(self) -> str | None: ...


def same_statement(a: Statement, b: Statement) -> bool:
    """Two memories that say the same thing: the same key and value, or (without a key in
    common) the same gist. The sides of one conflict never do: their values differ."""
    if a.conflict_group and a.conflict_group == b.conflict_group:
        return False
    if a.key is not None and a.key == b.key:
        return a.structured_value == b.structured_value
    return _gist(a) == _gist(b)


def gist_of_statement(m: Statement) -> str:
    """The gist `same_statement` compares (the stored one when it is of this version)."""
    return _gist(m)


def _gist(m: Statement) -> str:
    stored = getattr(m, "gist", None)
    if isinstance(stored, str) and stored.startswith(GIST_VERSION + ":"):
        return stored
    return gist_of(m.content, m.structured_value)


def redundant(a: str, b: str) -> bool:
    """Whether two similar texts repeat each other (for the diversity penalty of recall): they do
    unless a salient detail (a number, date, identifier, name, polarity …) tells them apart."""
    return salient(a) == salient(b)


def salient(text: str) -> tuple[str, ...]:
    """A text's salient details: two similar texts repeat each other (`redundant`) exactly when
    theirs are equal."""
    return analyse(text).details
