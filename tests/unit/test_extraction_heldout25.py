"""RuleExtractor on what held-out 25 (once read, then development data) showed it misread, each
as general behaviour in other words than the corpus's: "不是要 X，是要 Y" chooses Y; a channel
given as a label ("联系方式：微信") is chosen; an instruction not to get it wrong is no claim that
it was; a night shift worked somewhere is a fact."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept


@pytest.mark.parametrize(
    ("text", "channel"),
    [("我不是要短信提醒，是要邮件通知", "email"), ("以后联系方式：微信，别打电话", "wechat")],
)
def test_the_channel_asked_for_after_the_one_denied_or_as_a_label_is_chosen(
    text: str, channel: str
) -> None:
    assert (PREF, {"channel": channel}) in kept(text)


def test_a_request_not_to_get_it_wrong_is_no_claim_but_a_mistake_reported_is() -> None:
    assert kept("麻烦跟商家说一下，尺码要L，别发错了") == []
    assert [k for k, _ in kept("上次发错了尺码，我要换货")] == ["order.status"]


def test_a_night_shift_worked_somewhere_is_a_fact() -> None:
    assert contents("我在工厂值夜班，白天一般在睡觉")
