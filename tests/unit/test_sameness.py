"""What counts as the same statement: every salient class tells two texts apart, and nothing
but spelling does (memory.sameness)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from governed_memory.memory.sameness import analyse, compare, gist_of, same_statement
from tests.factories import record

# --- each salient class, in English and Chinese ------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "cls"),
    [
        # numbers and quantities
        ("FLT event number 0 for u0", "FLT event number 30 for u0", "number"),
        ("The customer ordered 2 bags of rice", "The customer ordered 3 bags of rice", "quantity"),
        (
            "The customer ordered two bags of rice",
            "The customer ordered 3 bags of rice",
            "quantity",
        ),
        ("客户买了两袋大米", "客户买了三袋大米", "quantity"),
        ("客户买了2袋大米", "客户买了20袋大米", "quantity"),
        ("Battery at 15% when returned", "Battery at 50% when returned", "quantity"),
        ("Version 1.5 was installed", "Version 15 was installed", "number"),
        # amounts with their currencies
        (
            "The refund of 120 yuan has not arrived",
            "The refund of 420 yuan has not arrived",
            "amount",
        ),
        ("The refund of $120 has not arrived", "The refund of 120 yuan has not arrived", "amount"),
        ("退款120元还没到账", "退款420元还没到账", "amount"),
        ("退款1.5万元还没到账", "退款1.5元还没到账", "amount"),
        # dates and times
        ("Delivery is on Monday", "Delivery is on Tuesday", "date"),
        ("Delivery is on 2026-07-01", "Delivery is on 2026-07-02", "date"),
        ("Delivery is on July 1", "Delivery is on June 1", "date"),
        ("送货时间是周一", "送货时间是周二", "date"),
        ("会议在7月1日", "会议在7月2日", "date"),
        ("The courier comes tomorrow", "The courier comes today", "date"),
        ("Call back at 3pm", "Call back at 4pm", "time"),
        ("Call back at 15:00", "Call back at 15:30", "time"),
        ("下午3点回电", "下午4点回电", "time"),
        # identifiers: order, parcel, account and phone-like tokens, e-mail addresses
        (
            "Customer reported that parcel SF1234567890 was delivered to the wrong address",
            "Customer reported that parcel SF1234567891 was delivered to the wrong address",
            "identifier",
        ),
        ("Order A-7781 was cancelled", "Order A-7782 was cancelled", "identifier"),
        ("Order number 12345 was cancelled", "Order number 12346 was cancelled", "identifier"),
        ("订单A-7781已取消", "订单A-7782已取消", "identifier"),
        ("Her phone is +1 415 555 0199", "Her phone is +1 415 555 0198", "identifier"),
        ("Write to bob@example.com", "Write to rob@example.com", "identifier"),
        # named entities
        (
            "The parcel goes to the Northgate locker",
            "The parcel goes to the Southgate locker",
            "entity",
        ),
        ("The customer Alice paid", "The customer Bob paid", "entity"),
        # negation and polarity
        ("The parcel has arrived", "The parcel has not arrived", "negation"),
        ("The parcel has arrived", "The parcel never arrived", "negation"),
        ("包裹已经到了", "包裹没有到", "negation"),
        ("用户同意通话录音", "用户不同意通话录音", "negation"),
    ],
)
def test_each_salient_class_tells_statements_apart(old: str, new: str, cls: str) -> None:
    c = compare(old, new)
    assert not c.same
    assert cls in c.differences
    assert gist_of(old) != gist_of(new)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The customer ordered 2 bags of rice.", "the customer ordered 2 bags of rice"),
        ("The customer ordered two bags of rice", "The customer ordered 2 bags of rice"),
        ("Please just text me with updates.", "Text me with updates"),
        ("The parcel hasn't arrived", "The parcel has not arrived"),
        ("Ｔｈｅ　ｕｓｅｒ　ｌｉｋｅｓ　ｔｅａ", "The user likes tea"),
        ("The  user   likes tea !", "The user likes tea"),
        ("The user\u200b likes tea", "The user likes tea"),
        ("Meeting on July 1, 2026 at 3pm", "Meeting on 2026-07-01 at 15:00"),
        ("Refund of ¥120 pending", "Refund of 120 yuan pending"),
        ("Refund of 1,200 dollars pending", "Refund of $1200 pending"),
        ("Order A-7781 was cancelled", "order a7781 was cancelled"),
        ("Order no. 12345 was cancelled", "Order number 12345 was cancelled"),
        ("客户买了两袋大米", "客户买了2袋大米。"),
        ("退款120元还没到啊", "退款¥120还没到"),
        ("会议在7月1日下午3点", "会议在七月一日下午三点"),
        ("麻烦以后发短信通知我吧", "以后发短信通知我"),
        ("周一送货", "星期一送货"),
        # where a single time phrase stands does not change what is said
        ("On Friday, the parcel arrived", "The parcel arrived on Friday"),
        ("周一客户买了大米", "客户周一买了大米"),
        ("Meeting at 3pm on July 1", "On July 1 at 3pm, meeting"),
    ],
)
def test_spelling_is_not_a_difference(a: str, b: str) -> None:
    assert compare(a, b).same
    assert gist_of(a) == gist_of(b)


def test_word_order_and_wording_are_differences() -> None:
    assert not compare("Alice paid Bob", "Bob paid Alice").same
    assert not compare("The dog bit the man", "The man bit the dog").same
    assert compare("jasmine rice", "basmati rice").differences == ("wording",)
    # two time phrases: which goes with what matters
    assert not compare(
        "Deliver on Monday, pick up on Friday", "Deliver on Friday, pick up on Monday"
    ).same
    assert not compare("The parcel arrived before Friday", "The parcel arrived after Friday").same
    assert not compare("from Monday to Friday", "from Friday to Monday").same


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # everyday synonyms, one word or a phrase for one word
        ("The user bought a kettle on March 3", "The user purchased a kettle on March 3"),
        ("The package arrived damaged", "The parcel arrived broken"),
        ("The customer would like a call back", "The customer wants a call back"),
        ("She asked for a refund of $45", "She requested a refund of $45"),
        ("用户希望周末送货", "用户想周末送货"),
        ("客户购买了一台冰箱", "客户买了一台冰箱"),
        ("客户的老公是医生", "客户的丈夫是医生"),
        # a fronted phrase, and the English passive said actively
        (
            "For her commute, Sofia prefers window seats",
            "Sofia prefers window seats for her commute",
        ),
        ("The courier delivered the sofa to Anna", "The sofa was delivered to Anna by the courier"),
        ("The team approved the return", "The return has been approved by the team"),
        ("Bob gave Alice the voucher", "Alice was given the voucher by Bob"),
    ],
)
def test_the_same_statement_in_other_words(a: str, b: str) -> None:
    assert compare(a, b).same
    assert gist_of(a) == gist_of(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # roles survive the passive: who did what to whom
        ("The courier called the customer", "The courier was called by the customer"),
        ("Alice paid Bob", "Alice was paid by Bob"),
        # a time after "by" is a deadline, not an agent
        ("The parcel was delivered by Friday", "The parcel was delivered by Monday"),
        (
            "The parcel will be delivered by the courier",
            "The parcel will be delivered by the driver",
        ),
        # words that differ in degree, polarity or sense are not synonyms
        ("The customer likes the blue jacket", "The customer loves the blue jacket"),
        ("The parcel arrived late", "The parcel arrived damaged"),
        ("用户要去成都", "用户需要去成都"),
        ("客户很满意", "客户很失望"),
    ],
)
def test_other_words_that_say_something_else(a: str, b: str) -> None:
    assert not compare(a, b).same


def test_a_changed_detail_of_the_same_entity_is_a_restatement() -> None:
    refund = "The user said the refund of 120 yuan for order A-7781 has not arrived yet"
    assert compare(refund, refund.replace("120", "420")).changed_detail
    # another order, another parcel: another fact
    assert not compare(refund, refund.replace("A-7781", "A-7782")).changed_detail
    parcel = "Customer reported that parcel SF1234567890 was delivered to the wrong address"
    assert not compare(parcel, parcel.replace("890", "891")).changed_detail
    # no entity in common and no correction: distinct events
    rice = "The customer ordered 2 bags of jasmine rice for delivery on Monday"
    assert not compare(rice, rice.replace("2 bags", "3 bags")).changed_detail
    assert not compare("FLT event number 0 for u0", "FLT event number 30 for u0").changed_detail
    # a correction says so
    assert compare(rice, "Actually, " + rice.replace("2 bags", "3 bags")).changed_detail
    assert compare("退款120元还没到账", "更正：退款420元还没到账").changed_detail
    # a polarity change of the same order
    assert compare("Order A-7781 has arrived", "Order A-7781 has not arrived").changed_detail
    # a changed word is never a detail
    assert not compare("Order A-7781 was cancelled", "Order A-7781 was shipped").changed_detail


def test_a_refinement_only_adds_details() -> None:
    c = compare(
        "Order A-7781 was delivered to the wrong address",
        "Order A-7781 was delivered to the wrong address on Friday",
    )
    assert c.changed_detail
    assert c.adds_only


def test_anchors_name_business_entities() -> None:
    assert analyse("订单号 A-7781 的退款").anchors == {"a7781"}
    assert analyse("tracking number SF1234567890").anchors == {"sf1234567890"}
    assert analyse("order 12345 shipped").anchors == {"12345"}
    assert analyse("event number 7 for u0").anchors == frozenset()


def test_same_statement_of_memories() -> None:
    a = record(
        key=None, structured_value=None, content="The parcel has not arrived", kind="episodic"
    )
    b = record(
        key=None, structured_value=None, content="The parcel hasn't arrived.", kind="episodic"
    )
    c = record(key=None, structured_value=None, content="The parcel has arrived", kind="episodic")
    assert same_statement(a, b)
    assert not same_statement(a, c)
    sms, sms_again = record(), record(content="以后都发短信")
    assert same_statement(sms, sms_again)  # same key, same value
    email = record(structured_value={"channel": "email"})
    assert not same_statement(sms, email)
    side = record(conflict_group="cg1")
    assert not same_statement(side, side.model_copy(update={"memory_id": "other"}))


# --- property: salient changes always differ, spelling never does ------------------------------

NAMES_EN = ("Alice", "Bob", "Carol", "Dmitri", "Eve")
NAMES_ZH = ("张三", "李四", "王五", "赵六")
ITEMS_EN = ("rice", "tea", "soap", "batteries")
ITEMS_ZH = ("大米", "茶叶", "肥皂", "电池")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = "一二三四五六日"
WORDS_EN = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
ZH_DIGITS = "零一二三四五六七八九"


@dataclass(frozen=True)
class Fact:
    who: int
    qty: int
    item: int
    amount: int
    order: int
    day: int
    hour: int
    negated: bool


facts = st.builds(
    Fact,
    who=st.integers(0, 3),
    qty=st.integers(1, 99),
    item=st.integers(0, 3),
    amount=st.integers(1, 5000),
    order=st.integers(1000, 9999),
    day=st.integers(0, 6),
    hour=st.integers(0, 23),
    negated=st.booleans(),
)


def _zh_small(n: int) -> str:
    """1..99 in Chinese numerals."""
    if n < 10:
        return "两" if n == 2 else ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else ZH_DIGITS[tens]) + "十" + (ZH_DIGITS[ones] if ones else "")


def _segments_en(f: Fact, draw: st.DrawFn) -> list[str]:
    qty = WORDS_EN[f.qty] if f.qty <= 20 and draw(st.booleans()) else str(f.qty)
    amount = draw(st.sampled_from([f"${f.amount}", f"{f.amount} dollars", f"USD {f.amount}"]))
    order = draw(st.sampled_from([f"A-{f.order}", f"A{f.order}", f"a-{f.order}"]))
    hour12 = f.hour % 12 or 12
    ampm = "am" if f.hour < 12 else "pm"
    time = draw(
        st.sampled_from([f"{f.hour:02d}:00", f"{hour12}{ampm}", f"{hour12} {ampm.upper()}"])
    )
    verb = ["did", "not", "order"] if f.negated else ["ordered"]
    return [
        "the",
        "customer",
        NAMES_EN[f.who],
        *verb,
        qty,
        "bags",
        "of",
        ITEMS_EN[f.item],
        "for",
        "order",
        order,
        "paying",
        amount,
        "for",
        "delivery",
        "on",
        WEEKDAYS_EN[f.day],
        "at",
        time,
    ]


def _segments_zh(f: Fact, draw: st.DrawFn) -> list[str]:
    qty = _zh_small(f.qty) if draw(st.booleans()) else str(f.qty)
    amount = draw(st.sampled_from([f"{f.amount}元", f"¥{f.amount}", f"{f.amount}块钱"]))
    order = draw(st.sampled_from([f"A-{f.order}", f"A{f.order}"]))
    day = draw(st.sampled_from(["周", "星期", "礼拜"])) + WEEKDAYS_ZH[f.day]
    time = f"{f.hour}点"
    verb = ["没有", "买"] if f.negated else ["买"]
    return [
        "客户",
        NAMES_ZH[f.who],
        "为",
        "订单",
        order,
        *verb,
        f"{qty}袋",
        ITEMS_ZH[f.item],
        "，",
        "付",
        amount,
        "，",
        day,
        time,
        "送货",
    ]


FILLERS = {"en": ("please", "just", "really", "the"), "zh": ("的", "了", "呀", "吧")}


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def rendered(draw: st.DrawFn, fact: Fact, lang: str) -> str:
    """One spelling of a fact: values in any equivalent form, and any spacing, punctuation,
    case, width and fillers between its parts."""
    parts = _segments_en(fact, draw) if lang == "en" else _segments_zh(fact, draw)
    out: list[str] = []
    for part in parts:
        if draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from(FILLERS[lang])))
        out.append(part)
    sep = " " if lang == "en" else draw(st.sampled_from(["", " "]))
    text = sep.join(out) + draw(st.sampled_from(["", ".", "!", "。", " ..."]))
    if draw(st.booleans()):
        text = text.replace(" ", "  ")
    case = draw(st.sampled_from(["keep", "lower", "upper"]))
    text = text.lower() if case == "lower" else text.upper() if case == "upper" else text
    if draw(st.booleans()):
        text = _fullwidth(text)
    assert unicodedata.normalize("NFKC", text)
    return text


CHANGES = {
    "qty": "quantity",
    "amount": "amount",
    "order": "identifier",
    "day": "date",
    "hour": "time",
    "negated": "negation",
    "who": "entity",
}


@settings(max_examples=300, deadline=None)
@given(data=st.data(), fact=facts, lang=st.sampled_from(["en", "zh"]))
def test_spelling_never_differs(data: st.DataObject, fact: Fact, lang: str) -> None:
    a = data.draw(rendered(fact, lang))
    b = data.draw(rendered(fact, lang))
    c = compare(a, b)
    assert c.same, (a, b, c.differences)
    assert gist_of(a) == gist_of(b)


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    fact=facts,
    lang=st.sampled_from(["en", "zh"]),
    change=st.sampled_from(sorted(CHANGES)),
)
def test_a_salient_change_always_differs(
    data: st.DataObject, fact: Fact, lang: str, change: str
) -> None:
    value = getattr(fact, change)
    if isinstance(value, bool):
        other: Any = not value
    else:
        bounds = {
            "who": 3,
            "qty": 99,
            "item": 3,
            "amount": 5000,
            "order": 9999,
            "day": 6,
            "hour": 23,
        }
        lower = {"qty": 1, "amount": 1, "order": 1000}.get(change, 0)
        other = data.draw(st.integers(lower, bounds[change]).filter(lambda v: v != value))
    changed = replace(fact, **{change: other})
    a = data.draw(rendered(fact, lang))
    b = data.draw(rendered(changed, lang))
    c = compare(a, b)
    assert not c.same, (a, b)
    expected = {CHANGES[change]}
    if change == "who":
        expected.add("wording")  # a name written in lower case, or in Chinese, is a plain word
    assert expected & set(c.differences), (a, b, c.differences)
    assert gist_of(a) != gist_of(b)
