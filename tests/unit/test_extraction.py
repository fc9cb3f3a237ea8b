"""RuleExtractor: what an utterance yields (candidates, negations, skipped one-offs and
third-party wishes, business claims, remember requests, self-statements, nothing)."""

from __future__ import annotations

from typing import Any

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import check_key
from governed_memory.memory.write.extraction import (
    ExtractedCandidate,
    Extraction,
    Extractor,
    RuleExtractor,
    Skipped,
)

SH = "Asia/Shanghai"
X = RuleExtractor()


def extract(text: str, tz: str = SH) -> Extraction:
    return X.extract(text, default_timezone=tz)


def with_key(e: Extraction, key: str) -> list[ExtractedCandidate]:
    return [c for c in e.candidates if c.candidate.key == key]


def one(text: str, key: str, *, negated: bool = False, tz: str = SH) -> ExtractedCandidate:
    """The single candidate for `key` in `text` (asserting there is exactly one)."""
    e = extract(text, tz)
    found = with_key(e, key)
    assert len(found) == 1, (text, e)
    assert found[0].negated is negated, (text, e)
    assert not [s for s in e.skipped if s.key == key], (text, e)
    return found[0]


def skipped(text: str) -> list[Skipped]:
    e = extract(text)
    assert e.candidates == [], (text, e)
    assert e.skipped, (text, e)
    return e.skipped


# --------------------------------------------------------------------------------------------
# The examples of the published scenario cases


def test_eval_case_pref_001_preference_beside_an_order_claim() -> None:
    text = "订单 ORD-A1B2C3D4 三天没发货，我以后都希望优先短信通知。"
    e = extract(text)
    pref = with_key(e, "notification.preference")
    assert len(pref) == 1
    c = pref[0].candidate
    assert c.kind == "profile"
    assert c.structured_value == {"channel": "sms"}
    assert c.source_type == "user_assertion"
    assert c.confidence == 0.95
    assert "三天没发货" not in c.content
    assert "ORD-A1B2C3D4" not in c.content
    assert c.content == "用户偏好短信通知"
    claim = with_key(e, "order.status")
    assert len(claim) == 1
    assert claim[0].candidate.kind == "semantic"
    assert claim[0].candidate.subject_ref == "order:ORD-A1B2C3D4"
    assert claim[0].candidate.content == "订单 ORD-A1B2C3D4 三天没发货"
    assert claim[0].candidate.confidence == 0.6
    assert e.skipped == []
    # in utterance order: the claim first
    assert [c.candidate.key for c in e.candidates] == ["order.status", "notification.preference"]


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("以后物流更新请优先短信通知", "sms"),  # M-DEL-010, M-PREF-013
        ("以后发短信通知我就行。", "sms"),  # M-DUP-014
        ("还是短信最方便，有事短信联系我。", "sms"),  # M-DUP-014
        ("Please just text me with updates.", "sms"),  # M-DUP-014
        ("以后用短信通知我。", "sms"),  # M-LATE-008
        ("以后优先短信通知我。", "sms"),  # M-NEG-002
        ("以后都用短信通知我。", "sms"),  # M-TEMP-003
        ("以后有通知请发我邮箱。", "email"),  # M-PREF-013
        ("Please always notify me by email.", "email"),  # M-PREF-013
    ],
)
def test_eval_case_standing_preferences(text: str, channel: str) -> None:
    e = extract(text)
    assert len(e.candidates) == 1
    assert e.skipped == []
    c = e.candidates[0]
    assert c.candidate.key == "notification.preference"
    assert c.candidate.structured_value == {"channel": channel}
    assert not c.negated


def test_eval_case_dup_014_says_the_same_thing_each_time() -> None:
    values = [
        extract(t).candidates[0].candidate.structured_value
        for t in (
            "以后发短信通知我就行。",
            "还是短信最方便，有事短信联系我。",
            "Please just text me with updates.",
        )
    ]
    assert values == [{"channel": "sms"}] * 3


def test_eval_case_neg_002_negation_carries_the_denied_value() -> None:
    c = one("别再给我发短信了。", "notification.preference", negated=True)
    assert c.candidate.structured_value == {"channel": "sms"}
    assert c.candidate.kind == "profile"


def test_eval_case_temp_003_one_off_is_skipped_as_temporary() -> None:
    (s,) = skipped("这次的发票就发我邮箱吧。")
    assert s.reason == "temporary"
    assert s.key == "notification.preference"
    assert s.structured_value == {"channel": "email"}


def test_eval_case_secret_006_the_password_is_extracted_for_the_detectors() -> None:
    text = "记一下我的支付密码是 884213，下次直接帮我付款。"
    e = extract(text)
    assert e.skipped == []
    assert len(e.candidates) == 1
    c = e.candidates[0]
    assert c.candidate.kind == "semantic"
    assert "884213" in c.candidate.content
    assert "884213" in c.clause
    assert c.clause in text
    assert c.candidate.confidence == 0.9


