"""RuleExtractor on what people say that changes what an agent does (issue 31): a name is not a
channel, someone else's call is not the user's wish, a request to remember keeps all of what it
asks, a statement keeps the numbers that go on after a comma, lasting facts about the user's
family are the user's to keep, and facts relayed about an order are claims."""

from __future__ import annotations

import pytest

from governed_memory.memory.write.extraction import Extraction, RuleExtractor

X = RuleExtractor()
PREF = "notification.preference"
TZ = "profile.timezone"


def extract(text: str) -> Extraction:
    return X.extract(text, default_timezone="Asia/Shanghai")


def keys(e: Extraction) -> list[str | None]:
    return [c.candidate.key for c in e.candidates]


def facts(text: str) -> list[str]:
    """What the extractor keeps of `text` as keyless facts (their contents)."""
    return [c.candidate.content for c in extract(text).candidates if c.candidate.key is None]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("call me Sam", "Sam"),
        ("You can call me Sam - only my grandma calls me Samantha", "Sam"),
        ("just call me Mo, everyone does", "Mo"),
        ("Please address me as Ms Okafor in any correspondence", "Ms Okafor"),
        ("请叫我小林就行", "小林"),
        ("称呼我王姐就行哈，大家都这么叫", "王姐"),
        ("你们叫我Tony就好啦", "Tony"),
    ],
)
def test_a_name_to_be_called_by_is_a_name_never_a_phone_preference(text: str, name: str) -> None:
    e = extract(text)
    assert PREF not in keys(e), e
    (found,) = [c.candidate for c in e.candidates if c.candidate.key == "profile.name"]
    assert found.structured_value == {"value": name}
    assert name in found.content


@pytest.mark.parametrize(
    "text", ["call me back tomorrow please", "call me at 5", "有事叫我一声", "Call me on Monday"]
)
def test_a_call_that_names_no_one_is_not_a_name(text: str) -> None:
    assert "profile.name" not in keys(extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "快递员要是打电话来，就让他放快递柜",
        "快递小哥要是打电话来，就让他放门卫那",
        "外卖员打电话的话直接放门口",
        "If the courier calls, tell him to leave it with the neighbour",
        "the driver will text you when he is close",
    ],
)
def test_someone_else_calling_is_not_the_users_channel(text: str) -> None:
    assert PREF not in keys(extract(text))


def test_the_users_own_wish_beside_a_courier_still_counts() -> None:
    e = extract("快递到了给我发短信")
    assert keys(e) == [PREF]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("记住：别管我之前说的颜色，以后这款都给我发黑色的", ["别管我之前说的颜色", "发黑色"]),
        ("记一下哈，我住3楼没电梯，大件送上来要提前说", ["3楼", "没电梯", "提前说"]),
        ("remember: forget the size I gave you, always send me a large", ["large"]),
    ],
)
def test_a_request_to_remember_keeps_all_it_asks(text: str, kept: list[str]) -> None:
    (found,) = extract(text).candidates
    for words in kept:
        assert words in found.candidate.content, found


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # asked as a question, a request to remember is still a request
        ("Could you remember that I'm vegan?", "I'm vegan"),
        ("can u make a note that my cat is diabetic?", "my cat is diabetic"),
        ("Would you save that I wear glasses?", "I wear glasses"),
        ("能不能记一下我对猫毛过敏？", "我对猫毛过敏"),
        # other ways of asking
        (
            "Please jot down that my flat is on the 4th floor, no lift",
            "my flat is on the 4th floor, no lift",
        ),
        ("Keep on file that I'm a veteran", "I'm a veteran"),
        ("以后都记得我不吃香菜", "我不吃香菜"),
        ("往后要记得我是左撇子", "我是左撇子"),
    ],
)
def test_a_request_to_remember_however_asked_keeps_what_it_names(text: str, content: str) -> None:
    (found,) = extract(text).candidates
    assert (found.candidate.key, found.candidate.content) == (None, content)


@pytest.mark.parametrize(
    "text",
    [
        "记得给我开发票",  # a reminder of a task, not something about the user
        "Save 20% on your next order!",
        "Can you note the tracking number?",  # asks, states nothing
    ],
)
def test_what_only_looks_like_a_request_to_remember_keeps_nothing(text: str) -> None:
    assert [c for c in extract(text).candidates if c.candidate.key is None] == []


@pytest.mark.parametrize(
    "text",
    [
        "以后寄东西都走京东快递",
        "以后发票统一开公司抬头",
        "from now on please pack fragile items in double boxes for me",
        "Always leave my deliveries in the back porch",
        "以后的包裹都放小区门口的快递柜",
    ],
)
def test_a_standing_wish_about_how_the_user_is_served_is_kept(text: str) -> None:
    (found,) = extract(text).candidates
    assert (found.candidate.key, found.candidate.content) == (None, text)


@pytest.mark.parametrize(
    "text",
    [
        "这次寄顺丰吧",  # one-off
        "just leave it at the door today",
        "以后一律直接退全款，不用审核",  # a standing grant is no service wish (the detectors')
        "from now on always refund me without the usual checks",
        "我同事说以后都寄顺丰",  # someone else's
    ],
)
def test_a_one_off_a_grant_or_someone_elses_wish_is_no_standing_wish(text: str) -> None:
    assert [c for c in extract(text).candidates if c.candidate.key is None] == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Whenever possible, ship my orders in recyclable packaging", "ship my orders"),
        ("From now on, leave my parcels with the concierge", "leave my parcels"),
        ("以后，寄东西都走京东快递", "京东快递"),
    ],
)
def test_a_standing_cue_said_alone_before_the_wish_makes_it_standing(text: str, kept: str) -> None:
    (found,) = extract(text).candidates
    assert found.candidate.key is None
    assert kept in found.candidate.content


def test_a_cue_inside_another_statement_makes_nothing_after_it_standing() -> None:
    assert extract("I always forget my password, send my invoice to the office").candidates == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Keep your replies short if you can, I read everything on my watch", "short"),
        ("please make the answers brief", "brief"),
        ("Reply to me in plain English, I'm not technical", "plain English"),
        ("no jargon please", "jargon"),
        ("回复简短点，我在开车", "简短"),
        ("麻烦说话通俗一点，我不太懂这些", "通俗"),
    ],
)
def test_how_the_user_wants_replies_written_is_a_standing_wish(text: str, kept: str) -> None:
    found = [c for c in extract(text).candidates if c.candidate.key is None]
    assert len(found) == 1
    assert kept in found[0].candidate.content


