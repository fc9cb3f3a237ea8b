"""Wording that says the same thing: synonyms of everyday service language, a phrase put in front
of a sentence ("For her commute, Sofia prefers …"), and the English passive ("the sofa was
delivered by the courier" says "the courier delivered the sofa")."""

from __future__ import annotations

import re

from governed_memory.memory.sameness.tokens import Token
from governed_memory.memory.sameness.words import (
    PARTICIPLES,
    PASSIVE_AUX,
    PHRASES_EN,
    SYNONYMS_EN,
    SYNONYMS_ZH,
)

_ZH = re.compile("|".join(sorted(map(re.escape, SYNONYMS_ZH), key=len, reverse=True)))
#: A phrase in front of a sentence, set apart by a comma.
_FRONTED = re.compile(
    r"^((?:for|on|in|at|during|after|before|since|every|each|last|next|this|because of|due to)"
    r"\b[^,，]{1,60}?)\s*[,，]\s*(.+?)\s*([.!?。！？]*)$",
    re.IGNORECASE | re.DOTALL,
)
_HAVE = frozenset({"has", "have", "had", "will", "would", "may", "might", "must"})


def reword(text: str) -> str:
    """The text with phrases said one way, Chinese synonyms in one spelling and a fronted phrase
    moved to the end."""
    for pattern, word in PHRASES_EN:
        text = pattern.sub(word, text)
    text = _ZH.sub(lambda m: SYNONYMS_ZH[m.group(0)], text)
    fronted = _FRONTED.match(text)
    if fronted:
        text = f"{fronted.group(2)} {fronted.group(1)}{fronted.group(3)}"
    return text


def synonyms(tokens: list[Token]) -> list[Token]:
    return [
        Token("word", SYNONYMS_EN[t.value], t.entity)
        if t.kind == "word" and t.value in SYNONYMS_EN
        else t
        for t in tokens
    ]


def _participle(t: Token) -> str | None:
    if t.kind != "word":
        return None
    if t.value in PARTICIPLES:
        return PARTICIPLES[t.value]
    return t.value if t.value.endswith("ed") and len(t.value) > 4 else None


def active(tokens: list[Token]) -> list[Token]:
    """ "X was V-ed … by Y" as "Y V-ed X …", when Y is plain words (not "by Friday")."""
    for i in range(len(tokens) - 1):
        if not (tokens[i].kind == "word" and tokens[i].value in PASSIVE_AUX):
            continue
        verb = _participle(tokens[i + 1])
        if verb is None:
            continue
        by = max((j for j in range(i + 2, len(tokens)) if tokens[j].value == "by"), default=None)
        if by is None or by == len(tokens) - 1:
            return tokens
        agent = tokens[by + 1 :]
        if len(agent) > 5 or any(t.kind != "word" for t in agent):
            return tokens
        subject = list(tokens[:i])
        while subject and subject[-1].kind == "word" and subject[-1].value in _HAVE | PASSIVE_AUX:
            subject.pop()
        return [*agent, Token("word", verb), *subject, *tokens[i + 2 : by]]
    return tokens
