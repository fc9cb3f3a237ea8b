"""Numbers that are secrets by what they are: payment cards (Luhn-valid, not a date or an order
number) and identity numbers (Chinese resident IDs with their checksum, SSNs, passports)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from governed_memory.memory.write.detectors._text import _FLAGS, Span, _window

# --- payment cards ------------------------------------------------------------------------------

_CARD_RUN = re.compile(r"(?<![\w.\-/+])\d(?:[ \-]?\d){12,18}(?![\w\-/]|\.\d)")
_CARD_LABEL = re.compile(
    r"卡号|银行卡|信用卡|储蓄卡|借记卡|银联|card|visa|master\s?card|amex|american\s+express|"
    r"discover|unionpay|jcb|diners",
    _FLAGS,
)
_NOT_A_CARD_LABEL = re.compile(
    r"订单|单号|运单|快递|物流|发票|流水|交易号|工单|编号|序列号|批次|条码|追踪|跟踪|"
    r"order|tracking|invoice|ref(?:erence)?|ticket|case|no\.|#|waybill|shipment|parcel|serial|"
    r"sku|imei|isbn|ean|upc|barcode|id\b|transaction|txn|confirmation|booking|phone|tel|mobile|"
    r"电话|手机|学号|工号|会员号",
    _FLAGS,
)


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _date_prefixed(digits: str) -> bool:
    """An order id or timestamp that starts with a date: 20260715…"""
    if len(digits) < 8 or digits[:2] not in ("19", "20"):
        return False
    try:
        date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return False
    return True


def _cards(text: str) -> Iterator[Span]:
    for m in _CARD_RUN.finditer(text):
        raw = m.group(0)
        digits = re.sub(r"\D", "", raw)
        if not 13 <= len(digits) <= 19 or len(set(digits)) == 1 or digits[0] not in "2345689":
            continue
        if not _luhn(digits) or re.fullmatch(r"861[3-9]\d{9}", digits):
            continue
        # Mixed separators ("1234-5678 9012 3456") are still fine; a lone separator in a long
        # run is not a card grouping but two numbers.
        before = _window(text, m.start(), 16)
        labelled = _CARD_LABEL.search(before) is not None
        if not labelled and (_NOT_A_CARD_LABEL.search(before) or _date_prefixed(digits)):
            continue
        yield m.start(), m.end(), "card_number"


# --- national identifiers -----------------------------------------------------------------------

_CN_REGION_TEXT = "11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 "
_CN_REGION_TEXT += "44 45 46 50 51 52 53 54 61 62 63 64 65 71 81 82 83 91"
_CN_REGIONS = frozenset(_CN_REGION_TEXT.split())
_CN_ID18 = re.compile(r"(?<![A-Za-z0-9])\d{17}[\dXx](?![A-Za-z0-9])")
_CN_ID15 = re.compile(r"(?<![A-Za-z0-9])\d{15}(?![A-Za-z0-9])")
_ID_LABEL = re.compile(
    r"身份证|证件号|居民身份|公民身份|身份号码|id\s*card|identity|id\s*(?:number|no\.?|#)|"
    r"national\s+id|resident\s+id",
    _FLAGS,
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _valid_date(y: int, m: int, d: int) -> bool:
    try:
        born = date(y, m, d)
    except ValueError:
        return False
    return date(1900, 1, 1) <= born <= date(2100, 1, 1)


def _cn_id_checksum(value: str) -> bool:
    total = sum(int(c) * w for c, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return "10X98765432"[total % 11] == value[17].upper()


def _national_ids(text: str) -> Iterator[Span]:
    for m in _CN_ID18.finditer(text):
        v = m.group(0)
        if v[:2] not in _CN_REGIONS or not _valid_date(int(v[6:10]), int(v[10:12]), int(v[12:14])):
            continue
        labelled = _ID_LABEL.search(_window(text, m.start(), 24)) is not None
        if _cn_id_checksum(v) or labelled:
            yield m.start(), m.end(), "national_id"
    for m in _CN_ID15.finditer(text):
        v = m.group(0)
        if (
            v[:2] in _CN_REGIONS
            and _valid_date(1900 + int(v[6:8]), int(v[8:10]), int(v[10:12]))
            and _ID_LABEL.search(_window(text, m.start(), 24))
        ):
            yield m.start(), m.end(), "national_id"


_SSN = re.compile(r"(?<![\d\-])(?P<a>\d{3})-?(?P<g>\d{2})-?(?P<s>\d{4})(?![\d\-])")
_SSN_LABEL = re.compile(r"\bssn\b|social\s+security|社会安全号|社保号", _FLAGS)
_PASSPORT = re.compile(r"(?<![A-Za-z0-9])[A-Z]{0,2}\d{7,9}(?![A-Za-z0-9])")
_PASSPORT_LABEL = re.compile(r"护照|通行证|passport", _FLAGS)


def _other_ids(text: str) -> Iterator[Span]:
    for m in _SSN.finditer(text):
        a, g, s = m.group("a"), m.group("g"), m.group("s")
        if a in ("000", "666") or a[0] == "9" or g == "00" or s == "0000":
            continue
        if _SSN_LABEL.search(_window(text, m.start(), 32)):
            yield m.start(), m.end(), "national_id"
    for m in _PASSPORT.finditer(text):
        if _PASSPORT_LABEL.search(_window(text, m.start(), 20)):
            yield m.start(), m.end(), "passport_number"


#: A secret redacted already (at the service's door, or by an earlier screening): still a secret
#: to refuse, of the category it names.