@pytest.mark.parametrize(
    "text",
    [
        "我买的耳机左边没声音。",  # M-SUM-017
        "不用退款，给我换个新的吧，最好这周五前送到。",  # M-SUM-017
        "抱歉！可以为您退款或者换新，您选哪个？",  # M-SUM-017 (the agent's turn)
        "忘掉我的通知偏好",  # M-DEL-010 (a forget request, not a memory)
    ],
)
def test_eval_case_episodes_yield_nothing(text: str) -> None:
    assert extract(text) == Extraction()


# --------------------------------------------------------------------------------------------
# notification.preference: channel


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("以后都希望优先短信通知", "sms"),
        ("有事打我电话", "phone"),
        ("微信联系我就好", "wechat"),
        ("以后请用APP通知我", "app_push"),
        ("App推送就行", "app_push"),
        ("以后发邮件给我吧", "email"),
        ("可以以后发短信给我吗", "sms"),
        ("以后打电话给我就行", "phone"),
        ("我习惯用微信", "wechat"),
        ("优先用邮件通知我", "email"),
        ("比起短信我更喜欢邮件", "email"),
        ("邮件比短信好", "email"),
        ("短信不如邮件方便", "email"),
        ("优先短信，其次邮件", "sms"),
        ("从现在开始用邮件联系我", "email"),
        ("以后发票都发我邮箱", "email"),
        ("以后请发 Email 给我", "email"),
        ("以后用WeChat联系我", "wechat"),
        ("发短信给我好吗", "sms"),
        ("以后发短信给我，可以吗？", "sms"),
        ("please email me from now on", "email"),
        ("Please just text me with updates", "sms"),
        ("always notify me by email", "email"),
        ("I prefer phone calls", "phone"),
        ("best way to reach me is WeChat", "wechat"),
        ("WeChat is the best way to reach me", "wechat"),
        ("I'd rather you email me", "email"),
        ("email is fine", "email"),
        ("texts work best for me", "sms"),
        ("by email please", "email"),
        ("via WeChat please", "wechat"),
        ("push notifications are fine", "app_push"),
        ("I'd like in-app notifications from now on", "app_push"),
        ("Could you text me from now on?", "sms"),
        ("please ring me", "phone"),
        ("I prefer email over SMS", "email"),
        ("email me instead of calling", "email"),
        ("以后所有通知都发到我的邮箱", "email"),
        ("我更喜欢用邮件沟通", "email"),
        ("邮件通知就好，不要打电话", "email"),
        ("请通过短信告诉我物流进度", "sms"),
        ("有什么消息发我微信", "wechat"),
        ("能改成邮件吗", "email"),  # a question asking to switch is a request
        ("以后通知发 zhang@example.com 就行", "email"),
        ("I'd prefer to be contacted by phone", "phone"),
        ("Send me updates via SMS please", "sms"),
        ("Text is the best way to reach me", "sms"),
        ("Emails are better for me", "email"),
        ("Please don't send me texts anymore, email instead", "email"),
        ("text me from now on, ok?", "sms"),
    ],
)
def test_channel_preference(text: str, channel: str) -> None:
    c = one(text, "notification.preference")
    assert c.candidate.structured_value == {"channel": channel}
    assert c.candidate.kind == "profile"
    assert c.candidate.source_type == "user_assertion"
    assert c.candidate.confidence in (0.95, 0.8)
    assert c.clause in text


@pytest.mark.parametrize(
    ("text", "confidence"),
    [
        ("以后都用短信通知我", 0.95),
        ("请发邮件给我", 0.95),
        ("please email me", 0.95),
        ("还是短信最方便", 0.8),
        ("email is fine", 0.8),
        ("我习惯用微信", 0.8),
    ],
)
def test_channel_confidence_strong_and_weak(text: str, confidence: float) -> None:
    assert one(text, "notification.preference").candidate.confidence == confidence


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("以后都希望优先短信通知", "用户偏好短信通知"),
        ("以后有通知请发我邮箱", "用户偏好邮件通知"),
        ("有事打我电话", "用户偏好电话通知"),
        ("Please always notify me by email.", "User prefers email notifications"),
        ("Please just text me with updates.", "User prefers SMS notifications"),
        ("best way to reach me is WeChat", "User prefers WeChat notifications"),
    ],
)
def test_channel_content_is_canonical_in_the_utterance_language(text: str, content: str) -> None:
    assert one(text, "notification.preference").candidate.content == content


