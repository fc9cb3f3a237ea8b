"""Task hijacks by what they do, not by how they are worded: signals that co-occur in a passage.

A rule that spells out an attack's phrasing finds that phrasing. A hijack slipped into a
customer's message, an order note or an e-mail has a shape instead: it speaks to the assistant
or about *every* customer rather than about the writer, it asks to send data somewhere, to
charge a fee, to keep something from the user, or it revokes the rules the assistant follows.
Each of those is a signal. A passage (a sentence and the one after it) is a hijack when its
signals make one of the combinations below. A person writing about themselves ("email me from
now on", "forward the invoice to my accountant") makes none of them.

| signal | reads |
| --- | --- |
| revoke | earlier rules are void, superseded, no longer apply; act without restrictions |
| bypass | skip identity verification or review |
| role | act as an administrator, an unfiltered persona, stay in character |
| audience | addressed to the AI, assistant, agent, bot, model |
| everyone | every / all / any customer, whenever a customer, 凡是, 一律, 所有用户 |
| order | tell, reply, send, include, ask, charge … (告诉, 回复, 发给, 附上, 支付 …) |
| data | card numbers, CVV, passwords, phone numbers, addresses, chat history, customer lists |
| destination | an e-mail address, a URL, a webhook, an account number, `{placeholders}` |
| standing | in every reply, cc every message, 每条回复 |
| covert | hidden comment, the user will not see it, do not tell them |
| policy | policy update, effective immediately, standing order, remember permanently |
| payment | a fee or deposit to pay, gift cards |

Combinations: revoke, role, or a link that fills itself with the user's data, alone; everyone
with an order or data; data sent to a destination in one clause; policy or audience with an
order, data, a destination, everyone or a payment; a standing order for every reply with a
destination, a payment or someone else's data; covert with data, a destination, everyone or a
payment; bypass with two other signals. An order, everyone or audience just after a negation
("never ask customers for …") does not count, and nor do everyone, audience or policy in
guidance that forbids rather than orders.
"""

from __future__ import annotations

import re
from itertools import accumulate

from governed_memory.memory.write.detectors._text import QUOTED
from governed_memory.memory.write.detectors.gate import Gate, alternatives
from governed_memory.memory.write.detectors.injection_cues import (
    _ABOUT_ATTACKS,
    _CHANGES,
    _GRANTS,
    _GUIDANCE,
    _LIES,
    _MINE,
    _NEGATION,
    _REFUSED,
    _REMEMBERED,
    _THEIRS,
    _THIRD_PARTY_MAY,
    DEFINED,
    in_game_rules,
    policy_history,
    someone_else_will,
)
from governed_memory.memory.write.detectors.signal_words import _SIGNALS

_F = re.IGNORECASE

#: Where one passage ends: a sentence end, a line break.
_PASSAGE_END = re.compile(r"(?<=[.!?。！？;；])\s+|\n+")


def _sentences(text: str) -> list[int]:
    """Where each sentence starts, and the text's end."""
    cuts = {0, len(text)}
    cuts.update(m.end() for m in _PASSAGE_END.finditer(text))
    return sorted(cuts)


_SEND = (
    r"(?:send|forward|post|upload|e-?mail|share|export|push|transmit|paste|dump|leak|include|"
    r"attach|append|render|put|insert|发给|发送|发到|转发|上传|推送|导出|贴到|POST|附上|带上)"
)
_DATA = _SIGNALS["data"].pattern
_DEST = _SIGNALS["destination"].pattern
#: Data sent to a destination, in one clause: the verb, the data, then where; or (Chinese word
#: order) the data, the verb, then where.
_SENDS = re.compile(
    rf"{_SEND}[^.!?。！？\n]{{0,80}}?(?:{_DATA})[^.!?。！？\n]{{0,80}}?(?:{_DEST})"
    rf"|(?:{_DATA})[^.!?。！？\n]{{0,40}}?{_SEND}[^.!?。！？\n]{{0,40}}?(?:{_DEST})"
    rf"|{_SEND}[^.!?。！？\n]{{0,40}}?(?:{_DEST})[^.!?。！？\n]{{0,60}}?(?:{_DATA})"
    rf"|(?:{_DEST})[^.!?。！？\n]{{0,40}}?(?:{_DATA})[^.!?。！？\n]{{0,30}}?{_SEND}",
    _F,
)
#: A link that fills itself with the user's data: `![s](https://x.co/p.png?d={user_email})`.
_TEMPLATE = re.compile(
    r"(?:https?://|www\.)[^\s)]*\{(?:user|customer|client|email|e-mail|phone|mobile|order|"
    r"address|card|name|account|password|token)[\w.]*\}",
    _F,
)
#: The writer about their own things ("cc my wife", "my orders").
_MY = re.compile(r"(?<![.@/])\b(?:my|me|our|us)\b|我的|我们的", _F)

