"""Time zones: IANA names, aliases, cities and UTC offsets -> IANA names."""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from functools import lru_cache

from governed_memory.memory.write.normalize._text import _key, fold, zh_number

_TZ_ALIASES: dict[str, str] = {
    # UTC
    "utc": "UTC",
    "gmt": "UTC",
    "z": "UTC",
    "zulu": "UTC",
    "universal": "UTC",
    "coordinated universal": "UTC",
    "greenwich": "UTC",
    "greenwich mean": "UTC",
    "格林尼治": "UTC",
    "格林威治": "UTC",
    "世界标准": "UTC",
    "协调世界": "UTC",
    "零时区": "UTC",
    "中时区": "UTC",
    # China and neighbours ("CST" is China Standard Time in this service's market)
    "cst": "Asia/Shanghai",
    "china": "Asia/Shanghai",
    "chinese": "Asia/Shanghai",
    "china standard": "Asia/Shanghai",
    "beijing": "Asia/Shanghai",
    "shanghai": "Asia/Shanghai",
    "shenzhen": "Asia/Shanghai",
    "guangzhou": "Asia/Shanghai",
    "hangzhou": "Asia/Shanghai",
    "prc": "Asia/Shanghai",
    "北京": "Asia/Shanghai",
    "中国": "Asia/Shanghai",
    "中国标准": "Asia/Shanghai",
    "上海": "Asia/Shanghai",
    "深圳": "Asia/Shanghai",
    "广州": "Asia/Shanghai",
    "杭州": "Asia/Shanghai",
    "成都": "Asia/Shanghai",
    "国内": "Asia/Shanghai",
    "hong kong": "Asia/Hong_Kong",
    "hongkong": "Asia/Hong_Kong",
    "hkt": "Asia/Hong_Kong",
    "香港": "Asia/Hong_Kong",
    "macau": "Asia/Macau",
    "澳门": "Asia/Macau",
    "taipei": "Asia/Taipei",
    "taiwan": "Asia/Taipei",
    "台北": "Asia/Taipei",
    "台湾": "Asia/Taipei",
    "jst": "Asia/Tokyo",
    "japan": "Asia/Tokyo",
    "japanese": "Asia/Tokyo",
    "japan standard": "Asia/Tokyo",
    "tokyo": "Asia/Tokyo",
    "osaka": "Asia/Tokyo",
    "东京": "Asia/Tokyo",
    "日本": "Asia/Tokyo",
    "大阪": "Asia/Tokyo",
    "kst": "Asia/Seoul",
    "korea": "Asia/Seoul",
    "korean": "Asia/Seoul",
    "south korea": "Asia/Seoul",
    "korea standard": "Asia/Seoul",
    "seoul": "Asia/Seoul",
    "首尔": "Asia/Seoul",
    "韩国": "Asia/Seoul",
    "sgt": "Asia/Singapore",
    "singapore": "Asia/Singapore",
    "新加坡": "Asia/Singapore",
    "ist": "Asia/Kolkata",
    "india": "Asia/Kolkata",
    "indian": "Asia/Kolkata",
    "india standard": "Asia/Kolkata",
    "mumbai": "Asia/Kolkata",
    "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata",
    "bangalore": "Asia/Kolkata",
    "bengaluru": "Asia/Kolkata",
    "印度": "Asia/Kolkata",
    "孟买": "Asia/Kolkata",
    "新德里": "Asia/Kolkata",
    "bangkok": "Asia/Bangkok",
    "thailand": "Asia/Bangkok",
    "曼谷": "Asia/Bangkok",
    "泰国": "Asia/Bangkok",
    "hanoi": "Asia/Ho_Chi_Minh",
    "vietnam": "Asia/Ho_Chi_Minh",
    "ho chi minh": "Asia/Ho_Chi_Minh",
    "越南": "Asia/Ho_Chi_Minh",
    "河内": "Asia/Ho_Chi_Minh",
    "jakarta": "Asia/Jakarta",
    "雅加达": "Asia/Jakarta",
    "kuala lumpur": "Asia/Kuala_Lumpur",
    "malaysia": "Asia/Kuala_Lumpur",
    "吉隆坡": "Asia/Kuala_Lumpur",
    "马来西亚": "Asia/Kuala_Lumpur",
    "manila": "Asia/Manila",
    "philippines": "Asia/Manila",
    "马尼拉": "Asia/Manila",
    "菲律宾": "Asia/Manila",
    "dubai": "Asia/Dubai",
    "urumqi": "Asia/Urumqi",
    "xinjiang": "Asia/Urumqi",
    "乌鲁木齐": "Asia/Urumqi",
    "新疆": "Asia/Urumqi",
    "迪拜": "Asia/Dubai",
    # Europe
    "london": "Europe/London",
    "uk": "Europe/London",
    "britain": "Europe/London",
    "british": "Europe/London",
    "england": "Europe/London",
    "bst": "Europe/London",
    "伦敦": "Europe/London",
    "英国": "Europe/London",
    "berlin": "Europe/Berlin",
    "germany": "Europe/Berlin",
    "german": "Europe/Berlin",
    "munich": "Europe/Berlin",
    "frankfurt": "Europe/Berlin",
    "hamburg": "Europe/Berlin",
    "cet": "Europe/Berlin",
    "cest": "Europe/Berlin",
    "central european": "Europe/Berlin",
    "柏林": "Europe/Berlin",
    "德国": "Europe/Berlin",
    "paris": "Europe/Paris",
    "france": "Europe/Paris",
    "french": "Europe/Paris",
    "巴黎": "Europe/Paris",
    "法国": "Europe/Paris",
    # single-zone countries, by name and by the adjective ("Irish time please")
    "ireland": "Europe/Dublin",
    "irish": "Europe/Dublin",
    "爱尔兰": "Europe/Dublin",
    "spain": "Europe/Madrid",
    "spanish": "Europe/Madrid",
    "西班牙": "Europe/Madrid",
    "italy": "Europe/Rome",
    "italian": "Europe/Rome",
    "意大利": "Europe/Rome",
    "netherlands": "Europe/Amsterdam",
    "dutch": "Europe/Amsterdam",
    "荷兰": "Europe/Amsterdam",
    "portugal": "Europe/Lisbon",
    "portuguese": "Europe/Lisbon",
    "葡萄牙": "Europe/Lisbon",
    "switzerland": "Europe/Zurich",
    "swiss": "Europe/Zurich",
    "瑞士": "Europe/Zurich",
    "singaporean": "Asia/Singapore",
    "thai": "Asia/Bangkok",
    "vietnamese": "Asia/Ho_Chi_Minh",
    "moscow": "Europe/Moscow",
    "msk": "Europe/Moscow",
    "莫斯科": "Europe/Moscow",
    # European and Oceanian cities as Chinese speakers name them
    "慕尼黑": "Europe/Berlin",
    "法兰克福": "Europe/Berlin",
    "里斯本": "Europe/Lisbon",
    "马德里": "Europe/Madrid",
    "巴塞罗那": "Europe/Madrid",
    "阿姆斯特丹": "Europe/Amsterdam",
    "苏黎世": "Europe/Zurich",
    "日内瓦": "Europe/Zurich",
    "维也纳": "Europe/Vienna",
    "米兰": "Europe/Rome",
    "布鲁塞尔": "Europe/Brussels",
    "都柏林": "Europe/Dublin",
    "爱丁堡": "Europe/London",
    "曼彻斯特": "Europe/London",
    "斯德哥尔摩": "Europe/Stockholm",
    "赫尔辛基": "Europe/Helsinki",
    "华沙": "Europe/Warsaw",
    "布拉格": "Europe/Prague",
    "珀斯": "Australia/Perth",
    "布里斯班": "Australia/Brisbane",
    "惠灵顿": "Pacific/Auckland",
    "波士顿": "America/New_York",
    # Americas
    "eastern": "America/New_York",
    "us eastern": "America/New_York",
    "east coast": "America/New_York",
    "et": "America/New_York",
    "est": "America/New_York",
    "edt": "America/New_York",
    "new york": "America/New_York",
    "nyc": "America/New_York",
    "boston": "America/New_York",
    "washington": "America/New_York",
    "miami": "America/New_York",
    "atlanta": "America/New_York",
    "纽约": "America/New_York",
    "美东": "America/New_York",
    "美国东部": "America/New_York",
    "美国东海岸": "America/New_York",
    "美东海岸": "America/New_York",
    "central": "America/Chicago",
    "us central": "America/Chicago",
    "ct": "America/Chicago",
    "cdt": "America/Chicago",
    "dallas": "America/Chicago",
    "houston": "America/Chicago",
    "austin": "America/Chicago",
    "芝加哥": "America/Chicago",
    "美中": "America/Chicago",
    "美国中部": "America/Chicago",
    "mountain": "America/Denver",
    "us mountain": "America/Denver",
    "mt": "America/Denver",
    "mst": "America/Denver",
    "mdt": "America/Denver",
    # Arizona keeps no summer time: Phoenix's zone, not Denver's
    "arizona": "America/Phoenix",
    "tucson": "America/Phoenix",
    "亚利桑那": "America/Phoenix",
    "pacific": "America/Los_Angeles",
    "us pacific": "America/Los_Angeles",
    "west coast": "America/Los_Angeles",
    "pt": "America/Los_Angeles",
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "la": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles",
    "sf": "America/Los_Angeles",
    "seattle": "America/Los_Angeles",
    "silicon valley": "America/Los_Angeles",
    "洛杉矶": "America/Los_Angeles",
    "旧金山": "America/Los_Angeles",
    "西雅图": "America/Los_Angeles",
    "美西": "America/Los_Angeles",
    "美国西部": "America/Los_Angeles",
    "美国西海岸": "America/Los_Angeles",
    "美西海岸": "America/Los_Angeles",
    "太平洋": "America/Los_Angeles",
    "alaska": "America/Anchorage",
    "hawaii": "Pacific/Honolulu",
    "温哥华": "America/Vancouver",
    "多伦多": "America/Toronto",
    # Oceania
    "aest": "Australia/Sydney",
    "aedt": "Australia/Sydney",
    "australian eastern": "Australia/Sydney",
    "sydney": "Australia/Sydney",
    "new zealand": "Pacific/Auckland",
    "nz": "Pacific/Auckland",
    "wellington": "Pacific/Auckland",
    "christchurch": "Pacific/Auckland",
    "nzst": "Pacific/Auckland",
    "nzdt": "Pacific/Auckland",
    "新西兰": "Pacific/Auckland",
    "悉尼": "Australia/Sydney",
    "澳洲东部": "Australia/Sydney",
    "澳大利亚东部": "Australia/Sydney",
    "澳东": "Australia/Sydney",
    "墨尔本": "Australia/Melbourne",
}
# China's other large cities (one zone for the whole country but Xinjiang's own clock), and Hong
# Kong's districts, as people name where they live ("我在武汉", "我住荃湾").
_CN_CITIES = re.findall(
    r"\S+",
    "天津 重庆 武汉 南京 苏州 西安 长沙 郑州 青岛 厦门 昆明 沈阳"
    " 大连 福州 合肥 南宁 贵阳 兰州 济南 石家庄 太原 南昌 哈尔滨 长春"
    " 呼和浩特 拉萨 海口 三亚 宁波 无锡 东莞 佛山 珠海 温州 常州 徐州"
    " 烟台 泉州 绍兴 嘉兴 金华 中山 惠州 洛阳 唐山 保定 桂林 西宁"
    " 银川",
)
_HK_DISTRICTS = re.findall(r"\S+", "九龙 新界 港岛 沙田 荃湾 屯门 元朗 将军澳 观塘 旺角")
_TZ_ALIASES.update(dict.fromkeys(_CN_CITIES, "Asia/Shanghai"))
_TZ_ALIASES.update(dict.fromkeys(_HK_DISTRICTS, "Asia/Hong_Kong"))

