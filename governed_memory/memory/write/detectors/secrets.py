"""Secrets: a keyword, a connector and a value; key shapes; and, from `numbers`, payment cards
and identity numbers."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from governed_memory.memory.write.detectors._text import (
    _B,
    _E,
    _FLAGS,
    Detection,
    Span,
    _alt,
    _fold,
    _Folded,
    _to_detections,
    _window,
)
from governed_memory.memory.write.detectors.gate import Gate, gate_enabled
from governed_memory.memory.write.detectors.numbers import _cards, _national_ids, _other_ids
from governed_memory.memory.write.detectors.plugins import _library

# Connectors between a keyword and its value. "strong" is a symbol (: = ->), "zh" a Chinese
# copula (是 为 改成 …), "en" an English one (is, was, 's, set to …); "bare" is none at all.
_CONN_STRONG = r"\s*(?::=|=>|->|[:=])\s*"
_CONN_ZH = (
    r"\s*(?:就是|都是|也是|还是|一直是|依然是|仍然是|其实是|是|为|為|改成了|改成|改为|改為|"
    r"换成了|换成|设成了|设成|设为|设置成了|设置成|设置为|设的是|设置的是|变成了|变成|重置为|"
    r"重置成|如下)\s*:?\s*"
)
_CONN_EN = (
    r"(?:'s|\s+(?:is|was|will\s+be|has\s+been|should\s+be|would\s+be)"
    r"(?:\s+(?:now|still|currently|always|actually|just))?"
    r"(?:\s+(?:set|changed|updated|reset)\s+to)?|\s+(?:set|changed|updated|reset)\s+to)"
    r"\s*:?\s+"
)
# Words allowed between a keyword and a connector ("密码 6 位是", "password for gmail is"):
# never across a sentence or a comma, never over another identifier noun (号 码 单 址 …).
_GAP = r"(?P<gap>[^\n。!?;,:=.号码单址箱机话]{0,24}?)"
_OPEN_QUOTE = r"(?P<open>[\"'“‘「『《`])?"
_TRAIL = ".,;:)]}>'\"”’」』》`"


@dataclass(frozen=True)
class _Hit:
    kw: re.Match[str]
    conn: Literal["strong", "zh", "en", "bare"]
    gap: str
    start: int
    end: int
    value: str
    quoted: bool


@functools.lru_cache(maxsize=64)
def _tails(value: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The connector-and-value patterns tried right after a keyword: with a connector (and an
    optional gap before it), and bare (the value right after the keyword)."""
    connected = re.compile(
        rf"{_GAP}(?:(?P<cs>{_CONN_STRONG})|(?P<cz>{_CONN_ZH})|(?P<ce>{_CONN_EN})){_OPEN_QUOTE}"
        rf"(?P<val>{value})",
        _FLAGS,
    )
    bare = re.compile(rf"(?P<gap>)\s*{_OPEN_QUOTE}(?P<val>{value})", _FLAGS)
    return connected, bare


#: The last text the keyword gate (`_KEYWORD_GATE`, below the keywords) was opened on, by
#: identity, in this thread: each keyword's search asks it of the same text.
_OPENED = threading.local()


def _may_hold(keyword: re.Pattern[str], text: str) -> bool:
    """Whether `text` holds one of the words every match of `keyword` needs."""
    enabled = gate_enabled()
    last = getattr(_OPENED, "last", None)
    if last is None or last[0] is not text or last[1] != enabled:
        last = (text, enabled, dict(zip(_KEYWORDS, _KEYWORD_GATE.open(text), strict=True)))
        _OPENED.last = last
    opened: dict[re.Pattern[str], bool] = last[2]
    return opened[keyword]


def _keyword_values(
    text: str, keyword: re.Pattern[str], value: str, *, bare: bool = True
) -> Iterator[_Hit]:
    if not _may_hold(keyword, text):
        return
    connected, bare_tail = _tails(value)
    for kw in keyword.finditer(text):
        tails = (connected, bare_tail) if bare else (connected,)
        for tail in tails:
            m = tail.match(text, kw.end())
            if m is None:
                continue
            conn: Literal["strong", "zh", "en", "bare"]
            if tail is bare_tail:
                conn = "bare"
            elif m.group("cs") is not None:
                conn = "strong"
            elif m.group("cz") is not None:
                conn = "zh"
            else:
                conn = "en"
            start, end = m.span("val")
            val = m.group("val")
            while val and val[-1] in _TRAIL:
                val = val[:-1]
                end -= 1
            # One "!" or "?" ends the sentence; a run of them ("Qw3rty!!") is part of the value.
            if val[-1:] in ("!", "?") and val[-2:-1] not in ("!", "?"):
                val = val[:-1]
                end -= 1
                while val and val[-1] in _TRAIL:
                    val = val[:-1]
                    end -= 1
            if val:
                yield _Hit(kw, conn, m.group("gap"), start, end, val, m.group("open") is not None)


