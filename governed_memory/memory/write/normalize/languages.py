"""Languages: language names (English and Chinese) and BCP-47 tags -> canonical BCP-47."""

from __future__ import annotations

import re

from governed_memory.memory.write.normalize._text import (
    Mention,
    _ascii_word,
    _key,
    _resolve_overlaps,
    fold,
)

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
    "português": "pt",
    "portugues": "pt",
    "tamil": "ta",
    "泰米尔语": "ta",
    "bengali": "bn",
    "孟加拉语": "bn",
    "urdu": "ur",
    "乌尔都语": "ur",
    "punjabi": "pa",
    "turkish": "tr",
    "türkçe": "tr",
    "土耳其语": "tr",
    "polish": "pl",
    "polski": "pl",
    "波兰语": "pl",
    "greek": "el",
    "希腊语": "el",
    "hebrew": "he",
    "希伯来语": "he",
    "swedish": "sv",
    "瑞典语": "sv",
    "norwegian": "no",
    "danish": "da",
    "finnish": "fi",
    "czech": "cs",
    "hungarian": "hu",
    "romanian": "ro",
    "ukrainian": "uk",
    "乌克兰语": "uk",
    "persian": "fa",
    "farsi": "fa",
    "波斯语": "fa",
    "tagalog": "tl",
    "filipino": "fil",
    "swahili": "sw",
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
