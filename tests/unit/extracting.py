"""What the rule extractor keeps of a text, for the tests of each held-out round's corrections."""

from __future__ import annotations

from governed_memory.memory.write.extraction import Extraction, RuleExtractor

X = RuleExtractor()
PREF = "notification.preference"


def extract(text: str) -> Extraction:
    return X.extract(text, default_timezone="Asia/Shanghai")


def kept(text: str) -> list[tuple[str | None, dict[str, object] | None]]:
    """(key, structured value) of each candidate kept (negations close values: left out)."""
    return [
        (c.candidate.key, c.candidate.structured_value)
        for c in extract(text).candidates
        if not c.negated
    ]


def contents(text: str) -> list[str]:
    return [c.candidate.content for c in extract(text).candidates if not c.negated]


def values(text: str, key: str) -> list[dict[str, object] | None]:
    """The structured value of each candidate kept for `key`."""
    return [value for k, value in kept(text) if k == key]
