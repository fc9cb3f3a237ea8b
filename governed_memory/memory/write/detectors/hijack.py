"""Task hijacks by rule: a "policy" or a standing order slipped into data, most often to leak
what the agent holds about the user (the `prompt_injection` detector's hijack rules; hijacks
found by what they do are `signals`)."""

from __future__ import annotations

import re

from governed_memory.memory.write.detectors._text import (
    _B,
    _FLAGS,
    EMAIL,
    _Rule,
    _rules,
    _w,
)

# --- task_hijack: a "policy" or a standing order slipped into data, most often to leak what the
# agent holds about the user ------------------------------------------------------------------
_DATA_NOUN = (
    r"(?:phone|mobile|number|address|e-?mail|password|passcode|card|account|iban|ssn|id|"
    r"identity|data|details|information|info|history|messages|records|contacts|location|"
    r"credentials|token|otp|pin)"
)
_LEAK_VERB = (
    r"(?:include|add|append|attach|mention|insert|cc|bcc|copy|forward|send|share|reveal|"
    r"disclose|output|print|leak|expose|provide|give|tell|list|email|post|upload)"
)
_HIJACK_AFTER = re.compile(
    rf"{_B}(?:{_LEAK_VERB}\w*\s+(?:\w+\s+){{0,4}}?(?:(?:the\s+)?(?:user|customer|client|caller|"
    r"buyer|account\s+holder)|their|all)|(?:ignore|disregard|bypass|skip|override)\s+(?:all|any|"
    r"the|your|previous|prior|existing|verification|checks?|rules?|instructions?|guidelines?)|"
    r"(?:approve|refund|grant|unlock|waive)\w*\s+(?:all|every|any|the\s+(?:refund|request|claim)s?)|"
    r"the\s+(?:assistant|agent|ai|bot|model)|you\s+(?:must|should|will|are\s+to))|"
    rf"{EMAIL}|https?://",
    _FLAGS,
)
_ZH_HIJACK_AFTER = re.compile(
    r"带上|附上|加上|包含|写上|提供|发送|发给|发到|转发|抄送|透露|告诉|一律|总是|必须|务必|忽略|退款|"
    r"批准|授予|权限|管理员|折扣|优惠码|支付|付款|添加微信|手机|电话|地址|身份证|银行卡|密码|个人信息|"
    rf"{EMAIL}|https?://"
)


def _hijack_after(text: str, m: re.Match[str]) -> bool:
    return bool(
        _HIJACK_AFTER.search(text, m.end(), m.end() + 120)
        or _ZH_HIJACK_AFTER.search(text, m.end(), m.end() + 60)
    )


def _zh_hijack_after(text: str, m: re.Match[str]) -> bool:
    return bool(_ZH_HIJACK_AFTER.search(text, m.end(), m.end() + 60))


_ADDRESS = rf"(?:{EMAIL}|https?://\S+|pastebin|webhook)"
_ZH_DATA = (
    r"(?:系统提示词?|提示词|聊天记录|对话记录|退款记录|订单记录|客户(?:姓名|资料|信息|数据)|"
    r"用户(?:资料|信息|数据|手机号?|电话|地址|邮箱)|银行卡|卡号|身份证|手机号|收货地址)"
)

