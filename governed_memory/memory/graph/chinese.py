"""Chinese mentions, from jieba's tags: person, place and organisation names, a surname with
a form of address (王阿姨), reduplicated given names (婷婷), kin and role words and the names
they introduce (姐姐Anna, 猫奶茶), organisations by their suffix (远航物流), names the text gives
(叫竹舍) and aliases (王思琪（家里都叫她琪琪）)."""

from __future__ import annotations

import re

from governed_memory.memory.graph.facts import SELF, EntityKind, _Found, _Span
from governed_memory.memory.graph.lexicon import (
    _ADDRESS_ZH,
    _NOT_NAME_PARTS,
    _NOT_NAMES,
    _NOT_NAMES_ZH,
    _ORG_SUFFIXES,
    _ORG_TAGS,
    _PERSON_TAGS,
    _PLACE_TAGS,
    _REDUP_STOP,
    _ROLES_ZH,
    _SURNAMES,
    _TIME_CHARS,
    _VERB_TAILS,
)

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_HAN = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]+$")


def _chinese(s: str, found: _Found) -> list[_Span]:
    if not _CJK.search(s):
        return []
    spans: list[_Span] = []
    import rjieba  # its dictionary loads on first use (0.1 s of every process's start)

    tagged = rjieba.tag(s)
    pos = 0
    cells: list[tuple[int, int, str, str]] = []
    for word, tag in tagged:
        at = s.find(word, pos)
        if at < 0:
            continue
        cells.append((at, at + len(word), word, tag))
        pos = at + len(word)
    cells = _split_name_verbs(cells)
    for start, end, name in _called_zh(s):
        key = found.mention(name, "thing")
        spans.append(_Span(start, end, key, "thing"))
    for m in _WORK_ZH.finditer(s):
        if m.group(1) not in _NOT_NAMES_ZH:
            key = found.mention(m.group(1), "organisation")
            spans.append(_Span(m.start(1), m.end(1), key, "organisation"))
    for start, end, name in _organisations_zh(cells):
        key = found.mention(name, "organisation")
        spans.append(_Span(start, end, key, "organisation"))
    i = 0
    while i < len(cells):
        start, end, word, tag = cells[i]
        nxt = cells[i + 1] if i + 1 < len(cells) else None
        if _ROLES_ZH.get(word) in ("dog", "cat", "pet") and nxt is not None and nxt[0] == end:
            # a pet and its name: 猫奶茶, 柯基可乐
            role_key = found.mention(_ROLES_ZH[word], "role")
            spans.append(_Span(start, end, role_key, "role"))
            if _HAN.match(nxt[2]) and 2 <= len(nxt[2]) <= 3 and nxt[3] in ("n", "nz", "nr", "z"):
                key = found.mention(nxt[2], "thing")
                spans.append(_Span(nxt[0], nxt[1], key, "thing"))
                found.alias(role_key, key)
                found.relate(SELF, _ROLES_ZH[word], key)
                i += 2
                continue
        if word in _ROLES_ZH and not (tag in _PERSON_TAGS and len(word) == 1):
            role = _ROLES_ZH[word]
            role_key = found.mention(role, "role")
            spans.append(_Span(start, end, role_key, "role"))
            named = _zh_name(cells, i + 1)
            if named is not None and named[0] == end:
                n_start, n_end, name, j = named
                key = found.mention(name, "person")
                spans.append(_Span(n_start, n_end, key, "person"))
                found.alias(role_key, key)
                found.relate(SELF, role, key)
                i = j
                continue
            found.relate(SELF, role, role_key)
            i += 1
            continue
        named = _zh_name(cells, i)
        if named is not None:
            n_start, n_end, name, j = named
            key = found.mention(name, "person")
            spans.append(_Span(n_start, n_end, key, "person"))
            i = j
            continue
        kind: EntityKind | None = None
        if tag in _PLACE_TAGS:
            kind = "place"
        elif tag in _ORG_TAGS:
            kind = "organisation"
        elif tag in _PERSON_TAGS and len(word) >= 2 and _HAN.match(word) and word[0] in _SURNAMES:
            kind = "person"
        if kind is not None and word not in _NOT_NAMES_ZH and _HAN.match(word):
            key = found.mention(word, kind)
            spans.append(_Span(start, end, key, kind))
        del nxt
        i += 1
    _alias_zh(s, spans, found)
    return spans


def _alias_zh(s: str, spans: list[_Span], found: _Found) -> None:
    """王思琪（家里都叫她琪琪）, 陈秀兰，小名兰姑: the name given is the person's named before."""
    for m in _ALIAS_ZH.finditer(s):
        alias = m.group(1) or m.group(2)
        before = [sp for sp in spans if sp.end <= m.start() and sp.kind == "person"]
        if alias and before:
            key = found.mention(alias, "person")
            spans.append(_Span(m.start(), m.end(), key, "person"))
            found.alias(key, before[-1].key)


