"""RuleExtractor on what held-out 33 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a channel said not to work for the user is denied,
not chosen, and calls timed by the clock choose none; where the user is, beside a question of
time, gives the zone (a coast, a city said against another, "我这边才凌晨"); a language never
asked for is denied and the one said to be fine is chosen; a wish passed on to whoever serves
the user is the user's; a request to remember said after what it keeps ("…, so keep that in
mind", "Can you keep that on file?") keeps it; a claim against what the user did keeps both
halves; a family member's eyes, school year or weak legs are family facts; a budget, a brand
or the one appliance the home has goes on with the statement before it."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept


@pytest.mark.parametrize(
    "text",
    [
        "fyi I'm hard of hearing, so phone calls don't work for me",
        "Texts won't work for me, I'm on a landline",
        "calls before 8am aren't great, I sleep late",
    ],
)
def test_a_channel_said_not_to_work_is_never_chosen(text: str) -> None:
    assert all(
        value != {"channel": "phone"} and value != {"channel": "sms"} for _, value in kept(text)
    )


def test_a_channel_said_not_to_work_is_denied() -> None:
    denied = [c for c in extract("phone calls won't work for me, I'm deaf").candidates if c.negated]
    assert [(c.candidate.key, c.candidate.structured_value) for c in denied] == [
        (PREF, {"channel": "phone"})
    ]


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        (
            "heads up, I'm on the west coast so anything before 10 my time is too early",
            "America/Los_Angeles",
        ),
        ("我在悉尼不是墨尔本，所以回访的时间要按悉尼这边算", "Australia/Sydney"),
        ("我人在多伦多，你们那边中午我这边才半夜", "America/Toronto"),
    ],
)
def test_where_the_user_is_beside_a_question_of_time_gives_the_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text)


def test_calls_timed_by_the_users_clock_choose_no_channel() -> None:
    assert all(
        key != PREF or "channel" not in (value or {})
        for key, value in kept("给我打电话的时间得按东京这边算")
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I never asked for Spanish replies, English is totally fine", "en"),
        ("would it be possible to answer me in French? I read it better", "fr"),
    ],
)
def test_the_language_said_to_be_fine_or_asked_for_is_chosen(text: str, language: str) -> None:
    chosen = [v for k, v in kept(text) if k == "profile.language"]
    assert [str((v or {}).get("value", "")).split("-")[0] for v in chosen] == [language]


def test_a_language_never_asked_for_is_denied() -> None:
    found = extract("I never asked for German replies").candidates
    assert [(c.negated, c.candidate.structured_value) for c in found] == [(True, {"value": "de"})]


def test_a_wish_passed_on_to_whoever_serves_the_user_is_theirs() -> None:
    said = contents(
        "Could you let the packing team know that from now on my parcels should come in paper bags"
    )
    assert len(said) == 1
    assert "paper bags" in said[0]
    assert not contents("Can you tell the seller the item arrived broken?")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("My daughter wears a size 6 in shoes, so keep that in mind", "size 6"),
        ("我老公只喝美式。帮我记一下", "只喝美式"),
        ("My mum loves orchids. Can you keep that on file?", "orchids"),
    ],
)
def test_a_request_to_remember_after_what_it_keeps_keeps_it(text: str, words: str) -> None:
    assert [words in c for c in contents(text)] == [True]


def test_a_request_to_remember_alone_at_the_start_keeps_nothing_of_a_greeting() -> None:
    assert contents("你好。帮我记一下。我穿40码") == ["我穿40码"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我明明已经确认收货了，怎么还显示待收货", ("确认收货", "待收货")),
        ("我明明没下单，怎么显示已发货了", ("没下单", "已发货")),
    ],
)
def test_a_claim_against_what_the_user_did_keeps_both(text: str, words: tuple[str, ...]) -> None:
    said = [c.candidate.content for c in extract(text).candidates if c.candidate.key]
    assert said
    assert all(w in said[0] for w in words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我女儿今年上三年级，有点散光，想买个台灯", ("女儿", "散光")),
        ("我妈腿脚不太好，快递最好送上楼", ("腿脚不太好",)),
        ("My son's colour-blind so the colour-coded one won't work", ("colour-blind",)),
    ],
)
def test_a_family_members_eyes_school_year_or_legs_are_family_facts(
    text: str, words: tuple[str, ...]
) -> None:
    assert any(all(w in c for w in words) for c in contents(text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我是在校学生，预算有限", ("在校学生", "预算有限")),
        ("我用的苹果手机，国行的", ("苹果手机", "国行的")),
        ("家里没有微波炉，只有一个蒸烤箱", ("没有微波炉", "蒸烤箱")),
        ("Huge fan of wool and silk, hate acrylic", ("wool and silk", "hate acrylic")),
    ],
)
def test_a_budget_brand_or_the_one_appliance_goes_on_with_the_statement(
    text: str, words: tuple[str, ...]
) -> None:
    said = contents(text)
    assert len(said) == 1
    assert all(w in said[0] for w in words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("说实话我洗面奶只认珂润", "只认珂润"),
        ("Only oat milk for me please", "oat milk"),
        ("sticking with Asics from now on", "Asics"),
        ("I have really dry skin, so rich creams please", "dry skin"),
        ("We live in a small studio, nothing bulky please", "small studio"),
    ],
)
def test_more_lasting_facts_and_tastes(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


def test_a_student_asking_is_no_fact() -> None:
    assert not contents("我是在问你们的退货地址")
