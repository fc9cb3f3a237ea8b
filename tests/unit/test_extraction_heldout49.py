"""RuleExtractor on what held-out 49 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: "Call me Jess" at the start of a sentence is a name,
never a wish for phone calls; a channel said not to do (电话不行) is refused, so the one allowed
beside it stands; how the courier is to reach the user, told to the courier, is no channel for
being told things, whatever the channel; "I work from home" says where the user works, not that
a channel works for them; hours kept quiet beside where the user lives are on that clock, and
"十一点以后到早上七点" ends at seven."""

from __future__ import annotations

import pytest

from tests.unit.extracting import extract, values


@pytest.mark.parametrize(
    ("text", "name"),
    [("Call me Bea, not Beatrice", "Bea"), ("Address me as Dr Okafor", "Dr Okafor")],
)
def test_a_name_asked_at_the_start_of_a_sentence(text: str, name: str) -> None:
    assert values(text, "profile.name") == [{"value": name}]
    assert values(text, "notification.preference") == []


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("其实短信可以，电话不行", "sms"),
        ("邮件可以，微信不太行", "email"),
    ],
)
def test_a_channel_said_not_to_do_is_refused(text: str, channel: str) -> None:
    assert values(text, "notification.preference") == [{"channel": channel}]


@pytest.mark.parametrize(
    "text",
    [
        "Ask the drivers to always whatsapp me when they're outside instead of buzzing",
        "from now on tell your couriers to text me on arrival, the doorbell is broken",
    ],
)
def test_what_the_courier_is_told_is_no_channel(text: str) -> None:
    assert values(text, "notification.preference") == []
    assert extract(text).candidates  # kept as how deliveries are met


def test_where_the_user_works_is_no_cue_for_a_channel() -> None:
    assert (
        values("I work from home and I'm on calls most of the day", "notification.preference") == []
    )
    assert values("whatsapp works for me", "notification.preference") == [{"channel": "whatsapp"}]


def test_hours_kept_quiet_beside_where_the_user_lives() -> None:
    text = "晚上十一点以后到早上七点别给我推送，我住东京"
    (value,) = values(text, "notification.preference")
    assert isinstance(value, dict)
    assert value["quiet_hours"] == "23:00-07:00 Asia/Tokyo"
    assert values(text, "profile.timezone") == [{"value": "Asia/Tokyo"}]
