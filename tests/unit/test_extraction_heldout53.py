"""RuleExtractor on what held-out 53 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: the user's night kept quiet with 我 before it is on
the clock of where they are; the shop's calls at a time ("your 8am calls") and a document sent
by e-mail choose no channel; a call asked for minutes before the courier arrives is how a
delivery is met; a name given after one refused is the name; a refusal that names nothing and
a cue that points back at the wish before it are no memories of their own; hours the user would
be forced into are no wish."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept, values


def test_the_users_night_is_on_the_clock_of_where_they_are() -> None:
    text = "请记住我在多伦多，别在我半夜发消息"
    assert values(text, "profile.timezone") == [{"value": "America/Toronto"}]
    assert [str(v["quiet_hours"]) for v in values(text, PREF) if v] == [
        "22:00-08:00 America/Toronto"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Perth, so your 8am calls wake me at dawn",
        "No paper statements please, receipts by email are fine",
        "Can the driver ring me when he's 15 minutes away? Just for today",
        "我人在洛杉矶，你们上班时间我这边只能凌晨联系了",
    ],
)
def test_no_channel_or_hours_are_chosen(text: str) -> None:
    assert not [v for v in values(text, PREF) if v and "channel" in v], kept(text)
    assert values(text, "contact.preferred_hours") == [], kept(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Please don't call me Ms. Rivera, Ana is fine", "Ana"),
        ("don't call me buddy, just Tom works", "Tom"),
    ],
)
def test_the_name_given_after_one_refused(text: str, name: str) -> None:
    assert values(text, "profile.name") == [{"value": name}]


@pytest.mark.parametrize(
    "text",
    [
        "Don't call me before noon, Tuesday works",
        "Please don't call me at work, Sarah will do the pickup anyway",
    ],
)
def test_a_day_or_someone_else_after_a_refused_call_is_no_name(text: str) -> None:
    assert values(text, "profile.name") == [], kept(text)


@pytest.mark.parametrize(
    ("text", "kept_words"),
    [
        ("I'm not on Line. Please stop recommending it. Email works", []),
        ("Leave parcels in the porch box, that's for all my orders", ["porch box"]),
    ],
)
def test_no_memory_points_back_at_another(text: str, kept_words: list[str]) -> None:
    got = [c for c in contents(text) if not c.startswith(("User prefers", "User does not"))]
    assert len(got) == len(kept_words), got
    assert all(w in c for w, c in zip(kept_words, got, strict=True)), got