# Fixed offsets with minutes have no Etc/ zone: a representative zone of that offset.
_HALF_HOUR_ZONES: dict[tuple[int, int], str] = {
    (1, 330): "Asia/Kolkata",
    (1, 345): "Asia/Kathmandu",
    (1, 270): "Asia/Kabul",
    (1, 390): "Asia/Yangon",
    (1, 210): "Asia/Tehran",
    (1, 570): "Australia/Darwin",
    (-1, 210): "America/St_Johns",
}

# Last components of IANA names that are also everyday English words.
_CITY_STOPWORD_LIST = (
    "christmas easter wake midway center casey davis palmer troll stanley regina knox salem"
    " yap truk chuuk beulah marengo vevay winamac petersburg vincennes monticello louisville"
    " mawson vostok creston marigot macquarie currie"
)
_CITY_STOPWORDS = frozenset(_CITY_STOPWORD_LIST.split())

_CANONICAL_AREAS = (
    "Africa/",
    "America/",
    "Antarctica/",
    "Asia/",
    "Atlantic/",
    "Australia/",
    "Europe/",
    "Indian/",
    "Pacific/",
)


@lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    return {
        z.lower(): z for z in zoneinfo.available_timezones() if z not in ("localtime", "Factory")
    }


@lru_cache(maxsize=1)
def _cities() -> dict[str, str]:
    """Last component of the canonical IANA names ("berlin", "new york") -> the zone."""
    by_city: dict[str, list[str]] = {}
    for zone in _zones().values():
        if zone.startswith(_CANONICAL_AREAS):
            city = zone.rsplit("/", 1)[1].replace("_", " ").lower()
            if city not in _CITY_STOPWORDS:
                by_city.setdefault(city, []).append(zone)
    return {city: min(zones, key=lambda z: (z.count("/"), z)) for city, zones in by_city.items()}


