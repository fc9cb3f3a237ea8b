"""RuleExtractor on what held-out 28 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: where the user is, said beside a time to agree or a
clock that differs ("有时差", "hours ahead", "no daylight saving"), gives their zone; a Chinese
second thought ("哦不，还是…") chooses the value after it; turning back to a language chooses
it; "有事短信说" chooses the channel; a message sent in error ("那条发错了") is no order's
status; "after 10pm" runs to the day's end; an injury, a business run, a fit needed and a
choice "only for me" are facts."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept

HOURS = "contact.preferred_hours"
ZONE = "profile.timezone"
LANGUAGE = "profile.language"


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("我人在东京上班，约个时间的话注意时差", "Asia/Tokyo"),
        ("我不在上海了，我在乌鲁木齐，约时间按新疆时间", "Asia/Urumqi"),
        ("I'm in Perth, so we're a few hours ahead of your office", "Australia/Perth"),
        ("I'm in Arizona, we don't do daylight saving here", "America/Phoenix"),
        ("I live in Denver, keep that in mind for delivery windows", "America/Denver"),
        ("我常住温哥华，和你们有时差，约时间按我这边来", "America/Vancouver"),
    ],
)
def test_where_the_user_is_beside_a_clock_that_differs_gives_their_zone(
    text: str, zone: str
) -> None:
    assert [v["value"] for k, v in kept(text) if k == ZONE and v] == [zone]


@pytest.mark.parametrize(
    "text",
    [
        "我在杭州出差，下午约个时间聊聊",
        "I'm in Paris this week, what are your delivery windows?",
    ],
)
def test_a_stay_said_beside_a_time_is_no_zone(text: str) -> None:
    assert not [v for k, v in kept(text) if k == ZONE and v]


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("先打电话吧。哦不，还是短信", "sms"),
        ("发邮件吧，呃不，还是微信好了", "wechat"),
        ("就用短信，啊不对，还是邮件", "email"),
    ],
)
def test_a_chinese_second_thought_chooses_the_value_after_it(text: str, chosen: str) -> None:
    channels = [v.get("channel") for k, v in kept(text) if k == PREF and v and "channel" in v]
    assert channels == [chosen]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I asked for French before, but let's switch back to English", "en"),
        ("Can we go back to German? My Italian is not good enough", "de"),
    ],
)
def test_turning_back_to_a_language_chooses_it(text: str, language: str) -> None:
    values = [str(v["value"]).split("-")[0] for k, v in kept(text) if k == LANGUAGE and v]
    assert values == [language]


@pytest.mark.parametrize(
    "text",
    ["I'm going back to Spain in May", "we switched back to English lessons at school"],
)
def test_going_back_to_a_place_or_a_class_is_no_language(text: str) -> None:
    assert not [v for k, v in kept(text) if k == LANGUAGE and v]


@pytest.mark.parametrize(
    ("text", "chosen"),
    [("别打电话了，有事微信说", "wechat"), ("有事的话短信留言", "sms")],
)
def test_how_to_be_told_when_there_is_something_chooses_the_channel(text: str, chosen: str) -> None:
    channels = [v.get("channel") for k, v in kept(text) if k == PREF and v and "channel" in v]
    assert chosen in channels


def test_being_busy_beside_a_channel_is_no_choice() -> None:
    assert not [v for k, v in kept("我今天有事，短信没看到") if k == PREF and v]


def test_a_message_sent_in_error_is_no_order_status() -> None:
    assert not [k for k, _ in kept("刚才那句发错了，忽略就好") if k == "order.status"]
    assert [k for k, _ in kept("你们发错货了，我要的是灰色") if k == "order.status"]


def test_after_a_late_hour_runs_to_the_end_of_the_day() -> None:
    hours = [
        str(v["value"])
        for k, v in kept("晚上十一点以后才有空回消息，白天别找我")
        if k == HOURS and v
    ]
    assert hours
    assert hours[0].startswith("23:00-23:59")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我膝盖有旧伤，爬楼不方便，大件能送上楼吗", "膝盖有旧伤"),
        ("我开了家小花店，包装纸批量买有折扣吗", "开了家小花店"),
        ("I always need wide-fit shoes, standard ones pinch", "wide-fit shoes"),
        ("plain designs only for me, no logos please", "plain designs only for me"),
    ],
)
def test_an_injury_a_business_a_fit_and_a_choice_for_me_are_facts(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


def test_a_question_whether_a_deal_is_only_for_me_is_no_fact() -> None:
    assert not contents("is that discount only for me?")


@pytest.mark.parametrize(
    "text",
    [
        "Can you remember my shoe size for me? It's 10",
        "could you remember my tracking number?",
        "你能记住我常用的尺码吗？",
        "帮我记一下我的会员卡号吧",
    ],
)
def test_a_request_to_remember_a_slot_without_its_value_keeps_no_empty_slot(text: str) -> None:
    assert not [
        c for c in contents(text) if c.rstrip("?？吧 ").endswith(("size", "number", "尺码", "卡号"))
    ]


def test_a_request_to_remember_a_slot_with_its_value_keeps_it() -> None:
    assert any("size is 10" in c for c in contents("remember my shoe size is 10"))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("钱我早就付了，后台还显示待处理", "payment.status"),
        ("我已经付过款了，你们那边显示没付", "payment.status"),
        ("Support told me the refund was sent, nothing has arrived", "refund.status"),
        ("you said refund processed but it's not on my card", "refund.status"),
    ],
)
def test_paid_or_refunded_said_as_done_is_a_claim(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)]


def test_paying_as_a_step_asked_about_is_no_claim() -> None:
    assert not [k for k, _ in kept("付完款之后还能改地址吗？") if k == "payment.status"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("save this pls — my usual pickup point is the locker on King St", "locker on King St"),
        ("my surname's spelled Smyth, not Smith", "spelled Smyth"),
    ],
)
def test_a_hurried_request_to_save_and_a_name_spelled_are_kept(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))
