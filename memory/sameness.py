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
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Protocol

GIST_VERSION = "g1"

#: The kinds of token that are salient details (everything but plain words).
SALIENT_KINDS = frozenset(
    {"number", "quantity", "amount", "date", "time", "identifier", "negation"}
)

# --------------------------------------------------------------------------------------------
# Word tables. Fillers are words whose presence never changes what a statement says.


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _words(text: str) -> frozenset[str]:
    return frozenset(_split(text))


def _pairs(text: str) -> dict[str, str]:
    """ "a=b c=d" → {"a": "b", "c": "d"}: compact tables of spellings and their canonical form."""
    return dict(item.split("=", 1) for item in text.split())


FILLERS_EN = _words(
    "a an the please pls plz kindly just really actually basically simply um uh er erm hmm oh "
    "ok okay so also too that yet still"
)
#: Single Chinese characters that are particles or politeness, never content.
FILLERS_ZH = frozenset("的了呢吧啊呀嘛哦噢嗯呗啦哇喔哈请")
#: Multi-character Chinese fillers, removed before the text is cut into characters.
_FILLERS_ZH_WORDS = re.compile("麻烦|一下|谢谢|好的")

NEGATIONS_EN = _words("not no never none nothing nobody nowhere neither nor without")
NEGATIONS_ZH = frozenset("不没未无别非勿莫甭")
#: Words that start with a negation character but do not negate.
_NOT_NEGATION_ZH = _split("不过 不少 不错 不但 不仅 非常 无论 别的 别人 未来 莫名")

_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        _split(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen"
        )
    )
}
_NUMBER_WORDS.update(
    {
        w: 10 * i
        for i, w in enumerate(_split("twenty thirty forty fifty sixty seventy eighty ninety"), 2)
    }
)
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}

#: Units after a number, with their canonical spelling.
_UNITS_EN = _pairs(
    "bag=bag bags=bag box=box boxes=box bottle=bottle bottles=bottle piece=piece pieces=piece "
    "pcs=piece pc=piece item=item items=item pack=pack packs=pack packet=packet packets=packet "
    "unit=unit units=unit kg=kg kilo=kg kilos=kg kilogram=kg kilograms=kg g=g gram=g grams=g "
    "lb=lb lbs=lb oz=oz ounce=oz ounces=oz km=km kilometer=km kilometers=km kilometre=km "
    "kilometres=km m=m meter=m meters=m metre=m metres=m cm=cm mm=mm mile=mile miles=mile "
    "l=l liter=l liters=l litre=l litres=l ml=ml hour=hour hours=hour hr=hour hrs=hour h=hour "
    "minute=minute minutes=minute min=minute mins=minute second=second seconds=second "
    "sec=second secs=second day=day days=day week=week weeks=week month=month months=month "
    "year=year years=year yr=year yrs=year time=time times=time night=night nights=night "
    "people=person person=person persons=person ticket=ticket tickets=ticket seat=seat "
    "seats=seat room=room rooms=room order=order orders=order percent=%"
)
#: Chinese measure words and units that follow a number ("3袋", "两个", "5公斤").
_UNITS_ZH = frozenset(
    "个只件袋瓶箱盒包斤克吨岁天日号月年周次位名人张本台份条单笔米里层楼间套双对杯碗家辆部封遍倍成折点时分秒刻%"
)
_UNITS_ZH_WORDS = _split("公斤 千克 公里 小时 分钟 星期 个月")

_CURRENCIES = _pairs(
    "$=USD usd=USD dollar=USD dollars=USD buck=USD bucks=USD 美元=USD ¥=CNY ￥=CNY rmb=CNY "
    "cny=CNY yuan=CNY 元=CNY 块=CNY 块钱=CNY 人民币=CNY €=EUR eur=EUR euro=EUR euros=EUR "
    "欧元=EUR £=GBP gbp=GBP pound=GBP pounds=GBP 英镑=GBP hkd=HKD 港币=HKD 港元=HKD jpy=JPY "
    "yen=JPY 円=JPY 日元=JPY"
)

_MONTHS = {
    name: month
    for month, names in enumerate(
        _split(
            "jan,january feb,february mar,march apr,april may jun,june jul,july aug,august "
            "sep,sept,september oct,october nov,november dec,december"
        ),
        1,
    )
    for name in names.split(",")
}
#: Month names that are also ordinary words or short forms: a month on their own only when
#: capitalised (a day number next to them makes any of them a date).
_AMBIGUOUS_MONTHS = _words("may march mar jan feb apr jun jul aug sep sept oct nov dec")
_WEEKDAYS_EN = {
    day: i
    for i, day in enumerate(_split("monday tuesday wednesday thursday friday saturday sunday"), 1)
}
_WEEKDAYS_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
_RELATIVE_DAYS = _pairs(
    "today=today tonight=tonight tomorrow=tomorrow yesterday=yesterday 今天=today 今日=today "
    "今晚=tonight 明天=tomorrow 明日=tomorrow 明晚=tomorrow-night 昨天=yesterday "
    "昨日=yesterday 昨晚=last-night 后天=day-after-tomorrow 前天=day-before-yesterday"
)

