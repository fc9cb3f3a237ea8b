"""RuleExtractor on what held-out 36 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: where the user is gives the zone when the message
names it as an abbreviation ("so CET"), talks of call slots, or keeps calls out of the hours the
user sleeps, and the hours are then read in that zone, not the account's; call slots are no
channel chosen; a channel named "for updates" is chosen; "更喜欢", "not a fan of …", "we don't
celebrate …" and "I teach …" are facts about the user, a channel no one is a fan of is left to
the channel's rules; a food named first and then never eaten ("香菜我从来不吃") and "本人素食者"
are facts, what the user will not eat today is not; one item sent for another and a refund never
received are claims."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("im based in berlin btw so CET", "Europe/Berlin"),
        ("heads up: I'm in Tokyo, so call slots have to be in JST", "Asia/Tokyo"),
        ("I'm in Denver, any call window after 5 works", "America/Denver"),
        ("I work nights so I sleep 8am to 3pm, don't call in those hours. I'm in Boston", None),
    ],
)
def test_where_the_user_is_gives_the_zone_when_times_are_in_view(
    text: str, zone: str | None
) -> None:
    want = zone or "America/New_York"
    assert ("profile.timezone", {"value": want}) in kept(text)


def test_hours_kept_free_of_calls_are_read_in_the_zone_the_message_gives() -> None:
    text = "I sleep 8am to 3pm, don't ring me during those hours. I'm in Denver btw"
    quiet = [
        c.candidate.structured_value
        for c in extract(text).candidates
        if c.candidate.key == PREF and c.candidate.structured_value
    ]
    assert all("Asia/Shanghai" not in str(v) for v in quiet)


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Tokyo, so call slots have to be in JST",
        "fyi I live in Oslo, call windows before 10am are best",
    ],
)
def test_call_slots_are_no_channel_chosen(text: str) -> None:
    assert not any(key == PREF and value == {"channel": "phone"} for key, value in kept(text))


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("remember: whatsapp for order updates. not sms.", "whatsapp"),
        ("email for notifications please", "email"),
    ],
)
def test_a_channel_named_for_updates_is_chosen(text: str, channel: str) -> None:
    assert (PREF, {"channel": channel}) in kept(text)


def test_a_channel_in_the_past_for_updates_is_no_choice() -> None:
    assert not any(key == PREF for key, _ in kept("I got a text for updates yesterday"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("喝茶的话我更喜欢绿茶 红茶太浓了", ("更喜欢绿茶",)),
        ("honestly not a fan of wool, it itches", ("not a fan of wool",)),
        ("I'm not much of a fan of floral prints", ("fan of floral prints",)),
        ("we don't celebrate Valentine's Day, please skip those emails", ("celebrate Valentine",)),
        ("I teach high school chemistry", ("teach high school",)),
    ],
)
def test_likes_customs_and_work_are_facts(text: str, words: tuple[str, ...]) -> None:
    said = contents(text)
    assert any(all(w in c for w in words) for c in said), said


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("葱姜蒜我从来不吃的 别放", ("葱姜蒜我从来不吃",)),
        ("羊肉我不吃 有膻味", ("羊肉我不吃",)),
        ("本人素食主义者哈", ("素食主义者",)),
    ],
)
def test_a_food_named_first_and_never_eaten_is_a_fact(text: str, words: tuple[str, ...]) -> None:
    said = contents(text)
    assert any(all(w in c for w in words) for c in said), said


@pytest.mark.parametrize("text", ["今天我不喝酒 要开车", "这个我不吃了 帮我退掉"])
def test_what_the_user_will_not_eat_today_is_no_fact(text: str) -> None:
    assert not contents(text)


@pytest.mark.parametrize(
    "text",
    ["not a fan of texts, email me instead", "Not a fan of push notifications. Telegram only."],
)
def test_a_channel_no_one_is_a_fan_of_is_no_fact(text: str) -> None:
    assert not any(key is None for key, _ in kept(text))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("you shipped me a blue one instead of the green I picked", "order.status"),
        ("they sent us the 2-pack instead of the 4-pack we ordered", "order.status"),
        ("I still haven't received my refund for the blender", "refund.status"),
        ("we never got a refund for the cancelled order", "refund.status"),
    ],
)
def test_one_item_sent_for_another_and_a_refund_never_received_are_claims(
    text: str, key: str
) -> None:
    assert key in [k for k, _ in kept(text)]
