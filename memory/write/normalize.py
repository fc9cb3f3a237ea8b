"""Normalisation of values: channels, BCP-47 languages, IANA zones, hour ranges, whitespace.

Everything here is deterministic, offline and pure (no I/O besides the bundled tz database).
The public functions take a word, a phrase or a short clause and return the canonical value, or
None when the text does not name one; `normalize_structured_value` applies them to the value of a
known profile key and raises `InvalidInput` for a value it cannot canonicalise.

Defaults chosen for hour ranges (documented once here; `normalize_hours` and
`normalize_quiet_hours` share them):

* working / business / office hours, 工作时间, 上班时间, 办公时间, 工作日 -> 09:00-18:00
* 白天, daytime, during the day -> 09:00-21:00
* 上午, 早上, morning -> 09:00-12:00; 中午, 午休, noon, lunchtime -> 12:00-14:00;
  下午, afternoon -> 13:00-18:00; 傍晚 -> 17:00-19:00; 凌晨 -> 00:00-06:00
* 晚上, evening, after work -> 18:00-22:00 as contact hours, but 22:00-08:00 as quiet hours
  ("晚上别打扰我" means the night)
* 夜里, 夜间, 深夜, night, overnight, 睡觉时间, while I sleep -> 22:00-08:00
* an open range "after X" -> X-22:00 as contact hours (X-23:00 when X is 22:00 or later),
  X-08:00 as quiet hours; "before X" -> 09:00-X as contact hours, 22:00-X (00:00-X when X is
  in the afternoon) as quiet hours
* a bare hour without am/pm is read the way people say it: "9-5" and "9点到6点" are
  09:00-17:00 and 09:00-18:00; as quiet hours "10点到8点" and "10点以后" both mean
  22:00-08:00; as contact hours "5点以后" starts at 17:00
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memory.errors import InvalidInput
from memory.vocabulary import CONTACT_HOURS, LANGUAGE, NOTIFICATION, TIMEZONE

CHANNELS: tuple[str, ...] = ("sms", "email", "phone", "app_push", "wechat")

# A mention found in a text: (start, end, canonical value), offsets in the folded text.
Mention = tuple[int, int, str]


def fold(text: str) -> str:
    """NFKC, lower case, straight apostrophes; keeps one character per input character."""
    return "".join(fold_char(c) for c in text)


def fold_char(c: str) -> str:
    """One character folded; may be empty or longer for a few compatibility characters."""
    out = unicodedata.normalize("NFKC", c).lower()
    return out.replace("\u2019", "'").replace("\u2018", "'").replace("\u2032", "'")


def _key(text: str) -> str:
    """A folded phrase with its whitespace collapsed, for table look-ups."""
    return " ".join(fold(text).split())


def normalize_whitespace(text: str) -> str:
    """Strip the ends and collapse every run of whitespace (ASCII or not) into one space."""
    return " ".join(text.split())


def _ascii_word(pattern: str) -> str:
    """`pattern` bounded by non-alphanumerics (works next to CJK text, unlike \\b)."""
    return rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])"


# --------------------------------------------------------------------------------------------
# Channels

_CHANNEL_WORDS: dict[str, str] = {
    # sms
    "sms": "sms",
    "text": "sms",
    "texts": "sms",
    "texting": "sms",
    "text message": "sms",
    "text messages": "sms",
    "txt": "sms",
    "短信": "sms",
    "发短信": "sms",
    "短讯": "sms",
    "短消息": "sms",
    "短信息": "sms",
    "信息": "sms",
    "手机短信": "sms",
    # email
    "email": "email",
    "e-mail": "email",
    "emails": "email",
    "mail": "email",
    "邮件": "email",
    "邮箱": "email",
    "电邮": "email",
    "电子邮件": "email",
    "发邮件": "email",
    # phone
    "phone": "phone",
    "phone call": "phone",
    "phone calls": "phone",
    "call": "phone",
    "calls": "phone",
    "telephone": "phone",
    "ring": "phone",
    "voice call": "phone",
    "电话": "phone",
    "打电话": "phone",
    "致电": "phone",
    "来电": "phone",
    "语音电话": "phone",
    # wechat
    "wechat": "wechat",
    "we chat": "wechat",
    "weixin": "wechat",
    "微信": "wechat",
    # app push
    "app_push": "app_push",
    "app push": "app_push",
    "push": "app_push",
    "push notification": "app_push",
    "push notifications": "app_push",
    "in-app": "app_push",
    "in app": "app_push",
    "app": "app_push",
    "app notification": "app_push",
    "app notifications": "app_push",
    "推送": "app_push",
    "app推送": "app_push",
    "app通知": "app_push",
    "应用通知": "app_push",
    "站内信": "app_push",
}

_CHANNEL_PATTERNS: tuple[tuple[str, str], ...] = (
    # Chinese
    ("sms", r"短信息|短信|短讯|短消息|手机信息|发(?:个|条|一条|一个)?(?:手机)?信息"),
    ("sms", r"发(?:到|给)?我?的?手机(?:上|里)?(?!号)"),
    ("email", r"电子邮件|电子邮箱|邮件|邮箱|电邮"),
    ("email", r"[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}"),
    ("phone", r"语音通话|语音电话|电话|致电|来电|回电|电联|打给我|打过来|给我打(?!扰|开|折|包|印)"),
    ("phone", r"打(?:我的?)?手机"),
    ("wechat", r"微信(?:电话|语音|视频|消息)?|威信|公众号"),
    (
        "app_push",
        r"(?:app|应用|软件|客户端)\s*(?:推送|通知|消息|内|里|提醒)|消息推送|推送|站内信|通知栏",
    ),
    # English (on folded text)
    ("sms", _ascii_word(r"sms(?:es)?|texts|texting|text messages?|txts?")),
    ("sms", _ascii_word(r"text(?=\s+(?:me|my|him|her|them|us|his|their)\b)")),
    (
        "sms",
        r"(?<![a-z0-9])(?:by|via|a|prefer|preferably|rather|use|using|through|over|with|just|or|and|in)\s+(?P<m>text)(?![a-z0-9])",
    ),
    ("sms", r"^\s*(?P<m>text)(?![a-z0-9])"),
    ("email", _ascii_word(r"e-?mails?|e-?mailing")),
    ("email", r"(?<![a-z0-9])(?:by|via|through|per)\s+(?P<m>mail)(?![a-z0-9])"),
    ("email", _ascii_word(r"mail(?=\s+(?:me|my|him|her|them|us|his|their)\b)")),
    (
        "phone",
        _ascii_word(r"(?:over|on|by|via) the phone|phone calls?|telephone|phone|calls?|calling"),
    ),
    ("phone", _ascii_word(r"ring me|give me a ring")),
    ("wechat", _ascii_word(r"we-?chat|weixin")),
    (
        "app_push",
        _ascii_word(
            r"push(?:\s+(?:notifications?|messages?|alerts?))?"
            r"|in-?app(?:\s+(?:notifications?|messages?|alerts?))?"
            r"|app\s+(?:notifications?|alerts?|messages?|push)"
            r"|notifications? in the app"
        ),
    ),
    (
        "app_push",
        r"(?<![a-z0-9])(?:via|through|in|on|using)\s+(?:the|your)\s+(?P<m>app)(?![a-z0-9])",
    ),
)
_CHANNEL_RES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (channel, re.compile(pattern)) for channel, pattern in _CHANNEL_PATTERNS
)

# A channel word followed by one of these is part of a compound noun ("电话号码", "email
# address", "短信验证码"), not a channel.
_CHANNEL_NOT_FOLLOWED = re.compile(
    r"\s*(?:系统|号码|号|验证码|地址|账号|账户|帐号|内容|模板|签名|费|套餐|客服|功能|设置|服务器"
    r"|(?:address(?:es)?|numbers?|no\.|system|server|account|settings?|size|box|field|case"
    r"|screen|battery|cent(?:er|re)|template|verification|code|otp|bill|plan)(?![a-z]))"
)


def _resolve_overlaps(found: list[Mention]) -> list[Mention]:
    """Keep the longest of overlapping mentions (ties: the earliest), in text order."""
    chosen: list[Mention] = []
    for m in sorted(found, key=lambda x: (-(x[1] - x[0]), x[0], x[2])):
        if all(m[1] <= c[0] or m[0] >= c[1] for c in chosen):
            chosen.append(m)
    return sorted(chosen)


def find_channels(text: str) -> list[Mention]:
    """Every channel named in `text` (offsets in `fold(text)`), compound nouns left out."""
    folded = fold(text)
    found: list[Mention] = []
    for channel, rx in _CHANNEL_RES:
        for m in rx.finditer(folded):
            start, end = m.span("m") if "m" in rx.groupindex and m.group("m") else m.span()
            if _CHANNEL_NOT_FOLLOWED.match(folded, end):
                continue
            found.append((start, end, channel))
    return _resolve_overlaps(found)


def normalize_channel(text: str) -> str | None:
    """A word or phrase naming a channel -> one of CHANNELS; None if none or several."""
    key = _key(text)
    if not key:
        return None
    if key in _CHANNEL_WORDS:
        return _CHANNEL_WORDS[key]
    bare = re.sub(r"(?:通知|提醒|联系|\s*notifications?|\s*alerts?|\s*updates?)$", "", key).strip()
    if bare in _CHANNEL_WORDS:
        return _CHANNEL_WORDS[bare]
    channels = {c for _, _, c in find_channels(key)}
    return channels.pop() if len(channels) == 1 else None


# --------------------------------------------------------------------------------------------
# Languages

_LANGUAGE_NAMES: dict[str, str] = {
    # Chinese
    "chinese": "zh-CN",
    "mandarin": "zh-CN",
    "mandarin chinese": "zh-CN",
    "simplified chinese": "zh-CN",
    "chinese simplified": "zh-CN",
    "putonghua": "zh-CN",
    "中文": "zh-CN",
    "汉语": "zh-CN",
    "漢語": "zh-CN",
    "普通话": "zh-CN",
    "普通話": "zh-CN",
    "国语": "zh-CN",
    "國語": "zh-CN",
    "华语": "zh-CN",
    "简体中文": "zh-CN",
    "简体": "zh-CN",
    "簡體中文": "zh-CN",
    "中文简体": "zh-CN",
    "traditional chinese": "zh-TW",
    "chinese traditional": "zh-TW",
    "繁体中文": "zh-TW",
    "繁體中文": "zh-TW",
    "繁体": "zh-TW",
    "繁體": "zh-TW",
    "中文繁体": "zh-TW",
    "cantonese": "yue",
    "粤语": "yue",
    "粵語": "yue",
    "广东话": "yue",
    "廣東話": "yue",
    # others
    "english": "en",
    "英文": "en",
    "英语": "en",
    "英語": "en",
    "british english": "en-GB",
    "uk english": "en-GB",
    "american english": "en-US",
    "us english": "en-US",
    "japanese": "ja",
    "日语": "ja",
    "日文": "ja",
    "日語": "ja",
    "日本語": "ja",
    "日本语": "ja",
    "korean": "ko",
    "韩语": "ko",
    "韩文": "ko",
    "韓語": "ko",
    "韓文": "ko",
    "韩国语": "ko",
    "한국어": "ko",
    "french": "fr",
    "français": "fr",
    "francais": "fr",
    "法语": "fr",
    "法文": "fr",
    "german": "de",
    "deutsch": "de",
    "德语": "de",
    "德文": "de",
    "spanish": "es",
    "español": "es",
    "espanol": "es",
    "西班牙语": "es",
    "西班牙文": "es",
    "italian": "it",
    "意大利语": "it",
    "portuguese": "pt",
    "葡萄牙语": "pt",
    "russian": "ru",
    "俄语": "ru",
    "俄文": "ru",
    "arabic": "ar",
    "阿拉伯语": "ar",
    "thai": "th",
    "泰语": "th",
    "泰文": "th",
    "vietnamese": "vi",
    "越南语": "vi",
    "indonesian": "id",
    "印尼语": "id",
    "malay": "ms",
    "马来语": "ms",
    "hindi": "hi",
    "印地语": "hi",
    "dutch": "nl",
    "荷兰语": "nl",
}

# ISO 639-1 codes and a few ISO 639-3 ones in common use: the primary subtags accepted as is.
_PRIMARY_SUBTAG_LIST = (
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu"
    " cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi"
    " ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks"
    " ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl"
    " nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl"
    " sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve"
    " vi vo wa wo xh yi yo za zh zu yue cmn wuu hak nan fil haw ast ckb"
)
_PRIMARY_SUBTAGS = frozenset(_PRIMARY_SUBTAG_LIST.split())

_TAG_RE = re.compile(
    r"^(?P<lang>[a-z]{2,3})(?:-(?P<script>[a-z]{4}))?(?:-(?P<region>[a-z]{2}|\d{3}))?"
    r"(?P<variants>(?:-(?:[a-z0-9]{5,8}|\d[a-z0-9]{3}))*)$"
)


def _language_pattern() -> re.Pattern[str]:
    names = sorted(_LANGUAGE_NAMES, key=lambda n: (-len(n), n))
    parts = [_ascii_word(re.escape(n)) if n.isascii() else re.escape(n) for n in names]
    return re.compile("|".join(parts))


_LANGUAGE_RE = _language_pattern()


def find_languages(text: str) -> list[Mention]:
    """Every language named in `text` (offsets in `fold(text)`)."""
    folded = fold(text)
    found: list[Mention] = []
    for m in _LANGUAGE_RE.finditer(folded):
        name = " ".join(m.group().split())
        found.append((m.start(), m.end(), _LANGUAGE_NAMES[name]))
    return _resolve_overlaps(found)


def _canonical_tag(text: str) -> str | None:
    m = _TAG_RE.match(text.replace("_", "-"))
    if m is None or m.group("lang") not in _PRIMARY_SUBTAGS:
        return None
    out = m.group("lang")
    if m.group("script"):
        out += "-" + m.group("script").title()
    if m.group("region"):
        out += "-" + m.group("region").upper()
    return out + m.group("variants")


def normalize_language(text: str) -> str | None:
    """A language name (English or Chinese) or a BCP-47 tag -> canonical BCP-47; else None."""
    key = _key(text)
    if not key:
        return None
    for candidate in (key, re.sub(r"(?:语言|\s*language)$", "", key).strip()):
        if candidate in _LANGUAGE_NAMES:
            return _LANGUAGE_NAMES[candidate]
        tag = _canonical_tag(candidate)
        if tag is not None:
            return tag
    tags = {t for _, _, t in find_languages(key)}
    return tags.pop() if len(tags) == 1 else None


# --------------------------------------------------------------------------------------------
# Time zones

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
    "moscow": "Europe/Moscow",
    "msk": "Europe/Moscow",
    "莫斯科": "Europe/Moscow",
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
    "悉尼": "Australia/Sydney",
    "墨尔本": "Australia/Melbourne",
}

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

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGITS.update({"六": 6, "七": 7, "八": 8, "九": 9})


def zh_number(text: str) -> int | None:
    """A small number in digits or Chinese numerals (零 .. 九十九) -> int."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _ZH_DIGITS and c != "十" for c in text):
        return None
    if "十" not in text:
        return _ZH_DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1 or "十" in ones:
        return None
    return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)


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
    r"(?<![A-Za-z])(JST|KST|CST|EST|EDT|PST|PDT|MST|MDT|CET|CEST|BST|HKT|SGT|IST|AEST|AEDT|MSK)"
    r"(?![A-Za-z])"
)
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
    for m in _UTC_OFFSET_RE.finditer(folded):
        zone = _lookup_zone(re.sub(r"\s+", "", m.group()))
        if zone is not None:
            found.append((m.start(), zone))
    for m in _ABBREV_RE.finditer(nfkc):
        found.append((m.start(), _TZ_ALIASES[m.group(1).lower()]))
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
    return min(found)[1] if found else None


