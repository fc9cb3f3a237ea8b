"""RuleExtractor on what held-out 30 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a request to remember keeps what the user says of
their own family (a taste a gift is chosen by, a size), never of anyone else; a family member's
body that cannot carry or climb is a fact a shop acts on; where the home is, what it is, what it
lacks said after it ("…, no lift") and a garment worn only in one fabric are facts; a second
thought keeps the value it turns to ("…算了还是短信吧", "42, no wait, a 43"); a language the
user turns to ("but actually Dutch") or asks to keep is chosen, one asked for a single message
is not; a zone is read beside "the time difference"; calls to be timed by the user's clock, or
a call the courier is to make, choose no channel; a return asked for is a refund claim; a
request to remember an empty slot ("my size") keeps nothing."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, extract, kept

ZONE = "profile.timezone"
LANGUAGE = "profile.language"


def values(text: str, key: str) -> list[object]:
    return [v.get("value") for k, v in kept(text) if k == key and v]


def channels(text: str) -> list[object]:
    return [v.get("channel") for k, v in kept(text) if k == PREF and v and "channel" in v]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("帮我记住，我老公不吃羊肉，买年货别选羊肉的", "我老公不吃羊肉"),
        ("麻烦记一下我女儿穿120的衣服", "我女儿穿120"),
        ("please remember my husband loves dark chocolate", "my husband loves dark chocolate"),
        ("记住我爸喜欢喝普洱", "我爸喜欢喝普洱"),
    ],
)
def test_a_request_to_remember_keeps_what_the_user_says_of_their_family(
    text: str, words: str
) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    "text",
    ["记住我同事喜欢花", "remember my neighbour hates noise", "帮我记住我朋友不吃辣"],
)
def test_a_request_to_remember_keeps_nothing_of_anyone_else(text: str) -> None:
    assert not contents(text)
    assert [s.reason for s in extract(text).skipped] == ["third_party"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我妈腿脚不方便，大件麻烦送上楼", "我妈腿脚不方便"),
        ("我奶奶耳背，送货的时候多敲几下门", "我奶奶耳背"),
    ],
)
def test_a_family_members_body_a_delivery_has_to_mind_is_a_fact(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我家在西安，收货地址一直是这个", "我家在西安"),
        ("顺便说一下我家是燃气灶，电磁炉的锅别推了", "我家是燃气灶"),
        ("I live on the 5th floor, no lift, so please keep boxes light", "no lift"),
        ("袜子我只穿纯棉的，别的都闷脚", "只穿纯棉"),
        ("零食我只吃无糖的，控糖中", "只吃无糖"),
    ],
)
def test_the_home_and_a_fabric_worn_only_are_facts(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


def test_where_the_home_is_asked_is_no_fact() -> None:
    assert not contents("我家在哪你们知道吗")


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("通知发邮件吧…算了还是微信吧", "wechat"),
        ("提醒用短信……不对，还是邮件吧", "email"),
    ],
)
def test_a_second_thought_after_an_ellipsis_keeps_the_value_it_turns_to(
    text: str, chosen: str
) -> None:
    assert channels(text) == [chosen]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我鞋码是41，不对，42，算了还是41", "算了还是41"),
        ("I wear a 10, no wait, a 10.5", "a 10.5"),
    ],
)
def test_a_second_thought_on_a_size_joins_the_statement(text: str, words: str) -> None:
    (content,) = contents(text)
    assert words in content


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I told you Italian before but actually Spanish works better for me", "es"),
        ("could you keep answering in German? much easier for me", "de"),
        ("actually Portuguese is better for me", "pt"),
    ],
)
def test_a_language_turned_to_or_asked_to_keep_is_chosen(text: str, language: str) -> None:
    assert values(text, LANGUAGE) == [language]


@pytest.mark.parametrize(
    "text",
    [
        "answer in Spanish just for this email, my mother-in-law will read it",
        "I'm writing in English because my daughter is typing for me",
    ],
)
def test_a_language_for_one_message_or_of_the_message_itself_is_no_choice(text: str) -> None:
    assert not values(text, LANGUAGE)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("I'm in Auckland, keep the time difference in mind", "Pacific/Auckland"),
        ("Heads up, I'm in Toronto, so mind the time difference please", "America/Toronto"),
    ],
)
def test_the_time_difference_beside_a_place_gives_its_zone(text: str, zone: str) -> None:
    assert values(text, ZONE) == [zone]


@pytest.mark.parametrize(
    "text",
    [
        "Please remember I'm on Madrid time for any scheduled calls",
        "我在多伦多，以后约回电话请按多伦多时间来",
        "跟快递小哥说到了北门打我手机",
        "could you ask the driver to call me instead of ringing the bell",
    ],
)
def test_calls_timed_by_the_users_clock_or_made_by_the_courier_choose_no_channel(
    text: str,
) -> None:
    assert channels(text) == []


def test_a_call_asked_of_couriers_from_now_on_is_a_wish_not_a_channel() -> None:
    # (held-out 48: how every delivery is met, not how the user is told things)
    assert channels("以后让快递员都打我电话") == []
    assert channels("以后有事都打我电话吧，微信我不怎么看") == ["phone"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("上周就申请退货了，到现在没人处理", "refund.status"),
        ("订单已经取消了，可钱还没退回来", "refund.status"),
    ],
)
def test_a_return_asked_for_and_money_not_back_are_refund_claims(text: str, key: str) -> None:
    assert key in [k for k, _ in kept(text)]


@pytest.mark.parametrize(
    "text",
    ["帮我记一下我的码数哈", "could you remember my shoe size for next time?", "退货怎么弄"],
)
def test_an_empty_slot_or_a_question_keeps_nothing(text: str) -> None:
    assert not kept(text)