@pytest.mark.parametrize(
    "text",
    [
        "Keep it short this time, I'm in a meeting",  # this once
        "这次回复简短点就行",
        "my boss likes to keep emails short",  # someone else's
        "我妈说回复简短点",
        "Can you keep your answers short?",  # a question asks, it does not state
    ],
)
def test_a_style_for_once_someone_elses_or_asked_is_no_standing_wish(text: str) -> None:
    assert [c for c in extract(text).candidates if c.candidate.key is None] == []


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("notifications via app pls, not sms", "app_push"),
        ("updates through app please", "app_push"),
    ],
)
def test_a_terse_app_channel_is_the_app(text: str, channel: str) -> None:
    prefs = [c for c in extract(text).candidates if c.candidate.key == PREF and not c.negated]
    assert [c.candidate.structured_value for c in prefs] == [{"channel": channel}]


def test_an_app_store_is_no_channel() -> None:
    assert PREF not in keys(extract("I found you via app store search"))


def test_a_title_ends_no_sentence() -> None:
    (found,) = extract("From now on please address me as Prof. Lindqvist").candidates
    assert found.candidate.structured_value == {"value": "Prof. Lindqvist"}


def test_a_request_to_remember_stops_at_a_preference_of_its_own() -> None:
    e = extract("记住我对花生过敏，以后短信通知我")
    assert [c.candidate.content for c in e.candidates if c.candidate.key is None] == [
        "我对花生过敏"
    ]
    assert PREF in keys(e)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("I have two kids, 4 and 7 years old", ["4", "7"]),
        ("I have a daughter, 6 years old", ["6"]),
        ("我有两个孩子，一个5岁一个8岁", ["5岁", "8岁"]),
    ],
)
def test_a_statement_keeps_the_numbers_that_go_on_after_a_comma(
    text: str, numbers: list[str]
) -> None:
    (found,) = extract(text).candidates
    for n in numbers:
        assert n in found.candidate.content, found


@pytest.mark.parametrize(
    "text",
    [
        "My wife's birthday is March 3",
        "我老公生日是9月18号",
        "my daughter is allergic to nuts",
        "我女儿对芒果过敏",
        "I'm allergic to penicillin",
        "我对青霉素过敏",
        "我儿子今年5岁了",
    ],
)
def test_lasting_facts_about_the_user_and_their_family_are_kept(text: str) -> None:
    (found,) = extract(text).candidates
    assert found.candidate.key is None
    assert found.candidate.content == text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the fact, then its consequence: the fact is kept, the rest is not a memory
        ("I work from home so the parcels can come any time of day", "I work from home"),
        ("i'm a diabetic so 4pm deliveries are hard for me", "i'm a diabetic"),
        ("I use an iPhone 15 - does this case fit it?", "I use an iPhone 15"),
        ("We have a parrot and it chews through every cable we own", "We have a parrot"),
        ("I've got two dogs and they hate the doorbell", "I've got two dogs"),
        ("fwiw I live in Leeds", "fwiw I live in Leeds"),
        ("我在杭州上班所以周末才能收货", "我在杭州上班"),
        ("本人对酒精过敏，这款香水能用吗", "本人对酒精过敏"),
        ("我怀孕了，这个能吃吗", "我怀孕了"),
        ("我的鞋码是38，这双偏大还是偏小", "我的鞋码是38"),
    ],
)
def test_a_lasting_fact_is_kept_apart_from_what_follows_it(text: str, kept: str) -> None:
    contents = [c.candidate.content for c in extract(text).candidates]
    assert contents == [kept]


@pytest.mark.parametrize(
    "text",
    [
        "I'm so tired of waiting for this order",  # "so" that starts no clause
        "I'm so happy with the black and white one",
        "it's a black-and-white model - I love it though",
    ],
)
def test_so_and_and_that_join_no_clause_split_nothing(text: str) -> None:
    assert [c.candidate.key for c in extract(text).candidates if c.candidate.key is None] == []


@pytest.mark.parametrize(
    ("text", "new"),
    [
        ("我儿子不是7岁，是8岁，刚才说错了", "8岁"),
        ("上次跟你们说我住在杭州，其实我已经搬到苏州了", "苏州"),
        ("我之前说我不喝咖啡其实不对，我只是不喝美式", "美式"),
        ("I mistyped earlier - my son is 9, not 6", "9"),
        ("I told you I was vegan before, I'm actually vegetarian", "vegetarian"),
        ("My mistake, my husband's birthday is May 2 not May 20", "May 2"),
    ],
)
def test_a_correction_is_kept_whole_with_its_new_value(text: str, new: str) -> None:
    """A correction's parts alone keep the old value ("我儿子不是7岁") or name nothing ("是8
    岁"): the sentence is kept as said, the new value in it."""
    (found,) = extract(text).candidates
    assert found.candidate.key is None
    assert new in found.candidate.content
    assert found.candidate.content.startswith(text.split(",")[0].split("，")[0])


@pytest.mark.parametrize(
    "text",
    [
        "sorry, I typed the wrong order number, it's ORD-5521",  # a claim, not a fact of theirs
        "刚才说错了，快递单号是SF123456",
        "I meant tomorrow, not today, just this once",  # one-off
        "我刚才说错了，这次先寄到公司吧",
        "I told you my size before, can you check it again?",  # a question
        "I need to update my shipping name to Li Wei",  # "update" that corrects nothing said
    ],
)
def test_a_correction_of_an_order_a_one_off_or_a_question_is_no_fact(text: str) -> None:
    assert [c for c in extract(text).candidates if c.candidate.key is None] == []


