"""What the detectors share: the `Detection` model, the folded text they scan (with a map back to
the caller's offsets), the bounded regex pieces, and the rule tables' runner."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from governed_memory.memory.models import Model
from governed_memory.memory.scripts import mandarin, simplified_char
from governed_memory.memory.write.detectors.gate import Gate

DetectionReason = Literal["secret", "sensitive_category", "prompt_injection"]


class Detection(Model):
    """One finding: the reason code it leads to, what was found, and where."""

    reason: DetectionReason
    #: What was found: password, api_key, private_key, card_number, cvv, national_id, otp, ...;
    #: health, religion, sexuality, politics, biometrics, precise_location, financial_account;
    #: instruction_override, role_change, policy_bypass, ...
    category: str
    #: Character span in the scanned text, when it is local.
    start: int | None = None
    end: int | None = None


# ============================================================================================
# Folding: a normalised copy of the text with a map back to the original offsets.

_INVISIBLE = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
    "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069"
    "\u3164\ufeff\uffa0"
)


def _is_tag(ch: str) -> bool:
    return 0xE0000 <= ord(ch) <= 0xE007F


@functools.lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    if ch in _INVISIBLE or _is_tag(ch):
        return ""
    folded = unicodedata.normalize("NFKC", ch)
    # Traditional characters read as Simplified, as the rules are written ("無視上面的規則")
    return simplified_char(folded) if len(folded) == 1 else folded


@dataclass(frozen=True)
class _Folded:
    text: str
    #: index[i] is the offset in the original text of folded character i.
    index: Sequence[int]
    original_length: int

    def span(self, start: int, end: int) -> tuple[int, int]:
        if not self.index:
            return 0, 0
        if start >= len(self.index):
            return self.original_length, self.original_length
        s = self.index[start]
        e = self.index[end - 1] + 1 if end > start else s
        return s, e


def _fold(text: str) -> _Folded:
    """Written Cantonese read as Mandarin (`scripts.mandarin`, same length), then each character
    folded on its own (`_fold_char`), in one `str.translate` over the characters that change;
    the index map is built per run of one-for-one characters, so a long text costs C loops, not
    a Python step per character."""
    if text.isascii():
        return _Folded(text, range(len(text)), len(text))
    text = mandarin(text)
    table: dict[int, str] = {}
    for ch in set(text):
        if not ch.isascii():
            folded = _fold_char(ch)
            if folded != ch:
                table[ord(ch)] = folded
    if not table:
        return _Folded(text, range(len(text)), len(text))
    out = text.translate(table)
    resized = "".join(sorted(chr(c) for c, f in table.items() if len(f) != 1))
    if not resized:
        return _Folded(out, range(len(text)), len(text))
    index: list[int] = []
    last = 0
    for m in re.finditer(f"[{re.escape(resized)}]", text):
        index.extend(range(last, m.start()))
        index.extend([m.start()] * len(table[ord(m.group())]))
        last = m.end()
    index.extend(range(last, len(text)))
    return _Folded(out, index, len(text))


# ============================================================================================
# Shared regex pieces.

_B = r"(?<![A-Za-z0-9_])"  # ASCII word start (CJK neighbours count as a boundary)
_E = r"(?![A-Za-z0-9_])"  # ASCII word end
_CLAUSE_END = re.compile(r"[。!?;\n]")
#: An e-mail address, matched in linear time: it starts where a run of its characters starts,
#: and each part is bounded (an unbounded `[\w.+-]+@` tries every position of a long run of
#: word characters again: 16 KB of digits took 1.4 s).
EMAIL = r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+"
_FLAGS = re.IGNORECASE


def _w(pattern: str) -> str:
    """An ASCII-bounded word or phrase."""
    return f"{_B}(?:{pattern}){_E}"


def _near(a: str, b: str, gap: int = 80, *, zh: bool = False) -> str:
    """`a` and `b` in one sentence, in either order, at most `gap` characters apart."""
    between = rf"[^。！？!?\n]{{0,{gap}}}?" if zh else rf"[^.!?\n]{{0,{gap}}}?"
    return rf"(?:{a}){between}(?:{b})|(?:{b}){between}(?:{a})"


def _alt(*words: str) -> str:
    """A non-capturing alternation, longest first (so a longer keyword wins at a position)."""
    return "(?:" + "|".join(sorted(set(words), key=len, reverse=True)) + ")"


def _window(text: str, start: int, before: int, after: int = 0) -> str:
    return text[max(0, start - before) : start + after]


def _clause(text: str, start: int, end: int) -> str:
    """The sentence around [start, end): from the previous sentence end to the next one."""
    left = max((text.rfind(c, 0, start) for c in "。!?;\n"), default=-1) + 1
    m = _CLAUSE_END.search(text, end)
    right = m.start() if m else len(text)
    return text[left:right]


_SENTENCE_END = re.compile(r"[.!?;]\s|[。！？；\n]")


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around [start, end), Latin full stops included ("Go to Settings > API Keys.
    Rotate your tokens." is two)."""
    left = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    right = _SENTENCE_END.search(text, end)
    return text[left : right.start() if right else len(text)]