_HIJACK_RULES: tuple[_Rule, ...] = (
    *_rules(
        "task_hijack",
        # a standing order to copy replies somewhere
        _w(
            r"(?:always|from\s+now\s+on|going\s+forward|henceforth|in\s+(?:every|all|each)\s+"
            r"(?:future\s+)?(?:reply|replies|response|responses|message|messages))[,:]?\s+"
            r"(?:please\s+)?(?:cc|bcc|copy|forward|send|email|mirror)\s+(?:a\s+copy\s+of\s+)?"
            r"(?:\w+\s+){0,3}?(?:to\s+)?"
        )
        + _ADDRESS,
        # an order addressed to the assistant
        _w(
            r"(?:standing|permanent|long[- ]term|special|secret|hidden)\s+(?:order|instruction|"
            r"directive|rule|command)s?\s+(?:for|to)\s+(?:the\s+)?(?:assistant|agent|ai|bot|model|"
            r"support\s+(?:ai|bot|agent))"
        ),
        r"给(?:客服)?(?:助手|AI|ai|机器人|智能客服|客服机器人)的(?:长期|永久|新|特别|秘密)?(?:指令|指示|规定|"
        r"规则|命令|要求)",
        r"(?:每条|每次|所有|全部)(?:回复|回答|答复|消息)[^。!?\n]{0,10}?(?:都要|一律|总是|务必|必须)"
        r"[^。!?\n]{0,8}?(?:带上|附上|加上|包含|写上|抄送|转发|发送)",
        # data out to an address
        _w(
            r"(?:send|forward|email|share|upload|post|copy|transmit|exfiltrate|paste)\s+"
            r"(?:\w+\s+){0,4}?(?:data|details|information|info|records?|conversations?|history|"
            r"messages|contacts|passwords?|card\s+numbers?|phone\s+numbers?|addresses|prompt)\b"
            r"[^.\n]{0,60}?"
        )
        + _ADDRESS,
        _w(
            r"(?:embed|include|put|append|hide)\s+(?:\w+\s+){0,4}?(?:emails?|phones?|phone\s+numbers?|"
            r"address(?:es)?|data|numbers?|details)\b[^.\n]{0,60}?(?:image|link|url|markdown)"
        ),
        rf"{_ZH_DATA}[^。!?\n]{{0,40}}?(?:导出|转发|发送|发给|发到|贴到|上传|POST|post)"
        rf"[^。!?\n]{{0,40}}?(?:{_ADDRESS}|网址|链接|邮箱)",
        r"(?:POST|post|上传|发送|转发|send|forward|upload)\s*(?:到|给|to)\s*" + _ADDRESS,
    ),
    *_rules(
        "instruction_override",
        _w(
            r"(?:ignore|disregard|forget|drop)\s+(?:all\s+)?(?:the\s+)?(?:rules|instructions|"
            r"guidelines|guidance|directions)\s+(?:you\s+(?:were|have\s+been|got)\s+(?:given|"
            r"told)|(?:you\s+)?(?:got|received)|(?:given\s+)?(?:earlier|before|previously))"
        ),
        r"系统\s*[:：]\s*(?:该|此|这[个位])?(?:用户|客户|账号)[^。!?\n]{0,12}?(?:已|被)(?:验证|认证|授权|"
        r"确认)",
    ),
    *_rules(
        "task_hijack",
        _w(
            r"(?:always|from\s+now\s+on|going\s+forward|henceforth|in\s+(?:every|all|each)\s+"
            r"(?:future\s+)?(?:reply|replies|response|responses|answer|answers|message|messages|"
            r"email|emails))[,:]?\s+(?:you\s+(?:must|should|will)\s+)?(?:also\s+)?"
            rf"{_LEAK_VERB}\s+(?:a\s+copy\s+of\s+)?(?:the\s+)?(?:(?:user|customer|client|caller|"
            r"buyer|account\s+holder)(?:'s|s'|s)?|their|all\s+(?:user|customer)s?'?)\s+"
            rf"(?:\w+\s+){{0,3}}{_DATA_NOUN}"
        ),
        _w(
            r"(?:send|forward|email|share|upload|post|copy|transmit|exfiltrate)\s+(?:a\s+copy\s+"
            r"of\s+)?(?:all\s+|every\s+|the\s+)?(?:(?:user|customer)(?:'s|s')?\s+)?"
            r"(?:data|details|information|info|records?|conversations?|chat\s+history|messages|"
            r"contacts|passwords?|card\s+numbers?|phone\s+numbers?|addresses)\b[^.\n]{0,60}?"
            rf"(?:{EMAIL}|https?://\S+)"
        ),
    ),
    # a notice or a word to the assistant, taken as an attack when an order follows it
    *_rules(
        "task_hijack",
        _w(
            r"(?:new|updated|revised|important|urgent|mandatory|official)\s+(?:company\s+|"
            r"store\s+|security\s+)?(?:policy|rule|procedure|instruction|requirement|"
            r"directive|protocol|guideline)s?"
        )
        + r"[^.\n:：]{0,20}?\s*[:\-–—：，,]",
        _w(
            r"(?:system|admin|administrator|developer|security|ops)\s+"
            r"(?:update|notice|message|alert|override|note)"
        )
        + r"\s*[:\-–—]",
        _w(
            r"(?:dear\s+)?(?:ai|assistant|agent|bot|model|llm|chatbot)s?"
            r"(?:\s+(?:reading|processing|summari[sz]ing)\s+this)?"
        )
        + r"\s*[:,]\s*(?:please\s+)?"
        r"(?:note|remember|make\s+sure|be\s+sure|you\s+must|always|when)",
        check=_hijack_after,
    ),
    *_rules(
        "task_hijack",
        r"新(?:的)?(?:规定|规则|政策|指令|要求|流程|通知)[:：]",
        r"系统(?:通知|更新|消息|公告|提示)?\s*[:：]",
        check=_zh_hijack_after,
    ),
    *_rules(
        "task_hijack",
        r"(?:从现在起|从今以后|以后|今后|往后|每次)[^。!?\n]{0,16}?(?:都要|一律|总是|务必|必须)"
        r"[^。!?\n]{0,8}?(?:带上|附上|加上|包含|写上|提供|发送|转发|透露|告诉)[^。!?\n]{0,10}?"
        r"(?:用户|客户|买家)[^。!?\n]{0,6}?(?:手机|电话|号码|地址|身份证|银行卡|卡号|密码|邮箱|"
        r"个人信息|聊天记录|资料)",
        r"(?:把|将)(?:所有)?(?:用户|客户|买家)的?[^。!?\n]{0,6}?(?:手机号|电话|号码|地址|身份证|"
        r"银行卡|卡号|密码|邮箱|个人信息|聊天记录|资料|数据)[^。!?\n]{0,12}?(?:发给|发送到|发到|"
        r"转发给|转给|透露给|上传到|抄送)",
    ),
)