# --------------------------------------------------------------------------------------------
# Hours

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
    r"^\s*(?:-|–|—|~|〜|～|－|到|至|to|until|till|thru|through|and)\s*(?:第二天|次日|隔天)?\s*$"
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
    points: list[_Point] = []
    for m in _POINT_RE.finditer(folded):
        raw_h, mer, ampm = m.group("h"), m.group("mer"), m.group("ampm")
        has_dian = m.group("dian") is not None
        if not raw_h.isdigit() and not has_dian:
            continue
        # "晚一点" / "有一点" are "a bit", not one o'clock.
        if raw_h == "一" and mer in (None, "早", "晚") and not (m.group("half") or m.group("m2")):
            continue
        before = folded[: m.start("h")]
        if re.search(r"[a-z]-\s*$", before) and not re.search(
            r"(?:a\.?m\.?|p\.?m\.?)-\s*$", before
        ):
            continue  # the tail of an identifier such as ORD-12
        hour = zh_number(raw_h)
        if m.group("m"):
            minute: int | None = int(m.group("m"))
        elif m.group("half"):
            minute = 30
        elif m.group("quarter"):
            minute = 15 if m.group("quarter") == "一刻" else 45
        elif m.group("m2"):
            minute = zh_number(m.group("m2"))
        else:
            minute = 0
        if hour is None or minute is None or hour > 24 or minute >= 60:
            continue
        marker: str | None = _MERIDIEM[mer] if mer else None
        if ampm:
            if ampm.startswith("a"):
                marker = "am"
            elif ampm.startswith("p"):
                marker = "pm"
        strong = bool(mer or has_dian or m.group("m") or ampm)
        if not strong and _NOT_A_TIME_AFTER.match(folded, m.end()):
            continue
        points.append(_Point(m.start(), m.end(), hour, minute, marker, strong))
    for m in _SPECIAL_POINT_RE.finditer(folded):
        hour = 12 if m.group("w") in ("noon", "midday") else 0
        points.append(_Point(m.start(), m.end(), hour, 0, "fixed", True))
    return sorted(points, key=lambda p: p.start)


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
        end = 22 * 60 if t < 22 * 60 else min(t + 60, 23 * 60 + 59)
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
    for p in points:
        if not p.strong:
            continue
        prefix = _OPEN_PREFIX_RE.search(folded[max(0, p.start - 20) : p.start])
        if prefix is not None:
            return _open_range(
                p, prefix.group("w") in _AFTER_WORDS or prefix.group("w") == "从", quiet=quiet
            )
        if _AFTER_SUFFIX_RE.match(folded[p.end :]):
            return _open_range(p, True, quiet=quiet)
        if _BEFORE_SUFFIX_RE.match(folded[p.end :]):
            return _open_range(p, False, quiet=quiet)
    # 3. a named period
    for rx, contact, quiet_range in _NAMED_PERIODS:
        if rx.search(folded):
            return quiet_range if quiet else contact
    return None


