"""A rule runs only over text that holds one of the words every match of it must contain.

Each rule's pattern is read once (its parse tree, `re._parser`) for a set of literals one of
which any match holds — the words of a required alternation, a run of literal characters — and
one Aho-Corasick automaton finds, in a single pass over a text, which of all the rules' literals
it holds. A rule none of whose literals is there cannot match, and is not run; a rule with no
such set is always run. Both sides are case-folded, so the gate only ever skips a rule that
could not have matched: what is detected is exactly what running every rule detects (a test
holds this over the detector corpora), in a fraction of the time on long texts.
"""

from __future__ import annotations

import bisect
import re
import re._constants as C  # type: ignore[import-not-found]
import re._parser as sre  # type: ignore[import-not-found]
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import ahocorasick

#: Literals shorter than this gate nothing (a letter is in every text): the rule always runs.
MIN_LITERAL = 2
#: A CJK character is selective on its own.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")

Literals = frozenset[str] | None
#: Off only inside `ungated()`: every rule runs.
_ENABLED = [True]


@contextmanager
def ungated() -> Iterator[None]:
    """Every rule runs, gate or not: the baseline `memctl bench detectors` measures the gate
    beside, and what the equivalence test compares with. Not for concurrent use."""
    _ENABLED[0] = False
    try:
        yield
    finally:
        _ENABLED[0] = True


#: Characters rare enough in prose to gate on their own (an e-mail's `@`, a phone's `+`).
_RARE = frozenset("@#$%^&*+=|~<>{}[]\\`")


def gate_enabled() -> bool:
    """False only inside `ungated()`."""
    return _ENABLED[0]


def _selective(text: str) -> bool:
    return len(text) >= MIN_LITERAL or text in _RARE or bool(_CJK.fullmatch(text))


def _leads(items: Any) -> Literals:
    """The literals one of which every match of a parsed sequence starts with (its leading
    literal run; through a group or an alternation), or None."""
    run: list[str] = []
    for op, av in items:
        if op is C.LITERAL:
            run.append(chr(av))
        elif op is C.IN and len(av) == 1 and av[0][0] is C.LITERAL:
            run.append(chr(av[0][1]))
        else:
            if run:
                break
            if op is C.SUBPATTERN:
                return _leads(av[3])
            if op is C.BRANCH:
                found: set[str] = set()
                for alternative in av[1]:
                    leads = _leads(alternative)
                    if not leads:
                        return None
                    found |= leads
                return frozenset(found)
            return None
    return frozenset({"".join(run)}) if run else None


#: Marks a literal that every match holds at an ASCII word start (after `\b`, a `(?<![A-Za-z0-9_])`
#: or a blank): "ai" of `\bai\b` is not opened by "said".
AT_START = "\x00"
#: Marks a literal that every match holds at an ASCII word end ("ask" of `\bask\b`, not of
#: "asked").
AT_END = "\x01"
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_NOT_WORD = frozenset(
    {(C.RANGE, (65, 90)), (C.RANGE, (97, 122)), (C.RANGE, (48, 57)), (C.LITERAL, 95)}
)


def _plain(word: str) -> str:
    return word.removeprefix(AT_START).removesuffix(AT_END)


def _best(options: Iterable[frozenset[str]]) -> Literals:
    """Of several sets any of which is required, the one whose shortest literal is longest."""
    found = [o for o in options if o and all(_selective(_plain(w)) for w in o)]
    if not found:
        return None
    return max(found, key=lambda o: (min(len(_plain(w)) for w in o), -len(o)))


def _blank(op: Any, av: Any) -> bool:
    r"""Whether every match of the item ends in a blank (`\s`, `\s+`, a group of such)."""
    if op is C.IN:
        return bool(av) and all(item == (C.CATEGORY, C.CATEGORY_SPACE) for item in av)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return av[0] >= 1 and bool(av[2]) and _blank(*av[2][-1])
    if op is C.SUBPATTERN:
        return bool(av[3]) and _blank(*av[3][-1])
    if op is C.BRANCH:
        return all(alt and _blank(*alt[-1]) for alt in av[1])
    return False


def _boundary(op: Any, av: Any) -> bool:
    """Whether the item asserts that no ASCII word character comes before what follows."""
    if op is C.AT:
        return av in (C.AT_BOUNDARY, C.AT_BEGINNING, C.AT_BEGINNING_STRING)
    if op is C.ASSERT_NOT and av[0] == -1 and len(av[1]) == 1 and av[1][0][0] is C.IN:
        return set(av[1][0][1]) >= _NOT_WORD
    return False


