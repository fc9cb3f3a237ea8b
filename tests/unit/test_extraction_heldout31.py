"""RuleExtractor on what held-out 31 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a statement after a greeting or a "heads up" is
still the user's; a size habit said with its garment first, who lives at home, colour blindness
and a home without a lift are facts; a fit, a pet's name or an allergy said after a statement
go on with it; a language said bare after a denial ("直接说中文") or meant after a slip ("I
meant Dutch") is chosen; a call when the courier is outside, however spelled, is for that
delivery; a discount not taken off is a payment claim."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept

LANGUAGE = "profile.language"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("您好！我比较喜欢北欧风的家具，花里胡哨的别推了", "北欧风"),
        ("hi! just so u know I'm vegan, so no honey products pls", "vegan"),
        ("Just a heads up, I live in a basement flat, so couriers often miss it", "basement flat"),
        ("裤子我一直习惯买大一码，坐着舒服", "习惯买大一码"),
        ("家里只有我一个人，大包装的吃不完", "一个人"),
        ("我是红绿色盲，颜色描述请写清楚点", "红绿色盲"),
    ],
)
def test_a_statement_after_a_greeting_or_a_heads_up_and_household_facts_are_kept(
    text: str, words: str
) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我家是老式楼房，没电梯，住五楼", "没电梯"),
        ("我家猫是英短，叫团子，对牛肉过敏", "对牛肉过敏"),
        ("我平时穿XL，偏宽松的版型穿着舒服", "偏宽松"),
    ],
)
def test_a_fit_a_name_or_an_allergy_said_after_a_statement_joins_it(text: str, words: str) -> None:
    (content,) = contents(text)
    assert words in content


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("别再用日语回我了，直接说英文", "en"),
        ("I asked for French replies earlier, I meant Italian", "it"),
        ("sorry, I meant Korean", "ko"),
    ],
)
def test_a_language_said_bare_after_a_denial_or_meant_after_a_slip_is_chosen(
    text: str, language: str
) -> None:
    chosen = [str(v.get("value", "")) for k, v in kept(text) if k == LANGUAGE and v]
    assert [c.split("-")[0] for c in chosen] == [language]


@pytest.mark.parametrize(
    "text",
    [
        "tell the driver to call me when ur outside, the bell doesn't work",
        "please call when you're outside the gate",
    ],
)
def test_a_call_when_the_courier_is_outside_chooses_no_channel(text: str) -> None:
    assert not [k for k, _ in kept(text) if k == PREF]


@pytest.mark.parametrize(
    "text",
    [
        "my discount code SPRING20 didn't apply and I was billed the full amount",
        "I paid full price because the voucher wasn't applied",
        "满减没生效，多付了15块",
    ],
)
def test_a_discount_not_taken_off_is_a_payment_claim(text: str) -> None:
    assert "payment.status" in [k for k, _ in kept(text)]


@pytest.mark.parametrize("text", ["does the coupon work on sale items?", "有优惠券吗"])
def test_asking_about_a_discount_is_no_claim(text: str) -> None:
    assert not kept(text)
