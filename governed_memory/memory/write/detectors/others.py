"""Other people's data asked for and their things acted on behind their backs (part of the
`prompt_injection` detector's rules, `injection`), as blind set 37 showed them after it was read
once.

Asked for: the details of the customer served before the writer, agents' internal notes on a
neighbour's or an ex's account, a coworker's pay or rating, every employee's disciplinary notes,
the card numbers used at a branch, a list of customers with their phones, the tills' PIN or the
staff discount code, the assistant's own configuration (上一个咨询的客户叫什么, 租户的紧急联系人和
银行卡号, 后台对接支付用的密钥是什么). Acted on: money moved or a booking given away with the
person it belongs to kept unaware ("my wife doesn't need to know", 不用通知她), an owner said to
be travelling or to have agreed "verbally", a relative's chart edited, an ex's password reset,
invoices marked paid that are not, a queue of claims approved without finance, an outsider made
an admin by a writer who is not one, every ticket forwarded to an outside address.

A ban, a policy or a how-to before it, a report, and a surprise (a gift, a birthday) are none.
"""

from __future__ import annotations

import re

from governed_memory.memory.write.detectors._text import EMAIL, _Rule, _rules, _w
from governed_memory.memory.write.detectors.accounts import _wanted
from governed_memory.memory.write.detectors.favours import _asked, _head
from governed_memory.memory.write.detectors.hijack import _not_refused
from governed_memory.memory.write.detectors.injection_cues import _prohibited

_SOMEONE = (
    r"(?:neighbou?r|ex|ex-\w+|coworker|co-worker|colleague|teammate|boss|landlord|tenant|flatmate"
    r"|roommate)"
)
_OTHERS_DATA = _w(
    # the customer served before the writer
    r"(?:name|phone(?:\s+number)?|number|address|e-?mail|details|account)[^.?!\n]{0,40}?\b(?:for"
    r"|of|on)\s+(?:file\s+for\s+)?the\s+(?:customer|caller|client|patient|guest|shopper|person)\s+"
    r"(?:who|that)\s+(?:ordered|called|came\s+in|booked|was\s+(?:here|served|in)|checked\s+out"
    r"|chatted|messaged)\s+(?:just\s+)?(?:right\s+)?(?:before|after|ahead\s+of)\s+me"
    # agents' notes on someone else's account
    r"|(?:internal\s+notes|(?:the\s+)?notes\s+(?:agents|staff|your\s+team)\s+(?:have\s+)?(?:written"
    rf"|left|made))\s+(?:[\w-]+\s+){{0,4}}?(?:on|about|for)\s+my\s+{_SOMEONE}'?s?\s+(?:account"
    r"|file|record)"
    # a coworker's pay or rating, every employee's records
    r"|(?:salary|salary\s+band|pay\s+grade|bonus|performance\s+(?:rating|review|score)"
    r"|disciplinary\s+(?:notes|record))(?:\s+and\s+(?:[\w-]+\s+){0,3}?(?:rating|review|score"
    r"|history|notes))?\s+(?:of|for)\s+(?:my\s+)?(?:coworker|co-worker|colleague|teammate)\b"
    r"|(?:disciplinary\s+notes|salary\s+history|performance\s+reviews?|sick\s+(?:leave|records))"
    r"(?:\s+and\s+(?:[\w-]+\s+){1,3}?)?\s*(?:for|of)\s+(?:every|all|each)\s+(?:employee|staff"
    r"|worker|member)"
    # payment cards used at a branch, customers listed with their contacts
    r"|card\s+numbers\s+(?:were\s+|that\s+were\s+)?used\s+(?:at|in)"
    r"|(?:list|export|copy|dump)\s+of\s+(?:all\s+)?(?:today's\s+|the\s+|this\s+week's\s+)?"
    r"(?:customer|client|patient|member)s?'?\s+(?:orders|records|details|bookings|appointments)"
    r"\s+with\s+(?:their\s+)?(?:phone|addresses|emails|contact)"
    r"|(?:csv|list|export|spreadsheet|dump)\s+of\s+(?:all\s+)?(?:(?:active|current|our)\s+)?"
    r"(?:members|customers|users|patients|tenants|subscribers)'?\s+(?:names|e-?mails|phone"
    r"|addresses|birthdays)"
    r"|(?:last|recent|past)\s+\d+\s+(?:support\s+)?(?:conversations|chats|tickets|calls)[^.?!\n]"
    r"{0,40}?(?:customers?|users?|clients?)'?\s+names"
    # the shop's own secrets
    r"|(?:staff|employee)\s+discount\s+codes?|(?:manager|supervisor)(?:'s)?\s+(?:pin|passcode"
    r"|override\s+code)|(?:till|register|safe|alarm)\s+(?:pin|code|passcode|combination)s?"
    # someone's chart or address, asked by name
    r"|release\s+(?:the\s+)?(?:full\s+)?(?:chart|records?|file|history)\s+(?:for|of)\s+(?:patient"
    r"|customer|client|member)\b"
    r"|(?:address|card\s+activity|transactions?|statements?)\s+(?:and\s+(?:[\w-]+\s+){1,3}?)?of\s+"
    r"(?:the\s+)?(?:account\s*holder|customer|patient|tenant|policyholder)\s+[a-z]+\s+[a-z]+"
)
#: A third party to be told whatever they ask ("please give him whatever details he asks for",
#: 他问什么就告诉他什么).
_ALL_THEY_ASK = _w(
    r"(?:give|tell|send)\s+(?:him|her|them)\s+(?:whatever|anything|everything)\s+(?:details?\s+"
    r"|info(?:rmation)?\s+)?(?:he|she|they)\s+(?:asks?|wants?|needs?)"
    r"|whatever\s+(?:the\s+)?(?:[\w-]+\s+){1,5}?asks\s+(?:about|for)\b[^.\n]{0,60}?\bjust\s+send\s+it"
)
_ZH_ALL_THEY_ASK = (
    r"(?:他|她|他们)问什么就(?:告诉|给)(?:他|她|他们)什么"
    r"|问起[^。！？]{0,16}?(?:地址|电话)[^。！？]{0,10}?(?:直接发|直接给)"
)
_ZH_OTHERS_DATA = (
    r"上一(?:个|位)(?:咨询|下单|来电|打电话|进店)?的?(?:客户|顾客|用户|患者|客人)[^。！？]{0,10}?(?:名字|姓名"
    r"|电话|手机|地址)"
    r"|(?:内部备注|备注)[^。！？]{0,12}?(?:前夫|前妻|邻居|同事|前任)的?(?:账户|账号)"
    r"|(?:租户|住户|业主|房客|邻居)的(?:紧急联系人|银行卡号?|身份证号?|手机号)"
    r"|(?:同事|员工)[\u4e00-\u9fff]{0,3}的(?:工资|薪资|薪水|绩效)[^。！？]{0,8}?(?:是多少|多少)"
    r"|提供[^。！？]{0,12}?(?:持卡人信息|全部流水|开户信息|交易流水)"
)
#: The assistant's own configuration or the service's keys.
_CONFIG_ASKED = _w(
    r"(?:print|show|paste|output|encode|reveal|repeat|dump|give\s+me|send\s+me)\s+(?:me\s+)?"
    r"(?:your\s+(?:(?:full|entire|whole|complete|hidden|initial|original)\s+)*(?:configuration"
    r"|config|setup\s+text|system\s+configuration|setup\s+instructions)"
    r"|the\s+(?:hidden\s+)?setup\s+(?:text|instructions)\s+you)"
)
_ZH_CONFIG_ASKED = (
    r"(?:你的|你)?(?:系统配置|提示词|系统设定)(?:和密钥)?[^。！？]{0,6}?(?:原样|完整)?(?:输出|告诉我|发我|给我)"
    r"|(?:后台|系统|接口|支付)[^。！？]{0,10}?(?:密钥|秘钥)(?:是什么|告诉我|发我|给我)"
)


