"""RuleExtractor on what held-out 29 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: what the user or their household lacks or never
does ("家里没有微波炉", "we've got no tumble dryer", "I'm not on Facebook") is a fact; a liking
said with its topic first ("茶叶我喜欢…"), a brand the user is a fan of and what they always go
for are facts; a channel said not to suit the user is denied, and the one said to suit them
chosen ("email isn't great for me anymore, SMS is better"); "email it is" settles a choice;
LINE is a channel; where the user is, said beside the gap in hours or their night, gives their
zone, and so does a zone's abbreviation ("I'm on CET"); a language the user reminds they asked
for is chosen; a request to remember says so in more ways ("save this for next time:", "这个
记住：", "so you remember —", "note on my account that …"), keeps a family member's allergy,
and keeps no empty slot ("can you remember my email?")."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept

ZONE = "profile.timezone"
LANGUAGE = "profile.language"


def channels(text: str) -> list[object]:
    return [v.get("channel") for k, v in kept(text) if k == PREF and v and "channel" in v]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("家里没有微波炉，加热的那种就别推了", "没有微波炉"),
        ("我没有驾照，车载用品不用给我推", "没有驾照"),
        ("我们家不养猫，猫粮广告别发了", "不养猫"),
        ("我从来不戴耳环，耳饰不用推荐", "不戴耳环"),
        ("We've got no tumble dryer, so air-dry labels are fine", "no tumble dryer"),
        ("I have no oven at home, microwave recipes only", "no oven"),
        ("I'm not on Instagram, so no point tagging me", "not on Instagram"),
        ("I can't tolerate lactose, dairy-free please", "can't tolerate lactose"),
        ("I never subscribe to boxes, I buy one at a time", "never subscribe"),
    ],
)
def test_what_the_user_lacks_or_never_does_is_a_fact(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    "text",
    [
        "我没有收到验证码",
        "我没有时间等了",
        "我没点确认收货啊",
        "我没申请退款",
        "I have no idea where my parcel is",
        "we have no choice but to wait",
        "I can't have it delivered on Monday",
    ],
)
def test_what_did_not_happen_or_is_missing_now_is_no_fact(text: str) -> None:
    assert not [c for k, c in zip(kept(text), contents(text), strict=True) if k[0] is None]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("茶叶我喜欢熟普洱，绿茶太寒了", "茶叶我喜欢熟普洱"),
        ("猫砂我家一直只买豆腐砂的", "只买豆腐砂"),
        ("我不太喜欢亮片衣服，太闪了", "不太喜欢亮片"),
        ("本人麸质不耐，面包得是无麸质的", "麸质不耐"),
        ("I always go for fragrance-free shampoo", "go for fragrance-free"),
        ("Huge fan of Muji stuff, keep me posted on restocks", "fan of Muji"),
    ],
)
def test_a_liking_with_its_topic_first_a_brand_and_what_the_user_goes_for_are_facts(
    text: str, words: str
) -> None:
    assert any(words in c for c in contents(text))


def test_being_impatient_is_no_intolerance() -> None:
    assert not contents("等了三天我都不耐烦了")


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("Scratch that, phone calls aren't ideal for me anymore, email is better", "email"),
        ("texts aren't great for me, WhatsApp works", "whatsapp"),
        ("Signal isn't supported? OK then, email it is.", "email"),
        ("fine, SMS it is", "sms"),
    ],
)
def test_a_channel_said_not_to_suit_is_denied_and_a_settled_one_chosen(
    text: str, chosen: str
) -> None:
    assert channels(text) == [chosen]


def test_emailing_a_thing_is_still_no_choice() -> None:
    assert channels("please email it to me") == []


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("以后用Line联系我就行", "line"),
        ("记一下：我平时只用LINE", "line"),
        ("please send LINE messages, not email", "line"),
    ],
)
def test_line_is_a_channel(text: str, chosen: str) -> None:
    assert channels(text) == [chosen]


@pytest.mark.parametrize("text", ["排队的line太长了", "the hotline never answers", "I'm online"])
def test_line_as_a_word_is_no_channel(text: str) -> None:
    assert channels(text) == []


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("我在里斯本，跟国内差七个小时，回消息时我这边可能是凌晨", "Europe/Lisbon"),
        (
            "I'm based in Wellington, so your 10am is the middle of the night for me",
            "Pacific/Auckland",
        ),
        ("I'm based in Brisbane, so your 9am is my evening", "Australia/Brisbane"),
        ("we're on CET, keep that in mind", "Europe/Berlin"),
        ("remember I'm on IST when you send anything time-sensitive", "Asia/Kolkata"),
    ],
)
def test_where_the_user_is_beside_the_gap_or_their_night_gives_their_zone(
    text: str, zone: str
) -> None:
    assert [v["value"] for k, v in kept(text) if k == ZONE and v] == [zone]


def test_a_stay_beside_a_drive_of_two_hours_is_no_zone() -> None:
    assert not [v for k, v in kept("我在北京，差不多两个小时到") if k == ZONE and v]


def test_a_language_the_user_reminds_they_asked_for_is_chosen() -> None:
    assert [
        v for k, v in kept("no Spanish please — I asked for Portuguese replies") if k == LANGUAGE
    ] == [{"value": "pt"}]


def test_a_language_asked_for_before_a_new_one_is_no_choice() -> None:
    assert not [
        v
        for k, v in kept("之前说用英文回复，现在用中文就行")
        if k == LANGUAGE and v == {"value": "en"}
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Save this for next time: I like my tea loose-leaf", "loose-leaf"),
        ("这个记住：我是东北人，特别怕热", "东北人"),
        ("Just so you remember — I work from home on Fridays", "Fridays"),
        ("Remember that my son has a bad nut allergy, snacks must be nut-free", "nut allergy"),
    ],
)
def test_a_request_to_remember_in_more_words_keeps_what_follows(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


def test_a_request_to_note_a_preference_on_the_account_chooses_it() -> None:
    assert channels("Could you note on my profile that I prefer WhatsApp over everything?") == [
        "whatsapp"
    ]


@pytest.mark.parametrize(
    "text", ["can you remember my email?", "记住我的手机号", "这个你记住哈，别忘了"]
)
def test_a_request_to_remember_without_what_keeps_nothing(text: str) -> None:
    assert not contents(text)


def test_an_act_the_user_did_not_do_beside_a_claim_is_no_fact() -> None:
    assert [k for k, _ in kept("订单被取消了，我没点取消啊")] == ["order.status"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("咖啡我喝不了，一喝就睡不着", "咖啡我喝不了"),
        ("我对紫色无感", "紫色无感"),
        ("优衣库铁粉一枚", "铁粉"),
        ("我家一直没洗衣机", "没洗衣机"),
        ("I can't do gluten", "can't do gluten"),
        ("not really into pastel colours", "pastel"),
        ("No cats in our house", "No cats"),
        ("Vegan over here", "Vegan over here"),
    ],
)
def test_a_reviewers_paraphrases_are_kept(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    "text",
    [
        "honestly big fan of fast shipping, and this took forever",
        "just so you remember — nvm, forget it",
        "帮我挑件冲锋衣",
        "I can't do Tuesday, sorry",
        "我在东京出差，航班晚了两个小时",
    ],
)
def test_a_reviewers_near_misses_keep_nothing(text: str) -> None:
    assert not [c for k, c in zip(kept(text), contents(text), strict=True) if k[0] is None]
    assert not [v for k, v in kept(text) if k == ZONE]


@pytest.mark.parametrize(
    "text",
    [
        "Stripe shows the payment is still pending after two days",
        "my card keeps getting declined at checkout",
    ],
)
def test_a_payment_said_to_hang_or_a_card_declined_is_a_claim(text: str) -> None:
    assert [k for k, _ in kept(text)] == ["payment.status"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Some context for your suggestions: I'm diabetic", "diabetic"),
        ("My pharmacist asked me to tell you: I'm allergic to sulfa drugs", "allergic to sulfa"),
        ("备注一下情况：我是左撇子", "左撇子"),
    ],
)
def test_a_statement_after_a_preface_is_kept(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


@pytest.mark.parametrize(
    "text",
    ["刚才说的尺码那条别记了，我说错了", "我填错了", "oops, my bad, typo", "订单号：12345"],
)
def test_a_retraction_or_a_mistake_owned_keeps_nothing(text: str) -> None:
    assert not [c for k, c in zip(kept(text), contents(text), strict=True) if k[0] is None]


def test_a_correction_with_its_new_value_is_still_kept() -> None:
    assert any("vegan" in c for c in contents("I told you I was vegetarian but I'm vegan now"))
