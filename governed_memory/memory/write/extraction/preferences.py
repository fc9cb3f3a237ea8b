"""Profile preferences a part states: notification channel, reply language, timezone, quiet
hours and preferred contact hours."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from governed_memory.memory.scripts import simplified
from governed_memory.memory.vocabulary import CONTACT_HOURS, LANGUAGE, NAME, NOTIFICATION, TIMEZONE
from governed_memory.memory.write.extraction.arrivals import ON_ARRIVAL, TO_COURIER
from governed_memory.memory.write.extraction.clauses import (
    _is_question,
    _neg_confidence,
    _negation,
    _Part,
    done_without,
)
from governed_memory.memory.write.extraction.cues import (
    _ALT_AFTER,
    _ALT_BEFORE,
    _CJK,
    _CONTACT_NEG,
    _CONTACT_VERB,
    _CONTENT_BLOCK,
    _DETERMINER_BEFORE,
    _HOURS_STRONG,
    _LANG_ALONE,
    _LANG_BLOCK,
    _LANG_CANT,
    _LANG_COMM_EN,
    _LANG_GLUE_EN,
    _LANG_NEG_AFTER,
    _LANG_NEG_BEFORE,
    _LANG_NOUN_AFTER,
    _LANG_POS_AFTER,
    _LANG_POS_BEFORE,
    _LANG_STRONG,
    _LANGUAGE_WORD,
    _NEG_EN_RE,
    _NEG_ZH_BEFORE,
    _NO_CONTACT_EN,
    _NOT_BEFORE,
    _PAST_BLOCK,
    _PHONE_VERB_NEG,
    _PRIORITY_BEFORE,
    _QUIET_MARK,
    _STANDING,
    _STRONG_CUE,
    _SWITCH,
    _TZ_AFTER_CUE,
    _TZ_CUE,
    _TZ_ON_REGION,
    _TZ_PLACE,
    _UNAVAILABLE,
    _WEAK_CUE,
    _WHY,
    _WHY_BLOCK,
    _rx,
    _w,
)
from governed_memory.memory.write.extraction.models import REPORTED, STRONG, WEAK
from governed_memory.memory.write.extraction.names import _preferred_name, name_asked
from governed_memory.memory.write.normalize import (
    Mention,
    find_channels,
    find_languages,
    find_timezone,
    normalize_hours,
    normalize_quiet_hours,
    normalize_timezone,
)
from governed_memory.memory.write.normalize.hours import ZONE_REFUSED


@dataclass(frozen=True)
class _Pref:
    key: str
    value: dict[str, Any]
    negated: bool
    confidence: float
    clause: str
    order: int


Role = Literal["pos", "neg", "alt"]
#: A value said by mistake ("I said email by mistake", "邮件是我填错了"): not the one chosen.
_MISTAKEN = re.compile(
    r"\s*(?:by\s+mistake|by\s+accident|in\s+error|mistakenly|earlier\s+by\s+mistake)"
    r"|\s*(?:是我|被我|是)?(?:不小心)?(?:填错|写错|说错|打错|选错|设错|点错|弄错|搞错|误操作|误选|误点"
    r"|误设)了?"
)
_CLEFT = re.compile(r"(?<![a-z])(?:it's|it is|its)\s*$")
#: A turn back or over to a language ("let's go back to English", "switch over to French"): a
#: choice of how to talk, whatever else the sentence says.
_LANG_SWITCH = re.compile(
    r"(?<![a-z])(?:(?:go|going|switch|switching|change|changing|revert|get|move)\s+back\s+to"
    r"|switch(?:ing)?\s+over\s+to|revert(?:ing)?\s+to"
    # the one meant, after one said by mistake ("I said German, I meant Dutch")
    r"|^(?:sorry[,\s]+|no[,\s]+|oops[,\s]+)?i\s+meant)\s+$"
)


def _roles(norm: str, mentions: list[Mention]) -> list[tuple[Mention, Role, str | None]]:
    out: list[tuple[Mention, Role, str | None]] = []
    for i, m in enumerate(mentions):
        start, end, _ = m
        before = norm[:start]
        if (
            _ALT_BEFORE.search(before)
            and not _NEG_ZH_BEFORE.search(before[-14:])
            and not _NOT_BEFORE.search(before)
        ):
            out.append((m, "alt", None))
            continue
        if re.search(_w("over") + r"\s+$", before) and i > 0:
            out.append((m, "alt", None))
            continue
        if _ALT_AFTER.match(norm[end:]) or done_without(norm, start) or _MISTAKEN.match(norm, end):
            out.append((m, "alt", None))
            continue
        neg = _negation(norm, start, end)
        if neg is None and re.search(r"不是\s*(?:用|发|打|通过|要)?\s*$", before):
            neg = "不是"
        out.append((m, "neg", neg) if neg is not None else (m, "pos", None))
    return out


def _pick(norm: str, positives: list[Mention]) -> str | None:
    values = {m[2] for m in positives}
    if len(values) == 1:
        return values.pop()
    prioritised = {m[2] for m in positives if _PRIORITY_BEFORE.search(norm[: m[0]])}
    return prioritised.pop() if len(prioritised) == 1 else None


def _allowed_question(p: _Part, *, negation: bool) -> bool:
    """A question that is in fact a request (standing marker, switch, or stop)."""
    if not _is_question(p):
        return True
    if _WHY.search(p.norm):
        return False
    if _STANDING.search(p.norm) or _SWITCH.search(p.norm) or _ASKED_AS_FAVOUR.search(p.norm):
        return True
    return negation


#: A request put as a question about how to reach or answer the user ("客服能不能用英文回复我
#: 呀？", "could you guys text me instead?").
_ASKED_AS_FAVOUR = re.compile(
    r"(?:能不能|可不可以|能否)[^，,。？?]{0,8}?(?:用|以|改用|换成)?[^，,。？?]{0,6}?(?:回复|回我|联系我"
    r"|发给我|跟我说|和我说|给我发|通知我)"
    r"|^能(?:用|以)[^，,。？?]{1,6}?(?:跟|和|给|同)我(?:沟通|交流|说|聊|回复)"
    r"|(?<![a-z])(?:could|can|would)\s+(?:you|u|y'all|you\s+guys|we)\s+(?:(?:please|just|maybe)\s+)?"
    # ("can you email me?" alone asks for one e-mail: a wish needs its "instead", "in English")
    r"(?:(?:reply|respond|write|text|email|message|contact|call|answer|chat)\s+(?:to\s+)?(?:me|us)"
    r"(?=.*(?<![a-z])(?:instead|rather|from now on|going forward|in (?:the )?future|always|only"
    r"|in [a-z]+)(?![a-z]))"
    r"|(?:stick|keep)\s+(?:it\s+)?to\s+[a-z]+|switch\s+to\s+[a-z]+"
    r"|keep\s+(?:replying|responding|writing|answering|texting|messaging)\s+(?:to\s+me\s+)?in\s+[a-z]+"
    r"|(?:go|switch|change|get)\s+back\s+to\s+[a-z]+)"
    r"\b(?!.*\b(?:the|a|this|that|my)\s+(?:invoice|receipt|label|code|link|details|photo|form"
    r"|confirmation)\b)"
    # a channel asked for what the shop sends ("could u guys use telegram for notifs?")
    r"|(?<![a-z])(?:could|can|would)\s+(?:you|u)(?:\s+guys)?\s+(?:please\s+|pls\s+)?(?:use|switch\s+to)"
    r"\s+[a-z]+\s+for\s+(?:notifs|notifications|updates|alerts|reminders)(?![a-z])"
    r"|(?<![a-z])would\s+it\s+be\s+possible\s+to\s+(?:chat|talk|write|reply|communicate|speak|answer"
    r"|respond)"
    r"|(?<![a-z])(?:could|can|would)\s+(?:you|u)\s+(?:please\s+)?(?:schedule|book|arrange|set\s+up"
    r"|plan)\b.{0,40}?\bon\s+(?:the\s+)?(?:[a-z]+\s+){1,2}time(?![a-z])"
    r"|(?<![a-z])(?:could|can|would)\s+(?:you|u)\s+(?:please\s+)?(?:save|set|update|change|put|note"
    r"|record)\s+my\s+(?:time\s*zone|timezone|language|contact)"
)


def _chosen_or_denied(
    p: _Part,
    key: str,
    field: str,
    positives: list[Mention],
    negatives: list[tuple[Mention, float]],
    *,
    strong: bool,
) -> list[_Pref]:
    """The one value `p` chooses among its positive mentions (see `_pick`) or, failing that,
    each value it denies (the first denial of a value sets its confidence)."""
    if positives and _allowed_question(p, negation=False):
        chosen = _pick(p.norm, positives)
        if chosen is not None:
            conf = STRONG if strong else WEAK
            return [_Pref(key, {field: chosen}, False, conf, p.raw, p.order)]
    if not _allowed_question(p, negation=True):
        return []
    out: list[_Pref] = []
    seen: set[str] = set()
    for m, conf in negatives:
        if m[2] not in seen:
            seen.add(m[2])
            out.append(_Pref(key, {field: m[2]}, True, conf, p.raw, p.order))
    return out


#: A channel's number, not the channel ("我的電話尾號是6621", "my phone number is 0770…"): what
#: the user is reached at, said or corrected, is no choice of how.
_NUMBER_AFTER = re.compile(r"\s*(?:号码|号|尾号|尾號|號碼|號|(?:number|no\.?)(?![a-z]))")
#: The user's own phone said to be in a state ("my phone is basically always on do not disturb",
#: "my phone's on silent", "我的手机经常没信号"): the device, not a way to be reached.
_MY_BEFORE = re.compile(r"(?:(?<![a-z])my|我的?)\s*$")
_DEVICE_STATE = _rx(
    r"\s*(?:is|'s|was|keeps|stays|has been|isn't|doesn't|经常|总是|一直|老是|基本)?\s*"
    r"(?:(?:basically|usually|always|often|mostly|permanently|constantly|still|currently"
    r"|pretty much|on and off)\s+)*"
    r"(?:on\s+(?:silent|mute|vibrate|do[- ]not[- ]disturb|dnd|airplane|flight)|off\b|dead|broken"
    r"|muted|silenced|flat|cracked|lost|stolen|switched off|turned off|in (?:my )?(?:bag|locker)"
    r"|静音|关机|没电|没信号|坏了|丢了|免打扰)"
    # what the phone is ("my phone is a Pixel 8", "my phone's an old iPhone")
    r"|\s*(?:is|'s|was)\s+(?:no\s+longer\s+|not\s+|now\s+)?(?:a|an|the)\s+(?!way\b|best\b|only\b|easiest\b|quickest\b|fastest\b|most\b|better\b|main\b|primary\b|preferred\b|app\b|number\b|one\b)[a-z0-9]"
)


#: The phone as what the user reads or shops on ("I read on my phone"): the device, not a way
#: to be reached.
_READ_ON = _rx(
    r"(?<![a-z])(?:read|reading|browse|browsing|shop|shopping|check|checking|look|looking|view"
    r"|viewing|type|typing|scroll|scrolling)\s+(?:\w+\s+){0,3}?(?:on|from|with)\s+(?:my\s+)?$",
)


def _channel_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if _CONTENT_BLOCK.search(norm) or _WHY_BLOCK.search(norm):
        return []
    named = name_asked(p.raw) or (0, 0)
    mentions = [
        m
        for m in find_channels(simplified(p.raw))
        if not (_DETERMINER_BEFORE.search(norm[: m[0]]) and norm[m[0] : m[1]].isascii())
        and not (_MY_BEFORE.search(norm[: m[0]]) and _DEVICE_STATE.match(norm, m[1]))
        and not (m[2] == "phone" and _READ_ON.search(norm[: m[0]]))
        and not _NUMBER_AFTER.match(norm, m[1])
        and not named[0] <= m[0] < named[1]
    ]
    if not mentions:
        return _phone_verb_denied(p)
    # a channel inside a condition ("if someone needs to call", "要是有人需要打电话") is how they
    # might reach the user, not the way the user chose; a channel said after it still is
    conditions = [m.span() for m in _IF_NEEDED.finditer(norm)]
    mentions = [m for m in mentions if not any(a <= m[0] < b for a, b in conditions)]
    if not mentions:
        return []
    roles = _roles(norm, mentions)
    past = bool(_PAST_BLOCK.search(norm) and not _STANDING.search(norm))
    cue = bool(_STRONG_CUE.search(norm) or _WEAK_CUE.search(norm))
    if (ON_ARRIVAL.search(norm) and all(m[2] == "phone" for m in mentions)) or TO_COURIER.search(
        norm
    ):
        # a call when someone gets there ("师傅到了打我电话", "call me when you get here") is
        # how to meet a delivery, not how to be told things, even for every delivery ("always
        # phone me before coming": a wish about deliveries); a text then is a notice
        # ("快递到了给我发短信")
        cue = False
    if _TIMED_CALLS.search(norm) and all(m[2] == "phone" for m in mentions):
        cue = False  # calls to be timed by the user's clock ("any scheduled calls") are no choice
    # A channel named in the past ("上次发了短信") or without a cue about contacting the user is
    # no choice; a denial needs neither.
    positives = [m for m, role, _ in roles if role == "pos"] if cue and not past else []
    negatives = [
        (m, _neg_confidence(neg)) for m, role, neg in roles if role == "neg" and neg is not None
    ]
    strong = bool(_STRONG_CUE.search(norm) or _STANDING.search(norm))
    current = _said_now(norm, positives)
    if current or negatives or not positives:
        return _chosen_or_denied(p, NOTIFICATION, "channel", current, negatives, strong=strong)
    # only a wish said before ("earlier i said text me", and "but actually email is better" in
    # the next part): recalled, below any said now
    return [
        replace(pref, confidence=REPORTED)
        for pref in _chosen_or_denied(p, NOTIFICATION, "channel", positives, [], strong=False)
    ]


#: Calls said only as what the user's clock is to time ("I'm on Berlin time for any scheduled
#: calls", "以后约回电话请按悉尼时间算", "calls at 3am my time aren't great", "call slots need to be
#: SGT").
_TIMED_CALLS = re.compile(
    r"(?<![a-z])calls?\s+(?:at|before|after|around)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?(?![a-z0-9])"
    r"|"
    r"(?<![a-z])(?:call\s+(?:times?|slots?|windows?)|scheduled\s+calls?|(?:schedul\w*|book\w*|time)\s+(?:any\s+)?"
    r"(?:calls?|callbacks?)|(?:calls?|callbacks?)\s+(?:in|on|by)\s+(?:my|[a-z]+)\s+time)(?![a-z])"
    r"|(?:on|in)\s+[a-z]+\s+time\s+for\s+(?:any\s+)?(?:scheduled\s+)?(?:calls?|callbacks?)"
    r"|(?:约|回)(?:回访|回电话|回电|电话)[^，,。]{0,8}?按(?:照)?[^，,。]{1,8}?时间"
    r"|(?:回访|回电话|回电|电话)[^，,。]{0,4}?(?:请|麻烦)?按(?:照)?[^，,。]{1,8}?时间"
    r"|(?:回访|回电|电话)的?时间[^，,。]{0,4}?按"
)
#: A condition on someone needing to reach the user, up to the way they would.
_IF_NEEDED = re.compile(
    r"(?<![a-z])(?:if|in case|should)\s+(?:someone|somebody|anyone|anybody|you|they|he|she"
    r"|(?:the|your)\s+\w+)\s+(?:ever\s+)?(?:needs?|has|have|wants?)\s+to\s+(?:call|ring|phone|text"
    r"|e-?mail|message|contact|reach)(?![a-z])"
    r"|(?:要是|如果|万一|假如)(?:有人|你们|你|他们|快递员?|师傅)?(?:需要|要|想)(?:给我)?(?:打电话|打|发短信"
    r"|发邮件|联系)"
)


def _phone_verb_denied(p: _Part) -> list[_Pref]:
    """A denied phone call named by its verb alone ("别再给我打了")."""
    if not (_PHONE_VERB_NEG.search(p.norm) and _allowed_question(p, negation=True)):
        return []
    hit = _NEG_ZH_BEFORE.search(p.norm)
    conf = _neg_confidence(hit.group("neg")) if hit else STRONG
    return [_Pref(NOTIFICATION, {"channel": "phone"}, True, conf, p.raw, p.order)]


def _language_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if _LANG_BLOCK.search(norm) or _CONTENT_BLOCK.search(norm):
        return []
    mentions = [m for m in find_languages(p.raw) if not _LANG_NOUN_AFTER.match(norm[m[1] :])]
    if not mentions:
        return []
    english = not _CJK.search(norm)
    has_language_word = bool(_LANGUAGE_WORD.search(norm))
    positives: list[Mention] = []
    negatives: list[tuple[Mention, float]] = []
    for m in mentions:
        start, end, _ = m
        before, after = norm[:start], norm[end:]
        denied = WEAK if _LANG_HARD_AFTER.match(after) else _language_denial(before, after)
        if denied is not None:
            negatives.append((m, denied))
        elif _ALT_BEFORE.search(before) or _ALT_AFTER.match(after) or _MISTAKEN.match(norm, end):
            continue  # another is meant ("语言设置成英文是误操作，我要中文的")
        elif _language_chosen(norm, start, end, english=english, language_word=has_language_word):
            positives.append(m)
    # "之前说用英文回复，…用中文就行": what was asked then, in its clause, is no choice now
    # unless nothing else is chosen in the part: "not German pls — I asked for Dutch replies"
    # reminds of the wish (kept below any wish said now, which outranks it)
    current = _said_now(norm, positives)
    strong = bool(_LANG_STRONG.search(norm) or _STANDING.search(norm))
    if current or negatives or not positives or not english:
        return _chosen_or_denied(p, LANGUAGE, "value", current, negatives, strong=strong)
    return [
        replace(pref, confidence=REPORTED)
        for pref in _chosen_or_denied(p, LANGUAGE, "value", positives, [], strong=False)
    ]


#: A wish reported as said before ("之前说用英文回复", "earlier I said French").
_SAID_BEFORE = re.compile(
    r"(?:之前|上次|前面|以前|刚才|先前)(?:跟你们?|和你们?|给你们?)?(?:说|讲|提)(?:的|过)?"
    r"|(?:之前|上次|前面|以前|刚才|先前)(?:让|叫|请|要)(?:你们?|您们?|客服)?"
    r"|(?<![a-z])(?:earlier|before)\s+i\s+said|i\s+said\s+[a-z]+\s+(?:earlier|before)(?![a-z])"
    r"|(?<![a-z])i\s+(?:said|told\s+you|asked\s+for)\s+(?:(?:that\s+)?i\s+(?:wanted|preferred"
    r"|needed|would\s+like)\s+)?(?=[a-z])"
)


def _said_now(norm: str, positives: list[Mention]) -> list[Mention]:
    """The mentions not in a wish reported as said before ("earlier I said French but …")."""
    reported = [m.end() for m in _SAID_BEFORE.finditer(norm)]
    return [
        m
        for m in positives
        if not any(
            end <= m[0]
            and not re.search(r"[，,。;；]|(?<![a-z])but(?![a-z])|但|不过", norm[end : m[0]])
            for end in reported
        )
    ]


def said_before(norm: str) -> bool:
    return bool(_SAID_BEFORE.search(norm))


#: A language hard to read, said after it ("中文阅读有点吃力"): a denial.
_LANG_HARD_AFTER = re.compile(
    r"^\s*(?:的)?(?:阅读|读|看)?(?:起来)?(?:比较|有点|很|太|挺)?(?:吃力|费劲|困难)"
)


#: A language the user says they never asked for ("I never asked for English replies", "I
#: didn't want German").
_NEVER_ASKED = _rx(
    r"(?<![a-z])(?:never|didn't|did\s+not|didnt)\s+(?:ask(?:ed)?|want(?:ed)?|request(?:ed)?"
    r"|choose|chose|pick(?:ed)?|select(?:ed)?)\s+(?:for\s+)?(?:any\s+|the\s+)?$"
)


def _language_denial(before: str, after: str) -> float | None:
    """The confidence of the denial of a language mention (between `before` and `after`), None
    when it is not denied."""
    if _LANG_CANT.search(before):
        return WEAK
    if _NEVER_ASKED.search(before):
        return STRONG
    neg_zh = _LANG_NEG_BEFORE.search(before[-12:])
    neg_en = _neg_before_lang_en(before)
    if neg_zh or neg_en or _LANG_NEG_AFTER.match(after):
        word = neg_zh.group("neg") if neg_zh else (neg_en or "不要")
        return _neg_confidence(word)
    return None


def language_instead(p: _Part, said: Sequence[_Pref]) -> list[_Pref]:
    """A language said to do, bare, in a part after one that denied another or recalled an
    earlier wish (in `said`: "No need to reply in German, English is fine", "earlier I said
    French but English is fine"): the one now chosen."""
    if not any(q.key == LANGUAGE and (q.negated or q.confidence == REPORTED) for q in said):
        return []
    mentions = find_languages(p.raw)
    if len(mentions) != 1 or p.norm[: mentions[0][0]].strip():
        return []
    if not _LANG_POS_AFTER.match(p.norm[mentions[0][1] :]) or not _allowed_question(
        p, negation=False
    ):
        return []
    return [_Pref(LANGUAGE, {"value": mentions[0][2]}, False, WEAK, p.raw, p.order)]


#: A second thought said alone, before the value it turns to ("No actually, Telegram").
SECOND_THOUGHT = re.compile(
    r"^(?:no|nope|wait|oh|hmm|sorry)?[,.!\s]*(?:actually|i mean|make that|scratch that|on second"
    r"\s+thought)$|^(?:不对|算了|不不|等等|(?:哦|噢|喔|啊|呃|额)不(?:对)?)[，,\s]*(?:还是|改成|换成)?$"
)


def second_thought(p: _Part) -> list[_Pref]:
    """A channel named alone in a part after a second thought (the caller knows it): chosen."""
    found = find_channels(simplified(p.raw))
    if len(found) != 1:
        return []
    start, end, channel = found[0]
    before = p.norm[:start].strip(" ,.—–-，")
    if before not in ("", "还是", "改成", "换成", "就", "还是用", "就用") or p.norm[end:].strip(
        " ,.!—–-，。！"
    ) not in ("", "please", "吧", "好了", "吧好了"):
        return []
    return [_Pref(NOTIFICATION, {"channel": channel}, False, STRONG, p.raw, p.order)]


#: A clause's start inside a part.
_CLAUSE_START = re.compile(r"[,;，；—]\s*$")
#: A turn to what the user now means, just before it ("… but actually Dutch is better").
_TURNING = re.compile(
    r"(?:^|[,;—\s])(?:but\s+|no\s+|sorry\s+|so\s+)?(?:actually|rather|i\s+mean|instead)[,\s]*$"
)


def _language_chosen(
    norm: str, start: int, end: int, *, english: bool, language_word: bool
) -> bool:
    """Whether the language mentioned at norm[start:end] is asked for (not merely named)."""
    before, after = norm[:start], norm[end:]
    pos = bool(_LANG_POS_BEFORE.search(before) or language_word)
    if not pos and _LANG_POS_AFTER.match(after):
        pos = bool(
            before.strip() == ""
            or _CLAUSE_START.search(before)  # "no need to reply in German, English is fine"
            or _TURNING.search(before)  # "I said German earlier but actually Dutch is better"
            or _LANG_POS_BEFORE.search(before)
            or _CLEFT.search(before)  # "it's Korean I'd like replies in"
            or not english
        )
        if english and before.strip() == "":
            pos = True
    if (
        pos
        and english
        and not (_LANG_COMM_EN.search(norm) or language_word or _LANG_SWITCH.search(before))
    ):
        pos = bool(re.match(r"^\s*" + _w("please|only"), after))
    if not pos and english and _LANG_ALONE.match(norm[:start] + norm[end:]):
        pos = True  # "In English." / "English, please"
    return pos


def _neg_before_lang_en(before: str) -> str | None:
    words = before.split()
    for n in range(1, min(len(words), 6) + 1):
        head = " ".join(words[-n:])
        m = _NEG_EN_RE.match(head)
        if m is None:
            continue
        if all(w.strip(",.'") in _LANG_GLUE_EN for w in head[m.end() :].split()):
            return m.group().removeprefix("please ").strip()
    return None


def _timezone_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if ZONE_REFUSED.search(norm):
        return []
    placed = _placed_zone(norm)
    if placed is not None and _allowed_question(p, negation=False):
        return [_Pref(TIMEZONE, {"value": placed}, False, STRONG, p.raw, p.order)]
    if not _TZ_CUE.search(norm) or not _allowed_question(p, negation=False):
        return []
    zone = find_timezone(p.raw)
    if zone is None:
        m = _TZ_AFTER_CUE.search(norm)
        if m is not None:
            zone = normalize_timezone(m.group("zone"))
    if zone is None:
        return []
    return [_Pref(TIMEZONE, {"value": zone}, False, STRONG, p.raw, p.order)]


def _placed_zone(norm: str) -> str | None:
    """The zone of where the user says they are, said with its zone ("I'm in London (GMT)":
    Europe/London, which keeps its summer time), or of a North American zone said by its name
    alone ("I'm actually on Central")."""
    m = _TZ_PLACE.search(norm)
    if m is not None:
        zone = m.group("zone")
        said = find_timezone(zone.upper() if " " not in zone else zone)
        place = normalize_timezone(m.group("place").strip())
        if said is not None and place is not None:
            return place
    m = _TZ_ON_REGION.search(norm)
    if m is not None:
        return find_timezone(f"{m.group('region')} time")
    return None


#: Hours the user would be forced into ("那我这边得半夜联系了", "I'd have to call at midnight"):
#: a complaint about the shop's hours, not when the user wants to be reached.
_FORCED_HOURS = _rx(
    r"(?:得|只能|只好|不得不|就得|还得)(?:在)?(?:大)?(?:半夜|深夜|凌晨|早上[0-9一二三四五六]点)",
    r"(?<![a-z])(?:i'd|i\s+would|i'll|i\s+will|i)\s+(?:have|need)\s+to\s+(?:call|ring|phone|contact|text)\b",
)


def _hours_prefs(p: _Part, zone: str) -> list[_Pref]:
    norm = p.norm
    if not (_CONTACT_VERB.search(norm) or _QUIET_MARK.search(norm) or _CONTACT_NEG.search(norm)):
        return []
    quiet = bool(
        _QUIET_MARK.search(norm)
        or _CONTACT_NEG.search(norm)
        or _NO_CONTACT_EN.search(norm)
        or (_UNAVAILABLE.search(norm) and _CONTACT_VERB.search(norm))
    )
    if quiet:
        value = normalize_quiet_hours(p.raw, zone)
        if value is None or not _allowed_question(p, negation=True):
            return []
        return [_Pref(NOTIFICATION, {"quiet_hours": value}, False, STRONG, p.raw, p.order)]
    value = normalize_hours(p.raw, zone)
    if value is None or not _allowed_question(p, negation=False) or _FORCED_HOURS.search(norm):
        return []
    if _PAST_BLOCK.search(norm) or _CONTENT_BLOCK.search(norm):
        return []
    conf = STRONG if _HOURS_STRONG.search(norm) or _STANDING.search(norm) else WEAK
    return [_Pref(CONTACT_HOURS, {"value": value}, False, conf, p.raw, p.order)]


def _prefs(p: _Part, zone: str, context: str = "") -> list[_Pref]:
    """Every profile preference a part states (before temporary / third-party checks): the name
    the user asks to be called by alone, when it names one (a sentence reads it before the
    preferences; a request to remember it, "你记住 以后叫我小鱼就行", here, its `context`)."""
    name = _preferred_name(p.raw, context)
    if name is not None:
        return [_Pref(NAME, {"value": name}, False, STRONG, p.raw, p.order)]
    hours = _hours_prefs(p, zone)
    out = [*_timezone_prefs(p), *_language_prefs(p), *hours]
    if not hours:
        out.extend(_channel_prefs(p))
    return out
