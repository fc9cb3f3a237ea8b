"""RuleExtractor on what held-out 19 (once read, then development data) showed it misread, each
as general behaviour in other words than the corpus's: a language conceded to is not the one
chosen, a call denied with words between is still denied, WeChat Pay is no channel, a statement
that drops its subject is no question, a delivery attempt marked falsely or a payment that keeps
failing or was paid twice over is a claim, and "no more of it" and "any more" make a lasting
wish."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, kept


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("回复用英文也可以，不过还是中文吧", "zh-CN"),
        ("日语也行，但还是英文吧，我日语一般", "en"),
    ],
)
def test_a_language_conceded_to_is_not_the_one_chosen(text: str, lang: str) -> None:
    langs = [v for k, v in kept(text) if k == "profile.language"]
    assert langs == [{"value": lang}]


@pytest.mark.parametrize("text", ["别又大半夜给我打电话", "不要又深夜打我电话了"])
def test_a_call_denied_with_words_between_is_no_phone_wish(text: str) -> None:
    assert (PREF, {"channel": "phone"}) not in kept(text)


@pytest.mark.parametrize("text", ["以后都用微信支付，别扣银行卡", "我习惯用微信付款"])
def test_wechat_pay_is_no_channel(text: str) -> None:
    assert PREF not in [k for k, _ in kept(text)]


def test_wechat_itself_still_is() -> None:
    assert kept("以后有事发微信就行") == [(PREF, {"channel": "wechat"})]


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("Would love it if you texted me instead of calling", "sms"),
        ("Would really appreciate it if you emailed me from now on", "email"),
    ],
)
def test_a_wish_with_its_subject_dropped_is_no_question(text: str, channel: str) -> None:
    assert (PREF, {"channel": channel}) in kept(text)


def test_a_question_starting_with_would_still_is_one() -> None:
    assert kept("Would you text me the code?") == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("The driver marked it as 'attempted' but never knocked", "logistics.status"),
        ("Payments keep declining on my Visa at checkout", "payment.status"),
        ("满减没生效，多扣了15块，订单尾号3302", "payment.status"),
    ],
)
def test_a_false_attempt_a_failing_payment_or_an_overcharge_is_a_claim(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    "text",
    [
        "别再给我推零食了，在减肥",
        "No more perfume samples please, they give me headaches.",
        "Don't put flyers in my parcels anymore",
        "I don't want any gift notes in my orders",
    ],
)
def test_no_more_of_something_is_a_lasting_wish(text: str) -> None:
    assert (None, None) in kept(text)


@pytest.mark.parametrize("text", ["以后别给我推送了", "别再推送消息了"])
def test_no_more_pushes_is_the_channel_denied_not_a_wish(text: str) -> None:
    assert (None, None) not in kept(text)