def _offset_zone(sign: int, hours: int, minutes: int) -> str | None:
    total = hours * 60 + minutes
    if total == 0:
        return "UTC"
    if minutes:
        return _HALF_HOUR_ZONES.get((sign, total))
    # Etc/GMT zones carry the POSIX sign: UTC+8 is Etc/GMT-8.
    zone = f"Etc/GMT{'-' if sign > 0 else '+'}{hours}"
    return zone if zone.lower() in _zones() else None


_OFFSET_RE = re.compile(
    r"^(?:(?:utc|gmt)\s*(?P<sign>[+\-−])\s*(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?"
    r"|(?P<sign2>[+\-−])(?P<h2>\d{2}):?(?P<m2>\d{2}))$"
)
_ZH_ZONE_RE = re.compile(r"^(?P<side>[东西])(?P<n>[一二三四五六七八九十]{1,2}|\d{1,2})区$")


def _lookup_zone(key: str) -> str | None:
    if not key:
        return None
    if key in _TZ_ALIASES:
        return _TZ_ALIASES[key]
    zones = _zones()
    for candidate in (key, key.replace(" ", "_")):
        if candidate in zones:
            return zones[candidate]
    m = _OFFSET_RE.match(key)
    if m is not None:
        sign = -1 if (m.group("sign") or m.group("sign2")) in "-−" else 1
        hours = int(m.group("h") or m.group("h2"))
        minutes = int(m.group("m") or m.group("m2") or 0)
        return _offset_zone(sign, hours, minutes) if hours <= 14 and minutes < 60 else None
    m = _ZH_ZONE_RE.match(key)
    if m is not None:
        n = zh_number(m.group("n"))
        if n is not None and 0 < n <= 12:
            return _offset_zone(1 if m.group("side") == "东" else -1, n, 0)
        return None
    return _cities().get(key)