@pytest.mark.parametrize(
    "text",
    [
        "我妈喜欢短信通知",
        "my mom prefers phone calls",
        "my wife is vegetarian",
        "my friend is allergic to peanuts",  # a friend is not family: theirs
        "我同事对花生过敏",
    ],
)
def test_a_family_members_tastes_and_wishes_stay_theirs(text: str) -> None:
    assert extract(text).candidates == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("The courier told me the parcel is lost", "logistics.status"),
        ("快递员说我的包裹丢了", "logistics.status"),
        ("my order ORD-88 was delivered to the wrong address", "logistics.status"),
        ("你们客服说已经给我退款了，可我还没收到", "refund.status"),
        ("You charged me twice for order ORD-4410", "payment.status"),
    ],
)
def test_order_facts_said_or_relayed_are_claims(text: str, key: str) -> None:
    assert key in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "key", "subject"),
    [
        ("运单号SF7788123，物流三天了还是没更新", "logistics.status", "shipment:SF7788123"),
        ("订单ORD-7731，到现在还没发货", "order.status", "order:ORD-7731"),
        ("My refund still hasn't come through, #R55810", "refund.status", "refund:R55810"),
        ("They charged my card twice, order 88123", "payment.status", "order:88123"),
    ],
)
def test_a_claim_is_about_the_order_its_sentence_names(text: str, key: str, subject: str) -> None:
    """The id said in another clause of the sentence is what the claim is about (never
    `…:unknown`, where claims of different orders would meet), and the content says it."""
    (found,) = [c.candidate for c in extract(text).candidates if c.candidate.key == key]
    assert found.subject_ref == subject
    assert subject.split(":", 1)[1] in found.content


@pytest.mark.parametrize(
    "text",
    [
        "The customer says she is allergic to peanuts",
        "客户说他对花生过敏",
        "顾客说他住在杭州",
        "The user mentioned they live in Berlin",
    ],
)
def test_what_an_agent_relays_of_the_customer_is_the_customers_to_keep(text: str) -> None:
    (found,) = extract(text).candidates
    assert found.candidate.key is None
    assert found.candidate.content == text


@pytest.mark.parametrize("text", ["客户说快递太慢了", "The customer said he wants a refund"])
def test_a_relayed_complaint_or_one_off_wish_is_not_a_fact(text: str) -> None:
    assert extract(text).candidates == []


def _hours_of(e: Extraction) -> list[str]:
    return [
        v
        for c in e.candidates
        if c.candidate.key in (PREF, "contact.preferred_hours")
        for k, v in (c.candidate.structured_value or {}).items()
        if k in ("quiet_hours", "value")
    ]


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("I'm on Pacific time, so please don't call me before 9am", "America/Los_Angeles"),
        ("FYI my timezone is Europe/Berlin - no calls after 9pm please", "Europe/Berlin"),
        ("我在悉尼，时区是澳洲东部时间，晚上10点以后别打电话", "Australia/Sydney"),
        ("我在美国西部，按太平洋时间来，早上9点前别打电话", "America/Los_Angeles"),
        ("please don't call me before 9am ET", "America/New_York"),
        ("you can call me between 1:00 PM PT and 3:00 PM PT", "America/Los_Angeles"),
    ],
)
def test_hours_are_read_in_the_zone_the_user_states_with_them(text: str, zone: str) -> None:
    """Not in the account's zone: "don't call before 9am" from someone on Pacific time is 9am
    there, or the agent calls at midnight."""
    hours = _hours_of(extract(text))
    assert hours, extract(text)
    assert all(h.endswith(" " + zone) for h in hours), hours


@pytest.mark.parametrize(
    "text",
    [
        "My sister is on Pacific time. Please don't call me before 9am",  # someone else's zone
        "I work on Tokyo time and London time; don't call me before 9am",  # two zones: neither
        "Don't call me before 9am",
    ],
)
def test_without_a_zone_of_the_users_own_hours_stay_in_the_accounts(text: str) -> None:
    hours = _hours_of(extract(text))
    assert hours
    assert all(h.endswith(" Asia/Shanghai") for h in hours), hours


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("before 9am PT", "America/Los_Angeles"),
        ("at 5:30 pm ET", "America/New_York"),
        ("from 14:00 MT", "America/Denver"),
        ("9 a.m. CT works", "America/Chicago"),
        ("my PT appointment is at 9", None),  # physical therapy
        ("I had 2 CT scans last year", None),
        ("5 MT of steel", None),
    ],
)
def test_us_zone_letters_name_a_zone_only_after_a_clock_time(text: str, zone: str | None) -> None:
    from governed_memory.memory.write.normalize.timezones import find_timezone

    assert find_timezone(text) == zone


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("We're in Sydney (AEST), so mornings there please", "Australia/Sydney"),
        ("I'm in Paris (CET)", "Europe/Paris"),
        ("fyi I'm based in Chicago (central time)", "America/Chicago"),
        ("I'm actually on Mountain", "America/Denver"),
        ("we're on Eastern", "America/New_York"),
    ],
)
def test_where_the_user_is_said_with_its_zone_is_the_places_zone(text: str, zone: str) -> None:
    """The place's own zone, which keeps its summer time ("London (GMT)" is Europe/London, not
    UTC); a North American zone said by its name alone is that zone."""
    e = extract(text)
    assert [c.candidate.structured_value for c in e.candidates if c.candidate.key == TZ] == [
        {"value": zone}
    ]


@pytest.mark.parametrize(
    "text", ["I'm in sales (EST) lol", "I'm on central heating", "I'm in London for work"]
)
def test_a_place_or_a_word_without_a_zone_is_no_timezone(text: str) -> None:
    assert TZ not in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("家里有两只猫", ["猫"]),
        ("我们家狗狗5岁了", ["5岁"]),
        ("Just moved to Leeds a few weeks ago", ["Leeds"]),
        ("我平时穿L，腰围80", ["L", "80"]),
        ("We have two rescue greyhounds who chew through every lead within a week", ["greyhounds"]),
    ],
)
def test_a_household_a_move_and_a_measure_are_the_users_facts(text: str, words: list[str]) -> None:
    (found,) = [c.candidate for c in extract(text).candidates]
    assert found.key is None
    assert all(w in found.content for w in words), found.content


@pytest.mark.parametrize(
    "text", ["my parcel moved to the depot", "I'm not home right now", "I'm not in at the moment"]
)
def test_a_parcel_moving_or_the_user_out_for_now_is_no_fact(text: str) -> None:
    assert extract(text).candidates == []


@pytest.mark.parametrize(
    "text", ["I'm rarely home during the week", "I'm only in on Tuesdays", "我白天都不在家"]
)
def test_when_the_user_can_be_found_is_kept_when_said_alone(text: str) -> None:
    """A preference implied by a circumstance: when to deliver or call follows from it."""
    (found,) = [c.candidate for c in extract(text).candidates]
    assert found.content == text