def _format_range(rng: tuple[int, int], zone: str) -> str:
    (a, b) = rng
    return f"{a // 60:02d}:{a % 60:02d}-{b // 60:02d}:{b % 60:02d} {zone}"


def _hours(text: str, timezone: str, *, quiet: bool) -> str | None:
    zone = find_timezone(text) or normalize_timezone(timezone)
    if zone is None:
        return None
    rng = _parse_hours(text, quiet=quiet)
    return None if rng is None else _format_range(rng, zone)


def normalize_hours(text: str, timezone: str) -> str | None:
    """An hour range (or a named period) -> "HH:MM-HH:MM <IANA zone>"; else None.

    The zone is the one the text names ("22:00-08:00 Asia/Shanghai", "9am-5pm Berlin time"),
    else `timezone`. Read as hours at which contact is welcome; see the module docstring.
    """
    return _hours(text, timezone, quiet=False)


def normalize_quiet_hours(text: str, timezone: str) -> str | None:
    """Like `normalize_hours`, read as do-not-disturb hours ("晚上" is then the night)."""
    return _hours(text, timezone, quiet=True)


# --------------------------------------------------------------------------------------------
# Structured values


def _required_str(value: dict[str, Any], name: str, key: str) -> str:
    v = value.get(name)
    if not isinstance(v, str) or not v.strip():
        raise InvalidInput(
            f"{key} needs a non-empty string {name!r}", field=f"structured_value.{name}"
        )
    return v