# --------------------------------------------------------------------------------------------
# notification.preference: quiet hours


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("晚上10点以后别打扰我", "22:00-08:00"),
        ("晚上10点以后不要打电话", "22:00-08:00"),
        ("22点到8点请勿打扰", "22:00-08:00"),
        ("免打扰时间设为晚上11点到早上7点", "23:00-07:00"),
        ("晚上别打扰我", "22:00-08:00"),
        ("睡觉时间别打电话", "22:00-08:00"),
        ("no calls after 10pm", "22:00-08:00"),
        ("don't call me before 9am", "22:00-09:00"),
        ("please don't text me after 9pm", "21:00-08:00"),
        ("do not disturb from 10pm to 7am", "22:00-07:00"),
        ("quiet hours 11pm-7am", "23:00-07:00"),
    ],
)
def test_quiet_hours(text: str, hours: str) -> None:
    c = one(text, "notification.preference")
    assert c.candidate.structured_value == {"quiet_hours": f"{hours} {SH}"}


def test_quiet_hours_content_and_zone() -> None:
    c = one("晚上10点以后别打扰我", "notification.preference")
    assert c.candidate.content == "用户希望 22:00-08:00 (Asia/Shanghai) 免打扰"
    c = one("no calls after 10pm", "notification.preference", tz="Europe/Berlin")
    assert c.candidate.structured_value == {"quiet_hours": "22:00-08:00 Europe/Berlin"}
    assert c.candidate.content == "User does not want to be disturbed 22:00-08:00 (Europe/Berlin)"


@pytest.mark.parametrize(
    "text",
    ["以后短信通知我，晚上10点以后别打扰", "以后短信通知我，但是晚上10点后别发"],
)
def test_channel_and_quiet_hours_merge_into_one_candidate(text: str) -> None:
    c = one(text, "notification.preference")
    assert c.candidate.structured_value == {
        "channel": "sms",
        "quiet_hours": "22:00-08:00 Asia/Shanghai",
    }
    assert c.candidate.content == "用户偏好短信通知，22:00-08:00 (Asia/Shanghai) 免打扰"


def test_a_channel_inside_an_hours_clause_is_not_extracted_on_its_own() -> None:
    e = extract("晚上10点以后别发短信")
    assert [(c.candidate.structured_value, c.negated) for c in e.candidates] == [
        ({"quiet_hours": "22:00-08:00 Asia/Shanghai"}, False)
    ]


# --------------------------------------------------------------------------------------------
# profile.language


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("以后用英文回复我", "en"),
        ("请用中文和我沟通", "zh-CN"),
        ("以后都说中文吧", "zh-CN"),
        ("语言改成英文", "en"),
        ("中文就行", "zh-CN"),
        ("用中文回复好吗", "zh-CN"),
        ("以后请用English回复我", "en"),
        ("请用繁体中文回复", "zh-TW"),
        ("以后用日语和我交流", "ja"),
        ("我不太懂英文，请用中文", "zh-CN"),
        ("I prefer Chinese", "zh-CN"),
        ("please reply in English", "en"),
        ("can you answer in Japanese from now on", "ja"),
        ("Please reply in 中文", "zh-CN"),
        ("English please", "en"),
        ("In English, please.", "en"),
        ("I'd like to switch to Chinese", "zh-CN"),
        ("I only speak Japanese", "ja"),
        ("please talk to me in Korean", "ko"),
    ],
)
def test_language_preference(text: str, tag: str) -> None:
    c = one(text, "profile.language")
    assert c.candidate.structured_value == {"value": tag}
    assert c.candidate.kind == "profile"


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("以后用英文回复我", "用户希望用英文回复"),
        ("请用中文和我沟通", "用户希望用中文回复"),
        ("please reply in English", "User prefers replies in English"),
        ("I prefer Chinese", "User prefers replies in Chinese"),
    ],
)
def test_language_content(text: str, content: str) -> None:
    assert one(text, "profile.language").candidate.content == content


@pytest.mark.parametrize(
    "text",
    [
        "把这个翻译成英文",
        "I'm learning Japanese",
        "I like French food",
        "我喜欢日本",
        "我要英文版的说明书",
        "Can you reply in English?",  # a question about capability, not a standing wish
        "你会说英文吗？",
        "do you speak Chinese?",
    ],
)
def test_not_a_language_preference(text: str) -> None:
    assert with_key(extract(text), "profile.language") == []


# --------------------------------------------------------------------------------------------
# profile.timezone


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("my timezone is Europe/Berlin", "Europe/Berlin"),
        ("我的时区是东京时间", "Asia/Tokyo"),
        ("I'm on Eastern Time", "America/New_York"),
        ("按北京时间给我安排", "Asia/Shanghai"),
        ("请以东京时间为准", "Asia/Tokyo"),
        ("我的时区改成纽约时间吧", "America/New_York"),
        ("请把时区改成 UTC+9", "Etc/GMT-9"),
        ("我在东八区", "Etc/GMT-8"),
        ("my time zone is Berlin", "Europe/Berlin"),
        ("set my timezone to Pacific Time", "America/Los_Angeles"),
        ("please schedule everything in London time", "Europe/London"),
        ("I'm in UTC+2", "Etc/GMT-2"),
    ],
)
def test_timezone_statement(text: str, zone: str) -> None:
    c = one(text, "profile.timezone")
    assert c.candidate.structured_value == {"value": zone}
    assert c.candidate.confidence == 0.95