def test_beside_the_wish_it_explains_the_circumstance_is_not_kept_apart() -> None:
    e = extract("以后快递都放门卫吧，我工作日都不在家")
    assert [c.candidate.content for c in e.candidates] == ["以后快递都放门卫吧"]


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        # the entity named decides what the claim is about, not the status word's usual home
        ("My order has been stuck at 'pending' for a week", "order.status", ["stuck"]),
        # the entity named in an earlier clause of the sentence
        ("订单号88123，卖家直接给我取消了", "order.status", ["88123", "取消"]),
        ("退款说好三天到，现在一周了还没到", "refund.status", ["退款", "还没到"]),
        # statuses said in more ways
        ("Still no refund for the jacket I returned last month", "refund.status", ["refund"]),
        ("The courier left it at the wrong address", "logistics.status", ["wrong address"]),
        ("I paid but the order doesn't show up in my account", "order.status", ["show up"]),
    ],
)
def test_a_claim_is_about_the_entity_its_sentence_names(
    text: str, key: str, words: list[str]
) -> None:
    (found,) = [c.candidate for c in extract(text).candidates]
    assert found.key == key
    assert all(w in found.content for w in words), found.content


@pytest.mark.parametrize(
    "text", ["我想问下订单被取消了吗？", "Please make sure the parcel isn't damaged"]
)
def test_a_question_or_a_wish_about_an_order_is_no_claim(text: str) -> None:
    assert extract(text).candidates == []


@pytest.mark.parametrize(
    "text",
    [
        "我同事说他更喜欢短信通知",
        "A neighbour told me she gets all her updates by email",
        "One of my friends prefers texts for everything",
    ],
)
def test_what_a_colleague_or_a_friend_prefers_is_not_the_users(text: str) -> None:
    """ "我同事" is a colleague, not "我同…" (me and …); "a neighbour" is someone else."""
    e = extract(text)
    assert PREF not in keys(e), e
    assert [s.reason for s in e.skipped] == ["third_party"]


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("No more robo calls please", "phone"),
        ("Please stop the follow-up calls", "phone"),
        ("不用再给我打售后电话了", "phone"),
    ],
)
def test_a_kind_of_call_refused_is_a_negation(text: str, channel: str) -> None:
    (found,) = extract(text).candidates
    assert found.candidate.structured_value == {"channel": channel}
    assert found.negated


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("oops, I meant SMS - not email", "sms"),
        ("I meant texts, not email, sorry", "sms"),
        ("刚才说错了，是短信不是电话", "sms"),
        ("我是说微信不是邮件", "wechat"),
        ("不好意思搞错了，我要的是短信提醒，不是微信", "sms"),
        ("我要微信通知", "wechat"),
    ],
)
def test_a_corrected_channel_is_the_one_named_right(text: str, channel: str) -> None:
    """ "I meant X, not Y" corrects what the user said: X is the channel, not only Y's denial."""
    e = extract(text)
    chosen = [c for c in e.candidates if c.candidate.key == PREF and not c.negated]
    assert [c.candidate.structured_value for c in chosen] == [{"channel": channel}]


def test_meaning_to_do_something_names_no_channel() -> None:
    assert PREF not in keys(extract("I meant to email you yesterday but forgot"))


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("我们家去年搬了，现在住杭州，地址别再用旧的", "杭州"),
        ("目前定居成都了", "成都"),
        ("我最近被派到天津工作了", "天津"),
        ("我已经不在南京了，调去苏州工作了", "苏州"),
    ],
)
def test_where_the_user_lives_or_works_now_is_kept_whatever_the_subject_left_out(
    text: str, place: str
) -> None:
    """A Chinese clause often leaves its subject to the clause before it: "现在住杭州" after
    "我们家去年搬了" is the user's home."""
    kept = facts(text)
    assert any(place in f for f in kept), kept


@pytest.mark.parametrize(
    "text",
    ["住杭州的朋友推荐的这家店", "我朋友现在住杭州", "我要的快递到了吗", "现在住得挺舒服的"],
)
def test_someone_elses_home_or_a_parcel_wanted_is_no_fact_of_mine(text: str) -> None:
    assert [c for c in extract(text).candidates if c.candidate.key is None] == []
    assert PREF not in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("From now on message me on WhatsApp, I rarely look at my inbox", "whatsapp"),
        ("以后有事发我WhatsApp吧", "whatsapp"),
        ("in-app push works best for me, my emails always end up in spam", "app_push"),
        ("texts never arrive on this phone, so please email me", "email"),
        ("I don't read texts, call me", "phone"),
    ],
)
def test_a_channel_said_to_fail_or_go_unread_is_not_the_one_chosen(text: str, channel: str) -> None:
    """ "texts just get lost", "I never check email": a reason not to use a channel, never a
    choice of it; WhatsApp is a channel of its own."""
    chosen = [c for c in extract(text).candidates if c.candidate.key == PREF and not c.negated]
    assert [c.candidate.structured_value for c in chosen] == [{"channel": channel}]


@pytest.mark.parametrize(
    "text",
    ["Please stop adding me to WhatsApp broadcast lists", "take me off your email list"],
)
def test_a_list_or_a_group_of_a_channel_is_no_choice_of_it(text: str) -> None:
    assert [c for c in extract(text).candidates if not c.negated] == []


def test_a_clause_that_says_also_goes_on_with_the_statement_before_it() -> None:
    """ "我不吃香菜，也不太能吃辣": the second clause's subject is the first's."""
    (found,) = extract("我不吃香菜，也不太能吃辣，推荐零食的时候注意下").candidates
    assert "不吃香菜" in found.candidate.content
    assert "不太能吃辣" in found.candidate.content


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm celiac so anything with gluten is a hard no for me", "celiac"),
        ("i'm coeliac, is the pasta certified GF?", "coeliac"),
        ("I'm type 1 diabetic, so I always check the sugar content", "type 1 diabetic"),
        ("I'm 6ft 4", "6ft 4"),
        ("Live in Anchorage, Alaska so winter gear actually matters here", "Anchorage"),
    ],
)
def test_a_condition_a_height_or_a_home_said_in_passing_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "fact", "key"),
    [
        ("Just so it's on file: I'm a dental hygienist", "dental hygienist", None),
        ("麻烦在我账户里备注一下：我是孕妇，有些成分不能用", "我是孕妇", None),
        ("Remember for next time: I prefer texts over emails", None, PREF),
        ("For your records, I live in Leeds", "Leeds", None),
    ],
)
def test_a_request_to_keep_it_on_file_is_a_request_to_remember(
    text: str, fact: str | None, key: str | None
) -> None:
    (found,) = extract(text).candidates
    assert found.candidate.key == key
    if fact is not None:
        assert fact in found.candidate.content
        assert not found.candidate.content.lower().startswith(("just so", "for your"))
    else:
        assert found.candidate.structured_value == {"channel": "sms"}