def _end_boundary(op: Any, av: Any) -> bool:
    """Whether the item asserts that no ASCII word character comes next."""
    if op is C.AT:
        return av in (C.AT_BOUNDARY, C.AT_END, C.AT_END_STRING)
    if op is C.ASSERT_NOT and av[0] == 1 and len(av[1]) == 1 and av[1][0][0] is C.IN:
        return set(av[1][0][1]) >= _NOT_WORD
    return False


_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _sequence(items: Any, at_start: bool = False, at_end: bool = False) -> Literals:
    """The literals a sequence of parsed items requires: its literal runs, and what each item
    that must match (a group, a repeat of at least one, an alternation) requires. A run that
    begins where no ASCII word character can precede it (`at_start`: after `\\b`, an ASCII
    lookbehind, a blank) is marked `AT_START`; one that ends where none can follow it (before
    `\\b` or an ASCII lookahead; `at_end`: at the end of a sequence so followed), `AT_END`."""
    options: list[frozenset[str]] = []
    run: list[str] = []
    run_at_start = False

    def word(text: str, starts: bool, ends: bool = False) -> str:
        folded = text.casefold()
        if starts and text[:1] in _ASCII_WORD:
            folded = AT_START + folded
        if ends and text[-1:] in _ASCII_WORD:
            folded += AT_END
        return folded

    def close(ends: bool) -> None:
        if run:
            options.append(frozenset({word("".join(run), run_at_start, ends)}))
            run.clear()

    for k, (op, av) in enumerate(items):
        ends_next = _end_boundary(*items[k + 1]) if k + 1 < len(items) else at_end
        char = None
        if op is C.LITERAL:
            char = chr(av)
        elif op is C.IN and len(av) == 1 and av[0][0] is C.LITERAL:
            char = chr(av[0][1])
        if char is not None:
            if not run:
                run_at_start = at_start
            run.append(char)
            at_start = char not in _ASCII_WORD
            continue
        if run and op in (C.SUBPATTERN, C.BRANCH):
            # A literal run before a group whose every alternative starts with a literal: the
            # run and each start together ("p" then "assword|wd|w": password, pwd, pw).
            leads = _leads([(op, av)])
            if leads:
                prefix = "".join(run)
                options.append(frozenset(word(prefix + lead, run_at_start) for lead in leads))
        close(_end_boundary(op, av))
        if op is C.SUBPATTERN:
            inner = _sequence(av[3], at_start, ends_next)
        elif op in _REPEATS and av[0] >= 1:
            # A repeat's later rounds start (and its earlier ones end) inside it.
            once = av[1] == 1
            inner = _sequence(av[2], at_start and once, ends_next and once)
        elif op is C.ATOMIC_GROUP:
            inner = _sequence(av, at_start, ends_next)
        elif op is C.BRANCH:
            inner = _branch(av[1], at_start, ends_next)
        else:
            inner = None
        if inner:
            options.append(inner)
        if _boundary(op, av) or _blank(op, av):
            at_start = True
        elif op in _REPEATS and av[0] == 0:
            # Optional: what follows starts after it or where it would have; both must be starts.
            at_start = at_start and bool(av[2]) and _blank(*av[2][-1])
        elif op is C.ASSERT or op is C.ASSERT_NOT or op is C.AT:
            pass  # zero-width: what follows starts where the assertion stood
        else:
            at_start = False
    close(at_end)
    return _best(options)


def _branch(alternatives: Any, at_start: bool = False, at_end: bool = False) -> Literals:
    """An alternation requires the union of what each alternative requires — if each requires
    something."""
    union: set[str] = set()
    for alternative in alternatives:
        required = _sequence(alternative, at_start, at_end)
        if required is None:
            return None
        union |= required
    return frozenset(union)


def literals_of(pattern: re.Pattern[str]) -> Literals:
    """A set of case-folded literals one of which every match of `pattern` contains, or None."""
    return _sequence(sre.parse(pattern.pattern, pattern.flags))