#: Words that name a business entity when they precede an identifier ("order A-7781").
_ANCHOR_NOUNS_EN = _words(
    "order orders parcel package shipment tracking waybill invoice ticket account booking "
    "reservation refund payment transaction case claim policy subscription contract membership "
    "receipt delivery consignment"
)
_ANCHOR_NOUNS_ZH = _split(
    "订单 单号 快递 运单 包裹 发票 工单 账户 账号 退款 预订 预约 物流 保单 合同 会员 流水"
)
#: Words between an anchor noun and its identifier ("order number A-1", "tracking no. 123").
_ANCHOR_LINKS = _words("number no id num code ref reference is 号 码 编 是 为")

#: Prepositions that introduce a detail ("on Friday", "for order A-1", "在周一"): part of the
#: detail when they come and go with it.
_ATTACHED = _words(
    "on at in by for of to from until till since around about before after 在 于 到 从"
)

#: Prepositions of a time phrase, and those among them that add nothing to the time they mark.
_TIME_PREPS = _words(
    "on at in by before after until till since from to during around about of 在 于 从 到 自"
)
_TIME_MARKERS = _words("on at in of 在 于")

#: Phrases that say a statement corrects an earlier one. They add nothing to what it says, so the
#: gist leaves them out ("其实退款是120元" restates "退款是120元").
_CORRECTION = re.compile(
    r"\b(?:actually|correction|i meant|i mean|to correct|my mistake|i was wrong|let me correct|"
    r"sorry)\b|其实|不对|更正|纠正|说错了|说错|应该是|我是说|搞错了|搞错",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------
# Tokens


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
    out = "".join(c for c in out if unicodedata.category(c) != "Cf")
    out = out.replace("\u2019", "'").replace("\u2018", "'").replace("\u2032", "'")
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


def _scan(text: str) -> list[Token]:
    tokens: list[Token] = []
    for m in _SCANNER.finditer(text):
        kind = m.lastgroup
        g = m.group
        if kind in ("email", "url"):
            tokens.append(Token("identifier", g(0).lower().rstrip("/.")))
        elif kind == "amount_pre":
            cur = _CURRENCIES[g("ap_c").lower()]
            tokens.append(Token("amount", f"{_number(g('ap_n'), g('ap_m'))} {cur}"))
        elif kind == "amount_post":
            cur = _CURRENCIES[g("as_c").lower()]
            tokens.append(Token("amount", f"{_number(g('as_n'), g('as_m'))} {cur}"))
        elif kind == "date_iso":
            tokens.append(Token("date", _date(g("di_y"), int(g("di_m")), int(g("di_d")))))
        elif kind == "date_zh":
            tokens.append(Token("date", _date(None, int(g("dz_m")), int(g("dz_d")))))
        elif kind == "date_md":
            month = _MONTHS[g("dm_mon").lower()]
            tokens.append(Token("date", _date(g("dm_y"), month, int(g("dm_d")))))
        elif kind == "date_dm":
            month = _MONTHS[g("dd_mon").lower()]
            tokens.append(Token("date", _date(g("dd_y"), month, int(g("dd_d")))))
        elif kind == "date_num":
            value = f"{int(g('dn_a'))}/{int(g('dn_b'))}"
            tokens.append(Token("date", f"{value}/{int(g('dn_y'))}" if g("dn_y") else value))
        elif kind == "time_ampm":
            hour, minute = int(g("ta_h")), int(g("ta_m") or 0)
            tokens.append(Token("time", _time(hour, minute, g("ta_p"))))
        elif kind == "time_colon":
            tokens.append(Token("time", _time(int(g("tc_h")), int(g("tc_m")), None)))
        elif kind == "time_zh":
            minute = 30 if g("tz_half") else int(g("tz_m") or 0)
            tokens.append(Token("time", _time(int(g("tz_h")), minute, g("tz_p"))))
        elif kind == "weekday_zh":
            day = g("wz")
            tokens.append(Token("date", f"weekday-{_WEEKDAYS_ZH.get(day) or int(day)}"))
        elif kind == "reldate_zh":
            tokens.append(Token("date", _RELATIVE_DAYS[g(0)]))
        elif kind == "period_en":
            tokens.append(Token("date", f"{g('pe_q').lower()}-{g('pe_p').lower()}"))
        elif kind == "period_zh":
            tokens.append(Token("date", _zh_period(g("pz_q"), g("pz_p"))))
        elif kind == "year_zh":
            tokens.append(Token("date", _ZH_YEARS[g(0)]))
        elif kind == "dayparts_zh":
            tokens.append(Token("time", _DAYPARTS[g(0)]))
        elif kind == "phone":
            digits = re.sub(r"\D", "", g(0))
            if len(digits) >= 7:
                tokens.append(Token("identifier", digits))
            else:
                tokens.extend(Token("number", _number(d)) for d in re.findall(r"\d+", g(0)))
        elif kind == "hashid":
            tokens.append(Token("identifier", re.sub(r"[\s#_-]", "", g(0)).lower()))
        elif kind == "ordinal":
            tokens.append(Token("number", "#" + str(int(g(0)[:-2]))))
        elif kind == "percent":
            tokens.append(Token("quantity", f"{_number(g(0).rstrip('% '))} %"))
        elif kind == "num":
            raw = g(0)
            digits = raw.replace(",", "").replace(".", "")
            if "." not in raw and "," not in raw and len(digits) >= 6:
                tokens.append(Token("identifier", digits))
            else:
                tokens.append(Token("number", _number(raw)))
        elif kind == "latin":
            tokens.extend(_latin(g(0), m.start(), text))
        elif kind == "cjk":
            c = g(0)
            if c in FILLERS_ZH:
                continue
            negation = c in NEGATIONS_ZH and not any(
                text.startswith(w, m.start()) for w in _NOT_NEGATION_ZH
            )
            tokens.append(Token("negation" if negation else "word", c))
        else:
            word = g(0).lower()
            if word not in FILLERS_EN:
                tokens.append(Token("word", word, _is_entity(g(0), m.start(), text)))
    return tokens


_GLUED_UNIT = re.compile(r"(\d+(?:\.\d+)?)([a-z]+)")


def _latin(raw: str, start: int, text: str) -> list[Token]:
    low = raw.lower().replace("’", "'")
    has_digit = any(c.isdigit() for c in low)
    has_alpha = any(c.isalpha() for c in low)
    glued = _GLUED_UNIT.fullmatch(low)
    if glued and glued.group(2) in _UNITS_EN:  # "5kg", "3pcs"
        return [Token("quantity", f"{_number(glued.group(1))} {_UNITS_EN[glued.group(2)]}")]
    if has_digit and has_alpha:
        return [Token("identifier", re.sub(r"[-_/.']", "", low))]
    if has_digit:  # digits joined by separators (12-34, 1.2.3)
        return [Token("identifier", re.sub(r"\D", "", low))]
    parts = [p for p in re.split(r"[-_/.]", low) if p]
    if len(parts) > 1 and all(p in _NUMBER_WORDS or p in _SCALES for p in parts):
        return [Token("word", p) for p in parts]  # "twenty-one": merged with the numbers later
    word = low.replace("-", "").replace("_", "").replace("/", "").replace(".", "")
    if word.endswith("'s"):
        word = word[:-2] + "s"  # the user's: possessive kept apart from the plain noun
    if word in FILLERS_EN:
        return []
    if word in NEGATIONS_EN:
        return [Token("negation", word)]
    if word in _WEEKDAYS_EN:
        return [Token("date", f"weekday-{_WEEKDAYS_EN[word]}")]
    if word.endswith("s") and word[:-1] in _WEEKDAYS_EN:  # "on Mondays": every Monday
        return [Token("date", f"weekday-{_WEEKDAYS_EN[word[:-1]]}-every")]
    if word in _RELATIVE_DAYS:
        return [Token("date", _RELATIVE_DAYS[word])]
    if word in _DAYPARTS:
        return [Token("time", _DAYPARTS[word])]
    if word in _MONTHS and (word not in _AMBIGUOUS_MONTHS or raw[:1].isupper()) and len(word) > 3:
        return [Token("date", f"month-{_MONTHS[word]:02d}")]
    return [Token("word", word, _is_entity(raw, start, text))]


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


@lru_cache(maxsize=16384)
def analyse(text: str) -> Analysis:
    prepared = prepare(text)
    stated = _CORRECTION.sub(" ", prepared)
    tokens = _identify(_merge(_scan(stated)))
    settled = tuple(_settle_time(tokens))
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


def _gist(m: Statement) -> str:
    stored = getattr(m, "gist", None)
    if isinstance(stored, str) and stored.startswith(GIST_VERSION + ":"):
        return stored
    return gist_of(m.content, m.structured_value)


def redundant(a: str, b: str) -> bool:
    """Whether two similar texts repeat each other (for the diversity penalty of recall): they do
    unless a salient detail (a number, date, identifier, name, polarity …) tells them apart."""
    return analyse(a).details == analyse(b).details
