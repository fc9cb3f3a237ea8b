"""RuleExtractor on what held-out 39 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a call not taken at an hour ("不接电话") is quiet
hours, never an hour to call; a refusal pointing back to hours said before it ("这个点别打") and
a quiet-hours clause whose hours come after it are quiet hours, the channel not refused; a North
American zone named by its region after the hours, and "3am your time" beside where the user
is, give the zone; "挺喜欢" and "a sucker for" are likes, a liking for chatting with the
assistant none; a blank after an emoji, after a Chinese clause's last word, or after a number
before a word that opens a clause parts clauses; a check asked before shipping, other couriers'
record and "现在不在家" are no claim and no fact; an order gone is a claim."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("我晚上十一点以后不接电话", "23:00-08:00"),
        ("下午一点到三点我睡午觉 那个时间别打电话", "13:00-15:00"),
        ("勿扰时间帮我改一下 改成晚上十点到早上六点", "22:00-06:00"),
    ],
)
def test_hours_refused_across_clauses_are_quiet_hours(text: str, hours: str) -> None:
    got = extract(text).candidates
    values = [(c.candidate.key, c.candidate.structured_value, c.negated) for c in got]
    assert (PREF, {"quiet_hours": f"{hours} Asia/Shanghai"}, False) in values, values
    assert not [v for v in values if v[0] == "contact.preferred_hours"], values
    assert not [v for v in values if v[2] and v[1] == {"channel": "phone"}], values


def test_a_refusal_pointing_back_to_nothing_stays_a_refusal() -> None:
    assert not [v for k, v in kept("那个时间别打电话") if v and "quiet_hours" in v]


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("keep my do not disturb at 10pm-6am Pacific", "America/Los_Angeles"),
        ("quiet hours 11pm to 7am Central please", "America/Chicago"),
    ],
)
def test_a_region_after_the_hours_is_their_zone(text: str, zone: str) -> None:
    got = [v for k, v in kept(text) if k == PREF and v and "quiet_hours" in v]
    assert got
    assert all(zone in str(v["quiet_hours"]) for v in got), got


def test_the_shops_clock_beside_where_the_user_is_gives_the_zone() -> None:
    got = kept("I'm in Auckland, so please don't message me at 4am your time")
    assert ("profile.timezone", {"value": "Pacific/Auckland"}) in got


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我蛮喜欢手工皂的 有新款可以推给我", "喜欢手工皂"),
        ("I'm such a sucker for linen shirts", "sucker for linen"),
    ],
)
def test_likes_said_with_a_mild_adverb_are_facts(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


def test_a_liking_for_talking_to_the_assistant_is_no_fact() -> None:
    assert not contents("我挺喜欢和你聊天的哈哈")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("I'm lactose intolerant 🥛 is this yogurt ok", "lactose intolerant"),
        ("我用的是小米13 这个充电器能用吗", "小米13"),
    ],
)
def test_a_fact_before_a_question_in_the_same_line_is_kept(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


def test_a_blank_after_a_clauses_last_word_parts_it_from_latin() -> None:
    got = kept("以后账单发email就好 sms我基本不看")
    assert (PREF, {"channel": "email"}) in got
    assert (PREF, {"channel": "sms"}) not in got


@pytest.mark.parametrize("text", ["sms我基本不看", "email我从来不看的"])
def test_a_latin_channel_as_a_chinese_clauses_topic_is_not_chosen(text: str) -> None:
    assert not [v for k, v in kept(text) if k == PREF], kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "麻烦让仓库发货前看看有没有划痕",
        "以后都发京东快递 其他快递老是慢",
    ],
)
def test_a_check_asked_or_other_couriers_record_is_no_claim(text: str) -> None:
    assert not [k for k, _ in kept(text) if k and k.endswith(".status")]


def test_away_from_home_now_is_no_fact() -> None:
    assert not contents("麻烦晚点再送 我今天不在家")


def test_an_order_gone_is_a_claim() -> None:
    assert "order.status" in [k for k, _ in kept("刚付完款 订单居然不见了")]
