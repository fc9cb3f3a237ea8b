"""RuleExtractor on what held-out 41 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: hours refused between two times ("别在下午1点到3点
打给我") are quiet hours, never the hours the user wants to be called; "推消息" is contact; a
channel's number ("电话尾号", "phone number") is no choice of channel; where the user is, beside
times the shop gives that read wrong, gives the zone; and what a statement means for what is
shown to the user ("我不吃牛肉 别再给我推牛排了") is one memory with it, not a second one."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("别在下午1点到3点打给我", "13:00-15:00"),
        ("请不要在早上6点到8点联系我", "06:00-08:00"),
        ("凌晨一点到早上七点别给我推消息", "01:00-07:00"),
    ],
)
def test_hours_refused_between_two_times_are_quiet_hours(text: str, hours: str) -> None:
    got = kept(text)
    assert not [k for k, _ in got if k == "contact.preferred_hours"], got
    quiet = [v["quiet_hours"] for k, v in got if k == PREF and v and "quiet_hours" in v]
    assert quiet, got
    assert str(quiet[0]).startswith(hours), got


@pytest.mark.parametrize(
    "text",
    [
        "我的电话尾号是3308，上次填错了",
        "剛才打錯了 我的電話尾號是5512 不是5521",
        "我的电话尾号是3308 不是3380",
        "my phone number ends in 4412 btw",
        "搞错了 我的手机号码是139开头的",
    ],
)
def test_a_channels_number_is_no_choice_of_channel(text: str) -> None:
    got = kept(text)
    assert not [v for k, v in got if k == PREF and v and "channel" in v], got


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("I'm based in Vancouver, so the times you send me are always wrong", "America/Vancouver"),
        ("I live in Denver btw, the times you give me are all off", "America/Denver"),
    ],
)
def test_where_the_user_is_beside_times_read_wrong_gives_the_zone(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("我不吃牛肉 别再给我推牛排了", "不吃牛肉"),
        ("家里没有洗碗机，相关的洗碗块就别推了", "没有洗碗机"),
        ("I don't have a car, so stop showing me car accessories", "don't have a car"),
        ("I'm allergic to wool - please don't recommend wool jumpers", "allergic to wool"),
    ],
)
def test_what_a_statement_means_for_what_is_shown_is_one_memory_with_it(
    text: str, fact: str
) -> None:
    got = contents(text)
    assert len(got) == 1, got
    assert fact in got[0], got


@pytest.mark.parametrize(
    "text",
    ["别再给我推荐奶茶了", "stop recommending me jeans please"],
)
def test_a_wish_about_what_is_shown_said_alone_is_still_kept(text: str) -> None:
    assert len(contents(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "退货上周就寄回去了 到现在一点消息都没有",
        "我那个退货前天已经寄回去了，麻烦催一下",
        "my refund hasn't landed in my account yet",
    ],
)
def test_a_return_sent_back_or_a_refund_not_landed_is_a_refund_claim(text: str) -> None:
    assert [k for k, _ in kept(text)] == ["refund.status"], kept(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("don't answer me in french, english pls", {"value": "en"}),
        ("i answer way quicker on telegram than on email", {"channel": "telegram"}),
    ],
)
def test_the_language_or_channel_chosen_in_few_words(text: str, value: dict[str, str]) -> None:
    assert value in [v for _, v in kept(text)], kept(text)
