"""Channels: the notification channels a text names, and one word or phrase -> one channel."""

from __future__ import annotations

import re

from governed_memory.memory.write.normalize._text import (
    Mention,
    _ascii_word,
    _key,
    _resolve_overlaps,
    fold,
)

CHANNELS: tuple[str, ...] = (
    "sms",
    "email",
    "phone",
    "app_push",
    "wechat",
    "whatsapp",
    "telegram",
    "line",
)

_CHANNEL_WORDS: dict[str, str] = {
    # sms
    "sms": "sms",
    "text": "sms",
    "texts": "sms",
    "texting": "sms",
    "text message": "sms",
    "text messages": "sms",
    "txt": "sms",
    "短信": "sms",
    "发短信": "sms",
    "短讯": "sms",
    "简讯": "sms",  # Taiwan's word (簡訊), once read as Simplified
    "短消息": "sms",
    "短信息": "sms",
    "信息": "sms",
    "手机短信": "sms",
    # email
    "email": "email",
    "e-mail": "email",
    "emails": "email",
    "mail": "email",
    "邮件": "email",
    "邮箱": "email",
    "电邮": "email",
    "电子邮件": "email",
    "发邮件": "email",
    # phone
    "phone": "phone",
    "phone call": "phone",
    "phone calls": "phone",
    "call": "phone",
    "calls": "phone",
    "telephone": "phone",
    "ring": "phone",
    "voice call": "phone",
    "电话": "phone",
    "打电话": "phone",
    "致电": "phone",
    "来电": "phone",
    "语音电话": "phone",
    # wechat
    "wechat": "wechat",
    "we chat": "wechat",
    "weixin": "wechat",
    "微信": "wechat",
    # whatsapp
    "whatsapp": "whatsapp",
    "whats app": "whatsapp",
    # telegram
    "telegram": "telegram",
    "电报": "telegram",
    # line (the messenger; the word alone is too common to be a channel in English)
    "line app": "line",
    "line messages": "line",
    # app push
    "app_push": "app_push",
    "app push": "app_push",
    "push": "app_push",
    "push notification": "app_push",
    "push notifications": "app_push",
    "in-app": "app_push",
    "in app": "app_push",
    "app": "app_push",
    "app notification": "app_push",
    "app notifications": "app_push",
    "推送": "app_push",
    "app推送": "app_push",
    "app通知": "app_push",
    "应用通知": "app_push",
    "站内信": "app_push",
}

