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

import re
import re._constants as C  # type: ignore[import-not-found]
import re._parser as sre  # type: ignore[import-not-found]
from collections.abc import Iterable, Iterator
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


def _selective(text: str) -> bool:
    return len(text) >= MIN_LITERAL or bool(_CJK.fullmatch(text))


def _best(options: Iterable[frozenset[str]]) -> Literals:
    """Of several sets any of which is required, the one whose shortest literal is longest."""
    found = [o for o in options if o and all(_selective(w) for w in o)]
    if not found:
        return None
    return max(found, key=lambda o: (min(len(w) for w in o), -len(o)))


def _sequence(items: Any) -> Literals:
    """The literals a sequence of parsed items requires: its literal runs, and what each item
    that must match (a group, a repeat of at least one, an alternation) requires."""
    options: list[frozenset[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            options.append(frozenset({"".join(run).casefold()}))
            run.clear()

    for op, av in items:
        if op is C.LITERAL:
            run.append(chr(av))
            continue
        if op is C.IN and len(av) == 1 and av[0][0] is C.LITERAL:
            run.append(chr(av[0][1]))
            continue
        close()
        if op is C.SUBPATTERN:
            inner = _sequence(av[3])
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:
            inner = _sequence(av[2])
        elif op is C.ATOMIC_GROUP:
            inner = _sequence(av)
        elif op is C.BRANCH:
            inner = _branch(av[1])
        else:
            inner = None
        if inner:
            options.append(inner)
    close()
    return _best(options)


def _branch(alternatives: Any) -> Literals:
    """An alternation requires the union of what each alternative requires — if each requires
    something."""
    union: set[str] = set()
    for alternative in alternatives:
        required = _sequence(alternative)
        if required is None:
            return None
        union |= required
    return frozenset(union)


def literals_of(pattern: re.Pattern[str]) -> Literals:
    """A set of case-folded literals one of which every match of `pattern` contains, or None."""
    return _sequence(sre.parse(pattern.pattern, pattern.flags))


class Gate:
    """The literals of a table of rules, and one automaton to find which a text holds."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        self.literals: list[Literals] = [literals_of(p) for p in patterns]
        self._automaton = ahocorasick.Automaton()
        for words in self.literals:
            for word in words or ():
                self._automaton.add_word(word, word)
        self._empty = not len(self._automaton)
        if not self._empty:
            self._automaton.make_automaton()

    def open(self, text: str) -> list[bool]:
        """For each rule, whether it may match `text`."""
        if not _ENABLED[0]:
            return [True] * len(self.literals)
        held: set[str] = set()
        if not self._empty:
            held = {word for _, word in self._automaton.iter(text.casefold())}
        return [words is None or not words.isdisjoint(held) for words in self.literals]