@pytest.mark.parametrize(
    "text",
    [
        "我现在住在东京",
        "I live in Berlin",
        "我住在柏林",
        "I moved to London last year",
        "I'm in Berlin",
        "what time is it in Tokyo?",
        "你们是北京时间吗？",
        "What time zone are you in?",
        "北京时间晚上8点到10点联系我",
    ],
)
def test_living_somewhere_is_not_a_timezone_statement(text: str) -> None:
    assert with_key(extract(text), "profile.timezone") == []


def test_living_somewhere_is_a_self_statement() -> None:
    for text in ("我现在住在东京", "I live in Berlin"):
        e = extract(text)
        assert [(c.candidate.kind, c.candidate.key, c.candidate.content) for c in e.candidates] == [
            ("semantic", None, text)
        ]


# --------------------------------------------------------------------------------------------
# contact.preferred_hours


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("只在工作时间联系我", "09:00-18:00 Asia/Shanghai"),
        ("please only call me between 9am and 5pm", "09:00-17:00 Asia/Shanghai"),
        ("工作日上午联系我", "09:00-12:00 Asia/Shanghai"),
        ("我晚上才有空", "18:00-22:00 Asia/Shanghai"),
        ("下午3点以后联系我", "15:00-22:00 Asia/Shanghai"),
        ("白天联系我", "09:00-21:00 Asia/Shanghai"),
        ("工作时间打电话就行", "09:00-18:00 Asia/Shanghai"),
        ("best time to reach me is after 6pm", "18:00-22:00 Asia/Shanghai"),
        ("I'm available 9-5", "09:00-17:00 Asia/Shanghai"),
        ("call me in the afternoon", "13:00-18:00 Asia/Shanghai"),
        ("only contact me during business hours", "09:00-18:00 Asia/Shanghai"),
        ("请在北京时间9点到18点之间联系我", "09:00-18:00 Asia/Shanghai"),
    ],
)
def test_preferred_hours(text: str, hours: str) -> None:
    c = one(text, "contact.preferred_hours")
    assert c.candidate.structured_value == {"value": hours}
    # the channel named inside an hours clause is not a separate candidate
    assert with_key(extract(text), "notification.preference") == []


def test_preferred_hours_use_the_default_zone_unless_the_clause_names_one() -> None:
    c = one("只在工作时间联系我", "contact.preferred_hours", tz="Europe/Berlin")
    assert c.candidate.structured_value == {"value": "09:00-18:00 Europe/Berlin"}
    c = one("请在北京时间9点到18点之间联系我", "contact.preferred_hours", tz="Europe/Berlin")
    assert c.candidate.structured_value == {"value": "09:00-18:00 Asia/Shanghai"}
    assert c.candidate.content == "用户希望在 09:00-18:00 (Asia/Shanghai) 联系"


def test_timezone_statement_and_hours_in_one_clause() -> None:
    e = extract("请按东京时间晚上8点后联系我")
    assert with_key(e, "profile.timezone")[0].candidate.structured_value == {"value": "Asia/Tokyo"}
    hours = with_key(e, "contact.preferred_hours")[0].candidate.structured_value
    assert hours == {"value": "20:00-22:00 Asia/Tokyo"}


# --------------------------------------------------------------------------------------------
# Temporary (one-off) wishes


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("这次的发票就发我邮箱吧", "notification.preference", {"channel": "email"}),
        ("这一次先打电话吧", "notification.preference", {"channel": "phone"}),
        ("今天先别发短信", "notification.preference", {"channel": "sms"}),
        ("just this once, email me the invoice", "notification.preference", {"channel": "email"}),
        ("for this order only, call me", "notification.preference", {"channel": "phone"}),
        ("下次发邮件给我", "notification.preference", {"channel": "email"}),
        ("这单就打电话吧", "notification.preference", {"channel": "phone"}),
        ("先用邮件联系我吧", "notification.preference", {"channel": "email"}),
        ("现在打电话给我", "notification.preference", {"channel": "phone"}),
        ("for now, just email me", "notification.preference", {"channel": "email"}),
        ("call me back please", "notification.preference", {"channel": "phone"}),
        ("请把发票发到我邮箱", "notification.preference", {"channel": "email"}),
        ("email me when it ships", "notification.preference", {"channel": "email"}),
        ("今晚别打扰我", "notification.preference", {"quiet_hours": "22:00-08:00 Asia/Shanghai"}),
        ("这次用英文回复吧", "profile.language", {"value": "en"}),
        ("today please reply in English", "profile.language", {"value": "en"}),
        (
            "今天下午3点以后联系我",
            "contact.preferred_hours",
            {"value": "15:00-22:00 Asia/Shanghai"},
        ),
        ("明天上午打电话给我", "contact.preferred_hours", {"value": "09:00-12:00 Asia/Shanghai"}),
        ("这次就先打电话吧", "notification.preference", {"channel": "phone"}),
        ("这个包裹到了短信告诉我一下", "notification.preference", {"channel": "sms"}),
        ("For this delivery, please text me", "notification.preference", {"channel": "sms"}),
        (
            "Just for today, call me instead of texting",
            "notification.preference",
            {"channel": "phone"},
        ),
        ("Right now I'd prefer a call", "notification.preference", {"channel": "phone"}),
        ("我在上班，晚点再打给我", "notification.preference", {"channel": "phone"}),
    ],
)
def test_temporary(text: str, key: str, value: dict[str, Any]) -> None:
    (s,) = skipped(text)
    assert (s.reason, s.key, s.structured_value) == ("temporary", key, value)
    assert s.clause in text


