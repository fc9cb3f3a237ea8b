"""The name the user goes by: asked for ("call me Sam", "i go by Jules", "叫我小林就行"), or
refused ("别叫我亲", "don't call me Sweetie"), never a wish about phone calls."""

from __future__ import annotations

import re

_NAME_EN = re.compile(
    r"(?<![A-Za-z])(?:(?:call|address)\s+me\s+(?:as\s+)?|[Ii]\s+go\s+by\s+)"
    r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?[A-Z][A-Za-z'\-]+(?:\s+[A-Z][A-Za-z'\-]+)?)"
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


def _preferred_name(raw: str) -> str | None:
    """The name the user asks to be called by, if the text asks that (not one refused)."""
    m = _named(raw)
    if m is None or _NAME_DENIED.search(raw, 0, m.start()):
        return None
    return m.group("name")
