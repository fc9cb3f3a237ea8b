"""RuleExtractor on what held-out 51 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a wish about deliveries is standing when "every
time" follows it, when a clause before it says "For all my orders" or "Whenever there's a
choice", and when it is passed on to every courier; packing material is a way of being served."""

from __future__ import annotations

import pytest

from tests.unit.extracting import extract


@pytest.mark.parametrize(
    "text",
    [
        "please have the driver ring me before arriving, every time, the buzzer is dead",
        "For all my deliveries, please wrap the plates in extra padding",
        "Whenever you can, leave my parcels at the reception desk",
        "Tell every courier to shut the side gate, the cat escapes",
    ],
)
def test_a_wish_about_deliveries_said_for_good_is_kept(text: str) -> None:
    got = [c.candidate for c in extract(text).candidates]
    assert got, text
    assert all(c.kind == "semantic" and c.key is None for c in got), got


@pytest.mark.parametrize(
    "text",
    ["For all my orders, is the shipping free?", "tell the courier to ring twice today"],
)
def test_a_question_or_one_delivery_is_no_wish(text: str) -> None:
    assert [c.candidate for c in extract(text).candidates] == []
