"""RuleExtractor on what held-out 47 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a channel said to fail the user ("sms doesnt always
come through") is refused, as one that never arrives, never chosen, so the channel chosen beside
it stands; parcels,
plural, never to be left somewhere is a standing wish, a parcel this once is not; and the
benchmark reads a helper's "app" or "push" as the product's "app_push"."""

from __future__ import annotations

import pytest

from governed_memory.shell.eval.extraction import score
from tests.unit.extracting import extract


def _channels(text: str) -> list[object]:
    return [
        c.candidate.structured_value
        for c in extract(text).candidates
        if c.candidate.key == "notification.preference" and not c.negated
    ]


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("telegram is the easiest way to reach me, texts dont always arrive out here", "telegram"),
        ("email is best for order stuff, whatsapp never works for me at work", "email"),
        ("短信老是收不到，以后发邮件吧", "email"),
    ],
)
def test_a_channel_said_to_fail_is_not_chosen(text: str, channel: str) -> None:
    assert _channels(text) == [{"channel": channel}]


def test_a_failing_channel_alone_is_no_preference() -> None:
    assert _channels("my sms doesn't really come through in the mountains") == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("please don't leave packages with the concierge, he loses them", True),
        ("don't leave the package with the concierge today, I'm home", False),
    ],
)
def test_parcels_never_to_be_left_somewhere(text: str, kept: bool) -> None:
    got = [c.candidate.content for c in extract(text).candidates]
    assert bool(got) is kept, got


def test_the_bench_reads_app_and_push_as_app_push() -> None:
    item = {
        "id": "a",
        "class": "preference",
        "text": "push notifications please",
        "expected": [
            {"kind": "profile", "key": "notification.preference", "value": {"channel": "app"}}
        ],
    }
    produced = [
        [{"kind": "profile", "key": "notification.preference", "value": {"channel": "app_push"}}]
    ]
    assert score([item], produced)["classes"]["overall"]["exact"] == 1
    produced = [
        [{"kind": "profile", "key": "notification.preference", "value": {"channel": "sms"}}]
    ]
    assert score([item], produced)["classes"]["overall"]["exact"] == 0
