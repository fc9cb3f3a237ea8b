"""RuleExtractor on what held-out 42 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a negative contraction typed without its apostrophe
("hasnt", "dont") reads as with it; a name refused ("别叫我亲", "don't call me Sweetie") is no
name and no wish about calls; hours in a message that names where the user is and refuses
another zone ("别按北京时间算") are in the user's zone, never the refused one."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, extract, kept


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my parcel hasnt moved since friday", "logistics.status"),
        ("the refund still hasnt come through", "refund.status"),
        ("i was charged but the order didnt go through", "payment.status"),
    ],
)
def test_a_claim_typed_without_its_apostrophe(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)], kept(text)


def test_a_fact_typed_without_its_apostrophe() -> None:
    assert kept("i dont eat gluten, at all") == [(None, None)]


@pytest.mark.parametrize(
    "text",
    ["别叫我宝宝 怪怪的", "以后别再叫我王姐了", "Don't call me Honey, it's odd from a shop"],
)
def test_a_name_refused_is_no_name_and_no_wish_about_calls(text: str) -> None:
    found = [(c.candidate.key, c.negated) for c in extract(text).candidates]
    assert not [k for k, _ in found if k in ("profile.name", PREF)], found


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("免打扰设成晚上11点到早上7点 我在悉尼 别按北京时间算", "Australia/Sydney"),
        ("no calls after 9pm please, I'm in Chicago, not on London time", "America/Chicago"),
    ],
)
def test_hours_beside_a_refused_zone_are_in_the_users_zone(text: str, zone: str) -> None:
    hours = [v["quiet_hours"] for k, v in kept(text) if k == PREF and v and "quiet_hours" in v]
    assert hours, kept(text)
    assert all(str(h).endswith(zone) for h in hours), hours


@pytest.mark.parametrize(
    "text",
    [
        "never leave parcels on the porch, they vanish round here",
        "pls don't leave boxes outside, ever",
        "don't ship with evri, they never find my flat",
    ],
)
def test_a_lasting_refusal_of_where_or_how_parcels_go_is_kept(text: str) -> None:
    assert kept(text) == [(None, None)], kept(text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("the kettle came with a cracked lid", "order.status"),
        ("收到的碗裂了一个", "order.status"),
        ("order 55120 arrived with the display cracked", "order.status"),
        ("parcel arrived with the box crushed and a glass broken", "logistics.status"),
    ],
)
def test_goods_broken_on_arrival_are_the_orders_a_crushed_box_the_parcels(
    text: str, key: str
) -> None:
    assert [k for k, _ in kept(text)] == [key], kept(text)