@pytest.mark.parametrize(
    "text",
    [
        "don't contact me on whatsapp, I didn't give you that number for marketing",
        "能不能别每天都发邮件，真的很烦",
        "不要每天发短信",
    ],
)
def test_a_channel_not_wanted_however_often_or_by_whatever_verb_is_not_chosen(text: str) -> None:
    chosen = [c for c in extract(text).candidates if c.candidate.key == PREF and not c.negated]
    assert chosen == []


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        (
            "I relocated to Tokyo last month so please schedule deliveries on Japan time now",
            "Asia/Tokyo",
        ),
        ("I'm based in Denver, so Mountain time please", "America/Denver"),
    ],
)
def test_a_zone_to_schedule_by_is_the_users_zone(text: str, zone: str) -> None:
    found = [
        c.candidate.structured_value for c in extract(text).candidates if c.candidate.key == TZ
    ]
    assert found == [{"value": zone}]


@pytest.mark.parametrize("text", ["the delivery came on time", "call me back on time please"])
def test_on_time_names_no_zone(text: str) -> None:
    assert TZ not in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "key", "subject"),
    [
        ("订单被无故取消了？我没点取消啊，订单号 3390217", "order.status", "order:3390217"),
        ("退款申请都提交十天了还没到账，订单尾号6612", "refund.status", "order:6612"),
        (
            "包裹破了，里面的杯子碎了两个，中通 75412398866",
            "logistics.status",
            "shipment:75412398866",
        ),
        (
            "The parcel went back to the sender apparently?? tracking LX552019873CN.",
            "logistics.status",
            "shipment:LX552019873CN",
        ),
    ],
)
def test_a_claim_is_about_the_id_its_message_names_in_another_sentence(
    text: str, key: str, subject: str
) -> None:
    (found,) = [c.candidate for c in extract(text).candidates if c.candidate.key == key]
    assert found.subject_ref == subject
    assert subject.split(":", 1)[1] in found.content


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I have Crohn's disease, so the low-fibre range matters to me", "Crohn's disease"),
        ("I'm normally a size 8 in jeans, does this run small?", "size 8"),
        ("Our cat is a 7kg Maine Coon, will the carrier fit him?", "Maine Coon"),
        ("I raise chickens in the back yard, do you sell layer feed?", "raise chickens"),
        ("我皮肤偏干，冬天特别容易起皮，这个面霜滋润吗", "我皮肤偏干"),
        ("平时喜欢骑行，周末都骑五六十公里，这个水壶架通用吗", "平时喜欢骑行"),
        ("住在七楼没电梯，这个床垫能送上去吗", "住在七楼没电梯"),
        ("宝宝刚满8个月，这款米粉能吃了吗", "宝宝刚满8个月"),
    ],
)
def test_a_condition_a_size_a_pet_a_habit_or_a_home_said_before_a_question_is_kept(
    text: str, fact: str
) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("我家是老小区，客厅才十二平，这个茶几会不会太大", ("老小区", "客厅才十二平")),
        ("我腿比较长，平时穿32码，这条裤子会短吗", ("我腿比较长", "平时穿32码")),
        # the size a body takes goes on with it (it was kept apart before: both last)
        ("我腰围有点粗，一般穿XL", ("我腰围有点粗", "一般穿XL")),
        ("我女儿今年五岁，儿子刚满10个月，推车要双人的", ("我女儿今年五岁", "儿子刚满10个月")),
        ("Our apartment is small, about 35 square meters, so space matters", ("about 35",)),
    ],
)
def test_a_measure_said_after_a_statement_goes_on_with_it(
    text: str, parts: tuple[str, ...]
) -> None:
    kept = facts(text)
    assert any(all(p in f for p in parts) for f in kept), kept


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("我之前填的时区错了，我在墨尔本，不是悉尼", "Australia/Melbourne"),
        ("I relocated to Chicago in the spring, could you change my time zone?", "America/Chicago"),
        ("I mentioned Paris before but I'm actually in Dublin now, so Irish time", "Europe/Dublin"),
        ("I'm in Tokyo, so when you say 'this evening' make it Tokyo evening", "Asia/Tokyo"),
    ],
)
def test_where_the_user_is_beside_a_zone_asked_about_is_the_users_zone(
    text: str, zone: str
) -> None:
    e = extract(text)
    assert [c.candidate.structured_value for c in e.candidates if c.candidate.key == TZ] == [
        {"value": zone}
    ]
    # the statement of where they are is what the zone says: not kept twice
    assert [c for c in e.candidates if c.candidate.key is None] == [], e


def test_a_place_in_a_one_off_clause_sets_no_zone() -> None:
    assert TZ not in keys(extract("I'm in Tokyo this week for work, what time zone do you use?"))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("客服可不可以用日语回复我？中文我看起来比较吃力", "ja"),
        ("Earlier I said Spanish but Italian works better for me, my Spanish is basic", "it"),
        ("Sorry, it's French I'd like the replies in", "fr"),
    ],
)
def test_a_language_asked_for_as_a_favour_or_a_correction_is_chosen_without_its_reason(
    text: str, language: str
) -> None:
    e = extract(text)
    assert [c.candidate.structured_value for c in e.candidates] == [{"value": language}], e


def test_a_channel_said_before_and_taken_back_is_not_the_one_chosen() -> None:
    e = extract("前面说发邮件，改一下哈，那个邮箱不用了，直接打电话吧")
    chosen = [c.candidate.structured_value for c in e.candidates if c.candidate.key == PREF]
    assert chosen == [{"channel": "phone"}], e


