"""RuleExtractor on what held-out 40 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a channel said to be out of use ("早就不用了", "已经冇
用") or refused in Cantonese ("唔好再经…") is denied, never chosen; a language set by mistake is
not the one wanted; hours refused for notifications beside where the user is take that place's
zone, and hours said alone before a refusal are its quiet hours; where the user is, said alone,
is a fact when it names a place; a relative's size, diet or health is kept when the message
says it for good, not as the background of one question; a statement's continuation ("肠胃比较
敏感", "both beagles") joins it; a refund not paid, a parcel not at its pickup point, a return
the tracking shows received and an order "processing" since a day are claims."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("别给我打电话了，那个号码我早就不用了", "phone"),
        ("短信别发了 那张卡已经不用了", "sms"),
        ("我好耐冇用WhatsApp喇，唔好再经WhatsApp揾我", "whatsapp"),
    ],
)
def test_a_channel_out_of_use_is_denied_never_chosen(text: str, channel: str) -> None:
    got = [
        (c.candidate.structured_value, c.negated)
        for c in extract(text).candidates
        if c.candidate.key == PREF
    ]
    assert ({"channel": channel}, True) in got, got
    assert ({"channel": channel}, False) not in got, got


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("把语言改成日文是我不小心点错了，我要英文", "en"),
        ("中文是误选的 请用英文回复", "en"),
    ],
)
def test_a_language_set_by_mistake_is_not_the_one_wanted(text: str, language: str) -> None:
    got = [v for k, v in kept(text) if k == "profile.language"]
    assert got
    assert all(str((v or {})["value"]).startswith(language) for v in got), got


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("no push notifications between 10pm and 6am, I'm in Berlin", "Europe/Berlin"),
        ("no emails before 8am please, I live in Toronto", "America/Toronto"),
        ("晚上10点以后别打电话，我在东京", "Asia/Tokyo"),
    ],
)
def test_hours_refused_beside_where_the_user_is_take_its_zone(text: str, zone: str) -> None:
    got = kept(text)
    hours = [v for k, v in got if k == PREF and v and "quiet_hours" in v]
    assert hours, got
    assert all(zone in str(v["quiet_hours"]) for v in hours), got
    assert ("profile.timezone", {"value": zone}) in got
    assert not [k for k, _ in got if k == "contact.preferred_hours"], got


def test_hours_said_alone_before_a_refusal_are_its_quiet_hours() -> None:
    got = kept("晚上十点以后吧，别给我打电话了，早上八点前也别")
    assert (PREF, {"quiet_hours": "22:00-08:00 Asia/Shanghai"}) in got, got
    got = kept("晚上十点半以后啊，别再发消息了")
    assert (PREF, {"quiet_hours": "22:30-08:00 Asia/Shanghai"}) in got, got


@pytest.mark.parametrize("text", ["我在武汉，你们发顺丰吗", "I'm in Lisbon now"])
def test_where_the_user_is_said_alone_is_a_fact(text: str) -> None:
    assert contents(text), text


@pytest.mark.parametrize("text", ["我在开会", "我在路上", "I'm in a hurry", "这周我在上海出差"])
def test_being_busy_or_away_is_no_fact(text: str) -> None:
    assert not [c for c in contents(text) if "在" in c or "in a" in c], contents(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我女儿穿M码，她的衣服一直是我来买", "穿M码"),
        ("我妈血压偏高 以后给她买的零食都要低盐的", "血压偏高"),
        ("my brother is vegetarian and I always order his groceries", "vegetarian"),
    ],
)
def test_a_relatives_size_or_diet_said_for_good_is_kept(text: str, words: str) -> None:
    assert any(words in c for c in contents(text)), contents(text)


@pytest.mark.parametrize(
    "text",
    ["我老公穿XXL，这件外套有他的码吗", "my sister is vegan, is this cake dairy-free?"],
)
def test_a_relatives_size_or_diet_as_background_of_one_question_is_not(text: str) -> None:
    assert not contents(text), contents(text)


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("我家狗五岁了，肠胃有点敏感", "肠胃有点敏感"),
        ("我吃素，鸡蛋可以", "鸡蛋可以"),
        ("I have three cats, both ragdolls", "both ragdolls"),
    ],
)
def test_a_statements_continuation_joins_it(text: str, joined: str) -> None:
    got = contents(text)
    assert any(joined in c and c != joined for c in got), got


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("退货仓库都签收了，退款到现在还没打过来", "refund.status"),
        ("短信说放快递柜了 我去快递柜看了没有", "logistics.status"),
        ("the courier's tracking says you got it last week", "logistics.status"),
        ("it's been 'pending' since Friday", "order.status"),
    ],
)
def test_business_claims_said_in_passing(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)], kept(text)
