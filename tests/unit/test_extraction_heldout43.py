"""RuleExtractor on what held-out 43 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: an offset said beside a place ("GMT+9, tokyo") is
that place's zone; "nothing between 10pm and 9am" is quiet hours; "i go by Jules" and a name
asked to be remembered ("你记住 以后叫我小鱼") are the name; "我已经付过钱了" is a payment claim;
goods broken on arrival however many words apart ("the screen on the tablet is cracked"); "i
returned the boots" is the refund's claim."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, kept


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("my timezone is UTC+1, berlin", "Europe/Berlin"),
        ("i'm on GMT+8 - singapore", "Asia/Singapore"),
    ],
)
def test_an_offset_beside_a_place_is_that_places_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text), kept(text)


def test_nothing_between_two_hours_is_quiet_hours() -> None:
    hours = [
        v["quiet_hours"]
        for k, v in kept("nothing between 11pm and 7am please, I'm a light sleeper")
        if k == PREF and v and "quiet_hours" in v
    ]
    assert hours, hours
    assert str(hours[0]).startswith("23:00-07:00")


@pytest.mark.parametrize(
    ("text", "name"),
    [("hi, i go by Robin these days", "Robin"), ("帮我记一下 以后叫我阿杰就行", "阿杰")],
)
def test_the_name_gone_by_or_asked_to_be_remembered(text: str, name: str) -> None:
    assert ("profile.name", {"value": name}) in kept(text), kept(text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("钱我早就付过钱了，订单怎么还是待付款", "payment.status"),
        ("the box came fine but the mirror in the frame was cracked", "order.status"),
        ("i returned the jacket on monday, still nothing", "refund.status"),
    ],
)
def test_claims_in_other_words(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)], kept(text)