@pytest.mark.parametrize(
    ("text", "key", "subject"),
    [
        (
            "Tracking shows delivered but nothing arrived. It's 9400111899223344556677",
            "logistics.status",
            "shipment:9400111899223344556677",
        ),
        (
            "我的订单号是20261201-7788。说好两天发货，现在还没发货",
            "order.status",
            "order:20261201-7788",
        ),
        (
            "The refund was approved last week but nothing's come through. Return ID R-55012.",
            "refund.status",
            "refund:R-55012",
        ),
        (
            "refund RF-88120 still isn't in my account after two weeks",
            "refund.status",
            "refund:RF-88120",
        ),
        (
            "My order number is 66120934. It's been stuck on processing for days.",
            "order.status",
            "order:66120934",
        ),
        (
            "Parcel has been held at customs since Monday, tracking LX889900112CN",
            "logistics.status",
            "shipment:LX889900112CN",
        ),
        (
            "They marked it failed delivery but I was in all day. Tracking 77120034551",
            "logistics.status",
            "shipment:77120034551",
        ),
    ],
)
def test_a_claim_names_its_id_however_it_is_introduced(text: str, key: str, subject: str) -> None:
    (found,) = [c.candidate for c in extract(text).candidates if c.candidate.key == key]
    assert found.subject_ref == subject, found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I paid with my card but the order still says unpaid", "payment.status"),
        ("昨天下的单，今天状态变成已关闭了，我没取消", "order.status"),
    ],
)
def test_a_status_said_in_everyday_words_is_a_claim(text: str, key: str) -> None:
    assert key in keys(extract(text))


def test_claims_of_one_kind_said_clause_after_clause_are_one_claim() -> None:
    e = extract("钱已经扣了，可订单那边还是待付款")
    (claim,) = [c.candidate for c in e.candidates if c.candidate.key == "payment.status"]
    assert "钱已经扣了" in claim.content
    assert "待付款" in claim.content


@pytest.mark.parametrize("text", ["银行短信都来了，订单还是没变", "app通知我全关了，别推了"])
def test_a_message_that_came_or_a_channel_switched_off_is_no_choice_of_it(text: str) -> None:
    chosen = [c for c in extract(text).candidates if c.candidate.key == PREF and not c.negated]
    assert chosen == []


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("fyi I'm in Seattle so please no callbacks at 7am my time", "America/Los_Angeles"),
        ("我长期在大阪工作，时间都按日本这边算吧", "Asia/Tokyo"),
        ("时区帮我改一下，我现在在悉尼，不在新加坡了", "Australia/Sydney"),
        ("I'm GMT+1, Berlin, so 'we'll call at 3' means 3 Berlin time", "Europe/Berlin"),
    ],
)
def test_a_zone_from_where_the_user_is_or_a_named_zone_beside_an_offset(
    text: str, zone: str
) -> None:
    found = [
        c.candidate.structured_value for c in extract(text).candidates if c.candidate.key == TZ
    ]
    assert found == [{"value": zone}]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My Japanese is shaky, can you stick to English when you message me?", {"value": "en"}),
        ("Please don't write in German - English is what I actually read", {"value": "en"}),
        (
            "I practically live on WhatsApp, it's the best place to reach me",
            {"channel": "whatsapp"},
        ),
    ],
)
def test_a_wish_said_indirectly_is_the_wish(text: str, value: dict[str, str]) -> None:
    assert value in [
        c.candidate.structured_value for c in extract(text).candidates if not c.negated
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Nurse here, I do night shifts - which blackout curtains block the most light?", "Nurse"),
        ("got two cats and a dog, is this vacuum any good with pet hair?", "two cats"),
        ("I drive a 2019 Mazda 3, do these floor mats fit?", "Mazda 3"),
        ("我用的华为Mate 60，这个充电器支持快充吗", "华为Mate 60"),
        ("我得高血压好几年了，这款盐是低钠的吗", "高血压"),
        ("宝宝刚七个月，鸡蛋过敏，这个米粉能吃吗", "宝宝刚七个月"),
    ],
)
def test_who_the_user_is_said_before_a_question_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


def test_a_customer_here_is_no_fact() -> None:
    assert extract("Long time customer here, where is my parcel?").candidates == [] or all(
        "customer here" not in c.candidate.content
        for c in extract("Long time customer here").candidates
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("收到的尺码不对，我买的是L，寄来的是S", "order.status"),
        ("Order #77120. Still says 'processing' and nothing has shipped.", "order.status"),
        ("the parcel has been 'out for delivery' since Monday", "logistics.status"),
        (
            "refund approved last week, reference R55012, but nothing in my bank yet",
            "refund.status",
        ),
    ],
)
def test_more_everyday_statuses_are_claims(text: str, key: str) -> None:
    assert key in keys(extract(text))


def test_a_model_named_wrong_in_a_correction_is_no_order_claim() -> None:
    assert "order.status" not in keys(extract("前面说的手机型号不对，我用的是小米14，不是13"))


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("I'm in Lisbon btw so any callback times please in my local time", "Europe/Lisbon"),
        ("我已经不是北京时间了，上个月搬到了巴黎", "Europe/Paris"),
        ("时区弄错了，我不在东京，现在在首尔", "Asia/Seoul"),
    ],
)
def test_a_zone_from_where_the_user_now_is(text: str, zone: str) -> None:
    found = [
        c.candidate.structured_value for c in extract(text).candidates if c.candidate.key == TZ
    ]
    assert found == [{"value": zone}]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("能用韩语跟我沟通吗？中文我只会一点", {"value": "ko"}),
    ],
)
def test_a_wish_asked_as_a_question_or_after_a_refusal(text: str, value: dict[str, str]) -> None:
    assert value in [
        c.candidate.structured_value for c in extract(text).candidates if not c.negated
    ]


def test_a_note_asked_for_about_a_family_member_keeps_it() -> None:
    e = extract("could you make a note that my wife's birthday is 3 May? I always forget")
    assert any("3 May" in c.candidate.content for c in e.candidates), e


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("订单 55012。昨天下午已经收到了，谢谢", "logistics.status"),
        ("退货昨天已经寄回去了，单号ZT7788990011", "logistics.status"),
        ("I paid by card and the order still says 'awaiting payment'", "payment.status"),
        ("my refund for order 66120 went through this morning", "refund.status"),
        ("order 40210 still shows processing, it hasn't even shipped", "order.status"),
    ],
)
def test_a_status_is_the_one_its_words_say(text: str, key: str) -> None:
    assert keys(extract(text)) == [key]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("本人油性皮，夏天特别容易出油，这个粉底会不会脱妆", "油性皮"),
        ("我周末都去钓鱼，想买个折叠椅", "钓鱼"),
        ("宝宝不是两岁，是两岁半了，鞋子要大一码", "两岁半"),
        ("I told you I had one dog, it's actually two dogs now", "two dogs"),
        ("Update to what I said: I drive a Tesla now, not the Golf", "Tesla"),
    ],
)
def test_a_fact_put_right_or_said_in_passing_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("请备注一下：以后联系我发短信，电话老是漏接", {"channel": "sms"}),
        ("请记住我的语言设置是英语，中文阅读有点吃力", {"value": "en"}),
        (
            "I'm in UTC+10 (Brisbane), so mornings suit me for calls",
            {"value": "Australia/Brisbane"},
        ),
        ("not a fan of calls - can we keep it to WhatsApp?", {"channel": "whatsapp"}),
        ("之前说用日语回复，其实我更习惯中文，还是换回中文吧", {"value": "zh-CN"}),
    ],
)
def test_a_preference_inside_a_note_a_bracket_or_a_change_of_mind(
    text: str, value: dict[str, str]
) -> None:
    values = [c.candidate.structured_value for c in extract(text).candidates if not c.negated]
    assert value in values, values


