"""Requests to remember: said before what is to be kept ("记住：…", "remember that …", "can you
note that …?") or after it ("…, so keep that in mind", "…。帮我记一下"), and what such a request
names when it says nothing itself."""

from __future__ import annotations

import re
from dataclasses import replace

from governed_memory.memory.write.extraction.clauses import _Clause, _clean, read
from governed_memory.memory.write.extraction.cues import _rx

_REMEMBER_ZH = re.compile(
    r"^\s*(?:这个|这点|这一点|这些|这条)?\s*(?:以后|往后|今后)?(?:都|也)?\s*(?:请|麻烦|你)?\s*(?:能不能|可不可以|可以|能)?\s*(?:帮我|给我)?\s*(?:能不能|可以|能)?\s*"
    # where it is to be kept ("在我账户里备注一下", "给我的档案上记一下")
    r"(?:(?:在|给)?(?:我的?)?(?:账户|账号|档案|资料|会员信息)(?:里|上|中)?\s*)?"
    r"(?:记住|记一下|记下来|记下|记好|记着|牢记|记录一下|记录下来|(?:(?<=以后)|(?<=往后)|(?<=今后)|(?<=[都也]))要?记得"
    r"|记得(?=我)|记录下|备注一下|备注)(?:一下|了(?=\s*[:：]))?\s*[:：,，]?\s*(?:这个|这点|这一点|以下|下面)?(?:的)?(?:信息|内容)?"
    r"\s*[:：,，]?\s*(?:就是)?\s*"
)
_REMEMBER_EN = _rx(
    r"^\s*(?:please\s+|pls\s+|kindly\s+|(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?"
    r"|(?:i'd|i would|i'd really|i want|i need)\s+(?:like\s+)?you\s+to\s+)?"
    # said as what it is for ("just so you remember —")
    r"(?:(?:just\s+)?so\s+(?:you|u)\s+(?:remember|have\s+it|know\s+for\s+next\s+time)"
    r"|remember|note(?:\s+(?:on|in|to)\s+(?:my\s+)?(?:account|profile|file|record))?"
    r"|keep in mind|bear in mind|don't forget|do not forget|make a note|take note"
    r"|take a note|for (?:your|future) reference|jot down|write down|note down|keep on file"
    r"|(?:just\s+)?so (?:it's|it is|that's) on (?:file|record)|for your records?"
    r"|(?:please\s+)?(?:put|keep) (?:it|this|that) on (?:file|record|my account)"
    r"|(?:put|add|leave|make)\s+a\s+note\s+(?:on|in|to)\s+(?:my\s+)?(?:account|profile|file|record)"
    r"|(?:record|log|store)(?=\s+that\s+(?:i|i'm|i've|my|we|we're|our)\b)"
    r"|save(?=\s+that\b|\s+this(?:\s+for\s+(?:me|next\s+time|later|the\s+future))?"
    r"(?:\s+(?:please|pls|plz))?\s*[:：\-—–]))"
    # for when ("remember for next time: ...", "note for the future, ...")
    r"(?:\s+(?:for\s+(?:next time|the future|later|future orders)|going forward|from now on))?"
    r"(?:\s+(?:that|this|of this|of that|down))?"
    r"(?:\s+for\s+(?:me|next time|the future|later|future orders))?(?:\s+(?:please|pls|plz))?"
    r"\s*[:,\-—–]?\s*"
    r"(?:that\s+)?"
)
#: A request to remember asked as a question ("can you remember that I'm colorblind?",
#: "能不能记一下…"): a request, its rest a statement.
_ASKED_TO_REMEMBER = re.compile(
    r"^\s*(?:(?:can|could|would|will)\s+(?:you|u)\s|(?:你)?(?:能不能|可不可以|能|可以)\s*(?:帮我)?"
    r"\s*(?:记|备注))"
)
#: What a request to remember names when it says nothing itself: the talk ("this conversation
#: for me"), or a topic whose value it has yet to give ("你能记住我的尺码吗").
NOTHING_SAID = re.compile(
    r"^\s*(?:(?:(?:this|that|the|our)\s+)?(?:conversation|chat|discussion|thread|talk)|this|that|it"
    r"|everything|all\s+(?:this|that|of\s+this)|what\s+(?:we|i)\s+(?:said|talked\s+about)"
    # taken back at once ("just so you remember — nvm, forget it")
    r"|(?:(?:nvm|never\s*mind|forget\s+(?:it|that|about\s+it))[,\s]*)+"
    # a slot of the user's whose value is yet to come ("my shoe size for me?", "my order
    # number")
    r"|my\s+(?:[a-z]+\s+){0,2}(?:size|number|address|birthday|name|colou?rs?|code|id|details"
    r"|e-?mail|phone|zip|postcode|preferences?))"
    r"(?:\s+for\s+(?:me|next\s+time|the\s+future|later|future\s+orders))?\s*[?.!]*\s*$"
    r"|^\s*(?:这(?:段|个|次)?(?:对话|聊天|聊天记录|谈话)|这些|这个|(?:别|不要)(?:搞)?忘(?:了|记了?)?|我的(?:尺码|鞋码|码数|衣服尺码|地址|电话|号码|生日|信息|偏好|会员号|会员卡号|卡号|订单号|单号|工号|学号|邮箱|手机号)"
    r"|我(?:喜欢|常用|最爱|平时穿|穿)的[\u4e00-\u9fff]{0,4}?(?:尺码|码数|颜色|牌子|品牌|口味|型号))"
    r"(?:吗|呢|吧|哈|啊|呀|哦|啦)?\s*[?？。！!]*\s*$"
)
_REMEMBER_EMPTY = re.compile(r"^[\s了吗吧啊呀哦嗯么呢哈啦嘛呗.!?。！？]*$")