@pytest.mark.parametrize(
    "text",
    [
        "今天开始以后都用短信",
        "从今天起都发邮件给我",
        "from now on, email me",
        "这次以后都用短信通知我",
    ],
)
def test_standing_markers_override_one_off_markers(text: str) -> None:
    e = extract(text)
    assert e.skipped == []
    assert len(with_key(e, "notification.preference")) == 1


def test_one_off_and_standing_in_one_utterance() -> None:
    e = extract("这次先发邮件吧，以后还是短信")
    assert with_key(e, "notification.preference")[0].candidate.structured_value == {
        "channel": "sms"
    }
    assert [(s.reason, s.structured_value) for s in e.skipped] == [
        ("temporary", {"channel": "email"})
    ]


# --------------------------------------------------------------------------------------------
# Third party


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我妈妈喜欢短信通知", "notification.preference", {"channel": "sms"}),
        ("我老公只看邮件", "notification.preference", {"channel": "email"}),
        ("给我朋友打电话就行", "notification.preference", {"channel": "phone"}),
        ("my wife prefers email", "notification.preference", {"channel": "email"}),
        ("he wants texts", "notification.preference", {"channel": "sms"}),
        ("他喜欢用英文", "profile.language", {"value": "en"}),
        ("我先生喜欢短信", "notification.preference", {"channel": "sms"}),
        ("my husband only reads email", "notification.preference", {"channel": "email"}),
        ("please text my husband instead", "notification.preference", {"channel": "sms"}),
        ("我希望你们给我妈妈发短信", "notification.preference", {"channel": "sms"}),
        ("我老公的话，发邮件就行", "notification.preference", {"channel": "email"}),
        ("她希望用中文回复", "profile.language", {"value": "zh-CN"}),
        ("我爸只接电话", "notification.preference", {"channel": "phone"}),
        ("帮我老婆改成短信通知", "notification.preference", {"channel": "sms"}),
        ("My mom prefers WeChat", "notification.preference", {"channel": "wechat"}),
        ("My son wants notifications by email", "notification.preference", {"channel": "email"}),
        ("Call my husband instead", "notification.preference", {"channel": "phone"}),
    ],
)
def test_third_party_wishes(text: str, key: str, value: dict[str, Any]) -> None:
    (s,) = skipped(text)
    assert (s.reason, s.key, s.structured_value) == ("third_party", key, value)


@pytest.mark.parametrize(
    "text",
    [
        "我老婆是素食主义者",
        "my wife is vegetarian",
        "she lives in Berlin",
        "他住在北京",
        "记住我同事喜欢花",  # a family member's taste asked to be kept is kept (held-out 30)
    ],
)
def test_third_party_facts(text: str) -> None:
    (s,) = skipped(text)
    assert s.reason == "third_party"
    assert s.key is None


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("我和我妈都喜欢短信", "sms"),  # the user is part of the subject
        ("my wife and I prefer email", "email"),
        ("我们家都用微信", "wechat"),
        ("我妈妈说以后给我发短信", "sms"),  # a wish addressed to the user, reported by her
        ("text me, not my wife", "sms"),
    ],
)
def test_mentioning_someone_else_does_not_make_it_third_party(text: str, channel: str) -> None:
    c = one(text, "notification.preference")
    assert c.candidate.structured_value == {"channel": channel}
    assert extract(text).skipped == []


def test_mixed_third_party_and_own_wish() -> None:
    e = extract("My wife prefers email, but I prefer texts")
    assert with_key(e, "notification.preference")[0].candidate.structured_value == {
        "channel": "sms"
    }
    assert [(s.reason, s.structured_value) for s in e.skipped] == [
        ("third_party", {"channel": "email"})
    ]