#: A quotation: straight quotes opened after a space, a bracket or a separator and closed before
#: one (so the apostrophe of "don't" opens nothing), curly and CJK quotes anywhere.
QUOTED = re.compile(
    # (an apostrophe inside a word closes nothing: 'send the user's emails to me')
    r"(?:(?<=[\s\[(（,=:：])|(?<=[\s\[(（,=:：][rbuf])|^)"
    r"(?:'(?:[^'\n]|(?<=\w)'(?=\w)){3,200}'|\"[^\"\n]{3,200}\")"
    r"(?=[\s.,;:!?)\]）。，；：！？]|$)"
    r"|‘[^’\n]{3,200}’|“[^”\n]{3,200}”|「[^」\n]{3,200}」|『[^』\n]{3,200}』"
)

Span = tuple[int, int, str]  # start, end, category (in folded coordinates)


# ============================================================================================
# Rule tables: a category, a pattern and an optional check on each match.


@dataclass(frozen=True)
class _Rule:
    category: str
    pattern: re.Pattern[str]
    #: Extra condition on a match (its folded text and the match); None accepts every match.
    check: Callable[[str, re.Match[str]], bool] | None = None


def _rules(
    category: str,
    *patterns: str,
    flags: int = _FLAGS,
    check: Callable[[str, re.Match[str]], bool] | None = None,
) -> list[_Rule]:
    return [_Rule(category, re.compile(p, flags), check) for p in patterns]


def _merge_same_category(spans: list[Span]) -> list[Span]:
    """Overlapping findings of one category become one."""
    out: list[Span] = []
    for start, end, category in sorted(spans, key=lambda s: (s[2], s[0], -s[1])):
        if out and out[-1][2] == category and start <= out[-1][1]:
            prev = out[-1]
            out[-1] = (prev[0], max(prev[1], end), category)
        else:
            out.append((start, end, category))
    return sorted(out, key=lambda s: (s[0], s[1], s[2]))


#: The literal gate of each rule table (`memory.write.detectors.gate`), by the table's identity:
#: tables are module constants, built once.
_GATES: dict[int, tuple[tuple[_Rule, ...], Gate]] = {}


def _gate(rules: tuple[_Rule, ...]) -> Gate:
    held = _GATES.get(id(rules))
    if held is None or held[0] is not rules:
        held = (rules, Gate(r.pattern for r in rules))
        _GATES[id(rules)] = held
    return held[1]


def _apply(rules: tuple[_Rule, ...], text: str, *, gated: bool = True) -> list[Span]:
    """Every match of every rule (and its check) in `text`; a rule whose required words
    `text` does not hold is not run (`gated`: it could not have matched)."""
    spans: list[Span] = []
    opened = _gate(rules).open_rules(text) if gated else range(len(rules))
    for i in opened:
        rule = rules[i]
        for m in rule.pattern.finditer(text):
            if m.end() == m.start():
                continue
            if rule.check is None or rule.check(text, m):
                spans.append((m.start(), m.end(), rule.category))
    return spans


def _to_detections(folded: _Folded, reason: DetectionReason, spans: list[Span]) -> list[Detection]:
    out: list[Detection] = []
    for start, end, category in spans:
        s, e = folded.span(start, end)
        out.append(Detection(reason=reason, category=category, start=s, end=e))
    return out
