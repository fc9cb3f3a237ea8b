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
from governed_memory.memory.write.detectors.gate import Gate, literals_of, ungated
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


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"(?<![a-z])(?:ignore|disregard)\s+all", re.IGNORECASE, {"ignore", "disregard"}),
        (r"DAN(?![A-Za-z])", 0, {"dan"}),
        (r"(?:我|他)(?:吃药|服药)", 0, {"吃药", "服药"}),
        (r"(?:a|bc)x", 0, None),  # a one-letter alternative gates nothing
        (r"(?:foo)?bar", 0, {"bar"}),  # an optional part is not required
        (r"\d{3,}", 0, None),
        (r"(?:send|post)|\bleak\b", 0, {"send", "post", "leak"}),
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