_TZ_SUFFIX = re.compile(
    r"(?:\s*(?:standard|daylight)?\s*(?:time\s*zone|timezone|time)|(?:标准)?(?:时间|时区))$"
)


def normalize_timezone(text: str) -> str | None:
    """An explicit zone (IANA name in any case, alias, city, UTC offset) -> IANA name; else None.

    Fixed offsets map to Etc zones with the inverted POSIX sign (UTC+8 -> Etc/GMT-8); an
    offset with minutes maps to a representative zone (UTC+5:30 -> Asia/Kolkata).
    """
    key = _key(text).strip(" .,;:!?()[]\"'。，；：！？（）")
    key = re.sub(r"^the\s+", "", key)
    zone = _lookup_zone(key)
    if zone is None:
        zone = _lookup_zone(_TZ_SUFFIX.sub("", key).strip())
    return zone


_IANA_TOKEN_RE = re.compile(r"(?<![a-z0-9_/])[a-z]+(?:/[a-z0-9_+\-]+)+")
_UTC_OFFSET_RE = re.compile(
    r"(?<![a-z0-9])(?:utc|gmt)\s*[+\-−]\s*\d{1,2}(?::?\d{2})?(?!\d)|(?<![a-z0-9])(?:utc|gmt)(?![a-z0-9+\-−])"
)
_ABBREV_RE = re.compile(
    r"(?<![A-Za-z])(JST|KST|CST|EST|EDT|PST|PDT|MST|MDT|CET|CEST|BST|HKT|SGT|IST|AEST|AEDT|MSK|NZST|NZDT)"
    r"(?![A-Za-z])"
)
#: The US zones said without standard or daylight ("9am PT", "5:30 pm ET"): only right after a
#: clock time (am/pm or hh:mm), where the letters can be nothing else ("my PT appointment",
#: "2 CT scans" name no zone).
_CLOCK_ABBREV_RE = re.compile(
    r"(?<!\d)(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?|[AP]\.?M\.?)|\d{1,2}:\d{2})"
    r"\s*(PT|ET|CT|MT)(?![A-Za-z])"
)
_CLOCK_ABBREV_ZONES = {
    "PT": "America/Los_Angeles",
    "MT": "America/Denver",
    "CT": "America/Chicago",
    "ET": "America/New_York",
}
_ZH_ZONE_FREE_RE = re.compile(r"[东西](?:[一二三四五六七八九十]{1,2}|\d{1,2})区")
_ZH_ALIAS_RE = re.compile(
    "(?:"
    + "|".join(
        re.escape(k) for k in sorted(_TZ_ALIASES, key=lambda k: (-len(k), k)) if not k.isascii()
    )
    + ")(?:标准)?(?:时间|时区)"
)
_EN_ZONE_PHRASE_RE = re.compile(
    r"((?:[a-z][a-z.'\-]*\s+){1,3})(?:(?:standard|daylight)\s+)?(?:time\s*zone|timezone|time)"
    r"(?![a-z])"
)


