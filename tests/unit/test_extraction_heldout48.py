"""RuleExtractor on what held-out 48 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a name the user states is the name to use when they
correct it, spell it, ask it kept or set it against how they were addressed (and "my name's X
but use Y" is Y), in any Latin letters; a call asked before every delivery is how to meet the
courier, kept as a standing wish, never the channel for being told things; a night kept quiet is
kept on the clock of where the user says they are; an order the user never placed, a payment
made twice and a delivery failed on the user's account are business claims; a status feared
("nervous about it going missing", 怕快递丢了) or to come (到了记得签收) is none."""

from __future__ import annotations

import pytest

from tests.unit.extracting import extract, values


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("typo in my profile - my name is Niamh, not Neve", "Niamh"),
        ("my name's spelt Zoë, with the dots", "Zoë"),
        ("please remember my name is Jon, no h", "Jon"),
        ("My name's Marcus, you can call me that rather than 'sir'", "Marcus"),
        ("my name is Katherine but please use Kit", "Kit"),
        ("记住我叫小雨", "小雨"),
        ("名字打错了，我叫张薇，不是张微", "张薇"),
        ("更正：我的名字是刘洋", "刘洋"),
    ],
)
def test_a_stated_name_corrected_or_kept_is_the_name_to_use(text: str, name: str) -> None:
    assert values(text, "profile.name") == [{"value": name}]


@pytest.mark.parametrize(
    "text",
    [
        "hi, my name is Tom, I ordered a lamp last week",
        "我叫李婷，想问下订单到哪了",
        "call me Monday about the return",
    ],
)
def test_a_name_said_in_passing_is_not_the_profile_name(text: str) -> None:
    assert values(text, "profile.name") == []


@pytest.mark.parametrize(
    "text",
    [
        "Tell the drivers to always ring me 15 minutes before delivering",
        "Please always call me before delivering, the buzzer doesn't work",
        "跟快递员说，以后送货前先给我打个电话",
    ],
)
def test_a_call_before_every_delivery_is_a_wish_not_a_channel(text: str) -> None:
    got = extract(text).candidates
    assert values(text, "notification.preference") == []
    assert any(c.candidate.kind == "semantic" for c in got), [c.candidate for c in got]


def test_a_call_chosen_for_being_told_things_is_still_a_channel() -> None:
    assert values("from now on please phone me with updates, not email", "notification.preference")


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("麻烦记住，我在墨尔本，别大半夜给我发消息", "Australia/Melbourne"),
        ("我住在温哥华，半夜别给我打电话", "America/Vancouver"),
    ],
)
def test_a_night_kept_quiet_is_on_the_clock_of_where_the_user_is(text: str, zone: str) -> None:
    (value,) = values(text, "notification.preference")
    assert isinstance(value, dict)
    assert str(value["quiet_hours"]).endswith(zone)
    assert values(text, "profile.timezone") == [{"value": zone}]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I never placed this order, someone must have got into my account", "order.status"),
        ("不是我下的单，我的账号好像被盗了", "order.status"),
        ("我付了两次款，但只有一个订单", "payment.status"),
        ("the courier marked it 'not home' but I was in all afternoon", "logistics.status"),
        ("快递员说我不在家，我明明在家", "logistics.status"),
    ],
)
def test_an_order_never_placed_a_double_payment_a_failed_delivery_are_claims(
    text: str, key: str
) -> None:
    assert key in [c.candidate.key for c in extract(text).candidates]


@pytest.mark.parametrize(
    "text",
    [
        "I'm a bit nervous about the package going missing, it's a gift",
        "worried the parcel might get lost on the way",
        "担心快递丢了，这单帮我保价吧",
        "帮我跟我妈说一声：快递到了记得自己签收",
    ],
)
def test_a_status_feared_or_to_come_is_no_claim(text: str) -> None:
    assert [c.candidate.key for c in extract(text).candidates if c.candidate.key] == []


@pytest.mark.parametrize("text", ["my parcel went missing last week", "快递到了，但是摔坏了"])
def test_a_status_said_to_be_so_is_still_a_claim(text: str) -> None:
    assert "logistics.status" in [c.candidate.key for c in extract(text).candidates]
