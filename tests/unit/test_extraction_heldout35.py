"""RuleExtractor on what held-out 35 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: where the user is gives the zone when a time is in
view said in short ("3 hrs ahead", "it's like 10pm for me", "your timestamps"); "I'm 2 hrs
behind" is no age; a laugh or a typo owned is no correction; a home on a floor with no lift,
weak eyes and the one kind of a thing the user buys are facts; a call passed on to the courier
("请转告快递 …打个电话") is no channel chosen, nor a claim."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("i'm based in denver btw, so when u call at 9 its like 7am for me", "America/Denver"),
        ("oops i'm in seoul not tokyo, so i'm 0 hrs ahead anyway lol", "Asia/Seoul"),
        ("pls remember i'm in madrid pls, the timestamps in ur emails confuse me", "Europe/Madrid"),
    ],
)
def test_a_time_in_view_said_in_short_gives_the_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text)


def test_hours_ahead_are_no_age() -> None:
    assert not any("hrs" in c for c in contents("i'm in lima, im 3 hrs behind new york"))


@pytest.mark.parametrize("text", ["哈哈 我刚才打错字了", "lol typo, sorry"])
def test_a_laugh_or_a_typo_owned_is_no_correction(text: str) -> None:
    assert not contents(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("俺家住五楼 没电梯的 冰箱能送上去吗", ("五楼", "没电梯")),
        ("我视力不太好 说明书字太小了", ("视力不太好",)),
        ("这个牌子的面霜太香了 我一般只用无香的", ("只用无香的",)),
    ],
)
def test_a_home_without_a_lift_weak_eyes_and_what_the_user_buys_are_facts(
    text: str, words: tuple[str, ...]
) -> None:
    assert any(all(w in c for w in words) for c in contents(text))


@pytest.mark.parametrize("text", ["我只买了一件", "我只用过一次"])
def test_a_single_purchase_is_no_habit(text: str) -> None:
    assert not contents(text)


@pytest.mark.parametrize(
    "text",
    ["麻烦转告快递 送货前十分钟打个电话 我下楼拿", "跟骑手说一下 送到楼下打我电话"],
)
def test_a_call_passed_on_to_the_courier_is_no_channel(text: str) -> None:
    assert all(key != PREF for key, _ in kept(text))
    assert not contents(text)
