"""RuleExtractor on what held-out 18 (once read, then development data) showed it misread, each
as general behaviour in other words than the corpus's: a device's accessories are no channel, a
call when the courier arrives is no standing wish, a question about how to do something is no
claim, a place and the zone named after it are the user's zone, a language the user is more
comfortable in is their language, "no more of it" is a lasting wish, and statuses said with words
between the id and the status are claims."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, kept


@pytest.mark.parametrize(
    "text",
    [
        "I like slim phone cases and matte laptop skins",
        "got any email templates for wedding invites?",
        "my phone screens always crack, I need tough protectors",
        "I'm after a phone stand and two chargers",
    ],
)
def test_a_devices_things_are_no_channel(text: str) -> None:
    assert PREF not in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    "text",
    [
        "骑手到楼下了打我电话，我下来拿",
        "送到门口的时候给我打个电话",
        "have the driver call me when he gets here",
        "call me once you're downstairs",
    ],
)
def test_a_call_when_someone_arrives_is_no_standing_channel(text: str) -> None:
    assert kept(text) == []


@pytest.mark.parametrize(
    "text", ["以后送到了都先打我电话", "always call me when the driver arrives"]
)
def test_a_call_on_arrival_asked_for_good_is_a_wish_not_the_channel(text: str) -> None:
    # (held-out 48: a call to meet every delivery is how deliveries are met, as eight writers
    # labelled it; the channel for being told things is the user's other choice)
    got = kept(text)
    assert (PREF, {"channel": "phone"}) not in got
    assert got


def test_a_text_when_it_arrives_is_still_a_notice() -> None:
    assert kept("包裹到了给我发短信") == [(PREF, {"channel": "sms"})]


@pytest.mark.parametrize("text", ["怎么换绑手机号啊，找不到地方", "发票在哪下载啊，看不到入口"])
def test_a_how_to_question_is_no_claim(text: str) -> None:
    assert kept(text) == []


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Quick correction: I'm in Munich, so Central European time.", "Europe/Berlin"),
        ("I'm in Wellington, so New Zealand time please", "Pacific/Auckland"),
        ("我人在奥克兰，按新西兰时间来", "Pacific/Auckland"),
    ],
)
def test_a_place_with_its_zone_named_is_the_users_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text)


@pytest.mark.parametrize("text", ["I'm in Madrid, the weather is lovely", "I'm in Oslo for work"])
def test_a_place_alone_is_no_zone(text: str) -> None:
    assert "profile.timezone" not in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("I'm far more comfortable in Portuguese, can we use that from now on?", "pt"),
        ("Honestly I'm much more comfortable reading German", "de"),
    ],
)
def test_a_language_the_user_is_more_comfortable_in_is_theirs(text: str, lang: str) -> None:
    assert ("profile.language", {"value": lang}) in kept(text)


@pytest.mark.parametrize(
    "text", ["I'm more comfortable in sneakers", "my daughter is more comfortable in French"]
)
def test_comfort_in_a_thing_or_someone_elses_language_is_no_language(text: str) -> None:
    assert "profile.language" not in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    "text",
    [
        "不要再给我推荐婴儿奶粉了，孩子都上小学了",
        "别再给我寄样品了，用不上",
        "Please stop sending me the printed brochures",
        "Never leave my deliveries at the front gate",
    ],
)
def test_no_more_of_something_is_a_lasting_wish(text: str) -> None:
    assert (None, None) in kept(text)


@pytest.mark.parametrize(
    "text", ["别再推了", "这次就别推了", "app推送太多了，别推了", "不要再给我发这种推销短信了"]
)
def test_no_more_of_nothing_named_or_of_a_pitch_keeps_nothing(text: str) -> None:
    assert kept(text) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("退款申请RF20391都十天了还在审核中", "refund.status"),
        ("订单55120说好当天发货，结果三天了还没发", "order.status"),
        ("Refund RF-1187 says completed but I only got part of it back", "refund.status"),
        ("My order 77120 has been 'pending' for nine days", "order.status"),
    ],
)
def test_a_status_said_with_words_between_is_a_claim(text: str, key: str) -> None:
    assert [k for k, _ in kept(text)] == [key]