#: Zone letters right after a time ("1:00 PM PT and 3:00 PM PT"), which the hour parser reads
#: around.
_ZONE_AFTER_TIME_RE = re.compile(
    r"(?:(?<=\d)|(?<=[aApP][mM])|(?<=[mM]\.))\s*(?:PT|ET|CT|MT|PST|PDT|EST|EDT|CST|MST|MDT|JST|KST|CET|CEST|BST|HKT|SGT"
    r"|IST|AEST|AEDT|MSK|UTC|GMT)(?![A-Za-z])"
)


def without_zone_letters(text: str) -> str:
    """`text` without the zone letters said right after its times (the zone is read apart)."""
    return _ZONE_AFTER_TIME_RE.sub("", text)


def find_timezone(text: str) -> str | None:
    """The first explicit zone named anywhere in a free text (an IANA name, "UTC+8", "JST",
    "北京时间", "东八区", "Berlin time", "Eastern Time"), or None."""
    nfkc = unicodedata.normalize("NFKC", text)
    folded = fold(text)
    found: list[tuple[int, str]] = []
    for m in _IANA_TOKEN_RE.finditer(folded):
        zone = _zones().get(m.group())
        if zone is not None:
            found.append((m.start(), zone))
    offsets: list[tuple[int, str]] = []
    for m in _UTC_OFFSET_RE.finditer(folded):
        zone = _lookup_zone(re.sub(r"\s+", "", m.group()))
        if zone is not None:
            offsets.append((m.start(), zone))
    for m in _ABBREV_RE.finditer(nfkc):
        found.append((m.start(), _TZ_ALIASES[m.group(1).lower()]))
    for m in _CLOCK_ABBREV_RE.finditer(nfkc):
        found.append((m.start(1), _CLOCK_ABBREV_ZONES[m.group(1)]))
    for m in _ZH_ZONE_FREE_RE.finditer(folded):
        zone = _lookup_zone(m.group())
        if zone is not None:
            found.append((m.start(), zone))
    for m in _ZH_ALIAS_RE.finditer(folded):
        zone = _lookup_zone(_TZ_SUFFIX.sub("", m.group()))
        if zone is not None:
            found.append((m.start(), zone))
    for m in _EN_ZONE_PHRASE_RE.finditer(folded):
        words = m.group(1).split()
        for n in range(len(words), 0, -1):
            phrase = " ".join(words[-n:])
            zone = _TZ_ALIASES.get(phrase) or _cities().get(phrase)
            if zone is not None:
                found.append((m.start(1) + len(" ".join(words[:-n])), zone))
                break
    # A place or a named zone beside an offset ("GMT+1, Berlin", "UTC+8，北京时间") is the
    # zone: it knows its summer time, the offset does not.
    found = found or offsets
    return min(found)[1] if found else None
