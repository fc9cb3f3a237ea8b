"""RuleExtractor on what held-out 37 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: hours kept quiet beside where the user is are read in
that place's zone, and give it; Cantonese as written ("喺", "淨係", "飲", "嘅") is read as its
Mandarin; a diet said of the household, a habit said with "tend to", a subject dropped ("Am
vegan") and the one kind the user takes ("…我只要…的") are facts; what the user wants shown first
("以后优先给我推…") is a wish; a status guessed ("应该…吧") and a refund asked for are no claims."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept


@pytest.mark.parametrize(
    ("text", "zone", "hours"),
    [
        ("please no texts after 10pm, I'm in Vancouver", "America/Vancouver", None),
        ("quiet hours 11pm to 7am pls — I live in Berlin", "Europe/Berlin", "23:00-07:00"),
        ("我在伦敦 晚上10点到早上8点免打扰", "Europe/London", "22:00-08:00"),
    ],
)
def test_quiet_hours_beside_where_the_user_is_are_in_that_zone(
    text: str, zone: str, hours: str | None
) -> None:
    got = kept(text)
    assert ("profile.timezone", {"value": zone}) in got
    quiet = [v for k, v in got if k == PREF and v and "quiet_hours" in v]
    assert all(zone in str(v["quiet_hours"]) for v in quiet), quiet
    if hours is not None:
        assert (PREF, {"quiet_hours": f"{hours} {zone}"}) in got


def test_quiet_hours_on_a_trip_give_no_zone() -> None:
    got = kept("这周我在东京出差 晚上11点后免打扰")
    assert not any(k == "profile.timezone" for k, _ in got)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我淨係食素嘅 唔該", "淨係食素"),
        ("我喺深圳住 有冇得送", "喺深圳住"),
        ("我冇養寵物 唔使推貓糧", "冇養寵物"),
    ],
)
def test_cantonese_is_read_as_its_mandarin(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


def test_a_cantonese_reading_quotes_the_words_as_written() -> None:
    assert all("在" not in c and "只是" not in c for c in contents("我淨係飲熱水嘅"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我家不吃牛肉的 麻烦注意", "不吃牛肉"),
        ("我们家从来不喝碳酸饮料", "不喝碳酸饮料"),
        ("I tend to only wear cotton, wool itches", "only wear cotton"),
        ("I usually don't eat dairy", "eat dairy"),
        ("Am diabetic, does this have added sugar?", "Am diabetic"),
        ("茶叶我只要明前的 别的不要", "只要明前的"),
    ],
)
def test_diets_habits_and_the_kind_taken_are_facts(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


def test_what_to_be_shown_first_is_a_lasting_wish() -> None:
    said = contents("以后优先给我推国产的护肤品")
    assert any("优先给我推" in c for c in said), said


@pytest.mark.parametrize(
    "text",
    [
        "我们家不吃饭了 在外面吃",
        "我只要能准时到的就行",
        "am flying tomorrow",
    ],
)
def test_what_only_looks_like_a_fact_is_none(text: str) -> None:
    assert not contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "能改个地址吗 估计还没发货吧",
        "please refund the broken one",
        "just replace the missing part",
    ],
)
def test_a_status_guessed_or_a_refund_asked_for_is_no_claim(text: str) -> None:
    assert not [k for k, _ in kept(text) if k and k.endswith(".status")]


def test_a_status_said_is_still_a_claim() -> None:
    assert "order.status" in [k for k, _ in kept("订单三天了还没发货")]
