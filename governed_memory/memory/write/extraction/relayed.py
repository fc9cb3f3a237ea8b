"""What reaches the agent of or for the user by way of someone else: a statement an agent relays
about the customer ("the customer says she is allergic to peanuts", "客户说他对花生过敏"), said
back as the customer's own; a wish passed on to whoever serves the user (the warehouse, an
optical shop; the courier or the packer when the sentence says it for good), which is the
user's own."""

from __future__ import annotations

import re

from governed_memory.memory.write.extraction.personal import _as_first_person
from governed_memory.memory.write.extraction.wishes import (
    _CLAIM_WISH_BLOCK,
    _ONCE,
    _STANDING_FOR_GOOD,
)

# What an agent relays of the person a namespace is about ("the customer says she is allergic to
# peanuts", "客户说他对花生过敏"): the customer's own statement, in the third person.
_RELAY_ZH = re.compile(
    r"^(?:客户|用户|顾客|买家|客人)(?:本人)?(?:说|表示|提到|反馈|告诉我|称|讲|自述)(?:了)?"
    r"[:：,，]?\s*(?:他|她|自己)?"
)
_RELAY_EN = re.compile(
    r"^(?:the\s+)?(?:customer|user|client|buyer|shopper|caller)\s+(?:says|said|told\s+(?:me|us)"
    r"|mentioned|reports|reported|explained|confirmed|states|stated)\s+(?:that\s+)?"
    r"(?:she|he|they)\s+(?P<verb>[a-z']+)"
)


#: A wish passed on through the agent to whoever serves the user ("can you let the warehouse
#: know that from now on …", "tell the optical shop I always want …"): what follows is the
#: user's own.
_PASSED_ON = re.compile(
    r"^(?:(?:can|could|would)\s+(?:you|u)\s+(?:please\s+|pls\s+|kindly\s+)?|please\s+|pls\s+)?"
    r"(?:let|tell|remind|ask|inform)\s+(?:the|your|my)\s+(?!(?:delivery\s+)?(?:guy|driver|courier"
    r"|rider)\b)[a-z-]+(?:\s+[a-z-]+)?\s+(?:know\s+|to\s+note\s+)?(?:that\s+)?(?=[a-z])"
)


def passed_on(norm: str) -> str | None:
    """What a wish passed on to whoever serves the user says (`_PASSED_ON`), or None."""
    m = _PASSED_ON.match(norm.strip())
    return norm.strip()[m.end() :] if m is not None else None


def _relayed_as_self(norm: str) -> str | None:
    """A statement relayed about the customer, said as the customer would ("I am allergic to
    peanuts"), or None."""
    s = norm.strip()
    m = _RELAY_ZH.match(s)
    if m is not None and m.end() < len(s):
        return "我" + s[m.end() :]
    e = _RELAY_EN.match(s)
    return _as_first_person(s, e) if e is not None else None


# A wish passed on to whoever delivers or packs the user's orders ("tell the driver to leave
# packages behind the side gate from now on", "帮我跟骑手说别按门铃 … 以后都这样哈", "let the
# courier know the building code is 4471#, that's for all my deliveries"): the user's own, when
# the sentence says it is for good; else it is for one delivery ("ask the courier to ring twice",
# "跟送货的说下，今天下午三点以后再送").
_TO_COURIER_EN = re.compile(
    r"^(?:(?:also|and|oh\s+and|btw)[,\s]+)?(?:(?:can|could|would)\s+(?:you|u)\s+(?:please\s+|pls\s+)?"
    r"|please\s+|pls\s+)?(?:let|tell|remind|ask|inform|get)\s+(?:the|your|ur|whoever|every|all)\s+"
    r"(?:(?:delivery\s+)?(?:guys?|drivers?|couriers?|riders?|team)|postman|postie|packers?"
    r"|warehouse(?:\s+team)?|(?:\w+\s+)?packs\s+(?:my\s+)?(?:orders|stuff|parcels|boxes))\s+"
    r"(?:know\s+)?(?:to\s+|that\s+)?(?=\S)"
)
_TO_COURIER_ZH = re.compile(
    r"^[^，,。]{0,12}?(?:跟|和|叫|让|告诉|转告|同)(?:一下)?(?:送货|送件|配送|派件|派送|快递|骑手|司机|师傅"
    r"|仓库|打包)(?:员|小哥|师傅|的|那边)?(?:说|讲)?(?:一下|下)?[，,\s]*(?=\S)"
)


def passed_to_courier(norm: str, sentence: str) -> str | None:
    """What a wish passed on to whoever delivers or packs says (`norm`, a part of `sentence`),
    when its sentence says it for good and it names no one delivery; else None."""
    s = norm.strip()
    m = _TO_COURIER_EN.match(s) or _TO_COURIER_ZH.match(s)
    # ("tell every delivery driver to …": said to all of them, for good)
    if m is None or not (
        _STANDING_FOR_GOOD.search(sentence) or re.search(r"\b(?:every|all)\s", m[0])
    ):
        return None
    rest = s[m.end() :]
    if len(re.sub(r"^(?:一下|下)|[吗呢吧啊呀哈嘛?？!！。.,，\s]", "", rest)) < 2:
        return None  # the request to pass on alone ("跟快递说一下"): what follows says it
    once = _ONCE.search(rest) and not _STANDING_FOR_GOOD.search(rest)
    return None if once or _CLAIM_WISH_BLOCK.search(rest) else rest
