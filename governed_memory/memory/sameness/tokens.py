"""Taking a text apart into typed tokens: preparation (width, zero-width characters,
contractions, Chinese numerals), the scanner of values (numbers, amounts, dates, times,
identifiers …), number words and units, anchored identifiers, and where a time phrase stands."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from governed_memory.memory.sameness.words import (
    _AMBIGUOUS_MONTHS,
    _ANCHOR_LINKS,
    _ANCHOR_NOUNS_EN,
    _ANCHOR_NOUNS_ZH,
    _CURRENCIES,
    _FILLERS_ZH_WORDS,
    _MONTHS,
    _NOT_NEGATION_ZH,
    _NUMBER_WORDS,
    _RELATIVE_DAYS,
    _SCALES,
    _TIME_MARKERS,
    _TIME_PREPS,
    _UNITS_EN,
    _UNITS_ZH,
    _UNITS_ZH_WORDS,
    _WEEKDAYS_EN,
    _WEEKDAYS_ZH,
    FILLERS_EN,
    FILLERS_ZH,
    NEGATIONS_EN,
    NEGATIONS_ZH,
    _pairs,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    value: str
    #: A capitalised word inside a sentence: a name (only for `word`).
    entity: bool = False

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.value}"

    @property
    def detail(self) -> str:
        """The class of detail this token carries: its kind, `entity`, or `wording`."""
        if self.kind != "word":
            return self.kind
        return "entity" if self.entity else "wording"


_ZERO_WIDTH = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]")
_CONTRACTIONS = [
    (re.compile(r"\bwon't\b", re.I), "will not"),
    (re.compile(r"\bshan't\b", re.I), "shall not"),
    (re.compile(r"\bcan't\b|\bcannot\b", re.I), "can not"),
    (re.compile(r"\bain't\b", re.I), "is not"),
    (re.compile(r"n't\b", re.I), " not"),
    (re.compile(r"'re\b", re.I), " are"),
    (re.compile(r"'ve\b", re.I), " have"),
    (re.compile(r"'ll\b", re.I), " will"),
    (re.compile(r"\bi'm\b", re.I), "i am"),
    # "he's", "it's", "there's": "is" (after a noun, "'s" is a possessive and stays)
    (re.compile(r"\b(he|she|it|that|there|here|what|who|where|how)'s\b", re.I), r"\1 is"),
    (re.compile(r"\blet's\b", re.I), "let us"),
    (re.compile(r"'d\b", re.I), " would"),
    # "order no. 123" is "order number 123", not a negation.
    (re.compile(r"\bno\.\s*(?=#?\w*\d)", re.I), "number "),
]

_ZH_NUMERAL = "零〇一二两三四五六七八九十百千万亿"
_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_ZH_DIGIT.update({"七": 7, "八": 8, "九": 9})
_ZH_SMALL_SCALE = {"十": 10, "百": 100, "千": 1000}
_ZH_BIG_SCALE = {"万": 10_000, "亿": 100_000_000}
# A run of Chinese numerals that is a number: before a unit, or a composed number (三百, 一千二).
_ZH_NUMBER = re.compile(
    rf"(?<![\d.])(?<!星期)(?<!礼拜)(?<!周)(?P<n>[{_ZH_NUMERAL}]+)(?=(?:{'|'.join(_UNITS_ZH_WORDS)}|[{''.join(sorted(_UNITS_ZH))}元块]))"
    rf"|(?<![\d.])(?P<c>[{_ZH_NUMERAL}]*[一二两三四五六七八九][十百千万亿][{_ZH_NUMERAL}]*)"
)
#: "一点" (a little), "一些", "一样" … are words, not numbers.
_ZH_NOT_NUMBER = (
    "一点",
    "一些",
    "一样",
    "一起",
    "一直",
    "一定",
    "一般",
    "一切",
    "一共",
    "一旦",
    "一边",
    "一会",
    "万一",
    "十分",
)


def _zh_to_int(text: str) -> int | None:
    if text[0] in _ZH_BIG_SCALE:  # 万 or 亿 alone, or after Arabic digits (1.5万): a multiplier
        return None
    total, section, digit = 0, 0, None
    for c in text:
        if c in _ZH_DIGIT:
            if digit is not None:  # a digit string such as 一二三
                return None
            digit = _ZH_DIGIT[c]
        elif c in _ZH_SMALL_SCALE:
            section += (digit if digit is not None else 1) * _ZH_SMALL_SCALE[c]
            digit = None
        elif c in _ZH_BIG_SCALE:
            total += (section + (digit or 0)) * _ZH_BIG_SCALE[c]
            section, digit = 0, None
        else:
            return None
    return total + section + (digit or 0)


def _zh_numbers(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        run = m.group(0)
        if any(text.startswith(word, m.start()) for word in _ZH_NOT_NUMBER):
            return run
        value = _zh_to_int(run)
        return run if value is None else str(value)

    return _ZH_NUMBER.sub(sub, text)


def prepare(text: str) -> str:
    """NFKC (full-/half-width), no zero-width or format characters, straight quotes, English
    contractions spelled out, Chinese fillers out, Chinese numerals as digits. Case is kept."""
    out = unicodedata.normalize("NFKC", text)
    out = _ZERO_WIDTH.sub("", out)
    if not out.isascii():  # (no format character is ASCII)
        out = "".join(c for c in out if unicodedata.category(c) != "Cf")
    out = out.replace("\u2019", "'").replace("\u2018", "'").replace("\u2032", "'")
    low = out.lower()
    if "'" in out or "cannot" in low or "no." in low:  # what every contraction needs
        for pattern, repl in _CONTRACTIONS:
            out = pattern.sub(repl, out)
    out = _FILLERS_ZH_WORDS.sub(" ", out)
    return _zh_numbers(" ".join(out.split()))


_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_MULT = r"(?:[kK](?![a-zA-Z])|万|千|百万|亿)"
# Word boundaries that hold next to Chinese too (`\b` sees no boundary between 款 and RMB).
_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9])"
_CUR_PRE = rf"[$¥￥€£]|{_L}(?:rmb|cny|usd|eur|gbp|hkd|jpy){_R}"
_CUR_POST = (
    rf"(?:yuan|rmb|cny|dollars?|bucks?|usd|euros?|eur|pounds?|gbp|hkd|jpy|yen){_R}"
    r"|块钱|人民币|美元|欧元|英镑|港币|港元|日元|円|元|块"
)
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_PERIOD = (
    "morning|afternoon|evening|night|day|week|weekend|month|year|"
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)
_ZH_DAY = "[一二三四五六日天]"
_SCANNER = re.compile(
    "|".join(
        [
            r"(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
            r"(?P<url>(?:https?://|www\.)[^\s，。、]+)",
            rf"(?P<amount_pre>(?P<ap_c>{_CUR_PRE})\s?(?P<ap_n>{_NUM})\s?(?P<ap_m>{_MULT})?)",
            rf"(?P<amount_post>(?P<as_n>{_NUM})\s?(?P<as_m>{_MULT})?\s?(?P<as_c>{_CUR_POST}))",
            rf"(?P<date_iso>{_L}(?P<di_y>\d{{4}})\s?[-/.年]\s?(?P<di_m>\d{{1,2}})\s?[-/.月]\s?(?P<di_d>\d{{1,2}})[日号]?)",
            r"(?P<date_zh>(?P<dz_m>\d{1,2})\s?月\s?(?P<dz_d>\d{1,2})\s?[日号])",
            rf"(?P<date_md>{_L}(?P<dm_mon>{_MONTH})\.?\s+(?P<dm_d>\d{{1,2}})(?:st|nd|rd|th)?{_R}(?:,?\s+(?P<dm_y>\d{{4}}){_R})?)",
            rf"(?P<date_dm>{_L}(?P<dd_d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dd_mon>{_MONTH}){_R}\.?(?:,?\s+(?P<dd_y>\d{{4}}){_R})?)",
            rf"(?P<date_num>{_L}(?P<dn_a>\d{{1,2}})/(?P<dn_b>\d{{1,2}})(?:/(?P<dn_y>\d{{2,4}}))?{_R})",
            rf"(?P<time_ampm>{_L}(?P<ta_h>\d{{1,2}})(?::(?P<ta_m>\d{{2}}))?\s?(?P<ta_p>[ap])\.?m{_R}\.?)",
            rf"(?P<time_colon>{_L}(?P<tc_h>\d{{1,2}}):(?P<tc_m>\d{{2}})(?::\d{{2}})?{_R})",
            r"(?P<time_zh>(?P<tz_p>凌晨|早上|上午|中午|下午|傍晚|晚上|夜里)?(?P<tz_h>\d{1,2})\s?[点時时](?:(?P<tz_half>半)|(?P<tz_m>\d{1,2})分?)?)",
            rf"(?P<period_en>{_L}(?P<pe_q>every|each|next|last|this)\s+(?P<pe_p>{_PERIOD}){_R})",
            rf"(?P<period_zh>(?P<pz_q>每|上|下|这|本)个?(?P<pz_p>天|日|晚|月|年|(?:周|星期|礼拜){_ZH_DAY}?))",
            r"(?P<year_zh>去年|今年|明年|前年)",
            rf"(?P<weekday_zh>(?:星期|礼拜|周)(?P<wz>{_ZH_DAY}|[1-7]))",
            r"(?P<reldate_zh>今天|今日|今晚|明天|明日|明晚|昨天|昨日|昨晚|后天|前天)",
            r"(?P<dayparts_zh>凌晨|早上|上午|中午|下午|傍晚|晚上|夜里|夜间|白天)",
            r"(?P<phone>\+?\(?\d{1,4}\)?(?:[\s.-]\(?\d{2,4}\)?){2,}(?!\d))",
            r"(?P<hashid>#\s?\w*\d\w*)",
            rf"(?P<ordinal>{_L}\d+(?:st|nd|rd|th){_R})",
            rf"(?P<percent>{_NUM}\s?%)",
            r"(?P<num>(?<![A-Za-z0-9.])" + _NUM + r"(?![A-Za-z0-9.]*[a-zA-Z]))",
            r"(?P<latin>[a-zA-Z0-9]+(?:['’][a-zA-Z]+|[-_/.][a-zA-Z0-9]+)*)",
            r"(?P<cjk>[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af])",
            r"(?P<other>[^\W\d_]+)",
        ]
    ),
    re.IGNORECASE,
)
_SENTENCE_END = frozenset(".!?。！？\n:;：；")


_ZH_YEARS = {
    "去年": "last-year",
    "今年": "this-year",
    "明年": "next-year",
    "前年": "year-before-last",
}
_ZH_WHICH = {"每": "every", "上": "last", "下": "next", "这": "this", "本": "this"}
#: Parts of the day, the same in both languages.
_DAYPARTS = _pairs(
    "morning=morning afternoon=afternoon evening=evening night=night overnight=night "
    "凌晨=small-hours 早上=morning 上午=morning 中午=noon 下午=afternoon 傍晚=evening "
    "晚上=evening 夜里=night 夜间=night 白天=daytime"
)


def _zh_period(which: str, period: str) -> str:
    """每天 → every-day, 上周五 → last-weekday-5, 下个月 → next-month."""
    if period in ("天", "日"):
        unit = "day"
    elif period == "晚":
        unit = "evening"
    elif period == "月":
        unit = "month"
    elif period == "年":
        unit = "year"
    else:
        day = period[-1]
        unit = f"weekday-{_WEEKDAYS_ZH[day]}" if day in _WEEKDAYS_ZH else "week"
    return f"{_ZH_WHICH[which]}-{unit}"


def _number(text: str, mult: str | None = None) -> str:
    value = text.replace(",", "")
    scale = {"k": 1000, "K": 1000, "千": 1000, "万": 10_000, "百万": 1_000_000, "亿": 100_000_000}
    if "." in value:
        whole, frac = value.split(".", 1)
        frac = frac.rstrip("0")
        value = f"{int(whole)}.{frac}" if frac else str(int(whole))
    else:
        value = str(int(value))
    if mult:
        scaled = Decimal(value) * scale[mult]
        value = format(scaled.normalize(), "f")
        if "." in value:
            value = value.rstrip("0").rstrip(".")
    return value


def _time(hour: int, minute: int, period: str | None) -> str:
    if period:
        p = period.lower()
        if p in ("p", "下午", "晚上", "傍晚", "夜里") and hour < 12:
            hour += 12
        elif p in ("a", "凌晨", "早上", "上午") and hour == 12:
            hour = 0
        elif p == "中午" and hour < 6:
            hour += 12
    return f"{hour:02d}:{minute:02d}"


def _date(year: str | None, month: int, day: int) -> str:
    return f"{int(year):04d}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"


def _is_entity(raw: str, start: int, text: str) -> bool:
    if not raw[:1].isupper() or raw == "I":
        return False
    before = text[:start].rstrip(" \t\"'“‘(（[")
    return bool(before) and before[-1] not in _SENTENCE_END


def _amount(number: str, mult: str | None, currency: str) -> list[Token]:
    return [Token("amount", f"{_number(number, mult)} {_CURRENCIES[currency.lower()]}")]


def _phone(raw: str) -> list[Token]:
    digits = re.sub(r"\D", "", raw)
    if len(digits) >= 7:
        return [Token("identifier", digits)]
    return [Token("number", _number(d)) for d in re.findall(r"\d+", raw)]


def _plain_number(raw: str) -> list[Token]:
    digits = raw.replace(",", "").replace(".", "")
    if "." not in raw and "," not in raw and len(digits) >= 6:
        return [Token("identifier", digits)]
    return [Token("number", _number(raw))]


def _cjk(c: str, start: int, text: str) -> list[Token]:
    if c in FILLERS_ZH:
        return []
    negation = c in NEGATIONS_ZH and not any(text.startswith(w, start) for w in _NOT_NEGATION_ZH)
    return [Token("negation" if negation else "word", c)]


def _other(raw: str, start: int, text: str) -> list[Token]:
    word = raw.lower()
    return [] if word in FILLERS_EN else [Token("word", word, _is_entity(raw, start, text))]


def _time_zh(g: Callable[..., Any]) -> list[Token]:
    minute = 30 if g("tz_half") else int(g("tz_m") or 0)
    return [Token("time", _time(int(g("tz_h")), minute, g("tz_p")))]


def _date_num(g: Callable[..., Any]) -> list[Token]:
    value = f"{int(g('dn_a'))}/{int(g('dn_b'))}"
    return [Token("date", f"{value}/{int(g('dn_y'))}" if g("dn_y") else value)]


def _weekday_zh(day: str) -> list[Token]:
    return [Token("date", f"weekday-{_WEEKDAYS_ZH.get(day) or int(day)}")]


Group = Callable[[Callable[..., Any]], list[Token]]

#: What each alternative of the scanner means, by group name (`g` reads the match's groups).
_GROUPS: dict[str, Group] = {
    "email": lambda g: [Token("identifier", g(0).lower().rstrip("/."))],
    "url": lambda g: [Token("identifier", g(0).lower().rstrip("/."))],
    "amount_pre": lambda g: _amount(g("ap_n"), g("ap_m"), g("ap_c")),
    "amount_post": lambda g: _amount(g("as_n"), g("as_m"), g("as_c")),
    "date_iso": lambda g: [Token("date", _date(g("di_y"), int(g("di_m")), int(g("di_d"))))],
    "date_zh": lambda g: [Token("date", _date(None, int(g("dz_m")), int(g("dz_d"))))],
    "date_md": lambda g: [
        Token("date", _date(g("dm_y"), _MONTHS[g("dm_mon").lower()], int(g("dm_d"))))
    ],
    "date_dm": lambda g: [
        Token("date", _date(g("dd_y"), _MONTHS[g("dd_mon").lower()], int(g("dd_d"))))
    ],
    "date_num": _date_num,
    "time_ampm": lambda g: [Token("time", _time(int(g("ta_h")), int(g("ta_m") or 0), g("ta_p")))],
    "time_colon": lambda g: [Token("time", _time(int(g("tc_h")), int(g("tc_m")), None))],
    "time_zh": _time_zh,
    "weekday_zh": lambda g: _weekday_zh(g("wz")),
    "reldate_zh": lambda g: [Token("date", _RELATIVE_DAYS[g(0)])],
    "period_en": lambda g: [Token("date", f"{g('pe_q').lower()}-{g('pe_p').lower()}")],
    "period_zh": lambda g: [Token("date", _zh_period(g("pz_q"), g("pz_p")))],
    "year_zh": lambda g: [Token("date", _ZH_YEARS[g(0)])],
    "dayparts_zh": lambda g: [Token("time", _DAYPARTS[g(0)])],
    "phone": lambda g: _phone(g(0)),
    "hashid": lambda g: [Token("identifier", re.sub(r"[\s#_-]", "", g(0)).lower())],
    "ordinal": lambda g: [Token("number", "#" + str(int(g(0)[:-2])))],
    "percent": lambda g: [Token("quantity", f"{_number(g(0).rstrip('% '))} %")],
    "num": lambda g: _plain_number(g(0)),
}


def _scan(text: str) -> list[Token]:
    """The typed tokens of a prepared text, in order."""
    tokens: list[Token] = []
    for m in _SCANNER.finditer(text):
        kind = m.lastgroup or ""
        handler = _GROUPS.get(kind)
        if handler is not None:
            tokens.extend(handler(m.group))
        elif kind == "latin":
            tokens.extend(_latin(m.group(0), m.start(), text))
        elif kind == "cjk":
            tokens.extend(_cjk(m.group(0), m.start(), text))
        else:
            tokens.extend(_other(m.group(0), m.start(), text))
    return tokens


_GLUED_UNIT = re.compile(r"(\d+(?:\.\d+)?)([a-z]+)")


def _latin(raw: str, start: int, text: str) -> list[Token]:
    """A run of Latin letters and digits: a value (quantity, identifier) or a word (a name when
    it is capitalised inside a sentence: the one thing read from around it)."""
    tokens, word = _latin_read(raw)
    if word is None:
        return list(tokens)
    return [Token("word", word, _is_entity(raw, start, text))]


@lru_cache(maxsize=65536)
def _latin_read(raw: str) -> tuple[tuple[Token, ...], str | None]:
    """`_latin` of `raw` wherever it stands: its tokens, or the plain word it is."""
    low = raw.lower().replace("’", "'")
    if any(c.isdigit() for c in low):
        return tuple(_latin_value(low)), None
    parts = [p for p in re.split(r"[-_/.]", low) if p]
    if len(parts) > 1 and all(p in _NUMBER_WORDS or p in _SCALES for p in parts):
        # "twenty-one": merged with the numbers later
        return tuple(Token("word", p) for p in parts), None
    word = low.replace("-", "").replace("_", "").replace("/", "").replace(".", "")
    if word.endswith("'s"):
        word = word[:-2] + "s"  # the user's: possessive kept apart from the plain noun
    if word in FILLERS_EN:
        return (), None
    typed = _typed_word(word, raw)
    return ((typed,), None) if typed is not None else ((), word)


def _latin_value(low: str) -> list[Token]:
    glued = _GLUED_UNIT.fullmatch(low)
    if glued and glued.group(2) in _UNITS_EN:  # "5kg", "3pcs"
        return [Token("quantity", f"{_number(glued.group(1))} {_UNITS_EN[glued.group(2)]}")]
    if any(c.isalpha() for c in low):
        return [Token("identifier", re.sub(r"[-_/.']", "", low))]
    return [Token("identifier", re.sub(r"\D", "", low))]  # digits joined by separators


def _typed_word(word: str, raw: str) -> Token | None:
    """A word that is a negation or names a time (weekday, relative day, part of day, month)."""
    if word in NEGATIONS_EN:
        return Token("negation", word)
    if word in _WEEKDAYS_EN:
        return Token("date", f"weekday-{_WEEKDAYS_EN[word]}")
    if word.endswith("s") and word[:-1] in _WEEKDAYS_EN:  # "on Mondays": every Monday
        return Token("date", f"weekday-{_WEEKDAYS_EN[word[:-1]]}-every")
    if word in _RELATIVE_DAYS:
        return Token("date", _RELATIVE_DAYS[word])
    if word in _DAYPARTS:
        return Token("time", _DAYPARTS[word])
    ambiguous = word in _AMBIGUOUS_MONTHS and not raw[:1].isupper()
    if word in _MONTHS and not ambiguous and len(word) > 3:
        return Token("date", f"month-{_MONTHS[word]:02d}")
    return None


def _number_words(tokens: list[Token], i: int) -> tuple[int, int] | None:
    """The number spelled from tokens[i] on ("two hundred and five"): (value, next index)."""
    total, current, j = 0, 0, i
    while j < len(tokens) and tokens[j].kind == "word":
        w = tokens[j].value
        if w in _NUMBER_WORDS:
            current += _NUMBER_WORDS[w]
        elif w in _SCALES and j > i:
            if _SCALES[w] == 100:
                current *= 100
            else:
                total, current = total + current * _SCALES[w], 0
        elif not (
            w == "and" and j > i and j + 1 < len(tokens) and tokens[j + 1].value in _NUMBER_WORDS
        ):
            break
        j += 1
    return (total + current, j) if j > i else None


def _merge(tokens: list[Token]) -> list[Token]:
    """Number words become numbers ("two hundred and five" → 205); a number followed by its unit
    becomes a quantity ("3 bags", "3袋")."""
    numbered: list[Token] = []
    i = 0
    while i < len(tokens):
        spelled = _number_words(tokens, i) if tokens[i].value in _NUMBER_WORDS else None
        if spelled is not None:
            numbered.append(Token("number", str(spelled[0])))
            i = spelled[1]
        else:
            numbered.append(tokens[i])
            i += 1
    merged: list[Token] = []
    for t in numbered:
        prev = merged[-1] if merged else None
        if prev is not None and prev.kind == "number" and t.kind == "word":
            unit = _UNITS_EN.get(t.value) or (t.value if t.value in _UNITS_ZH else None)
            if unit is not None and not prev.value.startswith("#"):
                merged[-1] = Token("quantity", f"{prev.value} {unit}")
                continue
        merged.append(t)
    return merged


def _anchor_noun_before(tokens: list[Token], i: int) -> bool:
    j = i - 1
    while j >= 0 and tokens[j].kind == "word" and tokens[j].value in _ANCHOR_LINKS:
        j -= 1
    if j < 0 or tokens[j].kind != "word":
        return False
    before = "".join(x.value for x in tokens[max(0, j - 2) : j + 1] if x.kind == "word")
    return tokens[j].value in _ANCHOR_NOUNS_EN or before.endswith(_ANCHOR_NOUNS_ZH)


def _identify(tokens: list[Token]) -> list[Token]:
    """A whole number right after an entity noun is its identifier ("order 12345", "工单 778")."""
    return [
        Token("identifier", t.value)
        if t.kind == "number" and t.value.isdigit() and _anchor_noun_before(tokens, i)
        else t
        for i, t in enumerate(tokens)
    ]


def _anchors(tokens: list[Token]) -> frozenset[str]:
    """Identifiers that name a business entity: preceded by an entity noun ("order A-7781",
    "tracking number SF1234567890", "运单号 SF1234567890"), or long codes that mix letters and
    digits (tracking and order numbers said on their own)."""
    found: set[str] = set()
    for i, t in enumerate(tokens):
        if t.kind != "identifier":
            continue
        v = t.value
        if len(v) >= 8 and any(c.isalpha() for c in v) and any(c.isdigit() for c in v):
            found.add(v)
            continue
        if _anchor_noun_before(tokens, i):
            found.add(v)
    return frozenset(found)


def _time_runs(tokens: list[Token]) -> list[tuple[int, int]]:
    """Spans of time phrases: dates and times with the prepositions that introduce or join them
    ("on Monday", "from Monday to Friday", "在7月1日下午3点")."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j].kind == "word" and tokens[j].value in _TIME_PREPS:
            j += 1
        if j < len(tokens) and tokens[j].kind in ("date", "time"):
            end = j + 1
            while True:
                k = end
                while (
                    k < len(tokens) and tokens[k].kind == "word" and tokens[k].value in _TIME_PREPS
                ):
                    k += 1
                if k < len(tokens) and tokens[k].kind in ("date", "time"):
                    end = k + 1
                else:
                    break
            runs.append((i, end))
            i = end
        else:
            i += 1
    return runs


def _order(t: Token) -> str:
    return t.key


def _settle_time(tokens: list[Token]) -> list[Token]:
    """Where a statement says *when* does not change what it says: "on Friday the parcel arrived"
    and "the parcel arrived on Friday" are one statement. A single time phrase moves to the end,
    without the plain markers "on", "at", "in", 在, 于 ("before", "after", "until" … stay). Two or
    more stay where they are: which time goes with which part then matters."""
    runs = _time_runs(tokens)
    if not runs:
        return tokens
    plain = [
        [t for t in tokens[a:b] if not (t.kind == "word" and t.value in _TIME_MARKERS)]
        for a, b in runs
    ]
    # "3pm on July 1" and "July 1 at 3pm": a phrase of bare dates and times has no order.
    plain = [p if any(t.kind == "word" for t in p) else sorted(p, key=_order) for p in plain]
    out: list[Token] = []
    last = 0
    for (a, b), phrase in zip(runs, plain, strict=True):
        out.extend(tokens[last:a])
        if len(runs) > 1:
            out.extend(phrase)
        last = b
    out.extend(tokens[last:])
    if len(runs) == 1:
        out.extend(plain[0])
    return out
