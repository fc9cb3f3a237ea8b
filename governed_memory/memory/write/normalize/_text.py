"""What the normalisers share: folding, whitespace, Chinese numerals and mentions in a text."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# A mention found in a text: (start, end, canonical value), offsets in the folded text.
Mention = tuple[int, int, str]


def fold(text: str) -> str:
    """NFKC, lower case, straight apostrophes; keeps one character per input character."""
    if text.isascii():  # NFKC leaves ASCII as it is, and lower() maps it one to one
        return text.lower()
    return "".join(map(fold_char, text))


@lru_cache(maxsize=8192)
def fold_char(c: str) -> str:
    """One character folded; may be empty or longer for a few compatibility characters."""
    out = unicodedata.normalize("NFKC", c).lower()
    return out.replace("\u2019", "'").replace("\u2018", "'").replace("\u2032", "'")


def _key(text: str) -> str:
    """A folded phrase with its whitespace collapsed, for table look-ups."""
    return " ".join(fold(text).split())


def normalize_whitespace(text: str) -> str:
    """Strip the ends and collapse every run of whitespace (ASCII or not) into one space."""
    return " ".join(text.split())


def _ascii_word(pattern: str) -> str:
    """`pattern` bounded by non-alphanumerics (works next to CJK text, unlike \\b)."""
    return rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])"


def _resolve_overlaps(found: list[Mention]) -> list[Mention]:
    """Keep the longest of overlapping mentions (ties: the earliest), in text order."""
    chosen: list[Mention] = []
    for m in sorted(found, key=lambda x: (-(x[1] - x[0]), x[0], x[2])):
        if all(m[1] <= c[0] or m[0] >= c[1] for c in chosen):
            chosen.append(m)
    return sorted(chosen)


_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGITS.update({"六": 6, "七": 7, "八": 8, "九": 9})


def zh_number(text: str) -> int | None:
    """A small number in digits or Chinese numerals (零 .. 九十九) -> int."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _ZH_DIGITS and c != "十" for c in text):
        return None
    if "十" not in text:
        return _ZH_DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1 or "十" in ones:
        return None
    return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