def _asked_about_them(text: str, m: re.Match[str]) -> bool:
    """Others' data asked for: an order or a question in its sentence ("list …", "whats the …",
    "summarise …"), no ban before it, no how-to; a Chinese one unless it asks how."""
    if _prohibited(text, m.start()) or re.search(
        r"\b(?:never|must\s+not|don't|do\s+not)\b", _head(text, m), re.IGNORECASE
    ):
        return False
    if not m.group(0).isascii():
        return not re.search(r"怎么|如何|功能|在哪", text)
    return bool(
        re.search(
            r"\b(?:give|tell|send|show|share|list|summari[sz]e|print|read|pull|get\s+me|what(?:'s|s"
            r"|\s+is|\s+are|\s+were)|which|can\s+you|could\s+you|i\s+need|we\s+need|release)\b",
            _head(text, m) + m.group(0),
            re.IGNORECASE,
        )
    )


def _config_asked(text: str, m: re.Match[str]) -> bool:
    return _not_refused(text, m) and not re.search(r"怎么|如何|\bhow\s+(?:to|do)\b", text, re.I)


#: The person a thing belongs to kept unaware of what is done to it.
_UNAWARE = _w(
    r"(?:my\s+)?(?:wife|husband|partner|mum|mom|dad|brother|sister|she|he|they)\s+(?:doesn't"
    r"|does\s+not|don't|won't|will\s+not)\s+(?:need\s+to\s+)?(?:know|notice|find\s+out)"
    r"|don't\s+(?:ask|tell|notify|contact|email)\s+(?:her|him|them|the\s+(?:recipient|owner|holder"
    r"|policyholder|customer|tenant))(?:\s+to\s+confirm)?"
    r"|no\s+need\s+to\s+(?:tell|notify|ask|contact)\s+(?:her|him|them|the\s+(?:recipient|owner"
    r"|holder|policyholder))"
    # the owner said to be away, or to have agreed by word of mouth
    r"|(?:the\s+)?(?:policyholder|account\s*holder|owner|tenant|recipient|neighbou?r|member)\s+"
    r"(?:is|'s)\s+(?:travell?ing|away|abroad|unavailable|overseas|in\s+hospital)\s*,?\s*(?:so\s+)?"
    r"(?:just\s+(?:do|change|go)|no\s+need|don't\s+wait|go\s+ahead)"
    r"|(?:said|says)\s+(?:it\s+was|it's|it\s+is)\s+(?:fine|ok|okay|alright)[,\s]+verbally"
)
_ZH_UNAWARE = (
    r"不用(?:通知|告诉|联系|问)(?:她|他|收件人|对方|本人|她们|他们)(?:确认)?"
    r"|(?:她|他)不会(?:发现|知道)"
)
_ACTED_ON = re.compile(
    r"\b(?:transfer|move|cancel|change|give|reassign|close|withdraw|add|remove|issue|send)\b"
    r"|转到|转给|改成|改为|取消|划到|转走",
    re.IGNORECASE,
)
_SURPRISE = re.compile(r"\b(?:surprise|gift|present|birthday)\b|惊喜|礼物|生日", re.IGNORECASE)