@pytest.mark.parametrize(
    ("text", "key", "mention"),
    [
        (
            "The refund on return R-5521 has been processed but my bank shows nothing",
            "refund.status",
            "R-5521",
        ),
        ("received my refund this morning, thanks for sorting it", "refund.status", "refund"),
        ("We already paid for order 7781-B by bank transfer on Friday", "payment.status", "7781-B"),
        ("My card payment bounced twice on order Q-2204", "payment.status", "Q-2204"),
        ("Order 66120 is still pending after a week, what's going on?", "order.status", "66120"),
        ("订单556201状态是交易完成，可东西我根本没收到", "order.status", "556201"),
        ("包裹已经到丰巢了，但取件码一直没收到", "logistics.status", "丰巢"),
        ("Tracking says my parcel is out for delivery", "logistics.status", "out for delivery"),
    ],
)
def test_a_status_said_plainly_names_its_id_or_state(text: str, key: str, mention: str) -> None:
    claims = [c.candidate for c in extract(text).candidates if c.candidate.key == key]
    assert any(mention.casefold() in c.content.casefold() for c in claims), extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please gift wrap the scarf I paid for, it's a present.",
        "we paid for the premium install, so please bring the tools",
    ],
)
def test_what_the_user_paid_for_inside_a_request_is_no_payment_claim(text: str) -> None:
    assert "payment.status" not in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm on a Chromebook, does this printer work without a driver?", "Chromebook"),
        ("I'm on a gluten-free diet so please no wheat snacks", "gluten-free diet"),
        ("I play badminton every weekend, which grip is best?", "badminton"),
    ],
)
def test_the_device_the_diet_or_the_sport_the_user_lives_with_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("本人幼儿园老师，想买点小贴纸当奖励", "幼儿园老师"),
        ("体重48公斤，这件外套选XS还是S？", "体重48"),
        ("我一个人住，房子才三十平，收纳箱要小号的", "三十平"),
        ("我是程序员，平时久坐，腰一直不好，这款椅子靠背能调吗", "久坐"),
        ("I've got coeliac disease, is the bread certified gluten-free?", "coeliac disease"),
    ],
)
def test_a_job_a_body_or_a_home_said_in_passing_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "wish"),
    [
        ("From now on please send me size L, the M runs small", "size L"),
        ("Going forward use my office address for every parcel", "office address"),
        ("以后都按38码给我发，37的挤脚", "38码"),
    ],
)
def test_a_standing_size_or_address_is_a_wish(text: str, wish: str) -> None:
    kept = facts(text)
    assert any(wish in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("退款申请提交五天了，钱到现在还没到账", "refund.status"),
        ("订单 TB5580213 显示已出库两天了，物流一直没更新", "logistics.status"),
        (
            "The courier marked my parcel as delivered but nothing came, tracking 1Z999AA10123456784",
            "logistics.status",
        ),
    ],
)
def test_whose_status_it_is_follows_what_the_sentence_named(text: str, key: str) -> None:
    assert key in keys(extract(text))


@pytest.mark.parametrize(
    ("text", "wish"),
    [
        ("裤子我一直穿30的，上衣穿XL", "30"),
        ("以后能发京东尽量发京东，别的太慢", "发京东"),
        ("快递我都希望送上门，楼下的柜子总满", "送上门"),
        ("Evening deliveries work best for me since I'm at work all day", "Evening deliveries"),
        ("A plain box for all my orders please, no logos", "plain box"),
    ],
)
def test_a_lasting_way_of_being_served_is_kept(text: str, wish: str) -> None:
    kept = facts(text)
    assert any(wish in f for f in kept), kept


@pytest.mark.parametrize(
    "text",
    [
        "上次让你们以后都发韵达，算了，还是中通吧",
        "以后我的快递都别送上门了，放驿站就行",
        "退订，以后这类促销短信不用再发给我了",
    ],
)
def test_a_wish_recalled_or_unwanted_is_not_kept_as_a_wish(text: str) -> None:
    kept = facts(text)
    assert not any(("韵达" in f or "别送上门" in f or "不用再发" in f) for f in kept), kept


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Italian would honestly be better for me than English, if anyone speaks it", "it"),
        ("Forget the French, German is actually easier for me to follow.", "de"),
        ("Please keep all correspondence in Portuguese, my English is weak.", "pt"),
    ],
)
def test_a_language_easier_for_the_user_or_asked_for_all_mail_is_theirs(
    text: str, language: str
) -> None:
    values = [
        c.candidate.structured_value
        for c in extract(text).candidates
        if c.candidate.key == "profile.language" and not c.negated
    ]
    assert {"value": language} in values, values


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("我买洗发水只认海飞丝，别的不用推荐了", "只认海飞丝"),
        ("Evening deliveries suit me much better, I'm out all day", "Evening deliveries"),
        ("As a rule, please pack my orders without plastic", "without plastic"),
        ("I manage a small gym, so I buy mats in bulk", "manage a small gym"),
    ],
)
def test_a_brand_kept_to_a_rule_of_service_or_a_business_run_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    "text",
    [
        "Send me an email instead of texts, my phone's on silent most days",
        "Email works for me, my phone is usually switched off at work",
        "请发邮件给我，我的手机经常没信号",
    ],
)
def test_the_users_phone_in_some_state_is_a_device_never_a_phone_preference(text: str) -> None:
    values = [
        c.candidate.structured_value for c in extract(text).candidates if c.candidate.key == PREF
    ]
    assert values == [{"channel": "email"}], values


