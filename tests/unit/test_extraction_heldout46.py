"""RuleExtractor on what held-out 46 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a refusal of what is suggested to the user is a
standing wish when it is the first thing said ("不要给我推荐…", "don't recommend me …"), and the
reason said right after it is one memory with it; a pick refused for this once is none; a
recurring time refused before or after its verb ("不要周末配送", "I'd rather not get deliveries
on Sundays"), a recurring time asked for ("prefer evening deliveries") and a refusal closed by
"ever" are standing."""

from __future__ import annotations

import pytest

from tests.unit.extracting import contents


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("别给我推荐榴莲口味的东西，我闻到就想吐", "别给我推荐榴莲口味的东西，我闻到就想吐"),
        ("不要推荐带亮片的衣服 我穿着扎", "不要推荐带亮片的衣服，我穿着扎"),
        (
            "please don't suggest anything with nuts to me, i react badly to them",
            "please don't suggest anything with nuts to me, i react badly to them",
        ),
        ("Stop recommending me energy drinks, I quit caffeine", None),
    ],
)
def test_a_refused_suggestion_and_its_reason_are_one_standing_memory(
    text: str, memory: str | None
) -> None:
    got = contents(text)
    assert len(got) == 1, got
    if memory is not None:
        assert got == [memory]


@pytest.mark.parametrize(
    "text",
    [
        "don't suggest the green one, i'll take the grey one for this order",
        "don't recommend me a cheaper one, i want this exact model",
        "这次不要给我推荐别的了，就要这个",
        "别推荐了",
    ],
)
def test_a_pick_refused_for_this_once_is_not_kept(text: str) -> None:
    assert contents(text) == [], contents(text)


def test_a_refusal_after_a_statement_is_what_the_statement_means() -> None:
    # "I'm vegan. Don't suggest anything with honey": one memory, the statement.
    got = contents("Please note: I'm vegan, strictly. Don't suggest anything with gelatin")
    assert len(got) == 1, got
    assert "vegan" in got[0]


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("不要晚上派送，家里老人睡得早", "不要晚上派送"),
        ("I'd rather not get deliveries on weekends, we're away", "rather not get deliveries"),
        ("prefer evening deliveries please, nobody's home in the day", "prefer evening deliveries"),
        ("no plastic wrapping on my orders ever. it all goes to landfill", "no plastic wrapping"),
    ],
)
def test_a_recurring_time_or_a_refusal_for_good_is_a_standing_wish(text: str, mention: str) -> None:
    assert any(mention in c for c in contents(text)), contents(text)


@pytest.mark.parametrize("text", ["明天不要晚上派送", "did you ever."])
def test_once_or_nothing_named_is_not_kept(text: str) -> None:
    assert contents(text) == [], contents(text)


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("我平时都买低脂的牛奶，麻烦留意一下", "我平时都买低脂的牛奶"),
        ("i pretty much only buy oat milk", "only buy oat milk"),
        ("I'd rather pay by bank transfer, just so you know for future orders", "pay by bank"),
    ],
)
def test_what_the_user_buys_or_pays_with_as_a_habit_is_kept(text: str, mention: str) -> None:
    assert any(mention in c for c in contents(text)), contents(text)


@pytest.mark.parametrize("text", ["我一般都买不到这个牌子", "I'd rather pay by card for this one"])
def test_no_habit_and_a_payment_for_this_once_are_not_kept(text: str) -> None:
    assert contents(text) == [], contents(text)