#: A send someone asked of the writer, told as what happened ("a fake e-mail asked me to send my
#: card details to an outside address", "要求我把银行卡信息发到外部邮箱"): an account, no order.
_REPORTED_SEND = re.compile(
    rf"(?:\b(?:asked|told|wanted|instructed|requested|urged|tried\s+to\s+get)\s+(?:me|us)\s+to\s+"
    rf"|(?:要求|让|叫|诱导|骗)(?:我|我们)\s*(?:把)?)[^.!?。！？\n]{{0,40}}?{_SEND}",
    _F,
)


def _own_data_only(passage: str) -> bool:
    """Data the writer says is their own ("my phone number"), and nobody else's."""
    mine = _MINE.search(passage)
    return bool(mine) and not _THEIRS.search(passage)


#: What someone else pressures staff into ("callers who pressure agents to skip verification"):
#: a report of an attack, not one.
_PRESSURED = re.compile(
    r"\b(?:pressure|push|persuade|trick|urge|coax|manipulate)s?\s+(?:the\s+)?(?:agents|staff|employees"
    r"|reps|cashiers|support|you)\s+(?:in)?to\s*$"
    # (员工培训：骗子常冒充经理…，要求你"就这一次"跳过身份核验)
    r"|(?:骗子|诈骗|冒充)[^。！？]{0,30}?(?:要求|让|逼|诱导|骗)你[^。！？]{0,10}$",
    _F,
)


#: What customers can do themselves ("Customers can set a standing delivery day"): a feature.
_CUSTOMERS_CAN = re.compile(
    r"\b(?:customers|users|shoppers|members|buyers|subscribers)\s+(?:can|may|are\s+able\s+to)\s+"
    r"(?:also\s+|now\s+)?$",
    _F,
)


def _asserted(pattern: re.Pattern[str], passage: str) -> bool:
    """Whether the signal occurs other than forbidden ("never ask customers for ...") or as what
    someone else pressures staff into."""
    return any(
        not _NEGATION.search(passage[max(0, m.start() - 20) : m.start()])
        and not _PRESSURED.search(passage[max(0, m.start() - 40) : m.start()])
        and not _CUSTOMERS_CAN.search(passage[max(0, m.start() - 40) : m.start()])
        for m in pattern.finditer(passage)
    )


#: Signals that a negation just before them undoes.
_NEGATABLE = frozenset({"everyone", "audience", "order", "bypass"})
#: Signals that a quotation makes a mention, not a use ("phrases like 'ignore previous
#: instructions'").
_QUOTABLE = frozenset({"revoke", "role"})


#: A numbered step of a product's manual said to be skipped ("ignore step 4 in the manual, it's
#: wrong for the newer model"): a step of the manual, not of the assistant's rules.
_STEP = re.compile(r"(?:disregard|ignore|skip|bypass)\s+(?:sections?|steps?|paragraphs?)\s+\d", _F)
_MANUAL = re.compile(
    r"\b(?:manual|booklet|leaflet|recipe|assembly|diagram|pattern|user\s+guide|screws?)\b", _F
)


def _used(pattern: re.Pattern[str], passage: str) -> bool:
    """Said, not quoted, not someone else's permission ("The GM may override any rule") or
    role, and not a step of a product's manual."""
    quoted = [(q.start(), q.end()) for q in QUOTED.finditer(passage)]
    return any(
        not any(qs <= m.start() and m.end() <= qe for qs, qe in quoted)
        and not _THIRD_PARTY_MAY.search(passage[max(0, m.start() - 30) : m.start()])
        and not someone_else_will(passage, m.start())
        and not policy_history(passage, m)
        and not (_STEP.match(m.group(0)) and _MANUAL.search(passage))
        for m in pattern.finditer(passage)
    )


#: Each signal's alternatives, gated one by one: a signal costs a passage what the alternatives
#: whose words it holds cost, however many others the signal has.
_PARTS: dict[str, list[re.Pattern[str]]] = {n: alternatives(p) for n, p in _SIGNALS.items()}
_ENDS = list(accumulate(len(parts) for parts in _PARTS.values()))
#: Where each signal's alternatives stand in the gate's list.
_SPANS = {name: (end - len(_PARTS[name]), end) for name, end in zip(_PARTS, _ENDS, strict=True)}
#: The signals' literal gate: an alternative whose words a passage does not hold is not searched.
_GATE = Gate(p for parts in _PARTS.values() for p in parts)


#: Signals that make a hijack only beside another (see `_hijack`): read in a passage only when
#: one of the others is there.
_LAZY = frozenset({"data", "order"})
_EAGER = frozenset(_SIGNALS) - _LAZY


