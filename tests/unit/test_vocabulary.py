"""The one table of profile keys and source trust that extraction, retrieval and deletion use."""

from __future__ import annotations

from typing import get_args

import pytest

from governed_memory.memory.deletion import resolve_words
from governed_memory.memory.models import SourceType
from governed_memory.memory.vocabulary import (
    PROFILE_KEYS,
    SOURCE_TRUST,
    completing_field,
    implied_keys,
    keys_to_forget,
)
from governed_memory.memory.write.extraction import RuleExtractor


def test_every_source_type_has_one_trust_and_the_order_is_the_designs() -> None:
    assert set(SOURCE_TRUST) == set(get_args(SourceType))
    order: list[SourceType] = [
        "human_review",
        "user_assertion",
        "verified_tool_fact",
        "derived_summary",
        "model_inference",
    ]
    ranks = [SOURCE_TRUST[s].rank for s in order]
    assert ranks == sorted(ranks, reverse=True)
    weights = [SOURCE_TRUST[s].weight for s in order]
    assert weights == sorted(weights, reverse=True)


@pytest.mark.parametrize(
    ("task", "key"),
    [
        ("通知物流异常", "notification.preference"),
        ("reply to the customer's complaint", "profile.language"),
        ("schedule a callback", "profile.timezone"),
        ("call the customer back", "contact.preferred_hours"),
    ],
)
def test_a_task_implies_the_keys_it_needs(task: str, key: str) -> None:
    assert key in implied_keys(task)


@pytest.mark.parametrize(
    ("request_text", "key"),
    [
        ("忘掉我的通知偏好", "notification.preference"),
        ("Please forget which language I want replies in", "profile.language"),
        ("forget my time zone", "profile.timezone"),
        ("删除我的联系时间", "contact.preferred_hours"),
    ],
)
def test_a_request_to_forget_names_one_key(request_text: str, key: str) -> None:
    assert keys_to_forget(request_text) == [key]
    assert resolve_words(request_text, "tenant/t/user/1").key == key


def test_every_key_the_extractor_produces_is_in_the_table() -> None:
    extractor = RuleExtractor()
    said = [
        "以后都用短信通知我",
        "please reply in English",
        "my timezone is Europe/Berlin",
        "只在工作时间联系我",
        "晚上10点以后别打扰我",
    ]
    keys = {
        c.candidate.key
        for text in said
        for c in extractor.extract(text, default_timezone="Asia/Shanghai").candidates
    }
    assert keys <= set(PROFILE_KEYS)
    assert completing_field("notification.preference") == "channel"
    assert completing_field("profile.language") is None
