"""A message's candidates read together, after each sentence gave its own: a bare offset named
by the place beside it, a zone from where the user is, claims of one kind joined, and what only
restates or explains a preference dropped."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from governed_memory.memory.vocabulary import LANGUAGE, TIMEZONE
from governed_memory.memory.write.extraction.clauses import _Clause
from governed_memory.memory.write.extraction.cues import _rx
from governed_memory.memory.write.extraction.models import STRONG, ExtractedCandidate
from governed_memory.memory.write.extraction.preferences import _Pref, said_before
from governed_memory.memory.write.extraction.whereabouts import (
    zone_of_where_i_am,
    zone_where_i_am,
)
from governed_memory.memory.write.normalize import (
    find_languages,
    find_timezone,
    fold,
    normalize_timezone,
)

Item = tuple[int, ExtractedCandidate]


_BRACKETED = re.compile(r"[(（]\s*([^()（）]{2,30}?)\s*[)）]")
#: A place said right after the offset ("GMT+9, tokyo", "UTC+1 - Berlin").
_PLACE_AFTER = re.compile(
    r"(?:utc|gmt)\s*[+\-−]\s*\d{1,2}(?::?\d\d)?\s*[,/–—-]\s*([a-z][a-z .'\-]{1,25}?)"
    r"\s*(?:[).,;!]|$)",
    re.IGNORECASE,
)


def named_zone_for_offset(pref: _Pref, text: str) -> _Pref:
    """A bare offset ("I'm GMT+1") said beside a place or a named zone of that offset ("…,
    Berlin"): the named zone, which knows its summer time."""
    value = pref.value.get("value")
    if pref.key != TIMEZONE or not isinstance(value, str) or not value.startswith("Etc/"):
        return pref
    named = find_timezone(text)
    if named is None or named.startswith("Etc/"):
        # a place in brackets beside it: "UTC+9 (Seoul)"
        bracketed = (
            normalize_timezone(m.group(1))
            for rx in (_BRACKETED, _PLACE_AFTER)
            for m in rx.finditer(text)
        )
        named = next((z for z in bracketed if z is not None), None)
    if named is None or named.startswith("Etc/") or named == value:
        return pref
    offsets = {datetime(2026, month, 1, tzinfo=ZoneInfo(named)).utcoffset() for month in (1, 7)}
    if datetime(2026, 1, 1, tzinfo=ZoneInfo(value)).utcoffset() not in offsets:
        return pref
    return _Pref(pref.key, {"value": named}, pref.negated, pref.confidence, pref.clause, pref.order)


#: A stay, not a home: "I'm in Tokyo this week", "这几天在上海出差" ("now" is where one lives).
_VISITING = re.compile(
    r"这次|这周|本周|这几天|这两天|今天|明天|出差|旅游|度假|临时|暂时"
    r"|(?<![a-z])(?:this\s+(?:week|weekend|month)|for\s+now|until|temporarily|on\s+(?:holiday"
    r"|vacation|a\s+trip|business)|visiting|for\s+work)(?![a-z])"
)


def zone_from_place(text: str, clauses: list[_Clause]) -> _Pref | None:
    """No zone stated, but one asked about beside where the user is (`zone_where_i_am`): that
    place's zone, quoted from the first clause that names the place; none for a stay."""
    zone = zone_of_where_i_am(text)
    if zone is None or not clauses:
        return None
    clause = next((c for c in clauses if zone_where_i_am(c.norm + " 时区") == zone), clauses[0])
    if _VISITING.search(clause.norm):
        return None
    return _Pref(TIMEZONE, {"value": zone}, False, STRONG, clause.raw, clause.order)


def one_claim_per_key(semantic: list[Item], zh: bool) -> list[Item]:
    """Claims of one kind about one thing, said clause after clause ("钱都扣了，订单还是显示待付
    款"), as one claim: its contents joined (each once), about the id one of them names."""
    out: list[Item] = []
    first: dict[str, int] = {}
    for order, found in semantic:
        key = found.candidate.key
        if key is None or not key.endswith(".status"):
            out.append((order, found))
            continue
        if key not in first:
            first[key] = len(out)
            out.append((order, found))
            continue
        n = first[key]
        kept = out[n][1].candidate
        subject = kept.subject_ref or ""
        other = found.candidate.subject_ref or ""
        if not (subject == other or subject.endswith(":unknown") or other.endswith(":unknown")):
            out.append((order, found))  # another order's claim
            continue
        content = kept.content
        if found.candidate.content not in content:
            glue = "，" if zh else ", "
            content = (
                found.candidate.content
                if content in found.candidate.content
                else content + glue + found.candidate.content
            )
        merged = kept.model_copy(
            update={
                "content": content,
                "subject_ref": other if subject.endswith(":unknown") else subject,
            }
        )
        out[n] = (out[n][0], out[n][1].model_copy(update={"candidate": merged}))
    return out


_SKILL = _rx(
    r"(?<![a-z])my\s+[a-z]+\s+(?:is|isn't|'s|has|skills?|reading)(?![a-z])"
    r"|(?<![a-z])i\s+(?:only\s+|can\s+only\s+)?(?:read|speak|understand|write)\s+[a-z]+\s+(?:well"
    r"|better|fluently|best|ok|okay|a\s+little)(?![a-z])"
    r"|我(?:的)?[^，,。]{0,4}?(?:水平|读起来|看起来|说得|听得|不太好|吃力|一般|不行)"
)


def language_skill(norm: str) -> bool:
    """What the user says of how well they read a language ("my English is ok", "中文我读起来有点
    吃力"), or of the language they asked for before ("上次说用英文沟通")."""
    return bool(find_languages(norm)) and bool(_SKILL.search(norm) or said_before(norm))


#: A wish that only says to use the user's zone ("以后约送货时间请按当地时间哈").
_ZONE_WORDING = re.compile(
    r"按(?:照)?(?:当地|本地|我这边|这边|那边)?的?时间|local\s+time|my\s+time", re.I
)


def without_restatements(items: list[Item]) -> list[Item]:
    """Statements a preference of the same message keeps: "我人在悉尼" beside the zone it gave,
    "my French is rusty" beside "German works better for me" (the reason for it)."""
    zones = [i.candidate.structured_value for _, i in items if i.candidate.key == TIMEZONE]
    if zones and zones[0]:
        zone = zones[0].get("value")
        items = [
            item
            for item in items
            if item[1].candidate.key is not None
            or len(item[1].candidate.content) > 30
            or (
                zone_where_i_am(fold(item[1].candidate.content) + " 时区") != zone
                and not _ZONE_WORDING.search(item[1].candidate.content)
            )
        ]
    if any(item.candidate.key == LANGUAGE for _, item in items):
        items = [
            item
            for item in items
            if item[1].candidate.key is not None
            or not language_skill(fold(item[1].candidate.content))
        ]
    return items