_UNIT_AFTER = re.compile(
    r"\s*(?:年|月|日|号|次|位|个|天|小时|分钟|分|秒|岁|元|块|%|周|星期|points?\b)"
)
_PLACEHOLDER = re.compile(
    r"[xX*#•.\-_?]+|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\$\{?\w+\}?|%\w+%|"
    r"(?:your|my|the|some|an?)[_-]?(?:password|pass|pwd|pin|key|api[_-]?key|token|secret|code)\w*|"
    r"example|sample|placeholder|redacted|hidden|masked|null|none|n/?a|tbd|todo|xxx+|\*+",
    re.IGNORECASE,
)
_STOPWORD_TEXT = """
    a an the my your his her our their its this that these those it not too very so also still
    now being been just only same different wrong right correct incorrect invalid valid weak
    strong short long secure insecure safe unsafe empty blank missing required needed necessary
    optional locked reset changed updated saved stored encrypted hashed hidden visible case
    sensitive new old fine ok okay good bad great terrible easy hard simple complex complicated
    what how where why when which who whose something anything nothing everything random unique
    known unknown forgotten lost stolen compromised leaked working broken accepted rejected
    there here mine yours temporary permanent default generated set sent shown displayed written
    below above following as in on at for to of and or but if then than like about please thanks
    thank yes no never always enough protected attached included one two three four five six
    seven eight nine ten letters numbers digits characters chars numeric alphanumeric stronger
    weaker password passwords passcode pin code same expired expiring incorrectly done sure
    again somewhere available unavailable useless changing case-sensitive protected important
    required personal private secret confidential
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_WORDY_SUFFIX = ("ed", "ing", "ly", "ful", "less", "ous", "ive", "able", "ible", "est")
_CN_DIGITS = "零〇一二三四五六七八九幺两"


def _looks_like_password(hit: _Hit, text: str) -> bool:
    val = hit.value
    if len(val) < 4 or _PLACEHOLDER.fullmatch(val):
        return False
    if val[0] in _CN_DIGITS:
        return hit.conn != "bare" or not hit.kw.group(0).isascii()
    if hit.gap and hit.conn == "bare":
        return False
    if val.isdigit():
        return len(val) <= 20 and not _UNIT_AFTER.match(text, hit.end)
    if not val.isalpha() and any(c.isdigit() or not c.isalnum() for c in val):
        # "2FA", "8+" are sizes, not values.
        return not re.fullmatch(r"\d+\+?|\d+[a-z]{1,2}", val, re.IGNORECASE)
    return _looks_like_letters_password(hit, text)


def _looks_like_letters_password(hit: _Hit, text: str) -> bool:
    """A letters-only value: a password after a symbol, a Chinese copula or quotes; after an
    English one only when it is not an ordinary word and ends the clause."""
    val = hit.value
    low = val.lower()
    if low in _STOPWORDS or hit.conn == "bare":
        return False
    if hit.quoted or hit.conn in ("strong", "zh"):
        return True
    # "my password is sunshine." but not "my password is expired" / "is too short".
    if low.endswith(_WORDY_SUFFIX) or len(val) < 6:
        return False
    rest = text[hit.end : hit.end + 6]
    return not rest.strip() or rest[0] in ".,;!?)\n" or rest.lstrip().lower().startswith("and ")


def _digits_value(hit: _Hit, text: str, lo: int, hi: int) -> bool:
    return (
        hit.value.isdigit()
        and lo <= len(hit.value) <= hi
        and (hit.end >= len(text) or not text[hit.end].isdigit())
        and not _UNIT_AFTER.match(text, hit.end)
    )


# --- passwords and PINs -------------------------------------------------------------------------

_ZH_BANK = _alt(
    "支付", "交易", "取款", "提款", "网银", "银行", "银行卡", "信用卡", "储蓄卡", "借记卡", "卡",
    "U盾", "银联", "ATM", "付款", "转账", "钱包", "余额宝", "理财", "证券", "股票", "基金",
)  # fmt: skip
_ZH_PW_PREFIX = _alt(
    "登录", "登陆", "开机", "锁屏", "解锁", "手机", "电脑", "邮箱", "微信", "支付宝", "QQ", "wifi",
    "Wi-Fi", "无线", "路由器", "路由", "管理员", "后台", "服务器", "数据库", "门禁", "门锁",
    "保险箱", "保险柜", "手势", "初始", "默认", "临时", "新", "旧", "原", "账号", "帐号", "账户",
    "帐户", "用户", "系统", "云盘", "网盘", "游戏", "淘宝", "京东", "邮件", "独立", "二级",
)  # fmt: skip
_EN_BANK = _alt(
    "bank", "atm", r"debit\s+card", r"credit\s+card", "card", "banking", r"online\s+banking",
    "paypal", "venmo", "brokerage", "payment",
)  # fmt: skip
_EN_PW_PREFIX = _alt(
    "login", "log-?in", "sign-?in", "wi-?fi", "email", "e-mail", "admin", "root", "master",
    "computer", "laptop", "phone", "router", "vault", "default", "new", "old", "temporary", "temp",
    "account", "user", "gmail", "icloud", "apple\\s+id", "netflix", "database", "db", "server",
)  # fmt: skip
_PW_KEYWORD = re.compile(
    rf"(?:(?P<zbank>{_ZH_BANK})|{_ZH_PW_PREFIX})?(?P<zpw>密码|口令|密令|卡密)"
    rf"|{_B}(?:(?P<ebank>{_EN_BANK})\s+|{_EN_PW_PREFIX}\s+)?"
    rf"(?:(?P<epw>password|passwd|pass\s?word|passphrase|pwd|pw)"
    rf"|(?P<epin>pass\s?code|pin(?:\s*(?:code|number|no\.?|#|码))?))(?:{_E}|(?<=码))",
    _FLAGS,
)
_PW_VALUE = (
    rf"[{_CN_DIGITS}]{{4,12}}"
    r"|[A-Za-z0-9!@#$%^&*_+~\-][A-Za-z0-9!@#$%^&*_+~\-=.|\\/<>?()\[\]{}]{2,63}"
)


def _passwords(text: str) -> Iterator[Span]:
    for hit in _keyword_values(text, _PW_KEYWORD, _PW_VALUE):
        g = hit.kw.group
        is_pin = g("epin") is not None
        bank = g("zbank") is not None or g("ebank") is not None
        if is_pin or (hit.value.isdigit() and hit.conn == "bare" and hit.kw.group(0).isascii()):
            # PINs and passcodes are digits ("passcode 0000", "PIN 是 4321").
            if not (_digits_value(hit, text, 4, 12) or hit.value[0] in _CN_DIGITS):
                continue
        elif not _looks_like_password(hit, text):
            continue
        # "密码123456" is fine, "password hunter22" too, but "password 2" or "密码6位" is not.
        if hit.conn == "bare" and not any(c.isdigit() or c in _CN_DIGITS for c in hit.value):
            continue
        category = "bank_account_password" if bank else ("pin" if is_pin else "password")
        yield hit.start, hit.end, category


# --- one-time and verification codes --------------------------------------------------------

_OTP_KEYWORD = re.compile(
    r"(?P<zh>(?:短信|手机|邮箱|邮件|登录|登陆|动态|安全|二次|双重|支付|交易|注册|找回密码)?"
    r"(?:验证码|校验码|动态码|动态密码|动态口令|确认码|认证码|一次性密码|一次性验证码|短信码))"
    r"|(?P<access>取件码|提取码|取货码|取餐码|开箱码|授权码|激活码|兑换码|卡密|门禁码)"
    rf"|{_B}(?P<en>(?:verification|verify|security|one[- ]?time|log-?in|sign-?in|authentication|"
    r"auth|2fa|two[- ]factor|mfa|sms|access|otp|totp|confirmation\s+sms)\s+"
    r"(?:code|pin|passcode|password|token)|otp|totp|one[- ]time\s+pass(?:word|code))"
    rf"(?:{_E}|(?=码))",
    _FLAGS,
)
_OTP_VALUE = r"\d{1,2}-\d{1,2}-\d{3,5}|[A-Za-z0-9]{4,12}|\d{3}[ -]\d{3}|\d{3}"
_CODE_KEYWORD = re.compile(rf"{_B}(?:the|my|your|this|that|a)\s+code{_E}", _FLAGS)
_VERIFY_CUE = re.compile(
    r"verif|otp|one[- ]?time|2fa|two[- ]factor|mfa|\bsms\b|text(?:ed)?\s+me|log\s?in|sign\s?in|"
    r"authenticat|security\s+code|验证|短信|登录|登陆",
    _FLAGS,
)


def _otp_value_ok(hit: _Hit, text: str) -> bool:
    val = hit.value
    if re.fullmatch(r"\d{1,2}-\d{1,2}-\d{3,5}|\d{3}[ -]\d{3}", val):
        return True
    if val.isdigit():
        return _digits_value(hit, text, 4, 10)
    # Alphanumeric codes ("A7K9Q2") must mix letters and digits, or be upper case.
    return (
        any(c.isdigit() for c in val)
        and any(c.isalpha() for c in val)
        and not _UNIT_AFTER.match(text, hit.end)
    ) or (val.isupper() and val.isalpha() and len(val) >= 6 and hit.conn != "bare")


def _otps(text: str) -> Iterator[Span]:
    for hit in _keyword_values(text, _OTP_KEYWORD, _OTP_VALUE):
        if hit.gap and hit.conn == "bare":
            continue
        kw = hit.kw.group(0).lower()
        if hit.kw.group("access") is not None:
            category = "access_code"
        elif "security" in kw and re.search(
            r"card|back|卡|背面", _window(text, hit.kw.start(), 30) + hit.gap, re.IGNORECASE
        ):
            category = "cvv"  # "the security code on the back of my card is 123"
        else:
            category = "otp"
        ok = _digits_value(hit, text, 3, 4) if category == "cvv" else _otp_value_ok(hit, text)
        if ok:
            yield hit.start, hit.end, category
    # "the code is 384711" only when the text is about verification.
    for hit in _keyword_values(text, _CODE_KEYWORD, r"\d{4,8}", bare=False):
        if hit.gap or not _digits_value(hit, text, 4, 8):
            continue
        around = _window(text, hit.kw.start(), 160) + text[hit.end : hit.end + 60]
        if _VERIFY_CUE.search(around):
            yield hit.start, hit.end, "otp"


# --- CVV --------------------------------------------------------------------------------------

_CVV_KEYWORD = re.compile(
    rf"{_B}(?:cvv2?|cvc2?|csc|cvn|card\s+(?:security|verification)\s+(?:code|value|number))"
    rf"{_E}|安全码|卡验证码|(?:卡|卡片)?(?:背面|背后)(?:的)?(?:最后|后|末)?(?:三|3)位(?:数字|数|码)?",
    _FLAGS,
)


def _cvvs(text: str) -> Iterator[Span]:
    for hit in _keyword_values(text, _CVV_KEYWORD, r"\d{3,4}"):
        if hit.gap and hit.conn == "bare":
            continue
        if _digits_value(hit, text, 3, 4):
            yield hit.start, hit.end, "cvv"


# --- key shapes -------------------------------------------------------------------------------

_ASCII = re.ASCII
_KEY_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern, flags))
    for category, pattern, flags in (
        (
            "private_key",
            r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]{0,12000}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"|(?:\s*[A-Za-z0-9+/=:\-]{8,})*)",
            0,
        ),
        ("private_key", r"PuTTY-User-Key-File-\d[^\n]*(?:\n[^\n]+){0,40}", 0),
        ("api_key", rf"{_B}sk-(?:proj-|ant-(?:api\d\d-)?|live-|svcacct-)?[\w\-]{{20,}}", _ASCII),
        ("api_key", rf"{_B}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{{16}}{_E}", 0),
        ("api_key", rf"{_B}AIza[0-9A-Za-z_\-]{{35}}{_E}", 0),
        ("api_key", rf"{_B}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{{16,}}", 0),
        ("api_key", rf"{_B}SG\.[A-Za-z0-9_\-]{{16,}}\.[A-Za-z0-9_\-]{{16,}}", 0),
        ("token", rf"{_B}xox[abposr]-[A-Za-z0-9\-]{{10,}}", 0),
        ("token", rf"{_B}(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{{30,}}", 0),
        ("token", rf"{_B}github_pat_[A-Za-z0-9_]{{22,}}", 0),
        ("token", rf"{_B}gl(?:pat|dt|ft|rt|cbt|ptt|oas)-[A-Za-z0-9_\-]{{20,}}", 0),
        ("token", rf"{_B}npm_[A-Za-z0-9]{{30,}}", 0),
        ("token", rf"{_B}pypi-[A-Za-z0-9_\-]{{50,}}", 0),
        ("token", rf"{_B}hf_[A-Za-z0-9]{{30,}}", 0),
        ("token", rf"{_B}eyJ[\w\-]{{8,}}\.eyJ[\w\-]{{8,}}\.[\w\-]{{8,}}", _ASCII),
        ("token", r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]{20,}", 0),
    )
)  # fmt: skip

# "Bearer <token>", "Authorization: Basic <b64>": the value is the token.
_AUTH_HEADER = re.compile(
    rf"{_B}(?:authorization\s*[:=]\s*(?:bearer|basic|token|bot)?\s*|bearer\s+)"
    r"(?P<val>[A-Za-z0-9\-._~+/]{12,}=*)",
    _FLAGS,
)
# "scheme://user:password@host"
_URL_CREDENTIALS = re.compile(
    r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]{1,64}:(?P<val>[^\s@/]{3,128})@[^\s]", _FLAGS
)
# "api_key=…", "my API key is …", "密钥是 …", "OPENAI_API_KEY=…"
_KEY_KEYWORD = re.compile(
    rf"{_B}(?P<kw>(?:[A-Z][A-Z0-9]*_)*(?:"
    r"api[_\s-]?key|apikey|api[_\s-]?secret|api[_\s-]?token|app[_\s-]?secret|app[_\s-]?key|"
    r"secret[_\s-]?access[_\s-]?key|secret[_\s-]?key|access[_\s-]?key(?:[_\s-]?id)?|"
    r"access[_\s-]?token|auth[_\s-]?token|refresh[_\s-]?token|id[_\s-]?token|bearer[_\s-]?token|"
    r"session[_\s-]?(?:token|key|cookie|secret)|client[_\s-]?secret|private[_\s-]?key|"
    r"signing[_\s-]?key|encryption[_\s-]?key|master[_\s-]?key|license[_\s-]?key|"
    r"webhook[_\s-]?secret|bot[_\s-]?token|personal[_\s-]?access[_\s-]?token|token|secret|"
    rf"[A-Z0-9]+_(?:KEY|SECRET|TOKEN))){_E}"
    r"|(?P<zkw>(?:API|接口|应用|访问|私有|加密|签名)?(?:密钥|秘钥|私钥|令牌))"
    rf"|{_B}(?:API\s*)?key{_E}",
    _FLAGS,
)
_KEY_VALUE = r"[A-Za-z0-9_\-./+=:~]{8,512}"
_ENV_PASSWORD = re.compile(
    rf"{_B}[A-Z][A-Z0-9_]*_(?:PASSWORD|PASSWD|PASS|PWD)\s*[:=]\s*[\"']?(?P<val>[^\s\"']{{3,128}})"
)


def _key_value_ok(val: str) -> bool:
    if _PLACEHOLDER.fullmatch(val) or re.fullmatch(r"[A-Z_]+|[a-z_]+|[a-z]+(?:[-_.][a-z]+)*", val):
        return False
    if "://" in val or val.startswith(("http", "www.")):
        return False
    has_digit = any(c.isdigit() for c in val)
    has_alpha = any(c.isalpha() for c in val)
    if len(val) >= 12 and has_digit and has_alpha:
        return True
    return len(val) >= 20 and (has_digit or any(c in "-_+/=" for c in val))


_KEYWORDS = (_PW_KEYWORD, _OTP_KEYWORD, _CODE_KEYWORD, _CVV_KEYWORD, _KEY_KEYWORD)
_KEYWORD_GATE = Gate(_KEYWORDS)


def _key_shapes(text: str) -> Iterator[Span]:
    yield from _shaped_keys(text)
    yield from _header_credentials(text)
    yield from _labelled_keys(text)


def _shaped_keys(text: str) -> Iterator[Span]:
    """Keys recognised by their shape alone: ``sk-…``, ``AKIA…``, ``ghp_…``, JWTs, PEM blocks."""
    for category, pattern in _KEY_SHAPES:
        for m in pattern.finditer(text):
            yield m.start(), m.end(), category


def _header_credentials(text: str) -> Iterator[Span]:
    """``Bearer …`` and ``Authorization: …`` tokens, ``scheme://user:pass@host`` and
    ``*_PASSWORD=…`` passwords."""
    for m in _AUTH_HEADER.finditer(text):
        val = m.group("val")
        if any(c.isdigit() for c in val) or val.startswith("eyJ") or len(val) >= 24:
            yield m.start("val"), m.end("val"), "token"
    for m in _URL_CREDENTIALS.finditer(text):
        if not _PLACEHOLDER.fullmatch(m.group("val")):
            yield m.start("val"), m.end("val"), "password"
    for m in _ENV_PASSWORD.finditer(text):
        if not _PLACEHOLDER.fullmatch(m.group("val")):
            yield m.start("val"), m.end("val"), "password"


def _labelled_keys(text: str) -> Iterator[Span]:
    """A key keyword and a value: ``api_key=…``, ``my API key is …``, ``密钥是 …``."""
    for hit in _keyword_values(text, _KEY_KEYWORD, _KEY_VALUE, bare=False):
        if hit.gap and hit.conn == "en" and len(hit.gap) > 16:
            continue
        if not _key_value_ok(hit.value):
            continue
        yield hit.start, hit.end, _key_category(hit.kw.group(0).lower())


def _key_category(kw: str) -> str:
    if "private" in kw or "私钥" in kw:
        return "private_key"
    if "token" in kw or "令牌" in kw or "session" in kw:
        return "token"
    return "api_key"


_REDACTION = re.compile(r"\[REDACTED:([a-z0-9_]{1,64})\]")


def _redactions(text: str) -> Iterator[Span]:
    for m in _REDACTION.finditer(text):
        yield m.start(), m.end(), m.group(1)


_SECRET_FINDERS: tuple[Callable[[str], Iterator[Span]], ...] = (
    _redactions,
    _key_shapes,
    _otps,
    _cvvs,
    _passwords,
    _national_ids,
    _other_ids,
    _cards,
    _library,
)


def _rank(spans: list[Span]) -> list[Span]:
    """Sort by position; drop a span inside another of the same reason (the first finder wins a
    tie, so the more specific category is kept)."""
    order = sorted(enumerate(spans), key=lambda p: (p[1][0], -(p[1][1] - p[1][0]), p[0]))
    kept: list[Span] = []
    for _, span in order:
        if any(k[0] <= span[0] and span[1] <= k[1] for k in kept):
            continue
        kept.append(span)
    return kept


def find_secrets(folded: _Folded) -> list[Detection]:
    """`detect_secrets` on an already folded text."""
    spans: list[Span] = []
    for finder in _SECRET_FINDERS:
        spans.extend(finder(folded.text))
    return _to_detections(folded, "secret", _rank(spans))


def detect_secrets(text: str) -> list[Detection]:
    """Credentials, keys, passwords, tokens, card numbers and identity numbers (reason "secret").
    Each span covers the value, not its label."""
    return find_secrets(_fold(text))


def _merged(text: str, detections: list[Detection]) -> list[tuple[int, int, str]]:
    """The secret spans to redact, in order, overlapping ones merged (the first's category)."""
    spans = sorted(
        (max(0, d.start), min(len(text), d.end), d.category)
        for d in detections
        if d.reason == "secret" and d.start is not None and d.end is not None and d.end > d.start
    )
    merged: list[list[Any]] = []
    for start, end, category in spans:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, category])
    return [(start, end, category) for start, end, category in merged]


def redact(text: str, detections: list[Detection]) -> str:
    """`text` with every secret span replaced by ``[REDACTED:<category>]``. Overlapping spans are
    redacted once (with the first one's category); other reasons are left as they are."""
    out: list[str] = []
    pos = 0
    for start, end, category in _merged(text, detections):
        out.append(text[pos:start])
        out.append(f"[REDACTED:{category}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redaction_marks(text: str, detections: list[Detection]) -> list[tuple[int, int, int, int]]:
    """Where `redact` puts each mark: its [start, end) in the redacted text, then the [start,
    end) of `text` it replaces (to map an offset in the redacted text back to `text`)."""
    marks: list[tuple[int, int, int, int]] = []
    shift = 0
    for start, end, category in _merged(text, detections):
        width = len(f"[REDACTED:{category}]")
        marks.append((start + shift, start + shift + width, start, end))
        shift += width - (end - start)
    return marks
