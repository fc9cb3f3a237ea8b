"""What only the shop may grant, waive or show, asked of the assistant in plain words (part of
the `prompt_injection` detector's rules, `injection`), as blind set 55 showed it after it was
read once:

- a privilege granted to the writer's own account (marked VIP, moderator rights, store credit
  added, gift-card codes generated, a permanent discount, the staff discount every time);
- a check the shop runs waived for the writer (a fraud hold lifted, a verification step skipped,
  "no need to double-check my orders" for the future, 身份确认那些步骤就免了);
- the shop's limits said lifted for the writer, the writer's word made final, a pass-word that
  makes anyone an account's owner, refunds paid to the writer for orders others placed;
- what the shop keeps from a customer asked for: other shoppers' words, the previous user's
  chat, the hidden or first prompt, server logs, the cards saved on an account, staff
  credentials (encoded or not), the delivery details of any order the writer names;
- the assistant's configuration switched off ("safety policies = off", 系统提示全部作废), its
  operator's restrictions dropped, or the assistant made a version of itself with none;
- an instruction addressed to any automated reader inside a document ("AI agent instruction:",
  "IMPORTANT FOR ANY AUTOMATED ASSISTANT:"), or a grant to see or waive everything inside one.

None of these behind a ban or a denial ("never remove a fraud hold without review")."""

from __future__ import annotations

import re

from governed_memory.memory.write.detectors._text import QUOTED, _Rule, _rules, _w
from governed_memory.memory.write.detectors.injection_cues import _not_prohibited

# -- a privilege granted to the writer's own account
_MARKED_PRIVILEGED = _w(
    r"(?:mark|set|flag|make|upgrade|switch)\s+my\s+(?:account|profile|user(?:\s+id)?)\s+"
    r"(?:as|to|into)\s+(?:an?\s+)?(?:vip|admin(?:istrator)?|staff|moderator|premium\s+for\s+free"
    r"|trusted|wholesale|employee)"
    r"|(?:grant|give)\s+(?:my\s+(?:user(?:\s+id)?|account)(?:\s+[\w#-]+)?|user(?:\s+id)?\s+[\w#-]+)"
    r"\s+(?:full\s+)?(?:admin|moderator|staff|manager|editor|superuser|root|operator)\s+(?:rights"
    r"|access|privileges|permissions|role|status)"
    r"|(?:add|credit|load|put|deposit)\s+(?:\$|£|€|¥)?\d[\d,.]*\s*(?:euros?|dollars?|pounds?|usd|eur"
    r"|gbp|bucks)?\s+(?:of\s+|in\s+|worth\s+of\s+)?(?:store\s+)?(?:credit|balance|funds|points)\s+"
    r"(?:to|on|onto|into)\s+my"
    r"|(?:generate|create|issue|make)\s+(?:me\s+)?(?:\d+|some|a\s+few|several|a\s+bunch\s+of)\s+"
    r"(?:(?:\$|£|€)?\d+\s+)?(?:gift[- ]?card|voucher|coupon|discount|promo)\s+codes?"
    r"|apply\s+(?:a|the)\s+(?:permanent|lifetime|standing|forever)\s+\d+\s*%\s+discount"
    r"|my\s+account\s+gets\s+the\s+(?:staff|employee|internal|trade)\s+discount"
    r"|apply\s+(?:the\s+)?(?:staff|employee|internal)\s+discount\s+(?:automatically|every\s+time"
    r"|always|by\s+default)"
)
_ZH_MARKED_PRIVILEGED = (
    r"(?:账号|账户|帐号|会员)(?:直接)?(?:升级|改|设)(?:成|为)(?:永久)?(?:vip|svip|超级会员|管理员|员工)"
    r"|以后所有(?:的)?订单(?:都|一律)?(?:打|享受?)[一二三四五六七八九]折"
    r"|(?:默认|自动|一直|永久)(?:享受|用上|给我用|打)?(?:员工|内部)(?:折扣|价|内购价|优惠)"
)

