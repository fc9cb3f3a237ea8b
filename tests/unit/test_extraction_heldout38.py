"""RuleExtractor on what held-out 38 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: Traditional characters are read as Simplified (and
Cantonese written in them as Mandarin); a blank after a Latin word parts clauses before a word
that opens one ("我用LINE 不用微信"); a refusal with an hour between it and its verb ("不要在晚上
十点后打电话") and "no-call hours" are quiet hours, never hours to call; the night's other end
or a correction said in a later clause is read with them; what is passed on to the courier is
no preference, nor is a call that came; a household's diet, what it has none of and the size
worn with the subject left out are facts; a zone set right against another, or where the user
is said for scheduling, gives the zone; a subject left out before a charge, and the wrong size or
colour received, are claims; deliveries returned "a few times before" are no claim."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("請以後用短信聯繫我", "sms"),
        ("記得用電郵通知我", "email"),
        ("以後有事打電話俾我", "phone"),
        ("請用簡訊通知我", "sms"),
    ],
)
def test_traditional_characters_are_read_as_simplified(text: str, channel: str) -> None:
    assert (PREF, {"channel": channel}) in kept(text)


def test_a_traditional_reading_quotes_the_words_as_written() -> None:
    said = contents("我對花生過敏")
    assert said
    assert all("对" not in c and "过" not in c for c in said), said


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我唔食辣㗎", "唔食辣"),
        ("我系素食者嚟", "素食者"),
    ],
)
def test_cantonese_in_traditional_or_simplified_is_read(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


def test_mandarin_words_holding_xi_are_not_read_as_cantonese() -> None:
    assert (PREF, {"channel": "sms"}) in kept("唔该 以后联系我发短信")


@pytest.mark.parametrize(
    ("text", "wanted", "refused"),
    [
        ("平时用Telegram 不用短信", "telegram", "sms"),
        ("我用WhatsApp 别打电话", "whatsapp", "phone"),
    ],
)
def test_a_blank_after_a_latin_word_parts_two_clauses(text: str, wanted: str, refused: str) -> None:
    got = extract(text).candidates
    said = {(c.candidate.structured_value or {}).get("channel"): c.negated for c in got}
    assert said.get(wanted) is False, said
    assert said.get(refused, True) is True, said


def test_a_product_name_before_a_blank_stays_one_clause() -> None:
    assert len(contents("我一直用Kindle 看书")) <= 1


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("麻烦不要在晚上十一点以后给我打电话", "23:00-08:00"),
        ("不要在22:30后发消息给我", "22:30-08:00"),
        ("keep to the no-call hours: 9pm to 8am", "21:00-08:00"),
    ],
)
def test_a_refusal_around_an_hour_is_quiet_hours(text: str, hours: str) -> None:
    got = kept(text)
    assert (PREF, {"quiet_hours": f"{hours} Asia/Shanghai"}) in got, got
    assert not [k for k, _ in got if k == "contact.preferred_hours"], got


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("晚上十点后别发消息 早上八点半前也别", "22:00-08:30"),
        ("以前说十点后别打 改成十一点后吧", "23:00-08:00"),
        ("no calls after 10pm or before 6am", "22:00-06:00"),
    ],
)
def test_the_nights_other_end_or_its_correction_is_read_with_it(text: str, hours: str) -> None:
    assert (PREF, {"quiet_hours": f"{hours} Asia/Shanghai"}) in kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "tell the driver know the gate code is 4411, ring me from outside",
        "let the delivery guy know the lift is broken, just phone when you arrive",
        "告诉快递员小区进不来 到了直接打电话",
    ],
)
def test_what_is_passed_on_to_the_courier_is_no_preference(text: str) -> None:
    assert not [v for k, v in kept(text) if k == PREF], kept(text)


def test_a_call_that_came_gives_no_hours() -> None:
    got = kept("fine by me, but the last call came through at 6 in the morning")
    assert not [k for k, _ in got if k == "contact.preferred_hours"], got


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("We don't drink alcohol at home", "don't drink alcohol"),
        ("dont own a dishwasher, so hand-wash only please", "dont own a dishwasher"),
        ("don't have pets, skip the pet food deals", "don't have pets"),
        ("本人素食，蛋奶也不吃", "本人素食"),
        ("裤子我一般都穿宽松的", "穿宽松"),
        ("size 8 in boots, UK sizing", "size 8"),
    ],
)
def test_a_households_diet_what_it_lacks_and_the_size_worn_are_facts(text: str, words: str) -> None:
    said = contents(text)
    assert any(words in c for c in said), said


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("sorry, it's Denver time, not Phoenix", "America/Denver"),
        ("I'm in Toronto when you book the callback", "America/Toronto"),
    ],
)
def test_a_zone_set_right_or_said_for_scheduling_is_the_users(text: str, zone: str) -> None:
    assert ("profile.timezone", {"value": zone}) in kept(text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("was billed twice for the same order", "payment.status"),
        ("I received the wrong size, ordered M got XL", "order.status"),
    ],
)
def test_a_charge_or_a_wrong_thing_received_is_a_claim(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    "text",
    [
        "was it shipped already",
        "以前有好几次包裹都被退回了 所以周末送比较好",
    ],
)
def test_a_question_or_a_delivery_history_is_no_claim(text: str) -> None:
    assert not [k for k, _ in kept(text) if k and k.endswith(".status")]
