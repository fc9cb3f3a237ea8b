"""The name the user goes by: asked for ("call me Sam", "i go by Jules", "I prefer to be called
Mo", "叫我小林就行"), given instead of one refused ("Don't call me Mr. Thompson, just Jake is
fine"), stated where it is corrected, spelled out or asked to be kept ("Correction: my name's
spelled Katherine with a K", 请记住我叫阿杰, "My name's Elizabeth but please use Liz"), or
refused ("别叫我亲", "don't call me Sweetie"); never a wish about phone calls. A name said in
passing ("my name is Tom, I ordered a lamp") stays a fact."""

from __future__ import annotations

import re

#: A name in Latin letters, accents included ("Siobhán", "Zoë"): a capital, then letters, an
#: apostrophe or a hyphen inside it ("O'Neil", "Anne-Marie").
_LATIN_NAME = r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:['\-][^\W\d_]+)*"
_NAME_EN = re.compile(
    r"(?<![A-Za-z])(?:(?:[Cc]all|[Aa]ddress)\s+me\s+(?:as\s+)?|[Ii]\s+go\s+by\s+"
    # ("I prefer to be called Mo", "I'd like to be addressed as Dr. Okafor")
    r"|(?:prefer|like|want|love)\s+to\s+be\s+(?:called|addressed\s+as|known\s+as)\s+)"
    rf"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?{_LATIN_NAME}(?:\s+{_LATIN_NAME})?)"
)
_NAME_ZH = re.compile(
    # ("我叫阿May就行": the name that will do is what to call the user)
    r"(?:叫我|称呼我|喊我|管我叫|(?<![你他她])我叫(?=[\u4e00-\u9fffA-Za-z]{1,8}?(?:就行|就好|就可以|即可)))"
    r"(?P<name>[\u4e00-\u9fffA-Za-z]{1,8}?)"
    r"(?:就行|就好|就可以|即可|吧|好了|$|[\s，,。!！~哈啦呀])"
)
#: Words that follow "call me" without being a name ("call me Monday", "call me ASAP").
_NOT_NAME = re.compile(
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun|To)day|Tomorrow|January|February|March|April|May"
    r"|June|July|August|September|October|November|December|Back|Later|Again|ASAP|Anytime"
    r"|Whenever"
)
_NOT_NAME_ZH = re.compile(r"^(?:一声|一下|起床|电话|手机|回来|过去|过来|去|来|打|发|我|你|他|她)")
#: A name refused, not asked for ("别叫我亲", "don't call me Sweetie").
_NAME_DENIED = re.compile(
    r"(?:别再?|不要再?|不用再?|甭|不许|不准|(?<![a-z])(?:don'?t|do\s+not|never|stop))\s*$", re.I
)


#: Another name than the one stated, to be used ("My name's Elizabeth but please use Liz").
_USE_INSTEAD = re.compile(
    rf"(?<![A-Za-z])[Mm]y\s+name(?:'s|\s+is)\s+{_LATIN_NAME},?\s+but\s+(?:please\s+|pls\s+"
    rf"|just\s+)?(?:use|go\s+with|say)\s+(?P<name>{_LATIN_NAME})"
)


def _named(raw: str) -> re.Match[str] | None:
    """The words in `raw` that name what to call the user (asked or refused), if any."""
    m = _NAME_EN.search(raw)
    if m is not None and not _NOT_NAME.fullmatch(m.group("name").split()[-1]):
        return m
    z = _NAME_ZH.search(raw)
    if z is not None and not _NOT_NAME_ZH.match(z.group("name")):
        return z
    return None


def name_asked(raw: str) -> tuple[int, int] | None:
    """Where `raw` names what to call the user (asked or refused): no wish about phone calls."""
    m = _named(raw)
    return m.span() if m is not None else None


#: A name the user states ("my name is Tom", "my name's spelled Katherine", 我叫李婷,
#: 我的名字是王思远).
_STATED_EN = re.compile(
    r"(?<![A-Za-z])[Mm]y\s+name(?:'s|\s+is)\s+(?:spel(?:led|t)\s+)?"
    rf"(?P<name>{_LATIN_NAME}(?:\s+{_LATIN_NAME})?)"
)
_STATED_ZH = re.compile(
    r"(?:(?<![你他她])我叫|我的名字(?:是|叫)|(?<![他她])名字是)(?P<name>[\u4e00-\u9fff]{2,4}?|[A-Za-z]{2,12})"
    r"(?=$|[\s，,。!！~]|不是|哈|啦|呀|哦)"
)
#: What makes a stated name the one to use: it is corrected, spelled out, asked to be kept, or set
#: against how the user was addressed ("not Thomas", "with a K", "instead of 'customer'",
#: 记住, 写错了, 不是李亭). Said in passing ("my name is Tom, I ordered a lamp"), it is a fact.
_NAME_CUE = re.compile(
    r"(?<![A-Za-z])(?:[Nn]ot\s+['\"‘“]?[A-Z]|(?i:spel(?:led|t)|typo|correction|remember|note\s+that"
    r"|instead\s+of|call\s+me\s+that)(?![A-Za-z])|with\s+an?\s+[A-Z](?![a-z]))"
    r"|不是|写错|打错|记住|更正|纠正|弄错|搞错|记一下"
)


#: The name to use after one refused ("Don't call me Mr. Thompson, just Jake is fine").
_INSTEAD_OF_REFUSED = re.compile(
    r"(?<![A-Za-z])(?:[Dd]on'?t|[Dd]o\s+not|[Nn]ever|[Ss]top|[Pp]lease\s+don'?t)\s+call(?:ing)?\s+me\s+"
    r"(?:(?:Mr|Mrs|Ms|Dr|Miss|Prof)\.?\s+)?[^,.;]{1,30}?(?:[,;]\s*|\s+)(?:just\s+|only\s+)?"
    rf"(?P<name>{_LATIN_NAME})\s+(?:is\s+(?:fine|ok(?:ay)?|good)|will\s+do|works)(?=\s*(?:[.!,;)]|$))"
)


def _preferred_name(raw: str, context: str = "") -> str | None:
    """The name the user asks to be called by, if the text asks that (not one refused), or the
    one given instead of a name refused; or the name it states where `raw` or its `context`
    (the sentence, the request to remember it) corrects it, spells it or asks it kept."""
    after_refused = _INSTEAD_OF_REFUSED.search(raw) or _INSTEAD_OF_REFUSED.search(context)
    if (
        after_refused is not None
        and after_refused.group("name") in raw
        and not _NOT_NAME.fullmatch(after_refused.group("name"))
    ):
        return after_refused.group("name")
    m = _named(raw)
    if m is not None:
        return None if _NAME_DENIED.search(raw, 0, m.start()) else m.group("name")
    stated = _STATED_EN.search(raw) or _STATED_ZH.search(raw)
    if stated is None or _NOT_NAME.fullmatch(stated.group("name").split()[-1]):
        return None
    instead = _USE_INSTEAD.search(raw) or _USE_INSTEAD.search(context)
    if instead is not None:
        return instead.group("name")
    if not (_NAME_CUE.search(raw) or _NAME_CUE.search(context)):
        return None
    return stated.group("name")