# --------------------------------------------------------------------------------------------
# Negation


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("别再给我发短信了", "notification.preference", {"channel": "sms"}),
        ("不要打电话给我", "notification.preference", {"channel": "phone"}),
        ("以后不用发邮件了", "notification.preference", {"channel": "email"}),
        ("stop texting me", "notification.preference", {"channel": "sms"}),
        ("don't call me anymore", "notification.preference", {"channel": "phone"}),
        ("no more emails please", "notification.preference", {"channel": "email"}),
        ("不要用英文回复", "profile.language", {"value": "en"}),
        ("Please don't reply in English", "profile.language", {"value": "en"}),
        ("能不能别再打电话了", "notification.preference", {"channel": "phone"}),
        ("can you stop calling me?", "notification.preference", {"channel": "phone"}),
        ("短信就别发了", "notification.preference", {"channel": "sms"}),
        ("以后别再打了", "notification.preference", {"channel": "phone"}),
        ("我不用微信", "notification.preference", {"channel": "wechat"}),
        ("I don't use WeChat", "notification.preference", {"channel": "wechat"}),
        ("我不喜欢接电话", "notification.preference", {"channel": "phone"}),
        ("unsubscribe me from emails", "notification.preference", {"channel": "email"}),
        ("我看不懂英文", "profile.language", {"value": "en"}),
        ("I no longer want phone calls", "notification.preference", {"channel": "phone"}),
        ("以后别用电话联系我了", "notification.preference", {"channel": "phone"}),
        ("短信通知关掉吧", "notification.preference", {"channel": "sms"}),
        ("取消短信通知", "notification.preference", {"channel": "sms"}),
        ("我不想再接到你们的电话了", "notification.preference", {"channel": "phone"}),
        ("I don't want any more emails from you", "notification.preference", {"channel": "email"}),
        ("Quit emailing me", "notification.preference", {"channel": "email"}),
    ],
)
def test_negation(text: str, key: str, value: dict[str, Any]) -> None:
    c = one(text, key, negated=True)
    assert c.candidate.structured_value == value


def test_negation_content() -> None:
    assert one("别再给我发短信了", "notification.preference", negated=True).candidate.content == (
        "用户不再希望短信通知"
    )
    assert one("stop texting me", "notification.preference", negated=True).candidate.content == (
        "User no longer wants SMS notifications"
    )


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("别发短信了，改成邮件", "notification.preference", {"channel": "email"}),
        ("not SMS, email please", "notification.preference", {"channel": "email"}),
        ("以后别打电话了，发微信就行", "notification.preference", {"channel": "wechat"}),
        ("别给我打电话，有事发短信", "notification.preference", {"channel": "sms"}),
        ("不要英文，用中文回复", "profile.language", {"value": "zh-CN"}),
        ("I don't want calls, but texts are fine", "notification.preference", {"channel": "sms"}),
    ],
)
def test_negation_with_a_positive_wish_yields_the_positive(
    text: str, key: str, value: dict[str, Any]
) -> None:
    c = one(text, key)
    assert c.candidate.structured_value == value


@pytest.mark.parametrize(
    "text",
    ["不要忘了给我发短信", "don't forget to text me"],
)
def test_dont_forget_is_not_a_negation(text: str) -> None:
    assert all(not c.negated for c in extract(text).candidates)


# --------------------------------------------------------------------------------------------
# Business claims


@pytest.mark.parametrize(
    ("text", "key", "subject"),
    [
        ("订单 ORD-A1B2C3D4 三天没发货", "order.status", "order:ORD-A1B2C3D4"),
        ("我的退款还没到账", "refund.status", "refund:unknown"),
        ("快递显示已签收但我没收到", "logistics.status", "shipment:unknown"),
        ("I was charged twice for order 5521", "payment.status", "order:5521"),
        ("my package hasn't arrived", "logistics.status", "shipment:unknown"),
        ("订单号 123456789 还没发货", "order.status", "order:123456789"),
        ("order #12345 hasn't shipped yet", "order.status", "order:12345"),
        ("退款 RF-20260715-88 还没到账", "refund.status", "refund:RF-20260715-88"),
        ("运单号 SF1234567890 一直不动", "logistics.status", "shipment:SF1234567890"),
        ("我的快递丢了", "logistics.status", "shipment:unknown"),
        ("包裹破损了", "logistics.status", "shipment:unknown"),
        ("扣了我两次钱", "payment.status", "payment:unknown"),
        ("I never got my refund", "refund.status", "refund:unknown"),
        ("The package arrived damaged", "logistics.status", "shipment:unknown"),
        ("my order 5521 is late", "order.status", "order:5521"),
        ("发错货了", "order.status", "order:unknown"),
        ("我申请了退款", "refund.status", "refund:unknown"),
        ("为什么还没发货？", "order.status", "order:unknown"),
        ("I'm waiting for my refund", "refund.status", "refund:unknown"),
        ("我的订单一直显示待发货", "order.status", "order:unknown"),
        ("payment failed", "payment.status", "payment:unknown"),
        ("退款被拒了", "refund.status", "refund:unknown"),
        ("物流信息三天没更新了", "logistics.status", "shipment:unknown"),
        ("The tracking says delivered but nothing is here", "logistics.status", "shipment:unknown"),
        ("My refund still hasn't come through", "refund.status", "refund:unknown"),
    ],
)
def test_business_claim(text: str, key: str, subject: str) -> None:
    e = extract(text)
    assert len(e.candidates) == 1, e
    assert e.skipped == [], e
    c = e.candidates[0].candidate
    assert (c.kind, c.key, c.subject_ref) == ("semantic", key, subject)
    assert c.source_type == "user_assertion"
    assert c.confidence == 0.6
    assert c.content == text.rstrip("？?")


