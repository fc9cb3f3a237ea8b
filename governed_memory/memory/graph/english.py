"""English mentions: capitalised runs taken for names (people, places, acronyms), kin and
role words said of the person the memory is about ("my sister", "the customer's son Tom",
"Anna, my sister"), and the aliases the text gives ("Anna (we call her Annie)")."""

from __future__ import annotations

import re

from governed_memory.memory.graph.facts import SELF, EntityKind, _Found, _Span, entity_key
from governed_memory.memory.graph.lexicon import _DAYS, _MONTHS, _NOT_NAMES, _ROLES_EN, _TITLES

_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_EN_TOKEN = re.compile(rf"[{_LATIN}0-9][{_LATIN}0-9'’.-]*[{_LATIN}0-9]|[{_LATIN}]|&")
_PLACE_BEFORE = re.compile(r"\b(?:in|to|at|from|near|around|visit|visited|visiting)\s+$")
_ROLE_AFTER = re.compile(
    r"\s*(?:,|is|was)\s+(?:my|our|their|the (?:customer|user)'s)\s+(\w+(?:-in-law)?)",
    re.IGNORECASE,
)
_POSSESSOR_EN = re.compile(
    r"\b(?:my|our|their|his|her|the (?:customer|user|client|caller)'s|(?:customer|user|client)'s)"
    r"\s+(?:(?:older|younger|little|big|elder|baby|twin|best|eldest|youngest|new)\s+)?"
    r"(" + "|".join(sorted((re.escape(r) for r in _ROLES_EN), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_ALIAS_EN = re.compile(
    r"\(\s*(?:we call (?:her|him|them|it)|also called|called|aka|a\.k\.a\.|nicknamed|goes by)?"
    r"\s*[\"'“]?([A-Z][\w'-]+)[\"'”]?\s*\)|\b(?:aka|a\.k\.a\.|also known as|known as|nicknamed|"
    r"goes by|(?:whom|who) (?:\w+ ){0,2}calls?|(?:whom|who) (?:\w+ ){0,2}(?:knows?) as)"
    r"\s+(?:her\s+|him\s+|them\s+)?[\"'“]?([A-Z][\w'-]+)"
)


def _sentence_start(s: str, i: int) -> bool:
    before = s[:i].rstrip(" \t\"'“‘(")
    return not before or before[-1] in ".!?:;。！？：；\n-—"


def _english(s: str, found: _Found) -> list[_Span]:
    spans: list[_Span] = []
    tokens = list(_EN_TOKEN.finditer(s))
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        word = tok.group()
        if any(c.isdigit() for c in word) or not _is_name_token(s, tok.start(), word):
            i += 1
            continue
        j = i + 1
        while j < len(tokens):
            nxt = tokens[j].group()
            gap = s[tokens[j - 1].end() : tokens[j].start()]
            if gap.strip() not in ("", "&") or "\n" in gap:
                break
            if (
                nxt[:1].isupper()
                and not any(c.isdigit() for c in nxt)
                and _bare(nxt) not in _MONTHS | _DAYS
            ):
                j += 1
            elif nxt in ("of", "de", "van", "von", "da", "del", "la") and j + 1 < len(tokens):
                after = tokens[j + 1].group()
                if after[:1].isupper() and s[tokens[j].end() : tokens[j + 1].start()] == " ":
                    j += 2
                else:
                    break
            else:
                break
        start, end = tokens[i].start(), tokens[j - 1].end()
        name = re.sub(r"['’]s$", "", s[start:end])
        words = name.split()
        while words and words[0].rstrip(".").casefold() in _TITLES and len(words) > 1:
            words = words[1:]
        name = " ".join(words)
        # a single letter is a size, a grade or an initial, never a name that links anything
        if len(name) > 1 and name.casefold() not in _NOT_NAMES and _bare(name) not in _TITLES:
            kind: EntityKind = "person"
            if name.isupper() and len(name) > 1:
                kind = "organisation"  # an acronym
            elif _PLACE_BEFORE.search(s[:start]):
                kind = "place"
            weak = len(words) == 1 and _sentence_start(s, start)
            key = found.mention(name, kind, weak=weak)
            spans.append(_Span(start, end, key, kind))
            if len(words) == 2:
                found.alias(entity_key(words[0]), key)  # "Anna" of "Anna Schmidt"
        i = j
    # Kin and roles of the person the memory is about: "my sister", "the customer's son Tom".
    for m in _POSSESSOR_EN.finditer(s):
        role = _ROLES_EN[m.group(1).casefold()]
        role_key = found.mention(role, "role")
        spans.append(_Span(m.start(1), m.end(1), role_key, "role"))
        named = next(
            (sp for sp in spans if sp.kind == "person" and 0 <= sp.start - m.end() <= 3), None
        )
        if named is not None:
            found.alias(role_key, named.key)
            found.relate(SELF, role, named.key)
        else:
            found.relate(SELF, role, role_key)
    # "Anna, my sister" / "Anna is my sister"
    for sp in [sp for sp in spans if sp.kind == "person"]:
        tail = s[sp.end : sp.end + 40]
        said = _ROLE_AFTER.match(tail)
        if said and said.group(1).casefold() in _ROLES_EN:
            role = _ROLES_EN[said.group(1).casefold()]
            role_key = found.mention(role, "role")
            found.alias(role_key, sp.key)
            found.relate(SELF, role, sp.key)
    for m in _ALIAS_EN.finditer(s):
        alias = m.group(1) or m.group(2)
        before = sorted(
            (sp for sp in spans if sp.end <= m.start() and sp.kind in ("person", "role")),
            key=lambda sp: (sp.kind == "person", sp.end),
        )
        if alias and before:
            target = before[-1].key
            alias_key = found.mention(alias, "person")
            found.alias(alias_key, target)
    return spans


def _bare(word: str) -> str:
    """A token folded, without a possessive or a final full stop."""
    return re.sub(r"['’]s$", "", word.casefold().rstrip("."))


def _is_name_token(s: str, start: int, word: str) -> bool:
    if not word[:1].isupper():
        return False
    folded = _bare(word)
    if folded in _MONTHS or folded in _DAYS or folded in ("i", "i'm", "i've", "i'd", "i'll"):
        return False
    if folded in _TITLES:
        return True
    if _sentence_start(s, start):
        return folded not in _NOT_NAMES and re.sub(r"['’]s$", "", folded) not in _NOT_NAMES
    return True
