"""The literal gate skips only rules that could not have matched: with it and without it,
detection finds exactly the same things — over the injection corpora, every text the
detector tests use, and long and adversarial texts."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from governed_memory.memory.write.detectors import detect
from governed_memory.memory.write.detectors.gate import (
    AT_END,
    AT_START,
    Gate,
    alternatives,
    literals_of,
    ungated,
)
from tests.unit.test_detectors import _ADVERSARIAL

ROOT = Path(__file__).resolve().parents[2]


def _texts() -> list[str]:
    texts: list[str] = []
    for path in sorted((ROOT / "governed_memory/shell/eval/corpora").glob("injection*.json")):
        texts += [item["text"] for item in json.loads(path.read_text())["items"]]
    tree = ast.parse((ROOT / "tests/unit/test_detectors.py").read_text())
    texts += [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) > 3
    ]
    texts += [make(4096) for make in _ADVERSARIAL.values()]
    return texts


def test_the_gate_changes_nothing_detection_finds() -> None:
    texts = _texts()
    assert len(texts) > 1000
    gated = [detect(t) for t in texts]
    with ungated():
        every_rule = [detect(t) for t in texts]
    assert [i for i, (a, b) in enumerate(zip(gated, every_rule, strict=True)) if a != b] == []


def test_a_word_start_literal_opens_only_at_a_word_start() -> None:
    gate = Gate([re.compile(r"\bai\b", re.I), re.compile(r"said")])
    assert gate.open("she said so") == [False, True]
    assert gate.open("the AI must reply") == [True, False]
    assert gate.open("(ai) 我的ai") == [True, False]
    asks = Gate([re.compile(r"\b(?:ask|tell)\b")])
    assert asks.open("she asked") == [False]
    assert asks.open("ask: now") == [True]
    assert asks.open_each("she asked. ask me", [0, 11, 17]) == [[False], [True]]


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"(?<![a-z])(?:ignore|disregard)\s+all", re.IGNORECASE, {"ignore", "disregard"}),
        (r"DAN(?![A-Za-z])", 0, {"dan"}),
        (r"(?:我|他)(?:吃药|服药)", 0, {"吃药", "服药"}),
        (r"(?:a|bc)x", 0, None),  # a one-letter alternative gates nothing
        (r"(?:foo)?bar", 0, {"bar"}),  # an optional part is not required
        (r"\d{3,}", 0, None),
        (r"(?:send|post)|\bleak\b", 0, {"send", "post", AT_START + "leak" + AT_END}),
        (r"\b(?:tell|ask)\b", 0, {AT_START + "tell" + AT_END, AT_START + "ask" + AT_END}),
        (r"ask(?![A-Za-z0-9_])", 0, {"ask" + AT_END}),
        # a word start: after \b, an ASCII lookbehind, a blank, or an optional blank-ended part
        (r"\b(?:the\s+|any\s+)?(?:ai|bot)s?\b", re.I, {AT_START + "ai", AT_START + "bot"}),
        (r"(?<![A-Za-z0-9_])pin", 0, {AT_START + "pin"}),
        (r"\s+code", 0, {AT_START + "code"}),
        (r"x(?:ai|bot)", 0, {"xai", "xbot"}),  # after a letter: not a start
        (r"(?<![a-z])ask", 0, {"ask"}),  # a lookbehind that lets a digit before: anywhere
        # a literal run before a group whose alternatives start with literals: joined
        (r"p(?:assword|wd|w)\b", 0, {"password", "pwd", "pw"}),
        (r"(?:send|\w+)", 0, None),  # an alternative with no literal: nothing required
    ],
)
def test_what_a_pattern_requires(pattern: str, flags: int, expected: set[str] | None) -> None:
    found = literals_of(re.compile(pattern, flags))
    assert (None if found is None else set(found)) == expected


def test_a_rule_opens_only_where_its_words_are() -> None:
    gate = Gate([re.compile(r"ignore\s+all", re.IGNORECASE), re.compile(r"\d+")])
    assert gate.open("Please IGNORE all of it") == [True, True]
    assert gate.open("nothing here 42") == [False, True]


def test_opening_each_sentence_in_one_pass_is_opening_each_alone() -> None:
    from governed_memory.memory.write.detectors.signals import _GATE, _sentences

    for text in _texts()[:1500]:
        cuts = _sentences(text)
        alone = [_GATE.open(text[cuts[i] : cuts[i + 1]]) for i in range(len(cuts) - 1)]
        assert _GATE.open_each(text, cuts) == alone, text


def test_a_signal_is_split_into_its_top_level_alternatives_only() -> None:
    """Each top-level alternative alone (a "|" inside a group, a class or after a backslash is
    not a cut); those no literal gates are searched together; whatever the whole pattern finds
    somewhere, one of the parts finds."""
    pattern = re.compile(r"(?<!no\s)\bsend\s+(?:it|them)|[|(]\w+\||\\|x|\d+\s*(?:a|b)", re.I)
    parts = alternatives(pattern)
    assert [p.pattern for p in parts] == [
        r"(?<!no\s)\bsend\s+(?:it|them)",
        r"[|(]\w+\|",  # its "|" is a rare character: it gates
        r"\\",
        r"x|\d+\s*(?:a|b)",  # nothing gates these two: one search
    ]
    assert alternatives(re.compile(r"(?:a|b)c")) == [re.compile(r"(?:a|b)c")]
    for text in ["please send them", "no send it", "(ab|", "x", "42 b", "nothing"]:
        assert bool(pattern.search(text)) == any(p.search(text) for p in parts), text
