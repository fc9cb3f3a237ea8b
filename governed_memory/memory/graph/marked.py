"""Names a text marks as names, in either language: quoted or title-marked names, numbered
places and things (plot 27), a Chinese surname with a title or 老/小 (黄总监, 老郑), and
identifiers (order, parcel, account and ticket ids, plates, long digit runs)."""

from __future__ import annotations

import re

from governed_memory.memory.graph.facts import _Found, _Span
from governed_memory.memory.graph.lexicon import _SURNAMES, _TITLES_ZH

#: A name in quotation marks or title marks: a shop, a course, a product, a place's name.
_QUOTED = re.compile(r"[“\"「『《]([^”\"」』》\n]{2,30})[”\"」』》]")
#: A numbered place or thing: plot 27, room 12B, locker 15, gate B4.
_NUMBERED = re.compile(
    r"\b(plot|room|unit|flat|apartment|apt|locker|gate|bay|stall|desk|table|platform|seat|"
    r"bed|ward|suite|lot|pitch|berth|dock|shelf|cabin|villa|house|building|block|pier)"
    r"\s+(?:no\.?\s*)?([A-Z]?\d{1,5}[A-Z]?)\b",
    re.IGNORECASE,
)
_ADDRESSED_ZH = re.compile(
    rf"(?:[老小阿][{_SURNAMES}](?![序车库区时])|[{_SURNAMES}](?:{_TITLES_ZH}))"
)


_ID = re.compile(r"(?<![A-Za-z0-9#])#?[A-Za-z0-9][A-Za-z0-9·._/-]*[A-Za-z0-9]|#\d+")
_NOT_ID = re.compile(
    r"^\d+(?:st|nd|rd|th|am|pm|kg|km|g|m|cm|mm|ml|l|h|hr|hrs|min|mins|s|x|k|mb|gb|tb|yuan|rmb"
    r"|usd|eur|gbp|yrs|yr|y|mo|d|w)?$|^\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?$|^\d{1,2}:\d{2}$",
    re.IGNORECASE,
)


def _named(s: str, found: _Found) -> list[_Span]:
    """Names the text marks: quoted (“星河少儿编程”, "Blue Door"), numbered (plot 27), and a
    Chinese surname with a title or 老/小 (黄总监, 老郑)."""
    spans: list[_Span] = []
    for m in _QUOTED.finditer(s):
        name = m.group(1).strip()
        if name and len(name.split()) <= 5:
            key = found.mention(name, "thing")
            spans.append(_Span(m.start(1), m.end(1), key, "thing"))
    for m in _NUMBERED.finditer(s):
        key = found.mention(f"{m.group(1)} {m.group(2)}", "id")
        spans.append(_Span(m.start(), m.end(), key, "id"))
    for m in _ADDRESSED_ZH.finditer(s):
        key = found.mention(m.group(), "person")
        spans.append(_Span(m.start(), m.end(), key, "person"))
    return spans


def _ids(s: str, found: _Found) -> list[_Span]:
    spans: list[_Span] = []
    for m in _ID.finditer(s):
        token = m.group()
        core = token.lstrip("#")
        has_digit = any(c.isdigit() for c in core)
        has_alpha = any(c.isascii() and c.isalpha() for c in core)
        if not has_digit:
            continue
        if has_alpha:
            long_enough = len(core) >= 4 and not _NOT_ID.match(core)
        else:  # digits only: a ticket (#88213) or a tracking number, not a date or an amount
            long_enough = token[0] == "#" or (len(core) >= 8 and core.isdigit())
        if long_enough:
            key = found.mention(token, "id")
            spans.append(_Span(m.start(), m.end(), key, "id"))
    return spans
