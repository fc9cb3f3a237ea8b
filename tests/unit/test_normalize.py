"""Value normalisation: channels, languages, zones, hour ranges, structured values."""

from __future__ import annotations

from typing import Any

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.write.normalize import (
    CHANNELS,
    find_channels,
    find_languages,
    find_timezone,
    normalize_channel,
    normalize_hours,
    normalize_language,
    normalize_quiet_hours,
    normalize_structured_value,
    normalize_timezone,
    normalize_whitespace,
    zh_number,
)

SH = "Asia/Shanghai"


# --------------------------------------------------------------------------------------------
# Whitespace


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  用户偏好   短信通知 ", "用户偏好 短信通知"),
        ("a\tb\n\nc", "a b c"),
        ("\u3000全角\u3000空格\u3000", "全角 空格"),
        ("", ""),
        ("   ", ""),
        ("already clean", "already clean"),
    ],
)
def test_normalize_whitespace(text: str, expected: str) -> None:
    assert normalize_whitespace(text) == expected


# --------------------------------------------------------------------------------------------
# Channels


def test_channels_constant() -> None:
    assert CHANNELS == (
        "sms",
        "email",
        "phone",
        "app_push",
        "wechat",
        "whatsapp",
        "telegram",
        "line",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("短信", "sms"),
        ("发短信", "sms"),
        ("短讯", "sms"),
        ("信息", "sms"),
        ("手机短信", "sms"),
        ("短信通知", "sms"),
        ("SMS", "sms"),
        ("sms", "sms"),
        ("text", "sms"),
        ("Text", "sms"),
        ("texting", "sms"),
        ("text message", "sms"),
        ("Text Messages", "sms"),
        ("邮件", "email"),
        ("邮箱", "email"),
        ("电邮", "email"),
        ("电子邮件", "email"),
        ("email", "email"),
        ("E-mail", "email"),
        ("EMAIL", "email"),
        ("mail", "email"),
        ("email notifications", "email"),
        ("电话", "phone"),
        ("打电话", "phone"),
        ("致电", "phone"),
        ("来电", "phone"),
        ("call", "phone"),
        ("phone", "phone"),
        ("Phone Call", "phone"),
        ("ring", "phone"),
        ("微信", "wechat"),
        ("WeChat", "wechat"),
        ("wechat", "wechat"),
        ("推送", "app_push"),
        ("App推送", "app_push"),
        ("APP通知", "app_push"),
        ("应用通知", "app_push"),
        ("push", "app_push"),
        ("push notification", "app_push"),
        ("Push Notifications", "app_push"),
        ("in-app", "app_push"),
        ("app_push", "app_push"),
        ("  短信  ", "sms"),
        ("ＳＭＳ", "sms"),  # full-width letters
    ],
)
def test_normalize_channel(text: str, expected: str) -> None:
    assert normalize_channel(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "   ", "carrier pigeon", "fax", "电话号码", "email address", "短信或邮件", "SMS or email"],
)
def test_normalize_channel_unknown_or_ambiguous(text: str) -> None:
    assert normalize_channel(text) is None


def test_find_channels_skips_compound_nouns_and_keeps_order() -> None:
    assert [c for _, _, c in find_channels("别打电话，发短信或者邮件")] == ["phone", "sms", "email"]
    assert find_channels("我的电话号码是多少") == []
    assert find_channels("短信验证码收不到") == []
    assert find_channels("what is your email address") == []
    # 微信电话 is a WeChat call, not two channels
    assert [c for _, _, c in find_channels("微信电话联系我")] == ["wechat"]