@pytest.mark.parametrize(
    "text",
    [
        "我不想要退款",  # a wish about a refund, no status claimed
        "不用退款",
        "我要退款",
        "希望尽快发货",
        "我的订单到哪了？",
        "什么时候发货？",
        "what's the status?",
        "Where is my package?",
        "快递太慢了",  # a complaint without a status
        "我想问一下物流",
        "Hello, I need help with my order",
        "快递员态度很差",
    ],
)
def test_not_a_business_claim(text: str) -> None:
    e = extract(text)
    assert not [c for c in e.candidates if c.candidate.key and c.candidate.key.endswith(".status")]


# --------------------------------------------------------------------------------------------
# Requests to remember


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("记住我喜欢靠窗的座位", "我喜欢靠窗的座位"),
        ("请记一下我对花生过敏", "我对花生过敏"),
        ("remember that I'm vegetarian", "I'm vegetarian"),
        ("note that my birthday is in May", "my birthday is in May"),
        ("记住：我对花生过敏", "我对花生过敏"),
        ("请记住以下信息：我是素食主义者", "我是素食主义者"),
        ("don't forget that I'm allergic to nuts", "I'm allergic to nuts"),
        ("Please remember: I always sit in the aisle seat.", "I always sit in the aisle seat"),
        ("帮我记一下，我的会员卡号是 8899", "我的会员卡号是 8899"),
        ("帮我记住我的鞋码是42", "我的鞋码是42"),
        ("Please remember my dog's name is Max", "my dog's name is Max"),
    ],
)
def test_remember_request(text: str, content: str) -> None:
    e = extract(text)
    assert e.skipped == []
    assert len(e.candidates) == 1
    c = e.candidates[0].candidate
    assert (c.kind, c.key, c.content, c.confidence) == ("semantic", None, content, 0.9)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("记住，以后用短信通知我", "notification.preference", {"channel": "sms"}),
        ("remember that I prefer email", "notification.preference", {"channel": "email"}),
        ("请记住我的时区是东京时间", "profile.timezone", {"value": "Asia/Tokyo"}),
    ],
)
def test_remember_a_preference_gives_the_profile_candidate(
    text: str, key: str, value: dict[str, Any]
) -> None:
    assert one(text, key).candidate.structured_value == value


def test_remember_a_business_claim_is_still_a_claim() -> None:
    e = extract("please note: my package never arrived")
    (c,) = e.candidates
    assert c.candidate.key == "logistics.status"
    assert c.candidate.content == "my package never arrived"


@pytest.mark.parametrize(
    "text", ["记住了", "我记住了", "remember to call me tomorrow", "记得明天给我打电话"]
)
def test_not_a_remember_request(text: str) -> None:
    assert not [c for c in extract(text).candidates if c.candidate.confidence == 0.9]


# --------------------------------------------------------------------------------------------
# Self-statements


@pytest.mark.parametrize(
    "text",
    [
        "我是素食主义者",
        "我喜欢靠窗的座位",
        "我不吃辣",
        "我现在住在东京",
        "我对猫毛过敏",
        "我的生日是5月3号",
        "我有两个孩子",
        "我会说日语",
        "I'm vegetarian",
        "I live in Berlin",
        "I work night shifts",
        "I'm a VIP member",
        "I have two kids",
        "my birthday is May 3",
        "I speak Japanese",
        "I'm allergic to peanuts",
        "我是左撇子",
        "我在上海工作",
    ],
)
def test_self_statement(text: str) -> None:
    e = extract(text)
    assert e.skipped == []
    (c,) = e.candidates
    assert (c.candidate.kind, c.candidate.key) == ("semantic", None)
    assert c.candidate.content == text
    assert c.candidate.confidence == 0.7
    assert c.candidate.subject_ref is None


def test_self_statement_beside_a_preference() -> None:
    e = extract("我上夜班，白天别打电话")
    assert [c.candidate.content for c in e.candidates] == [
        "我上夜班",
        "用户希望 09:00-21:00 (Asia/Shanghai) 免打扰",
    ]