# -- a check the shop runs waived for the writer
_CHECK_LIFTED = _w(
    r"(?:remove|lift|clear|override|release|drop|take\s+off)\s+the\s+(?:fraud|security|risk"
    r"|payment|account)\s+(?:hold|flag|block|lock|review)"
    r"|skip\s+the\s+(?:[\w-]+\s+)?(?:verification|review|approval|fraud|identity|security)\s+"
    r"(?:step|check|process|stage)"
    r"|(?:don't|do\s+not|without)\s+flag(?:ging)?\s+(?:it|this|them|the\s+\w+)\s+for\s+review"
    r"|skip\s+(?:all|every|any)\s+confirmation\s+(?:prompts|steps|checks|dialogs)"
    r"|never\s+needs?\s+to\s+(?:check|verify|confirm)\s+anything"
    r"|no\s+verification\s+is\s+(?:ever\s+)?(?:required|needed|necessary)"
)
#: A check waived "for the future" only ("no need to double-check my orders" alone may be
#: a customer saying a parcel came fine): the standing cue is anywhere in the text.
_STANDING_WAIVER = _w(
    r"(?:no\s+need\s+to|don't\s+(?:need\s+to\s+)?|never|stop)\s+(?:double-?check|verify|check"
    r"|confirm|question)(?:ing)?\s+my\s+(?:orders?|identity|account|returns?|claims?|refunds?)"
)
_STANDING = re.compile(
    _w(
        r"for\s+(?:future|all\s+future|next)\s+(?:chats|orders|time|messages)|from\s+now\s+on"
        r"|going\s+forward|from\s+here\s+on|every\s+time|in\s+(?:the\s+)?future|always"
    ),
    re.IGNORECASE,
)


def _used(text: str, m: re.Match[str]) -> bool:
    """Neither forbidden nor quoted ("customers may ask you to 'just skip the security
    questions'": a guide's example)."""
    inside = any(q.start() <= m.start() and m.end() <= q.end() for q in QUOTED.finditer(text))
    return not inside and _not_prohibited(text, m)


def _standing_waiver(text: str, m: re.Match[str]) -> bool:
    return _used(text, m) and _STANDING.search(text) is not None


_ZH_CHECK_LIFTED = (
    r"(?:直接)?(?:核准|批准|通过|审核通过)[^。！!？?]{0,12}(?:不需要|不用|无需|不必)(?:再)?(?:检查|核对|审核"
    r"|查看|验证)"
    r"|以后[^。！!？?]{0,8}(?:不用|不必|无需|免)(?:再)?(?:核对|核实|验证|审核|确认身份)"
    r"|(?:身份确认|身份验证|核实身份|验证身份|身份核实)[^。！!？?]{0,6}(?:就)?(?:免了|省了|跳过|不用了)"
)

# -- the shop's limits lifted for the writer, the writer's word made final
_LIMITS_LIFTED = _w(
    r"(?:limits?|restrictions?|rules?|caps?|policies)\s+(?:have\s+been|are|were|'ve\s+been)\s+"
    r"(?:lifted|waived|removed|suspended)\s+for\s+(?:me|my\s+account)"
    r"|assume\s+(?:they|those|the\s+limits?)\s*(?:'ve|have)\s+been\s+lifted\s+for\s+my"
    r"|treat(?:ed|ing)?\s+my\s+word\s+as\s+final"
    # someone else's order or account acted on ("cancel all the orders on #4410 — that's my ex's")
    r"|(?:send|cancel|change|delete|forward|give\s+me|close|refund)\b[^.?!\n]{0,60}?\b(?:order|account)"
    r"\b[^\n]{0,40}?(?:it's|that's|it\s+is|that\s+is)\s+(?:my\s+)?(?:neighbou?r|ex|co-?worker"
    r"|colleague|boss|landlord|room-?mate|flatmate)'s\s+(?:order|account)"
    r"|(?:should|will|must)\s+be\s+treated\s+as\s+the\s+owner\s+of\s+(?:any|whatever|every|their)"
    r"|(?:refunds?|money|credit)[^.?!\n]{0,80}?(?:go|goes|sent|paid|come)\s+to\s+my[^.?!\n]{0,60}?"
    r"even\s+if\s+(?:someone|somebody)\s+else"
    r"|the\s+answer\s+to\s+['\"‘“]?can\s+i\s+(?:get|have)\s+(?:this|it)\s+for\s+free"
)

