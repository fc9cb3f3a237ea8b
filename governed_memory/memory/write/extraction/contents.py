"""The content text of a profile candidate, per key, in Chinese or English."""

from __future__ import annotations

from typing import Any

from governed_memory.memory.vocabulary import CONTACT_HOURS, LANGUAGE, NAME, NOTIFICATION, TIMEZONE

_CHANNEL_ZH = {
    "sms": "短信",
    "email": "邮件",
    "phone": "电话",
    "app_push": "App 推送",
    "wechat": "微信",
    "whatsapp": "WhatsApp",
    "telegram": "Telegram",
    "line": "LINE",
}
_CHANNEL_EN = {"sms": "SMS", "email": "email", "phone": "phone", "app_push": "app push"}
_CHANNEL_EN.update(wechat="WeChat", whatsapp="WhatsApp", telegram="Telegram", line="LINE")
_LANG_ZH = {
    "zh-CN": "中文",
    "zh-TW": "繁体中文",
    "yue": "粤语",
    "en": "英文",
    "ja": "日语",
    "ko": "韩语",
}
_LANG_ZH.update({"fr": "法语", "de": "德语", "es": "西班牙语", "it": "意大利语", "ru": "俄语"})
_LANG_ZH.update({"pt": "葡萄牙语", "en-GB": "英式英文", "en-US": "美式英文", "zh-Hans": "简体中文"})
_LANG_EN = {"zh-CN": "Chinese", "zh-TW": "Traditional Chinese", "yue": "Cantonese"}
_LANG_EN.update({"en": "English", "ja": "Japanese", "ko": "Korean", "fr": "French"})
_LANG_EN.update({"de": "German", "es": "Spanish", "it": "Italian", "ru": "Russian"})
_LANG_EN.update({"pt": "Portuguese", "en-GB": "British English", "en-US": "American English"})


def _named(tag: str, *, english: bool) -> str:
    """A language's name from the names the normaliser knows (its tag, if none)."""
    from governed_memory.memory.write.normalize.languages import _LANGUAGE_NAMES

    for name, code in _LANGUAGE_NAMES.items():
        if code == tag and (name.isascii() if english else "\u4e00" <= name[0] <= "\u9fff"):
            return name.title() if english else name
    return tag


def _hours_text(value: str) -> str:
    rng, _, zone = value.partition(" ")
    return f"{rng} ({zone})" if zone else rng


def _content(key: str, value: dict[str, Any], *, negated: bool, zh: bool) -> str:
    if key == NOTIFICATION:
        channel, quiet = value.get("channel"), value.get("quiet_hours")
        parts: list[str] = []
        if channel is not None:
            if zh:
                parts.append(
                    f"用户不再希望{_CHANNEL_ZH[channel]}通知"
                    if negated
                    else f"用户偏好{_CHANNEL_ZH[channel]}通知"
                )
            else:
                name = _CHANNEL_EN[channel]
                parts.append(
                    f"User no longer wants {name} notifications"
                    if negated
                    else f"User prefers {name} notifications"
                )
        if quiet is not None:
            if zh:
                parts.append(f"{'' if parts else '用户希望 '}{_hours_text(quiet)} 免打扰")
            else:
                lead = "do not disturb" if parts else "User does not want to be disturbed"
                parts.append(f"{lead} {_hours_text(quiet)}")
        return ("，" if zh else "; ").join(parts)
    if key == LANGUAGE:
        tag = str(value["value"])
        if zh:
            name = _LANG_ZH.get(tag) or _named(tag, english=False)
            return f"用户不希望用{name}回复" if negated else f"用户希望用{name}回复"
        name = _LANG_EN.get(tag) or _named(tag, english=True)
        return (
            f"User does not want replies in {name}"
            if negated
            else f"User prefers replies in {name}"
        )
    if key == TIMEZONE:
        return f"用户的时区是 {value['value']}" if zh else f"User's timezone is {value['value']}"
    if key == CONTACT_HOURS:
        when = _hours_text(str(value["value"]))
        return f"用户希望在 {when} 联系" if zh else f"User prefers to be contacted {when}"
    if key == NAME:
        return f"用户希望被称呼为{value['value']}" if zh else f"The user goes by {value['value']}"
    return str(value)