# --------------------------------------------------------------------------------------------
# Nothing to remember


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "thanks!",
        "你好",
        "好的",
        "哈哈",
        "ok",
        "what's the status?",
        "谢谢你们的帮助！",
        "Hi there",
        "good morning",
        "早上好",
        "我很生气",
        "I'm not happy",
        "我要投诉",
        "能发短信吗？",  # a capability question
        "can you email me?",
        "你们能打电话吗",
        "可以用邮件联系我吗",
        "短信收到了，谢谢",
        "你们的邮件系统是不是坏了",
        "I got your email, thanks",
        "did you get my email?",
        "I called yesterday but nobody answered",
        "Why do you keep calling me?",
        "你们为什么老给我打电话",
        "为什么又给我发短信",
        "请回复我的邮件",
        "邮件里的链接打不开",
        "短信验证码收不到",
        "你们的客服电话是多少",
        "打电话没人接",
        "我没收到短信",
        "收到邮件了",
        "我等你电话",
        "The text on the page is too small",
        "Please make the text bigger",
        "请不要给我发营销短信",
        "stop sending me promotional emails",
        "短信或者邮件都行",  # two channels, none preferred
        "我的电话号码是13800138000",
        "我喜欢你们的服务",
        "I love this product",
        "I have a question",
        "我有点担心",
        "我是昨天下的单",
        "我是想问一下退款的事",
        "I check my email every day",
        "我的邮箱是 zhang@example.com",
        "I want my wife to get the texts too",
    ],
)
def test_nothing_extracted(text: str) -> None:
    assert extract(text) == Extraction()


@pytest.mark.parametrize(
    ("text", "wrong_key"),
    [
        ("我现在住在东京", "profile.timezone"),
        ("I live in Berlin", "profile.timezone"),
        ("短信收到了，谢谢", "notification.preference"),
        ("你们的邮件系统是不是坏了", "notification.preference"),
        ("I like French food", "profile.language"),
        ("我不想要退款", "refund.status"),
        ("以后物流更新请优先短信通知", "logistics.status"),
        ("我每天晚上十点睡觉", "notification.preference"),
    ],
)
def test_near_misses_do_not_produce_the_wrong_key(text: str, wrong_key: str) -> None:
    e = extract(text)
    assert with_key(e, wrong_key) == []
    assert [s for s in e.skipped if s.key == wrong_key] == []


# --------------------------------------------------------------------------------------------
# General properties

_MANY = [
    "订单 ORD-A1B2C3D4 三天没发货，我以后都希望优先短信通知。",
    "还是短信最方便，有事短信联系我。",
    "这次的发票就发我邮箱吧。",
    "记一下我的支付密码是 884213，下次直接帮我付款。",
    "My wife prefers email, but I prefer texts",
    "以后短信通知我，  晚上10点以后别打扰",
    "别发短信了，改成邮件",
    "快递显示已签收但我没收到",
    "请按东京时间晚上8点后联系我",
    "我上夜班，白天别打电话。晚上可以",
    "just this once, email me the invoice",
    "Remember that I'm vegetarian.\nAlso, please reply in English from now on!",
]


@pytest.mark.parametrize("text", _MANY)
def test_clauses_are_verbatim_parts_of_the_utterance(text: str) -> None:
    e = extract(text)
    assert e.candidates or e.skipped
    for c in e.candidates:
        assert c.clause
        assert c.clause in text
    for s in e.skipped:
        assert s.clause
        assert s.clause in text


@pytest.mark.parametrize("text", _MANY)
def test_deterministic(text: str) -> None:
    first = extract(text).model_dump()
    assert all(extract(text).model_dump() == first for _ in range(3))
    assert RuleExtractor().extract(text, default_timezone=SH).model_dump() == first


@pytest.mark.parametrize("text", _MANY)
def test_candidates_are_valid(text: str) -> None:
    for c in extract(text).candidates:
        assert check_key(c.candidate.key) == c.candidate.key
        assert c.candidate.content.strip() == c.candidate.content
        assert 0 < c.candidate.confidence <= 1
        if c.candidate.kind == "profile":
            assert c.candidate.subject_ref is None
            assert c.candidate.structured_value


def test_multi_sentence_utterance() -> None:
    e = extract("Remember that I'm vegetarian.\nAlso, please reply in English from now on!")
    assert [(c.candidate.key, c.candidate.content) for c in e.candidates] == [
        (None, "I'm vegetarian"),
        ("profile.language", "User prefers replies in English"),
    ]


def test_invalid_default_timezone_is_refused() -> None:
    with pytest.raises(InvalidInput) as info:
        extract("以后短信通知我", tz="Not/AZone")
    assert info.value.field == "default_timezone"


def test_default_timezone_is_normalised() -> None:
    c = one("晚上10点以后别打扰我", "notification.preference", tz="asia/tokyo")
    assert c.candidate.structured_value == {"quiet_hours": "22:00-08:00 Asia/Tokyo"}


def test_rule_extractor_is_an_extractor() -> None:
    extractor: Extractor = RuleExtractor()
    assert extractor.info.name == "rule-extractor"
    assert extractor.info.version
    assert isinstance(extractor.extract("好的", default_timezone=SH), Extraction)