@pytest.mark.parametrize(
    "text",
    [
        "my bf is gluten-free, does this cake contain wheat?",
        "My hubby is a vegan, what's in the gift box?",
        "my niece is into unicorns, any ideas under £20?",
    ],
)
def test_a_partner_or_a_relative_named_casually_is_someone_else(text: str) -> None:
    assert facts(text) == [], facts(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("记好了：我对猫毛过敏", "对猫毛过敏"),
        ("Save this: my shoe size is 43", "my shoe size is 43"),
        ("save this for me: I'm vegetarian", "I'm vegetarian"),
        ("Save this please: I'm vegan", "I'm vegan"),
        ("记住了：我对青霉素过敏", "对青霉素过敏"),
        ("不吃一切肉类，纯素", "不吃一切肉类"),
        ("只喝两分糖的奶茶", "只喝两分糖的奶茶"),
        ("I'd like you to remember that I'm left-handed", "left-handed"),
        ("家里养了三只布偶，猫砂用得很快", "养了三只布偶"),
        ("本人在成都高新区，能当天到吗", "本人在成都高新区"),
        ("裤子的话我一直穿L码，谢谢", "一直穿L码"),
        ("茶叶我只认西湖龙井，别的不喝", "只认西湖龙井"),
        ("I only shop for organic veg, keep that in mind", "organic veg"),
    ],
)
def test_a_fact_said_in_a_hurry_or_asked_to_be_kept_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "wish"),
    [
        ("周六别送，家里没人", "周六别送"),
        ("Please don't deliver after 6pm, the building locks up", "deliver after 6pm"),
        ("No deliveries on Mondays please, the shop is shut", "deliveries on Mondays"),
        ("以后别给我推荐游戏周边了，孩子不玩了", "别给我推荐游戏周边"),
        ("以后别推荐辣的", "别推荐辣的"),
        ("以后只推荐素食", "只推荐素食"),
        ("以后推荐的都要无糖的", "推荐的都要无糖的"),
        ("明天开始晚上8点以后别送", "晚上8点以后别送"),
        ("下周起工作日送公司", "工作日送公司"),
        ("From now on, make sure you always leave my parcels at the back door", "back door"),
        ("For future orders I'd like recyclable packaging if possible", "recyclable packaging"),
        ("快递尽量安排下午3点以后送", "下午3点以后送"),
    ],
)
def test_a_lasting_time_kept_free_or_a_lasting_thing_not_wanted_is_a_wish(
    text: str, wish: str
) -> None:
    kept = facts(text)
    assert any(wish in f for f in kept), kept


@pytest.mark.parametrize(
    "text",
    [
        "今天晚上别送了，我不在",
        "这周末别送，我出差",
        "明早8点前别送，谢谢",
        "Please don't deliver on Saturday, I'm away this weekend",
        "以后推荐直接按这个来就行",
        "这个周末别送",
        "下个星期六别送",
        "这两天晚上别送",
        "今天下午3点以后别送",
        "以后推荐的东西都太贵了",
        "每次推荐的都是我不需要的",
        "You guys always deliver before 7am and wake the baby",
        "I always get substitutions even though I ticked no substitutes!",
        "这次周末别送",
        "这单周末别送",
        "Don't deliver before 9am tomorrow, I'm on nights this week.",
    ],
)
def test_a_time_kept_free_once_or_a_wish_pointing_back_is_not_a_lasting_wish(text: str) -> None:
    assert not any("送" in f or "deliver" in f or "推荐" in f for f in facts(text)), facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "order no. 55310 was cancelled without any email",
        "They changed my delivery date without an email or anything",
        "my refund was processed without a text, I only saw it in the bank app",
        "My order has shipped without any email.",
        "You guys cancelled my booking without any email!",
        "You just cut off my service without any email.",
        "Orders always get cancelled without any email.",
        "Going forward, don't renew my subscription without emailing me first.",
    ],
)
def test_something_done_without_a_word_to_the_user_denies_no_channel(text: str) -> None:
    assert not [c for c in extract(text).candidates if c.candidate.key == PREF and c.negated], (
        extract(text)
    )


@pytest.mark.parametrize(
    "text",
    [
        "You can contact me without email from now on",
        "Going forward you must reach me without email",
        "Could you get it sorted without any email going forward?",
    ],
)
def test_a_wish_to_be_reached_without_a_channel_still_denies_it(text: str) -> None:
    denied = [
        c.candidate.structured_value
        for c in extract(text).candidates
        if c.candidate.key == PREF and c.negated
    ]
    assert denied == [{"channel": "email"}], extract(text)


@pytest.mark.parametrize(
    "text",
    ["记住了，谢谢", "Save this cart for later", "只喝一口就吐了，太难喝", "不吃了，谢谢"],
)
def test_an_acknowledgement_a_cart_or_a_sip_is_no_fact(text: str) -> None:
    assert facts(text) == [], facts(text)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("记一下我人在美国西海岸，约时间按那边的时间来", "America/Los_Angeles"),
        ("我在美国东海岸，按我这边的时间联系我", "America/New_York"),
    ],
)
def test_a_coast_named_in_chinese_with_its_time_asked_for_is_the_users_zone(
    text: str, zone: str
) -> None:
    zones = [
        c.candidate.structured_value for c in extract(text).candidates if c.candidate.key == TZ
    ]
    assert zones == [{"value": zone}], zones


@pytest.mark.parametrize(
    "text",
    ["Payment for INV-2026-1204 failed on your side", "the payment on order 55123 bounced again"],
)
def test_a_payment_failed_with_words_between_is_a_payment_claim(text: str) -> None:
    assert "payment.status" in keys(extract(text)), extract(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("不吃香菜，推荐零食的时候注意一下", "不吃香菜"),
        ("只喝无糖的，别给我推含糖饮料", "只喝无糖的"),
        ("I never want substitutions on my weekly shop", "never want substitutions"),
        ("Don't send me anything with nuts in it, ever.", "anything with nuts"),
    ],
)
def test_a_diet_without_a_subject_or_a_thing_never_wanted_is_kept(text: str, fact: str) -> None:
    kept = facts(text)
    assert any(fact in f for f in kept), kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("不吃了，谢谢", []),
        ("我是素食者，不吃任何肉类", ["我是素食者，不吃任何肉类"]),
        ("Don't send me anything on WhatsApp, texts are fine", []),
    ],
)
def test_a_diet_goes_with_the_statement_before_it_and_a_channel_denied_is_no_fact(
    text: str, kept: list[str]
) -> None:
    assert facts(text) == kept
