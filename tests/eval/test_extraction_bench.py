"""`memctl bench extraction`: the scoring of candidates against labels, the packaged corpora, and
the earlier revision's extractor run beside this one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.shell.eval.extraction import (
    DEV,
    EXTRACTION_CORPORA,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    HELDOUT22,
    HELDOUT23,
    HELDOUT24,
    HELDOUT25,
    HELDOUT26,
    HELDOUT27,
    HELDOUT28,
    HELDOUT29,
    HELDOUT30,
    HELDOUT31,
    HELDOUT32,
    HELDOUT33,
    HELDOUT34,
    HELDOUT35,
    HELDOUT36,
    HELDOUT37,
    HELDOUT38,
    HELDOUT39,
    HELDOUT40,
    HELDOUT41,
    HELDOUT42,
    HELDOUT43,
    HELDOUT44,
    HELDOUT45,
    HELDOUT46,
    HELDOUT47,
    HELDOUT48,
    HELDOUT49,
    HELDOUT50,
    HELDOUT51,
    HELDOUT52,
    HELDOUT53,
    baseline_outputs,
    extract_all,
    load,
    score,
)

ITEMS: list[dict[str, Any]] = [
    {
        "id": "a",
        "class": "preference",
        "text": "以后请短信通知我",
        "expected": [
            {"kind": "profile", "key": "notification.preference", "value": {"channel": "sms"}}
        ],
    },
    {
        "id": "b",
        "class": "self_fact",
        "text": "I have two kids, 4 and 7 years old",
        "expected": [{"kind": "semantic", "key": None, "value": None, "mentions": ["4", "7"]}],
    },
    {"id": "c", "class": "chit_chat", "text": "thanks!", "expected": []},
]


def test_scoring_counts_matches_per_class_and_overall() -> None:
    produced: list[list[dict[str, Any]]] = [
        [{"kind": "profile", "key": "notification.preference", "value": {"channel": "email"}}],
        [{"kind": "semantic", "key": None, "value": None, "content": "I have two kids, 4 and 7"}],
        [{"kind": "semantic", "key": None, "value": None, "content": "thanks"}],
    ]
    rows = score(ITEMS, produced)["classes"]
    assert rows["preference"]["matched"] == 0  # a wrong channel is no match
    assert rows["self_fact"] == {**rows["self_fact"], "precision": 1.0, "recall": 1.0}
    assert rows["chit_chat"]["precision"] == 0.0  # something kept from chit-chat
    overall = rows["overall"]
    assert (overall["expected"], overall["produced"], overall["matched"]) == (2, 3, 1)
    assert overall["exact"] == 1
    assert list(rows)[-1] == "overall"


def test_the_packaged_corpora_are_labelled_and_disjoint() -> None:
    corpora = [load(path) for path in EXTRACTION_CORPORA]
    assert [path.name for path in EXTRACTION_CORPORA] == [
        DEV.name,
        HELDOUT.name,
        HELDOUT2.name,
        HELDOUT3.name,
        HELDOUT4.name,
        HELDOUT5.name,
        HELDOUT6.name,
        HELDOUT7.name,
        HELDOUT8.name,
        HELDOUT9.name,
        HELDOUT10.name,
        HELDOUT11.name,
        HELDOUT12.name,
        HELDOUT13.name,
        HELDOUT14.name,
        HELDOUT15.name,
        HELDOUT16.name,
        HELDOUT17.name,
        HELDOUT18.name,
        HELDOUT19.name,
        HELDOUT20.name,
        HELDOUT21.name,
        HELDOUT22.name,
        HELDOUT23.name,
        HELDOUT24.name,
        HELDOUT25.name,
        HELDOUT26.name,
        HELDOUT27.name,
        HELDOUT28.name,
        HELDOUT29.name,
        HELDOUT30.name,
        HELDOUT31.name,
        HELDOUT32.name,
        HELDOUT33.name,
        HELDOUT34.name,
        HELDOUT35.name,
        HELDOUT36.name,
        HELDOUT37.name,
        HELDOUT38.name,
        HELDOUT39.name,
        HELDOUT40.name,
        HELDOUT41.name,
        HELDOUT42.name,
        HELDOUT43.name,
        HELDOUT44.name,
        HELDOUT45.name,
        HELDOUT46.name,
        HELDOUT47.name,
        HELDOUT48.name,
        HELDOUT49.name,
        HELDOUT50.name,
        HELDOUT51.name,
        HELDOUT52.name,
        HELDOUT53.name,
    ]
    assert len(corpora[0]) + len(corpora[1]) >= 300
    assert all(len(corpus) >= 150 for corpus in corpora[2:])
    for n, one in enumerate(corpora):
        for other in corpora[n + 1 :]:
            assert not {i["id"] for i in one} & {i["id"] for i in other}
            assert not {i["text"] for i in one} & {i["text"] for i in other}
    for item in [item for corpus in corpora for item in corpus]:
        for e in item["expected"]:
            for words in e.get("mentions") or []:
                assert words.casefold() in item["text"].casefold(), item["id"]


def test_a_file_that_is_not_a_corpus_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"items": [{"text": "no id"}]}))
    with pytest.raises(InvalidInput):
        load(bad)
    with pytest.raises(InvalidInput):
        load(tmp_path / "missing.json")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_earlier_revision_runs_beside_this_one() -> None:
    texts = ["以后请短信通知我", "call me Sam"]
    before = baseline_outputs("ab0bcf2", texts)
    if isinstance(before, str) and "could not be read" in before:
        pytest.skip(before)  # a shallow checkout without that commit
    assert isinstance(before, list)
    # the earlier extractor read "call me Sam" as a phone preference; this one as a name
    assert before[1][0]["key"] == "notification.preference"
    assert extract_all(texts)[1][0]["key"] == "profile.name"
    assert baseline_outputs("no-such-revision", texts) == (
        "not run: revision no-such-revision could not be read from git (CalledProcessError)"
    )


def test_a_language_with_its_region_is_the_language_a_label_names() -> None:
    produced = [[{"kind": "profile", "key": "profile.language", "value": {"value": "zh-CN"}}]]
    items = [
        {
            "id": "x",
            "class": "preference",
            "text": "说中文就行",
            "expected": [{"kind": "profile", "key": "profile.language", "value": {"value": "zh"}}],
        }
    ]
    assert score(items, produced)["classes"]["overall"]["matched"] == 1
    wrong = [[{"kind": "profile", "key": "profile.language", "value": {"value": "ja"}}]]
    assert score(items, wrong)["classes"]["overall"]["matched"] == 0


def test_a_profile_value_is_matched_by_its_key_and_value_not_the_words_marked() -> None:
    label = {
        "kind": "profile",
        "key": "notification.preference",
        "value": {"channel": "sms"},
        "mentions": ["text me updates"],
    }
    items = [{"id": "x", "class": "preference", "text": "text me updates", "expected": [label]}]
    said = {"kind": "profile", "key": "notification.preference", "value": {"channel": "sms"}}
    produced = [[{**said, "content": "User prefers SMS notifications"}]]
    assert score(items, produced)["classes"]["overall"]["matched"] == 1
    other = [[{**said, "value": {"channel": "email"}, "content": "text me updates"}]]
    assert score(items, other)["classes"]["overall"]["matched"] == 0