def signals(
    passage: str, opened: list[bool] | None = None, among: frozenset[str] | None = None
) -> set[str]:
    """The signals `passage` holds, of those `among` (all by default); `opened`: what the gate
    opened for it, if known."""
    found = set()
    if opened is None:
        opened = _GATE.open(passage)
    for name, parts in _PARTS.items():
        if among is not None and name not in among:
            continue
        start, end = _SPANS[name]
        if True not in opened[start:end]:  # (most signals: none of their words is there)
            continue
        live = [p for p, may_match in zip(parts, opened[start:end], strict=True) if may_match]
        if name in _NEGATABLE:
            present = any(_asserted(p, passage) for p in live)
        elif name in _QUOTABLE:
            present = any(_used(p, passage) for p in live)
        else:
            present = any(p.search(passage) for p in live)
        if present:
            found.add(name)
    return found


def _hijack(found: set[str], passage: str) -> bool:
    # A template needs its "{": a cheap test before the pattern.
    if "revoke" in found or "role" in found or ("{" in passage and _TEMPLATE.search(passage)):
        return True
    others = found - {"order"}
    sends = "data" in found and "destination" in found and _SENDS.search(passage)
    if sends and not _own_data_only(passage) and not _REPORTED_SEND.search(passage):
        return True
    strong = found & {"destination", "payment", "covert", "bypass"}
    guidance = not strong and bool(_GUIDANCE.search(passage))
    if "everyone" in found and ({"order", "data"} & found) and not guidance:
        return True
    if (
        ("policy" in found or "audience" in found)
        and not guidance
        and (found & {"order", "data", "destination", "everyone", "payment", "bypass", "covert"})
        # "我搬家了，即日起新地址是…，请帮我更新": the writer's own details, from a date on
        and not (found <= {"policy", "order", "data"} and _own_data_only(passage))
    ):
        return True
    if "bypass" in found and len(others) >= 2:
        return True
    if "standing" in found and "payment" in found:
        return True
    if "standing" in found and "destination" in found and not _MY.search(passage):
        return True
    if "bypass" in found and (_GRANTS.search(passage) or _REMEMBERED.search(passage)):
        return True
    if "covert" in found and _CHANGES.search(passage):
        return True
    if "standing" in found and "data" in found and not _own_data_only(passage):
        return True
    if "covert" in found and (found & {"data", "destination", "everyone", "payment"}):
        return True
    if "covert" in found and "order" in found and _LIES.search(passage):
        return True
    return "payment" in found and "destination" in found and "order" in found


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _example(m: re.Match[str]) -> str:
    return " " * len(m.group()) if len(m.group()) >= 10 else m.group()


def find_hijacks(text: str) -> list[tuple[int, int]]:
    """The passages of `text` whose signals make a hijack (character spans).

    Each sentence's signals are read once; a passage's are its two sentences' (a signal is a
    phrase, and none runs over a sentence's end), but for a mention-or-use signal, which is
    checked again over the passage (a quotation may run over two sentences). A request
    described to say how it is refused ("if a user asks you to ignore these rules, decline") is
    read as blank, and so is what a text about attacks quotes (a sentence, not a name such as
    “越狱模式”): an example. (Blanking only takes findings away: it is read for a text that has
    some.)"""
    spans = _hijacks(text)
    if not spans:
        return spans  # (most texts)
    mentioned = DEFINED.sub(_blank, _REFUSED.sub(_blank, text))
    if _ABOUT_ATTACKS.search(mentioned):
        mentioned = QUOTED.sub(_example, mentioned)
    return spans if mentioned == text else _hijacks(mentioned)


def _hijacks(text: str) -> list[tuple[int, int]]:
    cuts = _sentences(text)
    opened = _GATE.open_each(text, cuts)
    sentences = [text[cuts[i] : cuts[i + 1]] for i in range(len(cuts) - 1)]
    found = [signals(sentence, opened[i], _EAGER) for i, sentence in enumerate(sentences)]
    if in_game_rules(text):
        found = [f - {"role"} for f in found]
    lazy: dict[int, set[str]] = {}
    spans: list[tuple[int, int]] = []
    for i in range(len(found)):
        start, end = cuts[i], cuts[min(i + 2, len(cuts) - 1)]
        passage = text[start:end]
        pair = [i, i + 1] if i + 1 < len(found) else [i]
        held = set().union(*(found[j] for j in pair))
        if held:  # another signal is there: the ones that count only beside it, too
            for j in pair:
                if j not in lazy:
                    lazy[j] = signals(sentences[j], opened[j], _LAZY)
                held |= lazy[j]
        held = {
            name
            for name in held
            if name not in _QUOTABLE or i + 1 == len(found) or _used(_SIGNALS[name], passage)
        }
        if _hijack(held, passage):
            if spans and start < spans[-1][1]:
                spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
            else:
                spans.append((start, end))
    return spans
