"""RuleExtractor on what held-out 32 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: an allergy said with its cause first ("我虾过敏")
is the user's, not a cousin's; what the household lacks is a fact with a particle after it; a
skill the user lacks, a place they study, a family's size, a fabric they cannot stand are
facts; "so those …" starts a clause of its own; a child's developmental condition is a family
fact a shop acts on."""

from __future__ import annotations

import pytest

from tests.unit.extracting import contents, extract


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我虾过敏，吃了会起疹子", "我虾过敏"),
        ("家里没有洗碗机哦，洗碗块就不用推了", "没有洗碗机"),
        ("我不会骑车，太远的自提点去不了", "不会骑车"),
        ("本人在杭州读研，预算有限", "读研"),
        ("I really can't stand wool, it itches", "can't stand wool"),
        ("btw I'm colorblind so those swatches don't help me", "colorblind"),
        ("我女儿有多动症，玩具最好简单点", "多动症"),
    ],
)
def test_allergies_lacks_skills_studies_and_family_conditions_are_facts(
    text: str, words: str
) -> None:
    assert any(words in c for c in contents(text))


def test_a_cousins_allergy_is_not_the_users() -> None:
    assert not contents("我表姐芒果过敏，想给她挑个礼物")


@pytest.mark.parametrize("text", ["我还能不能过敏测试", "你们家有没有烤箱啊"])
def test_a_question_is_no_fact(text: str) -> None:
    assert not extract(text).candidates
