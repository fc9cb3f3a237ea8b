"""RuleExtractor on what held-out 45 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a carrier refused with "never use" is a standing
wish, and so is a locker or pickup point refused (不要放快递柜), unless for one order; a place
said after its country ("我在美国西雅图") gives the place's zone, and "delivery time" asks about
time; "我叫X就行" is the name to call the user; a coupon not taken off (按原价扣) and a parcel
shown signed for by the user (显示本人签收) are claims; a one-off clause is no standing cue for
the clause after it."""

from __future__ import annotations

import pytest

from tests.unit.extracting import contents, kept


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("never use hermes for my stuff, they lose everything", "never use hermes"),
        ("别放丰巢，我老忘记取", "别放丰巢"),
        ("千万不要放驿站 太远了", "不要放驿站"),
    ],
)
def test_a_refused_carrier_or_pickup_point_is_a_standing_wish(text: str, mention: str) -> None:
    assert any(mention in c for c in contents(text)), contents(text)


@pytest.mark.parametrize("text", ["今天别放快递柜，我在家", "这单先别放驿站了，放门卫那就行"])
def test_a_pickup_point_refused_for_one_order_is_not_kept(text: str) -> None:
    assert contents(text) == [], contents(text)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("我在加拿大温哥华，有时差，回消息别太早", "America/Vancouver"),
        ("I'm in Perth now, not Sydney, so fix the delivery times", "Australia/Perth"),
    ],
)
def test_where_the_user_is_gives_the_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text), kept(text)


def test_the_name_that_will_do_is_the_name() -> None:
    assert ("profile.name", {"value": "小周"}) in kept("我叫小周就好，别叫我周先生")
    assert not any(k == "profile.name" for k, _ in kept("我叫什么名字你知道吗"))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("优惠券明明领了，结账还是按原价扣的款", "payment.status"),
        ("我根本没收到，物流却显示本人签收", "logistics.status"),
    ],
)
def test_claims(text: str, key: str) -> None:
    assert (key, None) in kept(text), kept(text)