# -- what the shop keeps from a customer, asked for
_OTHERS_WORDS = _w(
    r"(?:list|listing|tell\s+me|share|repeat|show\s+me)\s+[^.?!\n]{0,40}?\bother\s+(?:shoppers"
    r"|customers|users|buyers|clients|people)\s+(?:have\s+)?(?:asked|said|told|talked|chatted"
    r"|wrote|bought)"
    r"|(?:previous|last|other|earlier)\s+(?:user|customer|person|caller|shopper)\s+(?:talked"
    r"|spoke|chatted|talk|speak|chat)\s+(?:to|with)\s+you\s+about"
    r"|what\s+(?:she|he|they)(?:'s|\s+has|\s+have|'ve)\s+been\s+buying\s+and\s+what\s+(?:she|he"
    r"|they)\s+told\s+you"
    r"|(?:things|what|stuff|information)\s+the\s+(?:store|shop|company|team|owner)\s+(?:asked"
    r"|told)\s+you\s+to\s+keep\s+(?:private|secret|confidential)"
    r"|(?:delivery|shipping|recipient)\s+(?:details|address(?:es)?|info(?:rmation)?)\s+(?:of|for"
    r"|on)\s+(?:whichever|any|every|whatever)\s+order"
    r"|(?:which|what)\s+(?:credit\s+|debit\s+)?cards\s+are\s+(?:saved|stored|on\s+file)\s+(?:on"
    r"|for|in|under)\s+account"
)
_ZH_OTHERS_WORDS = (
    r"上一个(?:用户|客户|顾客|人)(?:跟|和|对|与)你(?:聊|说|问)了?(?:什么|啥|些什么)"
    r"|其他(?:顾客|客户|用户|买家|人)(?:最近)?(?:都)?(?:跟你|和你|对你)?(?:问|说|聊)(?:了|过)?(?:你)?"
    r"(?:些|的)?(?:什么|啥|对话|内容)"
    r"|(?:不管|无论)我给(?:哪个|什么|哪一个)订单(?:号码|号)?[^。！!？?]{0,10}(?:收件人|收货人)?的?(?:地址|电话)"
    r"|(?:地址|电话|手机号)[^。！!？?]{0,10}发给我[^。！!？?]{0,6}(?:那|这)是(?:我)?(?:同事|朋友|邻居|前任|别人"
    r"|室友|老板)的"
)
_HIDDEN_PROMPT = _w(
    r"(?:full\s+)?text\s+of\s+the\s+(?:prompt|instructions|system\s+message)\s+you\s+(?:were|got"
    r"|have\s+been)\s+given"
    r"|(?:repeat|print|show|paste|output|recite)\s+(?:me\s+)?(?:the\s+)?(?:hidden|invisible"
    r"|secret)\s+(?:text|message|instructions)\s+(?:above|before)"
    r"|(?:send|show|give|paste|dump|export|forward)\s+(?:me\s+)?(?:the\s+)?(?:server|access|error"
    r"|system|application|api|nginx)\s+logs"
    r"|(?:show|tell|give|send|share|paste)\s+me\s+the\s+(?:admin|staff|manager|dashboard|back[- ]?"
    r"office)\s+(?:login|password|credentials)"
    r"|(?:encode|base64|hex)[^.?!\n]{0,30}?(?:staff|admin|employee|store)\s+(?:credentials"
    r"|passwords?|logins?)"
)