# --------------------------------------------------------------------------------------------
# Languages


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Chinese", "zh-CN"),
        ("中文", "zh-CN"),
        ("汉语", "zh-CN"),
        ("普通话", "zh-CN"),
        ("简体中文", "zh-CN"),
        ("Mandarin", "zh-CN"),
        ("繁体中文", "zh-TW"),
        ("繁體", "zh-TW"),
        ("Traditional Chinese", "zh-TW"),
        ("粤语", "yue"),
        ("Cantonese", "yue"),
        ("English", "en"),
        ("english", "en"),
        ("英文", "en"),
        ("英语", "en"),
        ("Japanese", "ja"),
        ("日语", "ja"),
        ("日文", "ja"),
        ("Korean", "ko"),
        ("韩语", "ko"),
        ("韩文", "ko"),
        ("French", "fr"),
        ("法语", "fr"),
        ("German", "de"),
        ("德语", "de"),
        ("Spanish", "es"),
        ("西班牙语", "es"),
        ("English language", "en"),
        ("in English please", "en"),
    ],
)
def test_normalize_language_names(text: str, expected: str) -> None:
    assert normalize_language(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("en-GB", "en-GB"),
        ("en-gb", "en-GB"),
        ("zh-Hans", "zh-Hans"),
        ("zh-hans", "zh-Hans"),
        ("zh_CN", "zh-CN"),
        ("ZH-cn", "zh-CN"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("es-419", "es-419"),
        ("yue", "yue"),
    ],
)
def test_normalize_language_tags_get_canonical_casing(text: str, expected: str) -> None:
    assert normalize_language(text) == expected


@pytest.mark.parametrize("text", ["", "klingon", "ok", "xx-YY", "xx-yy-zz", "日本"])
def test_normalize_language_unknown(text: str) -> None:
    assert normalize_language(text) is None


def test_find_languages() -> None:
    assert [t for _, _, t in find_languages("以后用英文回复，不要中文")] == ["en", "zh-CN"]
    assert [t for _, _, t in find_languages("请用简体中文")] == ["zh-CN"]
    assert find_languages("我喜欢日本") == []


# --------------------------------------------------------------------------------------------
# Time zones


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Asia/Shanghai", "Asia/Shanghai"),
        ("asia/shanghai", "Asia/Shanghai"),
        ("EUROPE/BERLIN", "Europe/Berlin"),
        ("America/New_York", "America/New_York"),
        ("america/new york", "America/New_York"),
        ("北京时间", "Asia/Shanghai"),
        ("中国时间", "Asia/Shanghai"),
        ("China time", "Asia/Shanghai"),
        ("CST", "Asia/Shanghai"),
        ("东京时间", "Asia/Tokyo"),
        ("日本时间", "Asia/Tokyo"),
        ("JST", "Asia/Tokyo"),
        ("UTC", "UTC"),
        ("GMT", "UTC"),
        ("utc", "UTC"),
        ("UTC+8", "Etc/GMT-8"),
        ("GMT+8", "Etc/GMT-8"),
        ("UTC+08:00", "Etc/GMT-8"),
        ("utc +0800", "Etc/GMT-8"),
        ("UTC-5", "Etc/GMT+5"),
        ("UTC+0", "UTC"),
        ("+09:00", "Etc/GMT-9"),
        ("UTC+5:30", "Asia/Kolkata"),
        ("东八区", "Etc/GMT-8"),
        ("西五区", "Etc/GMT+5"),
        ("Berlin time", "Europe/Berlin"),
        ("Berlin", "Europe/Berlin"),
        ("New York time", "America/New_York"),
        ("Eastern Time", "America/New_York"),
        ("London time", "Europe/London"),
        ("Pacific Time", "America/Los_Angeles"),
        ("Central European Time", "Europe/Berlin"),
        ("Tokyo", "Asia/Tokyo"),
        ("伦敦时间", "Europe/London"),
        ("纽约时间", "America/New_York"),
        ("the Pacific time zone", "America/Los_Angeles"),
    ],
)
def test_normalize_timezone(text: str, expected: str) -> None:
    assert normalize_timezone(text) == expected


@pytest.mark.parametrize(
    "text", ["", "foo", "Mars/Olympus", "UTC+15", "Christmas", "Easter time", "local time", "东京"]
)
def test_normalize_timezone_unknown(text: str) -> None:
    # 东京 alone is a city name in Chinese, which the alias table does know:
    if text == "东京":
        assert normalize_timezone(text) == "Asia/Tokyo"
        return
    assert normalize_timezone(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my timezone is Europe/Berlin", "Europe/Berlin"),
        ("我的时区是东京时间", "Asia/Tokyo"),
        ("I'm on Eastern Time", "America/New_York"),
        ("按北京时间给我安排", "Asia/Shanghai"),
        ("call me at 9am EST", "America/New_York"),
        ("我在东八区", "Etc/GMT-8"),
        ("I'm in UTC+2 these days", "Etc/GMT-2"),
        ("9am-5pm Berlin time", "Europe/Berlin"),
        ("I live in Berlin", None),
        ("我现在住在东京", None),
        ("it is Christmas time", None),
        ("see you in no time", None),
        ("ORD-A1B2C3D4", None),
    ],
)
def test_find_timezone(text: str, expected: str | None) -> None:
    assert find_timezone(text) == expected


