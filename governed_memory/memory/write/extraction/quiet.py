"""Quiet hours said across a sentence's clauses: the night's other end or a correction in a
later clause ("晚上十一点后别打 早上七点前也别", "之前说九点后别打 其实是十一点后"), the hours in an
earlier clause a refusal points back to ("中午12点到2点我午休 这个点别打电话"), or in a later one
a quiet-hours clause names none of ("免打扰时间改一下 应该是晚上11点到早上7点")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from governed_memory.memory.vocabulary import NOTIFICATION
from governed_memory.memory.write.extraction.clauses import _Clause, _Part
from governed_memory.memory.write.extraction.cues import _CONTACT_NEG, _NO_CONTACT_EN, _QUIET_MARK
from governed_memory.memory.write.extraction.models import STRONG
from governed_memory.memory.write.extraction.preferences import _Pref
from governed_memory.memory.write.normalize import normalize_quiet_hours

#: A refusal that points back to hours said before it ("这个点别打电话", "don't call then").
_BACK = re.compile(
    r"这个点|这个时间|这段时间|这个时段|这几个小时|那个点|那个时间|那段时间|那个时段|这时候|那时候|这会儿"
    r"|(?<![a-z])(?:then|at\s+that\s+time|during\s+(?:that|those)(?:\s+hours)?|those\s+hours)(?![a-z])"
)


#: Hours said alone, with nothing else in their clause ("晚上十一点以后吧", "after 11pm pls").
_BARE_TIME = re.compile(
    r"^(?:每天|平时)?(?:晚上|早上|凌晨|夜里|半夜|中午|下午|上午)?[0-9一二三四五六七八九十两]{1,3}"
    r"(?:[:：]\d\d|点(?:半|钟)?)(?:以后|之后|后|以前|之前|前)(?:吧|啊|呀|哈|呢|的话)?$"
    r"|^(?:after|past|before)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?(?:\s+(?:please|pls))?$",
    re.IGNORECASE,
)


def quiet_across(
    prefs: list[_Pref], part: _Part, parts: Sequence[_Part], clauses: Sequence[_Clause], zone: str
) -> list[_Pref]:
    """`prefs` of `part` (one of `parts`, those of the clause that is one of `clauses`, the
    sentence's), with quiet hours read across the sentence's clauses (the module's cases). A
    refusal read as quiet hours no longer refuses its channel."""
    quiet = any(p.key == NOTIFICATION and "quiet_hours" in p.value for p in prefs)
    refused = _CONTACT_NEG.search(part.norm) or _NO_CONTACT_EN.search(part.norm)
    if not (quiet or refused or _QUIET_MARK.search(part.norm)):
        return prefs  # (most parts: nothing said of quiet hours)
    k = next((i for i, p in enumerate(parts) if p is part), len(parts))
    n = next((i for i, c in enumerate(clauses) if any(p is part for p in c.parts)), len(clauses))
    earlier = [c.raw for c in clauses[:n]] + [p.raw for p in parts[:k]]
    later = [p.raw for p in parts[k + 1 :]] + [c.raw for c in clauses[n + 1 :]]
    if quiet:
        return _whole_night(prefs, later)
    if normalize_quiet_hours(part.raw, zone) is not None:
        return prefs
    value = None
    if refused and _BACK.search(part.norm) and earlier:
        value = normalize_quiet_hours(f"{' '.join(earlier)} {part.raw}", zone)
    elif refused and earlier and _BARE_TIME.match(earlier[-1].strip(" ，,。.!！~～")):
        # the hours said alone just before ("晚上十一点以后吧，别给我发东西了")
        said = f"{earlier[-1]} {part.raw}"
        value = normalize_quiet_hours(said, zone)
        wider = normalize_quiet_hours(f"{said} {' '.join(later)}", zone) if later else None
        if value is not None and wider is not None and wider[:5] == value[:5]:
            value = wider  # the night's other end said after ("…，早上7点前也是")
    elif _QUIET_MARK.search(part.norm) and later:
        value = normalize_quiet_hours(f"{part.raw} {' '.join(later)}", zone)
    if value is None:
        return prefs
    kept = [p for p in prefs if not (p.negated and p.key == NOTIFICATION)]
    return [*kept, _Pref(NOTIFICATION, {"quiet_hours": value}, False, STRONG, part.raw, part.order)]


def _whole_night(prefs: list[_Pref], later: Sequence[str]) -> list[_Pref]:
    """Quiet hours read again with what the sentence says after them (`later`)."""
    rest = " ".join(later).strip()
    out = []
    for pref in prefs:
        hours = pref.value.get("quiet_hours") if pref.key == NOTIFICATION else None
        if rest and isinstance(hours, str) and not pref.negated and " " in hours:
            wider = normalize_quiet_hours(f"{pref.clause} {rest}", hours.split(" ", 1)[1])
            if wider is not None and wider != hours:
                pref = replace(pref, value={**pref.value, "quiet_hours": wider})
        out.append(pref)
    return out