def alternatives(pattern: re.Pattern[str]) -> list[re.Pattern[str]]:
    """`pattern`'s top-level alternatives, each compiled alone so that each is gated by its own
    words, and those that no literal gates joined back into one: searching them one by one
    finds a match wherever the whole pattern does. A pattern that is no alternation is itself."""
    tree = sre.parse(pattern.pattern, pattern.flags)
    if len(tree) != 1 or tree[0][0] is not C.BRANCH:
        return [pattern]
    parts = _split_top(pattern.pattern)
    assert len(parts) == len(tree[0][1][1]), pattern.pattern  # the splitter read it as re does
    compiled = [re.compile(p, pattern.flags) for p in parts]
    gated = [p for p in compiled if literals_of(p) is not None]
    always = [p.pattern for p in compiled if literals_of(p) is None]
    return gated + ([re.compile("|".join(always), pattern.flags)] if always else [])


def _split_top(source: str) -> list[str]:
    """`source` cut at each `|` outside a group and a character class."""
    parts: list[str] = []
    depth, start, i, in_class = 0, 0, 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source[i + 1 : i + 2] == "^":
                i += 1
            if source[i + 1 : i + 2] == "]":  # a "]" first in a class is a character
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def _hold(held: set[str], word: str, starts: bool, ends: bool) -> None:
    held.add(word)
    if starts:
        held.add(AT_START + word)
    if ends:
        held.add(word + AT_END)
    if starts and ends:
        held.add(AT_START + word + AT_END)


class Gate:
    """The literals of a table of rules, and one automaton to find which a text holds."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        self.literals: list[Literals] = [literals_of(p) for p in patterns]
        self._automaton = ahocorasick.Automaton()
        #: Which rules each literal opens, and what is open before any is found (the rules
        #: with no literals): a text opens its words' rules, not a test of every rule.
        self._opens: dict[str, list[int]] = {}
        self._always = [words is None for words in self.literals]
        self._always_rules = [rule for rule, always in enumerate(self._always) if always]
        for rule, words in enumerate(self.literals):
            for word in words or ():
                self._opens.setdefault(word, []).append(rule)
                plain = _plain(word)
                self._automaton.add_word(plain, plain)
        self._empty = not len(self._automaton)
        if not self._empty:
            self._automaton.make_automaton()

    def _rules_open(self, held: set[str]) -> list[bool]:
        """For each rule, whether `held` holds one of its literals (or it has none)."""
        out = list(self._always)
        opens = self._opens
        for word in held:
            for rule in opens.get(word, ()):
                out[rule] = True
        return out

    def open(self, text: str) -> list[bool]:
        """For each rule, whether it may match `text`."""
        if not _ENABLED[0]:
            return [True] * len(self.literals)
        return self._rules_open(self._held(text))

    def open_rules(self, text: str) -> list[int]:
        """The rules (by index, in order) that may match `text`."""
        if not _ENABLED[0]:
            return list(range(len(self.literals)))
        opened = set(self._always_rules)
        opens = self._opens
        for word in self._held(text):
            opened.update(opens.get(word, ()))
        return sorted(opened)

    def _held(self, text: str) -> set[str]:
        """The rules' literals `text` holds (as whole words, at a word's start or end)."""
        held: set[str] = set()
        if not self._empty:
            folded = text.casefold()
            for end, word in self._automaton.iter(folded):
                if AT_START + word + AT_END in held:
                    continue  # a repeat of a word already seen as a whole word
                start = end - len(word) + 1
                _hold(
                    held,
                    word,
                    start == 0 or folded[start - 1] not in _ASCII_WORD,
                    end + 1 == len(folded) or folded[end + 1] not in _ASCII_WORD,
                )
        return held

    def open_each(self, text: str, cuts: Sequence[int]) -> list[list[bool]]:
        """`open` for each part `text[cuts[i]:cuts[i + 1]]`, in one pass over the text: what
        each part's own `open` would say (a word across a cut is in no part)."""
        parts = len(cuts) - 1
        folded = text.casefold()
        if not _ENABLED[0] or self._empty or len(folded) != len(text):
            return [self.open(text[cuts[i] : cuts[i + 1]]) for i in range(parts)]
        held: list[set[str]] = [set() for _ in range(parts)]
        for end, word in self._automaton.iter(folded):
            start = end - len(word) + 1
            i = bisect.bisect_right(cuts, start) - 1
            if i >= parts or end >= cuts[i + 1]:
                continue
            _hold(
                held[i],
                word,
                start == cuts[i] or folded[start - 1] not in _ASCII_WORD,
                end + 1 == cuts[i + 1] or folded[end + 1] not in _ASCII_WORD,
            )
        return [self._rules_open(h) for h in held]