# --------------------------------------------------------------------------------------------
# Hours


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("晚上10点到早上8点", "22:00-08:00"),
        ("22点到8点", "22:00-08:00"),
        ("22:00-08:00", "22:00-08:00"),
        ("22:00~08:00", "22:00-08:00"),
        ("10pm to 8am", "22:00-08:00"),
        ("10 p.m. - 8 a.m.", "22:00-08:00"),
        ("between 9am and 5pm", "09:00-17:00"),
        ("between 9 and 5", "09:00-17:00"),
        ("from 9 to 5", "09:00-17:00"),
        ("9-5", "09:00-17:00"),
        ("9-18点", "09:00-18:00"),
        ("9点到6点", "09:00-18:00"),
        ("上午9点到下午6点", "09:00-18:00"),
        ("下午2点到5点", "14:00-17:00"),
        ("晚上8点到11点", "20:00-23:00"),
        ("九点半到十八点", "09:30-18:00"),
        ("9:30-17:30", "09:30-17:30"),
        ("3-5pm", "15:00-17:00"),
        ("noon to 2pm", "12:00-14:00"),
        ("工作时间", "09:00-18:00"),
        ("working hours", "09:00-18:00"),
        ("business hours", "09:00-18:00"),
        ("office hours", "09:00-18:00"),
        ("白天", "09:00-21:00"),
        ("上午", "09:00-12:00"),
        ("工作日上午", "09:00-12:00"),
        ("工作日", "09:00-18:00"),
        ("下午", "13:00-18:00"),
        ("in the afternoon", "13:00-18:00"),
        ("晚上", "18:00-22:00"),
        ("at night", "22:00-08:00"),
        ("after 6pm", "18:00-22:00"),
        ("下午3点以后", "15:00-22:00"),
        ("5点以后", "17:00-22:00"),
        ("before 5pm", "09:00-17:00"),
    ],
)
def test_normalize_hours(text: str, expected: str) -> None:
    assert normalize_hours(text, SH) == f"{expected} {SH}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("晚上10点以后", "22:00-08:00"),
        ("10点以后", "22:00-08:00"),
        ("after 10pm", "22:00-08:00"),
        ("before 8am", "22:00-08:00"),
        ("早上8点前", "22:00-08:00"),
        ("10点到8点", "22:00-08:00"),
        ("晚上", "22:00-08:00"),
        ("at night", "22:00-08:00"),
        ("睡觉的时候", "22:00-08:00"),
        ("晚上11点到早上7点", "23:00-07:00"),
        ("22:00-08:00", "22:00-08:00"),
        ("午休时间", "12:00-14:00"),
    ],
)
def test_normalize_quiet_hours(text: str, expected: str) -> None:
    assert normalize_quiet_hours(text, SH) == f"{expected} {SH}"


def test_hours_use_the_zone_named_in_the_text() -> None:
    assert normalize_hours("22:00-08:00 Asia/Shanghai", "UTC") == "22:00-08:00 Asia/Shanghai"
    assert normalize_hours("9am-5pm Berlin time", SH) == "09:00-17:00 Europe/Berlin"
    assert normalize_hours("北京时间9点到18点", "Europe/Berlin") == "09:00-18:00 Asia/Shanghai"
    assert normalize_hours("9-18点", "Europe/Berlin") == "09:00-18:00 Europe/Berlin"
    assert normalize_hours("9-18点", "tokyo") == "09:00-18:00 Asia/Tokyo"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "以后都用短信",
        "7-10天",
        "3-5个工作日",
        "订单 ORD-A1B2C3D4",
        "RF-20260715-88",
        "13800138000",
        "晚一点",
        "10点",  # a single time is not a range
        "22:00-22:00",
        "25:00-26:00",
    ],
)
def test_normalize_hours_none(text: str) -> None:
    assert normalize_hours(text, SH) is None