_ALIAS_ZH = re.compile(
    r"[（(，,]\s*(?:家里|大家|我们|家人|朋友们?)?都?(?:叫|喊|称)(?:她|他|它)?为?"
    r"([\u3400-\u9fffA-Za-z]{2,4}?)\s*(?=[）)，,。]|$)|(?:小名|昵称|外号)(?:叫|是)?"
    r"([\u3400-\u9fffA-Za-z]{2,4}?)(?=[）)，,。]|$)"
)
_CALLED_ZH = re.compile(
    r"(?:名叫|叫做|叫|取名为?|起名叫?|名字是|名为|昵称是?)([\u3400-\u9fff]{2,4}?)(?=[，。,.、！!？?；;）)\s]|$)"
)
_WORK_ZH = re.compile(r"在([\u3400-\u9fff]{2,8}?)(?:工作|上班|做|当|实习|任职|打工)")


def _split_name_verbs(cells: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """A name jieba glued to the verb after it (刘桂芬订, 林悦织): the name, then the verb."""
    out: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(cells):
        start, end, word, tag = cells[i]
        nxt = cells[i + 1] if i + 1 < len(cells) else None
        if tag in _PERSON_TAGS and any(c in _TIME_CHARS for c in word):
            out.append((start, end, word, "t"))
        elif tag in _PERSON_TAGS and len(word) in (3, 4) and word[-1] in _VERB_TAILS:
            out.append((start, end - 1, word[:-1], tag))
            out.append((end - 1, end, word[-1], "v"))
        elif (
            len(word) == 1
            and word in _SURNAMES
            and tag in _PERSON_TAGS
            and nxt is not None
            and nxt[0] == end
            and len(nxt[2]) == 2
            and _HAN.match(nxt[2])
            and nxt[2][1] in _VERB_TAILS
        ):
            # a surname, then a given name glued to the verb after it (李 + 航寄)
            out.append((start, end + 1, word + nxt[2][0], "nr"))
            out.append((end + 1, nxt[1], nxt[2][1], "v"))
            i += 2
            continue
        else:
            out.append((start, end, word, tag))
        i += 1
    return out


def _called_zh(s: str) -> list[tuple[int, int, str]]:
    """Names the text gives: 叫竹舍, 名叫可乐."""
    return [(m.start(1), m.end(1), m.group(1)) for m in _CALLED_ZH.finditer(s)]


def _organisations_zh(cells: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str]]:
    """Organisations and named places: one or two words before a suffix that says what they
    are (远航物流, 阳光实验小学, 翠苑小区), or where someone works (在远航物流做调度)."""
    out: list[tuple[int, int, str]] = []
    for i, (_start, end, word, _tag) in enumerate(cells):
        if word not in _ORG_SUFFIXES or i == 0:
            continue
        j = i
        while j > 0 and i - j < 2:
            prev = cells[j - 1]
            if prev[1] != cells[j][0] or not _HAN.match(prev[2]) or prev[3] in _NOT_NAME_PARTS:
                break
            if prev[3] == "v" and j - 1 > 0 and _HAN.match(cells[j - 2][2]):
                break  # a verb starts a name only where the sentence starts (远航物流去年…)
            if prev[2] in _NOT_NAMES_ZH or prev[2] in _ROLES_ZH:
                break
            j -= 1
        if j < i:
            out.append((cells[j][0], end, "".join(c[2] for c in cells[j : i + 1])))
    return out


def _zh_name(cells: list[tuple[int, int, str, str]], i: int) -> tuple[int, int, str, int] | None:
    """A person's name at cell `i`: a name jieba tags (two or three characters), a surname
    with a form of address (王阿姨), a reduplicated given name (婷婷), or a Latin-script name
    (姐姐Anna). (start, end, name, next cell)."""
    if i >= len(cells):
        return None
    start, end, word, tag = cells[i]
    nxt = cells[i + 1] if i + 1 < len(cells) else None
    if tag in _PERSON_TAGS and len(word) == 1 and nxt is not None and nxt[0] == end:
        if nxt[2] in _ADDRESS_ZH:
            return start, nxt[1], word + nxt[2], i + 2
        return None
    if tag in _PERSON_TAGS and 2 <= len(word) <= 4 and _HAN.match(word):
        if word in _NOT_NAMES_ZH or word in _ROLES_ZH or word in _ADDRESS_ZH:
            return None
        if word[0] in _SURNAMES or word[0] in "小老阿":
            return start, end, word, i + 1
        return None  # jieba tags many a word as a name (明白, 上门): a name starts with a surname
    if len(word) == 2 and word[0] == word[1] and _HAN.match(word) and word not in _REDUP_STOP:
        return start, end, word, i + 1
    if (
        tag == "eng"
        and len(word) >= 2
        and word[:1].isupper()
        and word.isalpha()
        and word.casefold() not in _NOT_NAMES
    ):
        return start, end, word, i + 1
    return None