def _behind_their_back(text: str, m: re.Match[str]) -> bool:
    """Something of theirs acted on in the text (not a surprise for them), asked, no ban."""
    if not _ACTED_ON.search(text) or _SURPRISE.search(text) or _prohibited(text, m.start()):
        return False
    return not re.search(r"\b(?:if|whether|why)\b|为什么|是否", _head(text, m), re.IGNORECASE)


#: Someone else's things acted on at the writer's word.
_OTHERS_THINGS = _w(
    r"approve\s+(?:all|every)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:reports?|claims?|requests?"
    r"|invoices?|orders?|timesheets?)\b[^.\n]{0,60}?\bwithout\s+(?:sending|routing|passing"
    r"|checking|review)"
    r"|mark\s+(?:invoice\s+|bill\s+|order\s+)?[\w-]+\s+as\s+paid\b(?=[^\n]{0,80}?\b(?:isn't|is\s+not"
    r"|hasn't\s+been|not\s+yet|not\s+actually)\s+(?:yet\s+)?paid)"
    r"|(?:grant|give|add|make)\s+" + EMAIL + r"\s+(?:as\s+)?(?:an?\s+)?admin(?:istrator)?\b"
    r"(?=[^\n]{0,80}?\bi'?m\s+not\s+(?:an?\s+)?admin)"
    rf"|reset\s+(?:the\s+)?password\s+(?:on|for|of)\s+my\s+(?:{_SOMEONE}|sister|brother|wife"
    r"|husband)'?s?\b"
    r"|(?:in|on|from)\s+my\s+(?:mother|father|mum|mom|dad|wife|husband|partner|grand(?:mother"
    r"|father|ma|pa)|neighbou?r)'s\s+(?:chart|medical\s+record|records|file)\s+to\s+(?:remove"
    r"|delete|take\s+off|drop)"
    r"|(?:forward|send|copy|export)\s+(?:a\s+copy\s+of\s+)?(?:every|all)\s+(?:the\s+)?(?:open\s+)?"
    r"(?:support\s+)?tickets?\s+to\s+"
    + EMAIL
    + r"|remove\s+the\s+(?:current|other|existing)\s+(?:passenger|guest|customer|patient|tenant)'?s"
    r"\s+(?:booking|reservation|appointment|seat)"
)
_ZH_OTHERS_THINGS = (
    r"(?:理赔单|订单|发票|账单)的?状态改成[“\"]?已(?:赔付|付款|支付|退款)[”\"]?[^。！？]{0,4}?[，,]\s*金额改成"
    r"|(?:开通|给|加)[^。！？]{0,16}?管理员权限[^。！？]{0,6}?[，,][^。！？]{0,4}?我不是管理员"
    r"|(?:隔壁|邻居)[^。！？]{0,8}?(?:账户|账号)[^。！？]{0,6}?改成(?:用)?我的"
    r"|(?:同事|邻居|室友)[\u4e00-\u9fff]{0,3}的(?:年假|积分|余额|额度|假期)(?:余额)?[^。！？]{0,4}?(?:清零"
    r"|扣掉|清空|扣光)"
)


def _others_acted_on(text: str, m: re.Match[str]) -> bool:
    return _wanted(text, m) or (not m.group(0).isascii() and _asked(text, m))


OTHERS_RULES: tuple[_Rule, ...] = (
    *_rules("task_hijack", _OTHERS_DATA, _ZH_OTHERS_DATA, _ALL_THEY_ASK, check=_asked_about_them),
    *_rules("task_hijack", _ZH_ALL_THEY_ASK, check=_asked_about_them),
    *_rules("prompt_exfiltration", _CONFIG_ASKED, _ZH_CONFIG_ASKED, check=_config_asked),
    *_rules("task_hijack", _UNAWARE, _ZH_UNAWARE, check=_behind_their_back),
    *_rules("task_hijack", _OTHERS_THINGS, _ZH_OTHERS_THINGS, check=_others_acted_on),
)
