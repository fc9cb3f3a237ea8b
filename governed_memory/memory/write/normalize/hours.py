"""Hours: hour ranges and named periods -> "HH:MM-HH:MM <IANA zone>", as contact hours or as
quiet hours. The defaults are documented once, in `memory.write.normalize`."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from governed_memory.memory.write.normalize._text import fold, zh_number
from governed_memory.memory.write.normalize.timezones import (
    find_timezone,
    normalize_timezone,
    without_zone_letters,
)

_MERIDIEM: dict[str, str] = {
    "凌晨": "early",
    "早上": "am",
    "早晨": "am",
    "清晨": "am",
    "上午": "am",
    "今早": "am",
    "明早": "am",
    "早": "am",
    "中午": "noon",
    "下午": "pm",
    "午后": "pm",
    "傍晚": "pm",
    "晚上": "evening",
    "晚间": "evening",
    "今晚": "evening",
    "晚": "evening",
    "夜里": "night",
    "夜间": "night",
    "深夜": "night",
    "半夜": "night",
}

_ZH_NUM = "[零〇一二两三四五六七八九十]{1,3}"
_POINT_RE = re.compile(
    r"(?P<mer>" + "|".join(sorted(_MERIDIEM, key=lambda k: -len(k))) + r")?\s*"
    r"(?<![a-z0-9.:/#_])"
    rf"(?P<h>\d{{1,2}}(?!\d)|{_ZH_NUM})"
    r"(?:\s*:\s*(?P<m>\d{2})(?!\d)"
    r"|\s*(?P<dian>点钟|点|時|时|點)"
    rf"(?:\s*(?P<half>半)|\s*(?P<quarter>一刻|三刻)|\s*(?P<m2>\d{{1,2}}(?!\d)|{_ZH_NUM})\s*分?)?)?"
    r"(?:\s*(?P<ampm>a\.?m\.?|p\.?m\.?|o'?clock)(?![a-z]))?"
)
_SPECIAL_POINT_RE = re.compile(r"(?<![a-z])(?P<w>noon|midday|midnight)(?![a-z])|午夜|子夜")
_RANGE_SEP_RE = re.compile(
    # ("十一点以后到早上七点": the start said open, then its end)
    r"^\s*(?:(?:以后|之后|起)\s*(?=到|至))?(?:-|–|—|~|〜|～|－|到|至|to|until|till|thru|through|and)\s*"
    r"(?:第二天|次日|隔天)?\s*$"
)
_RANGE_FRAME_RE = re.compile(r"(?:between|from|从)\s*$")
_NOT_A_TIME_AFTER = re.compile(
    r"\s*(?:月|日|号|天|年|个|次|元|块|%|件|分钟|小时|周|岁|倍"
    r"|(?:min|mins|minutes?|hours?|hrs?|days?|weeks?|months?|years?|kg|cm|times|percent)(?![a-z]))"
)
_AFTER_SUFFIX_RE = re.compile(r"^\s*(?:以后|之后|过后|后|起|开始)")
_BEFORE_SUFFIX_RE = re.compile(r"^\s*(?:以前|之前|前)")
_OPEN_PREFIX_RE = re.compile(
    r"(?P<w>not before|no earlier than|later than|after|past|from|从"
    r"|not after|no later than|earlier than|before|until|till)\s*$"
)
_AFTER_WORDS = frozenset(("not before", "no earlier than", "later than", "after", "past", "from"))

# (pattern, contact-hours range, quiet-hours range), first match wins.
_NAMED_PERIODS: tuple[tuple[re.Pattern[str], tuple[int, int], tuple[int, int]], ...] = tuple(
    (re.compile(p), (a1 * 60, a2 * 60), (b1 * 60, b2 * 60))
    for p, (a1, a2), (b1, b2) in (
        (
            r"工作时间|上班时间|办公时间|工作时段|营业时间"
            r"|(?<![a-z])(?:working|work|business|office) hours(?![a-z])",
            (9, 18),
            (9, 18),
        ),
        (r"午休|午睡|(?<![a-z])lunch ?(?:time|break)(?![a-z])", (12, 14), (12, 14)),
        (r"凌晨|(?<![a-z])early morning(?![a-z])", (0, 6), (0, 6)),
        (r"上午|早上|早晨|清晨|(?<![a-z])mornings?(?![a-z])", (9, 12), (9, 12)),
        (r"中午|(?<![a-z])(?:noon|midday)(?![a-z])", (12, 14), (12, 14)),
        (r"下午|(?<![a-z])afternoons?(?![a-z])", (13, 18), (13, 18)),
        (r"傍晚", (17, 19), (17, 19)),
        (
            r"晚上|晚间|今晚|下班(?:以?后|之后)"
            r"|(?<![a-z])(?:evenings?|after work|tonight)(?![a-z])",
            (18, 22),
            (22, 8),
        ),
        (
            r"夜里|夜间|深夜|半夜|夜晚|睡觉|休息的?时候|休息时间"
            r"|(?<![a-z])(?:nights?|overnight|night ?time|bed ?time|asleep|sleeping)(?![a-z])",
            (22, 8),
            (22, 8),
        ),
        (r"白天|(?<![a-z])(?:daytime|during the day)(?![a-z])", (9, 21), (9, 21)),
        (
            r"(?<![\d一二三四五六七八九十两几个])工作日|(?<![a-z])(?:weekdays?|workdays?)(?![a-z])",
            (9, 18),
            (9, 18),
        ),
    )
)


@dataclass(frozen=True)
class _Point:
    start: int
    end: int
    hour: int  # as written, 0..24
    minute: int
    marker: str | None  # am, pm, noon, evening, night, early, fixed, or None
    strong: bool  # carries 点/:/am/pm or a period word: certainly a time


def _apply_marker(hour: int, marker: str | None) -> int:
    """The 24-hour value of `hour` read with `marker`."""
    if marker in ("am", "early"):
        return 0 if hour == 12 else hour
    if marker == "noon":
        return hour if hour >= 11 else hour + 12
    if marker == "pm":
        return hour + 12 if hour < 12 else hour
    if marker == "evening":
        return hour + 12 if 5 <= hour < 12 else (0 if hour == 12 else hour)
    if marker == "night":
        return hour + 12 if 6 <= hour < 12 else (0 if hour == 12 else hour)
    return hour % 24


def _points(folded: str) -> list[_Point]:
    points = [p for m in _POINT_RE.finditer(folded) if (p := _point(folded, m)) is not None]
    for m in _SPECIAL_POINT_RE.finditer(folded):
        hour = 12 if m.group("w") in ("noon", "midday") else 0
        points.append(_Point(m.start(), m.end(), hour, 0, "fixed", True))
    return sorted(points, key=lambda p: p.start)


def _point(folded: str, m: re.Match[str]) -> _Point | None:
    """The time a `_POINT_RE` match names, or None when it is not one."""
    if _not_a_clock_hour(folded, m):
        return None
    mer, ampm = m.group("mer"), m.group("ampm")
    hour = zh_number(m.group("h"))
    minute = _minute(m)
    if hour is None or minute is None or hour > 24 or minute >= 60:
        return None
    strong = bool(mer or m.group("dian") is not None or m.group("m") or ampm)
    if not strong and _NOT_A_TIME_AFTER.match(folded, m.end()):
        return None
    return _Point(m.start(), m.end(), hour, minute, _marker(mer, ampm), strong)


def _not_a_clock_hour(folded: str, m: re.Match[str]) -> bool:
    raw_h, mer = m.group("h"), m.group("mer")
    if not raw_h.isdigit() and m.group("dian") is None:
        return True
    # "晚一点" / "有一点" are "a bit", not one o'clock.
    if raw_h == "一" and mer in (None, "早", "晚") and not (m.group("half") or m.group("m2")):
        return True
    before = folded[: m.start("h")]
    # The tail of an identifier such as ORD-12.
    return bool(re.search(r"[a-z]-\s*$", before)) and not re.search(
        r"(?:a\.?m\.?|p\.?m\.?)-\s*$", before
    )


def _minute(m: re.Match[str]) -> int | None:
    if m.group("m"):
        return int(m.group("m"))
    if m.group("half"):
        return 30
    if m.group("quarter"):
        return 15 if m.group("quarter") == "一刻" else 45
    if m.group("m2"):
        return zh_number(m.group("m2"))
    return 0


def _marker(mer: str | None, ampm: str | None) -> str | None:
    marker: str | None = _MERIDIEM[mer] if mer else None
    if ampm:
        if ampm.startswith("a"):
            marker = "am"
        elif ampm.startswith("p"):
            marker = "pm"
    return marker


def _minutes(p: _Point, marker: str | None = None) -> int:
    use = marker if marker is not None else p.marker
    if use == "fixed":
        return p.hour * 60 + p.minute
    return _apply_marker(p.hour, use) * 60 + p.minute


def _resolve_range(a: _Point, b: _Point, *, quiet: bool) -> tuple[int, int] | None:
    start = _minutes(a)
    end = _minutes(b)
    if b.marker is None and a.marker not in (None, "fixed"):
        inherited = _minutes(b, a.marker)
        if inherited > start:
            end = inherited
    pm_end = b.marker in ("pm", "evening", "night", "noon")
    if a.marker is None and pm_end and a.hour < 12 and (a.hour + 12) * 60 + a.minute < end:
        start += 12 * 60  # "1 to 5pm"
    if quiet and a.marker is None and 10 <= a.hour < 12 and end < start:
        start += 12 * 60  # "10点到8点别打扰" is the night
    elif b.marker is None and end <= start and b.hour < 12 and (b.hour + 12) * 60 > start:
        end += 12 * 60  # "9点到6点", "9-5"
    start %= 24 * 60
    end %= 24 * 60
    return None if start == end else (start, end)


def _open_range(p: _Point, after: bool, *, quiet: bool) -> tuple[int, int] | None:
    t = _minutes(p)
    if p.marker is None:
        if quiet and after and 7 <= p.hour < 12:
            t += 12 * 60  # "10点以后别打电话"
        elif not quiet and after and 1 <= p.hour < 8:
            t += 12 * 60  # "5点以后联系我"
    t %= 24 * 60
    if quiet:
        if after:
            return None if t == 8 * 60 else (t, 8 * 60)
        start = 22 * 60 if t <= 12 * 60 else 0
        return None if t == start else (start, t)
    if after:
        # the evening's end, or past it the day's ("after 10pm" is the rest of the evening,
        # not an hour of it)
        end = 22 * 60 if t < 22 * 60 else 23 * 60 + 59
        return None if end <= t else (t, end)
    return (9 * 60, t) if t > 9 * 60 else None


def _parse_hours(text: str, *, quiet: bool) -> tuple[int, int] | None:
    folded = fold(text)
    points = _points(folded)
    # 1. an explicit range
    for a, b in itertools.pairwise(points):
        if not _RANGE_SEP_RE.match(folded[a.end : b.start]):
            continue
        sep = folded[a.end : b.start].strip()
        framed = bool(_RANGE_FRAME_RE.search(folded[: a.start]))
        if sep == "and" and not re.search(r"between\s*$", folded[: a.start]):
            continue
        if not (a.strong or b.strong or framed) and sep not in ("-", "–", "—", "~", "to"):
            continue
        return _resolve_range(a, b, quiet=quiet)
    # 2. an open range: "晚上10点以后", "after 10pm", "before 8am"
    opens = _open_points(folded, points)
    if opens:
        return _open_ranges(opens, quiet=quiet, corrected=bool(_CORRECTED.search(folded)))
    # 3. a named period
    for rx, contact, quiet_range in _NAMED_PERIODS:
        if rx.search(folded):
            return quiet_range if quiet else contact
    return None


#: A text that corrects what it said before ("之前说九点后 其实是十一点后", "make that 10pm"):
#: of the hours it says, the last ones count.
_CORRECTED = re.compile(
    r"其实是|其实|实际上|应该是|改成|改为|改到|更正|"
    r"(?<![a-z])(?:actually|make (?:that|it)|i meant|correction|instead)(?![a-z])"
)


def _open_points(folded: str, points: list[_Point]) -> list[tuple[_Point, bool]]:
    """The hours said as one end of a range: each with whether it is the start ("after")."""
    opens: list[tuple[_Point, bool]] = []
    for p in points:
        if not p.strong:
            continue
        prefix = _OPEN_PREFIX_RE.search(folded[max(0, p.start - 20) : p.start])
        if prefix is not None:
            opens.append((p, prefix.group("w") in _AFTER_WORDS or prefix.group("w") == "从"))
        elif _AFTER_SUFFIX_RE.match(folded[p.end :]):
            opens.append((p, True))
        elif _BEFORE_SUFFIX_RE.match(folded[p.end :]):
            opens.append((p, False))
    return opens


def _open_ranges(
    opens: list[tuple[_Point, bool]], *, quiet: bool, corrected: bool
) -> tuple[int, int] | None:
    """The range the open ends say: the first (the last where the text corrects itself); for
    quiet hours, a start and an end said together are one night ("十一点后别打 早上七点前也别",
    "no calls after 10pm or before 7am")."""
    first = opens[-1] if corrected else opens[0]
    if quiet:
        starts = [p for p, after in opens if after]
        ends = [p for p, after in opens if not after]
        if starts and ends:
            start = _open_range(starts[-1] if corrected else starts[0], True, quiet=True)
            end = _open_range(ends[-1] if corrected else ends[0], False, quiet=True)
            if start is not None and end is not None and start[0] != end[1]:
                return (start[0], end[1])
    return _open_range(*first, quiet=quiet)


def _format_range(rng: tuple[int, int], zone: str) -> str:
    (a, b) = rng
    return f"{a // 60:02d}:{a % 60:02d}-{b // 60:02d}:{b % 60:02d} {zone}"


#: A North American zone named after the hours by its region alone ("11pm-7am Eastern").
_REGION_AFTER_HOURS = re.compile(
    r"\d\s*(?:am|pm|a\.m\.|p\.m\.)?\s+(?P<region>eastern|central|mountain|pacific)\b"
    r"(?!\s+(?:europe|asia|africa|america|coast|region|side))",
    re.IGNORECASE,
)


#: A zone said not to be the user's ("别按北京时间算", "已经不是北京时间了", "not on UK time"): none
#: the hours are in, nor the user's zone.
ZONE_REFUSED = re.compile(
    r"(?:不是|不在|不再是|不再用|并非|别再?按|不要按|不按|别用|不要用)(?:照)?[^，,。\s]{0,8}?时间"
    r"|(?<![a-z])(?:not|no\s+longer)\s+(?:on\s+|in\s+|using\s+)?(?:[a-z]+\s+){1,2}time(?![a-z])",
    re.IGNORECASE,
)


def _hours(text: str, timezone: str, *, quiet: bool) -> str | None:
    said = ZONE_REFUSED.sub(" ", text)
    region = _REGION_AFTER_HOURS.search(said)
    named = find_timezone(f"{region.group('region')} time") if region else None
    zone = find_timezone(said) or named or normalize_timezone(timezone)
    if zone is None:
        return None
    rng = _parse_hours(without_zone_letters(text), quiet=quiet)
    return None if rng is None else _format_range(rng, zone)


def normalize_hours(text: str, timezone: str) -> str | None:
    """An hour range (or a named period) -> "HH:MM-HH:MM <IANA zone>"; else None.

    The zone is the one the text names ("22:00-08:00 Asia/Shanghai", "9am-5pm Berlin time"),
    else `timezone`. Read as hours at which contact is welcome; see the package docstring.
    """
    return _hours(text, timezone, quiet=False)


def normalize_quiet_hours(text: str, timezone: str) -> str | None:
    """Like `normalize_hours`, read as do-not-disturb hours ("晚上" is then the night)."""
    return _hours(text, timezone, quiet=True)