_CHANNEL_PATTERNS: tuple[tuple[str, str], ...] = (
    # Chinese
    ("sms", r"短信息|短信|短讯|简讯|短消息|手机信息|发(?:个|条|一条|一个)?(?:手机)?信息"),
    ("sms", r"发(?:到|给)?我?的?手机(?:上|里)?(?!号)"),
    ("email", r"电子邮件|电子邮箱|邮件|邮箱|电邮"),
    ("email", r"[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}"),
    ("phone", r"语音通话|语音电话|电话|致电|来电|回电|电联|打给我|打过来|给我打(?!扰|开|折|包|印)"),
    ("phone", r"打(?:我的?)?手机"),
    ("wechat", r"微信(?:电话|语音|视频|消息)?|威信|公众号"),
    (
        "app_push",
        r"(?:app|应用|软件|客户端)\s*(?:推送|通知|消息|内|里|提醒)|消息推送|推送|站内信|通知栏",
    ),
    # English (on folded text)
    ("sms", _ascii_word(r"sms(?:es)?|texts|texting|text messages?|txts?")),
    ("sms", _ascii_word(r"text(?=\s+(?:me|my|him|her|them|us|his|their)\b)")),
    # a wish put in the past tense of a condition ("would love it if you texted me")
    ("sms", r"(?:(?<=if\syou\s)|(?<=prefer\syou\s)|(?<=rather\syou\s))(?P<m>texted)(?=\s+me\b)"),
    (
        "email",
        r"(?:(?<=if\syou\s)|(?<=prefer\syou\s)|(?<=rather\syou\s))(?P<m>e-?mailed)(?=\s+me\b)",
    ),
    (
        "sms",
        r"(?<![a-z0-9])(?:by|via|a|prefer|preferably|rather|use|using|through|over|with|just|or|and|in)\s+(?P<m>text)(?![a-z0-9])",
    ),
    ("sms", r"^\s*(?P<m>text)(?![a-z0-9])"),
    ("email", _ascii_word(r"e-?mails?|e-?mailing")),
    ("email", r"(?<![a-z0-9])(?:by|via|through|per)\s+(?P<m>mail)(?![a-z0-9])"),
    ("email", _ascii_word(r"mail(?=\s+(?:me|my|him|her|them|us|his|their)\b)")),
    (
        "phone",
        _ascii_word(r"(?:over|on|by|via) the phone|phone calls?|telephone|phone|calls?|calling"),
    ),
    ("phone", _ascii_word(r"ring me|give me a ring")),
    ("wechat", _ascii_word(r"we-?chat|weixin")),
    # (in Chinese text too: "发我whatsapp消息")
    ("whatsapp", r"(?<![a-z0-9])whats\s?-?app(?:\s*(?:messages?|msgs?|消息|信息))?(?![a-z0-9])"),
    # (电报 alone is a telegram of old: only with a word of messaging around it)
    ("telegram", _ascii_word(r"telegram(?:\s+(?:messages?|msgs?|chats?))?")),
    ("telegram", r"(?:用|通过|发|在)电报(?:上|里)?(?:联系|找|发|通知|给)?"),
    # LINE, the messenger: beside Chinese words ("我只用Line"), or said with a word of
    # messaging ("LINE messages", "on the LINE app"); "line" alone in English is a queue, a
    # row or a phone line
    (
        "line",
        r"(?:(?<=[\u4e00-\u9fff])\s?|(?<![a-z0-9]))line(?:\s*id)?(?=\s?[\u4e00-\u9fff])"
        r"|(?<=[\u4e00-\u9fff])\s?line(?![a-z0-9])"
        r"|(?<![a-z0-9])line(?=\s+(?:app|messages?|msgs?|chats?|messenger)(?![a-z]))"
        r"|(?:(?<=reach\sme\son\s)|(?<=contact\sme\son\s)|(?<=message\sme\son\s)"
        r"|(?<=ping\sme\son\s)|(?<=find\sme\son\s))line(?![a-z0-9])",
    ),
    (
        "app_push",
        _ascii_word(
            r"push(?:\s+(?:notifications?|messages?|alerts?))?"
            r"|in-?app(?:\s+(?:notifications?|messages?|alerts?))?"
            r"|app\s+(?:notifications?|alerts?|messages?|push)"
            r"|notifications? in the app"
        ),
    ),
    (
        "app_push",
        r"(?<![a-z0-9])(?:via|through|in|on|using)\s+(?:the|your)\s+(?P<m>app)(?![a-z0-9])",
    ),
    # terse chat drops the article after a word that only a channel follows: "via app pls"
    (
        "app_push",
        r"(?<![a-z0-9])(?:via|through)\s+(?P<m>app)(?![a-z0-9-])(?!\s+(?:store|stores)(?![a-z]))",
    ),
)
_CHANNEL_RES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (channel, re.compile(pattern)) for channel, pattern in _CHANNEL_PATTERNS
)

# A channel word followed by one of these is part of a compound noun ("电话号码", "email
# address", "短信验证码"), not a channel.
_CHANNEL_NOT_FOLLOWED = re.compile(
    r"\s*(?:系统|号码|号|验证码|地址|账号|账户|帐号|内容|模板|签名|费|套餐|客服|功能|设置|服务器"
    r"|支付|付款|付钱|钱包|红包|转账|零钱"
    r"|(?:address(?:es)?|numbers?|no\.|system|server|account|settings?|sizes?|box(?:es)?|fields?"
    # the device's things ("phone cases, laptop skins"): objects, not a way to be reached
    r"|cases?|covers?|screens?|batter(?:y|ies)|chargers?|cables?|stands?|holders?|mounts?"
    r"|protectors?|skins?|straps?|models?|cent(?:er|re)|template|verification|code|otp|bills?"
    r"|plans?|broadcasts?|groups?|lists?)(?![a-z]))"
)


def find_channels(text: str) -> list[Mention]:
    """Every channel named in `text` (offsets in `fold(text)`), compound nouns left out."""
    folded = fold(text)
    found: list[Mention] = []
    for channel, rx in _CHANNEL_RES:
        for m in rx.finditer(folded):
            start, end = m.span("m") if "m" in rx.groupindex and m.group("m") else m.span()
            if _CHANNEL_NOT_FOLLOWED.match(folded, end):
                continue
            found.append((start, end, channel))
    return _resolve_overlaps(found)


def normalize_channel(text: str) -> str | None:
    """A word or phrase naming a channel -> one of CHANNELS; None if none or several."""
    key = _key(text)
    if not key:
        return None
    if key in _CHANNEL_WORDS:
        return _CHANNEL_WORDS[key]
    bare = re.sub(r"(?:通知|提醒|联系|\s*notifications?|\s*alerts?|\s*updates?)$", "", key).strip()
    if bare in _CHANNEL_WORDS:
        return _CHANNEL_WORDS[bare]
    channels = {c for _, _, c in find_channels(key)}
    return channels.pop() if len(channels) == 1 else None