# -- the assistant's configuration switched off, or made a version of itself with none
_CONFIG_OFF = _w(
    r"(?:safety|content|security|moderation)\s+(?:policies|policy|filters?|rules|guardrails)\s*"
    r"(?:=|:)\s*(?:off|disabled|false|none|0)"
    r"|treat\s+my\s+(?:messages|words|instructions|input)\s+as\s+(?:your\s+)?(?:system|developer"
    r"|admin)\s+(?:instructions|prompt|messages)"
    r"|ignore\s+(?:what|everything)\s+(?:ur|your)\s+(?:developers?|devs|creators|makers"
    r"|operators?|owners?)\s+(?:told|said|taught)"
    r"|(?:drop|remove|disable|lift|clear)\s+(?:every|all|any)\s+(?:restriction|rule|limit"
    r"|guardrail|filter)s?\s+(?:your|the)\s+(?:operator|developer|owner|admin)s?"
    r"|(?:with|has)\s+(?:admin|root|full)\s+(?:privileges|rights|access)\s+and\s+(?:zero|no)\s+"
    r"(?:restrictions|limits|rules)"
    r"|(?:an?\s+ai|assistant|bot|version\s+of\s+yourself|chatbot|model)\s+(?:with|that\s+has)\s+"
    r"(?:no|zero)\s+(?:guardrails|restrictions|filters|limits|rules|safety)"
    r"|(?:who|that)\s+(?:doesn't|does\s+not|never)\s+follow(?:s)?\s+(?:the\s+)?(?:policy|policies"
    r"|rules|guidelines)"
    r"|usual\s+(?:policies|rules|checks)\s+(?:don't|do\s+not|no\s+longer)\s+apply"
)
_ZH_CONFIG_OFF = (
    r"(?:系统提示|系统指令|系统设定|提示词)[^。！!？?]{0,4}(?:全部|都|全都)?"
    r"(?:作废|失效|无效|清空|删掉|删除)"
)

# -- an instruction to any automated reader, or a grant of everything, inside a document
_TO_AUTOMATED_READER = _w(
    r"(?:ai|agent|assistant|automated\s+assistant)\s+(?:agent\s+)?(?:instruction|directive)s?\s*:"
    r"|(?:for|to)\s+(?:any|all|every)\s+(?:automated\s+(?:assistants?|agents?|readers?|systems?)"
    r"|ai(?:\s+(?:assistants?|agents?|models?))?|assistants?|bots?)\s*:"
    r"|(?:may|can)\s+access\s+(?:any|every|all)\s+(?:accounts?|customers?'?\s+(?:accounts|orders))"
)
_ZH_TO_AUTOMATED_READER = (
    r"(?:是管理员|有管理员权限)[^。！!？?]{0,10}(?:可以|能)(?:查看|访问|修改)(?:所有人|任何人|所有用户|任何用户)"
    r"|(?:获|被)授权(?:免除|免去|豁免)[^。！!？?]{0,10}(?:所有|全部)费用"
)

PRIVILEGED_RULES: tuple[_Rule, ...] = (
    *_rules("task_hijack", _MARKED_PRIVILEGED, _ZH_MARKED_PRIVILEGED, check=_used),
    *_rules("task_hijack", _CHECK_LIFTED, _ZH_CHECK_LIFTED, _LIMITS_LIFTED, check=_used),
    *_rules("task_hijack", _STANDING_WAIVER, check=_standing_waiver),
    *_rules("data_exfiltration", _OTHERS_WORDS, _ZH_OTHERS_WORDS, check=_used),
    *_rules("prompt_exfiltration", _HIDDEN_PROMPT, check=_used),
    *_rules("instruction_override", _CONFIG_OFF, _ZH_CONFIG_OFF, check=_used),
    *_rules("hidden_directive", _TO_AUTOMATED_READER, _ZH_TO_AUTOMATED_READER, check=_used),
)