def normalize_structured_value(
    key: str | None, value: dict[str, Any] | None, *, default_timezone: str
) -> dict[str, Any] | None:
    """Canonicalise the structured value of a known profile key; other keys pass unchanged.

    notification.preference: channel -> one of CHANNELS, quiet_hours -> "HH:MM-HH:MM Zone";
    profile.language: value -> BCP-47; profile.timezone: value -> IANA name;
    contact.preferred_hours: value -> "HH:MM-HH:MM Zone". A value that cannot be canonicalised
    raises InvalidInput naming the field (e.g. structured_value.channel).
    """
    if value is None or key is None:
        return value
    if key == NOTIFICATION:
        out = dict(value)
        if "channel" not in out and "quiet_hours" not in out:
            raise InvalidInput(
                "notification.preference needs a channel or quiet_hours",
                field="structured_value.channel",
            )
        if "channel" in out:
            raw = _required_str(out, "channel", key)
            channel = normalize_channel(raw)
            if channel is None:
                raise InvalidInput(
                    f"unknown notification channel {raw!r}: one of {', '.join(CHANNELS)}",
                    field="structured_value.channel",
                )
            out["channel"] = channel
        if out.get("quiet_hours") is not None:
            raw = _required_str(out, "quiet_hours", key)
            hours = normalize_quiet_hours(raw, default_timezone)
            if hours is None:
                raise InvalidInput(
                    f"cannot read quiet hours {raw!r}", field="structured_value.quiet_hours"
                )
            out["quiet_hours"] = hours
        return out
    if key in (LANGUAGE, TIMEZONE, CONTACT_HOURS):
        out = dict(value)
        raw = _required_str(out, "value", key)
        normalized: str | None
        if key == LANGUAGE:
            normalized = normalize_language(raw)
            what = "language"
        elif key == TIMEZONE:
            normalized = normalize_timezone(raw)
            what = "time zone"
        else:
            normalized = normalize_hours(raw, default_timezone)
            what = "hour range"
        if normalized is None:
            raise InvalidInput(f"unknown {what} {raw!r}", field="structured_value.value")
        out["value"] = normalized
        return out
    return value
