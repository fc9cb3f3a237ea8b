"""Relations between two entities a sentence names one after the other, by the words between
them (moved to, lives in, works at, 搬到, 住在 …) or, in Chinese, the verb after a place
(在 <B> 工作)."""

from __future__ import annotations

import itertools
import re

from governed_memory.memory.graph.facts import _Found, _Span

# Relation words: (pattern over the text between two entities, predicate).
_RELATIONS_EN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), name)
    for p, name in (
        (r"\b(?:moved|moving|relocated|relocating|moves)\s+(?:back\s+)?to\b", "moved_to"),
        (r"\b(?:lives|living|live|lived|stays|staying|is based|based)\s+(?:in|at)\b", "lives_in"),
        (r"\b(?:works|working|worked|work|employed|job)\s+(?:at|for|in)\b", "works_at"),
        (r"\b(?:studies|studying|studied|study|enrolled)\s+(?:at|in)\b", "studies_at"),
        (r"\b(?:goes to school at|attends|attending)\b", "studies_at"),
        (r"\b(?:married to|marrying|married|engaged to)\b", "married_to"),
        (r"\b(?:owns|bought|purchased|has a|drives)\b", "owns"),
        (r"\b(?:ordered|placed order|placed an order)\b", "ordered"),
        (
            r"\b(?:delivered to|shipped to|sent to|send to|sends .* to|ships to|goes to)\b",
            "delivered_to",
        ),
        (r"\b(?:manages|managing|runs|leads)\b", "manages"),
        (r"\b(?:replaced by|swapped for)\b", "replaced_by"),
        (r"\ballergic to\b", "allergic_to"),
    )
)

_RELATIONS_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), name)
    for p, name in (
        (r"(?:搬到|搬去|搬家到|迁到|调到|转到)", "moved_to"),
        (r"(?:住在|定居在?|居住在)", "lives_in"),
        (r"(?:嫁给|娶了|和.{0,2}结婚)", "married_to"),
        (r"(?:寄到|寄给|送到|发到|送给|寄往)", "delivered_to"),
        (r"(?:买了|购买了?|入手了?)", "owns"),
        (r"(?:订了|下单了?|预订了?)", "ordered"),
        (r"(?:管理|负责)", "manages"),
        (r"(?:换成了?|替换成?)", "replaced_by"),
    )
)
# "<A> 在 <B> 读书/工作/住": the verb follows the place.
_AFTER_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), name)
    for p, name in (
        (r"^(?:读书|上学|读大学|读研|念书|读高中|读初中|读小学|上大学|留学|学习|读)", "studies_at"),
        (r"^(?:工作|上班|任职|实习|打工|当)", "works_at"),
        (r"^(?:住|生活|定居|安家)", "lives_in"),
    )
)


def _relations(s: str, spans: list[_Span], found: _Found) -> None:
    """Relations between entities named one after the other in a sentence."""
    named = [sp for sp in spans if sp.kind != "role" or sp.key.startswith("role:")]
    for a, b in itertools.pairwise(named):
        between = s[a.end : b.start]
        if len(between) > 60:
            continue
        after = s[b.end : b.end + 6]
        predicate = _predicate(between, after)
        if predicate is not None:
            found.relate(a.key, predicate, b.key)


def _predicate(between: str, after: str) -> str | None:
    for pattern, name in _RELATIONS_EN:
        if pattern.search(between):
            return name
    for pattern, name in _RELATIONS_ZH:
        if pattern.search(between):
            return name
    if between.strip().endswith("在"):
        for pattern, name in _AFTER_ZH:
            if pattern.match(after):
                return name
        return "located_in"
    return None
