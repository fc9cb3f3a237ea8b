"""RuleExtractor on what held-out 50 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a standing cue that names what it holds for ("Every
order from now on,") makes the clause after it standing; a standing note addressed to the
courier or the warehouse is the user's own wish, not a statement about the courier (a note for
one delivery stays the courier's); how to be let know at the door and the name a parcel carries
are wishes about how the user is served; a status that keeps happening to deliveries, said as
the reason for a wish, is no claim about an order."""

from __future__ import annotations

import pytest

from tests.unit.extracting import extract


def _contents(text: str) -> list[tuple[str | None, str]]:
    return [(c.candidate.key, c.candidate.content) for c in extract(text).candidates]


@pytest.mark.parametrize(
    "text",
    [
        "Every delivery from now on, please leave it with the porter",
        "Note for the driver: always knock instead of ringing, the baby naps",
        "For the warehouse - please always pack my orders in paper, no plastic",
        "From now on please put the name Sam Rivera on the parcels",
    ],
)
def test_a_standing_wish_however_it_is_addressed_is_kept(text: str) -> None:
    got = _contents(text)
    assert got, text
    assert all(key is None for key, _ in got), got


def test_a_note_for_one_delivery_stays_the_couriers() -> None:
    assert _contents("Note for the driver: the lobby door is locked today, call when outside") == []


@pytest.mark.parametrize(
    "text",
    [
        "Evenings suit me best, parcels keep getting taken back to the depot in the day",
        "please don't leave it in the porch, things have gone missing from there before",
        "别放门口了，我们楼道里的快递老是被人拿走",
    ],
)
def test_a_status_that_keeps_happening_is_the_reason_not_a_claim(text: str) -> None:
    assert [key for key, _ in _contents(text) if key] == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my order keeps getting delayed, it's been two weeks", "order.status"),
        ("包裹在中转站一动不动三天了", "logistics.status"),
    ],
)
def test_an_orders_own_status_is_still_a_claim(text: str, key: str) -> None:
    assert key in [k for k, _ in _contents(text)]