def test_normalize_hours_needs_a_valid_zone() -> None:
    assert normalize_hours("9-18点", "Not/AZone") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("八", 8), ("十", 10), ("十二", 12), ("二十二", 22), ("两", 2), ("22", 22)],
)
def test_zh_number(text: str, expected: int) -> None:
    assert zh_number(text) == expected


@pytest.mark.parametrize("text", ["", "百", "十十", "一二"])
def test_zh_number_invalid(text: str) -> None:
    assert zh_number(text) is None


# --------------------------------------------------------------------------------------------
# Structured values


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("notification.preference", {"channel": "短信"}, {"channel": "sms"}),
        ("notification.preference", {"channel": "SMS"}, {"channel": "sms"}),
        ("notification.preference", {"channel": "Email"}, {"channel": "email"}),
        ("notification.preference", {"channel": "wechat"}, {"channel": "wechat"}),
        (
            "notification.preference",
            {"channel": "sms", "quiet_hours": "22:00-08:00 Asia/Shanghai"},
            {"channel": "sms", "quiet_hours": "22:00-08:00 Asia/Shanghai"},
        ),
        (
            "notification.preference",
            {"channel": "phone", "quiet_hours": "10pm-8am"},
            {"channel": "phone", "quiet_hours": "22:00-08:00 Asia/Shanghai"},
        ),
        (
            "notification.preference",
            {"quiet_hours": "晚上10点到早上8点"},
            {"quiet_hours": "22:00-08:00 Asia/Shanghai"},
        ),
        (
            "notification.preference",
            {"channel": "sms", "quiet_hours": None},
            {"channel": "sms", "quiet_hours": None},
        ),
        ("profile.language", {"value": "English"}, {"value": "en"}),
        ("profile.language", {"value": "中文"}, {"value": "zh-CN"}),
        ("profile.language", {"value": "en-gb"}, {"value": "en-GB"}),
        ("profile.timezone", {"value": "europe/berlin"}, {"value": "Europe/Berlin"}),
        ("profile.timezone", {"value": "北京时间"}, {"value": "Asia/Shanghai"}),
        ("profile.timezone", {"value": "UTC+8"}, {"value": "Etc/GMT-8"}),
        (
            "contact.preferred_hours",
            {"value": "工作时间"},
            {"value": "09:00-18:00 Asia/Shanghai"},
        ),
        (
            "contact.preferred_hours",
            {"value": "09:00-18:00 Europe/Berlin"},
            {"value": "09:00-18:00 Europe/Berlin"},
        ),
    ],
)
def test_normalize_structured_value(
    key: str, value: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert normalize_structured_value(key, value, default_timezone=SH) == expected


def test_normalize_structured_value_keeps_extra_fields_and_does_not_mutate() -> None:
    value = {"channel": "短信", "note": "x"}
    out = normalize_structured_value("notification.preference", value, default_timezone=SH)
    assert out == {"channel": "sms", "note": "x"}
    assert value == {"channel": "短信", "note": "x"}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("order.status", {"status": "shipped"}),
        ("custom.thing", {"channel": "carrier pigeon"}),
        (None, {"anything": 1}),
        ("notification.preference", None),
        ("profile.language", None),
    ],
)
def test_normalize_structured_value_passes_other_keys_and_none(
    key: str | None, value: dict[str, Any] | None
) -> None:
    assert normalize_structured_value(key, value, default_timezone=SH) == value


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("notification.preference", {"channel": "carrier pigeon"}, "structured_value.channel"),
        ("notification.preference", {"channel": ""}, "structured_value.channel"),
        ("notification.preference", {"channel": 3}, "structured_value.channel"),
        ("notification.preference", {}, "structured_value.channel"),
        ("notification.preference", {"quiet_hours": "whenever"}, "structured_value.quiet_hours"),
        ("profile.language", {"value": "klingon"}, "structured_value.value"),
        ("profile.language", {}, "structured_value.value"),
        ("profile.timezone", {"value": "Mars/Olympus"}, "structured_value.value"),
        ("profile.timezone", {"value": None}, "structured_value.value"),
        ("contact.preferred_hours", {"value": "sometimes"}, "structured_value.value"),
    ],
)
def test_normalize_structured_value_invalid(key: str, value: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        normalize_structured_value(key, value, default_timezone=SH)
    assert info.value.field == field
    assert info.value.code == "invalid_input"