def _asked_to_remember(norm: str) -> bool:
    return bool(_ASKED_TO_REMEMBER.match(norm))


def _remember_rest(clause: _Clause) -> str | None:
    """What a "remember that ..." clause asks to keep (verbatim), "" when it continues in the
    next clause, None when the clause is not such a request."""
    for rx in (_REMEMBER_ZH, _REMEMBER_EN):
        m = rx.match(clause.norm)
        if m is None:
            continue
        rest_norm = clause.norm[m.end() :]
        if re.match(r"^(?:了|to\s)", rest_norm) or (
            rx is _REMEMBER_EN and rest_norm.startswith("me")
        ):
            return None
        cut = len(clause.raw) - len(rest_norm) if len(clause.norm) == len(clause.raw) else None
        rest = clause.raw[cut:] if cut is not None else rest_norm
        return "" if _REMEMBER_EMPTY.match(rest) else _clean(rest)
    return None


#: A request to remember what was just said, ending the clause it is in ("…, so keep that in
#: mind", "Can you just keep that on file pls", "…，帮我记一下哈").
_REMEMBER_BACK = re.compile(
    r"(?:^|[\s,;:—–-])(?:(?:so|and|but|pls|please|plz|just)\s+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:just|please|pls)\s+)*)?"
    r"(?:(?:keep|bear|have)\s+(?:that|this|it|those|these)\s+in\s+mind"
    r"|(?:keep|put|have|save|note)\s+(?:that|this|it)\s+(?:on|in)\s+(?:file|record|my\s+(?:account"
    r"|profile|file))"
    r"|(?:remember|note|save)\s+(?:that|this)(?:\s+for\s+(?:me|next\s+time|the\s+future))?)"
    r"(?:\s+(?:please|pls|plz|thanks|thx|for\s+me))*[\s.!?]*$"
    r"|(?:^|[，,\s])(?:所以|麻烦|请|你)?(?:帮我|给我)?(?:把这个|把这点|把这些)?"
    r"(?:记住|记一下|记下来|记下|备注一下)(?:这个|这点|这些)?(?:吧|哈|啊|呀|哦|了|喔|噢|谢谢)*"
    r"[\s。！!]*$"
)
#: A word pointing back at what was said ("that", "这个", "记住了"): a request alone in its
#: sentence, or in its clause within one, that has one keeps what was said before it,
#: wherever it stands.
_POINTS_BACK = re.compile(r"(?<![a-z])(?:that|this|it|those|these)(?![a-z])|这个|这点|这些|记住了")


#: A clause that only greets or acknowledges: nothing to keep.
_GREETING = re.compile(
    r"^\s*(?:你好|您好|哈喽|嗨|亲|在吗|在不在|早上好|下午好|晚上好|好的|嗯|hi|hello|hey|ok|okay"
    r"|good\s+(?:morning|afternoon|evening))[\s!！~～.。,，?？]*$"
)


def remembered_back(clauses: list[_Clause]) -> tuple[_Clause, list[_Clause]] | None:
    """A sentence with a request to remember what it has just said (`_REMEMBER_BACK`): a clause
    of its own after others ("以后打电话前先发微信 记住了哈 我开会多") or the end of the last
    one ("…, so keep that in mind"). What is to be kept, as one clause said as a statement (not
    the question the request was asked in), and the clauses after the request; None when there
    is no such request, or nothing before it."""
    for n in range(len(clauses) - 1, -1, -1):
        clause = clauses[n]
        m = _REMEMBER_BACK.search(clause.norm)
        if m is None:
            continue
        if n < len(clauses) - 1 and (
            clause.norm[: m.start()].strip(" ,，") or not _POINTS_BACK.search(clause.norm)
        ):
            continue  # ("你好，帮我记一下，我穿42码": what follows it is what is to be kept)
        if len(clause.norm) != len(clause.raw) and m.start() > 0:
            return None  # (folding changed the length: where the request starts is unknown)
        kept = [c.raw for c in clauses[:n] if not _GREETING.match(c.norm)]
        before = clause.raw[: m.start()].strip(" ,，;；:：—–-")
        before = re.sub(r"(?i)\s*(?:so|and|but|所以)$", "", before).strip(" ,，")
        if before:
            kept.append(before)
        if not kept:
            return None
        glue = "，" if re.search(r"[\u4e00-\u9fff]", clause.raw) else ", "
        raw = glue.join(kept)
        said = replace(clause, raw=raw, norm=read(raw), question=False, order=clauses[0].order)
        return said, clauses[n + 1 :]
    return None


def remember_request_alone(clauses: list[_Clause], *, last: bool) -> bool:
    """A sentence that is only a request to remember what was said before it: pointing back
    at it ("Please remember that."), or ending the message ("帮我记一下。")."""
    if len(clauses) != 1:
        return False
    norm = clauses[0].norm.strip()
    m = _REMEMBER_BACK.search(norm)
    return (
        m is not None
        and not norm[: m.start()].strip(" ,，")
        and (last or bool(_POINTS_BACK.search(norm)))
    )


def with_requests_to_remember_joined(sentences: list[list[_Clause]]) -> list[list[_Clause]]:
    """The sentences, a request to remember said alone after one ("I only buy unscented. Can
    you keep that on file?") joined to it: what it asks to keep (`remember_request_alone`)."""
    out: list[list[_Clause]] = []
    for n, sentence in enumerate(sentences):
        if out and remember_request_alone(sentence, last=n == len(sentences) - 1):
            out[-1] = [*out[-1], *sentence]
        else:
            out.append(sentence)
    return out
