"""Utterances cut into sentences, clauses and parts; questions, one-off and standing wishes;
whom a part is about; the negation that denies a mention."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from governed_memory.memory.scripts import mandarin, simplified
from governed_memory.memory.write.extraction.cues import (
    _CJK,
    _FIRST_THEN,
    _FIRST_THEN_TAIL,
    _GLUE_EN,
    _LATIN_WORD,
    _LEADING,
    _NEG_EN_RE,
    _NEG_EN_WEAK,
    _NEG_ZH_AFTER,
    _NEG_ZH_BEFORE,
    _NEG_ZH_WEAK,
    _ONE_OFF_OBJECT,
    _OPINION_AFTER,
    _PERSON_RE,
    _POLITE_TAIL,
    _Q_ANY,
    _Q_START,
    _STANDING,
    _TARGET_BEFORE,
    _TEMPORARY,
    _TRAILING,
    _rx,
)
from governed_memory.memory.write.extraction.models import STRONG, WEAK
from governed_memory.memory.write.normalize import fold


@dataclass(frozen=True)
class _Part:
    """A piece of a clause, verbatim (`raw`) and folded (`norm`)."""

    raw: str
    norm: str
    question: bool
    order: int


@dataclass(frozen=True)
class _Clause:
    raw: str
    norm: str
    question: bool
    parts: tuple[_Part, ...]
    order: int


_SENTENCE_END = frozenset("。！？!?；;\n｡．")
_CLAUSE_END = frozenset("，,…")
#: A title or abbreviation whose full stop ends no sentence ("Dr. Okafor", "e.g. a parcel").
_ABBREVIATION = re.compile(r"(?<![A-Za-z])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|No|vs|e\.g|i\.e)$", re.I)
_CONTRAST = re.compile(
    r"但是|不过|可是|然而|(?<!不)但(?!愿)|(?<![A-Za-z])(?:but|however|though)(?![A-Za-z])"
    # A consequence, a clause joined with its own subject, or one set off by a dash starts a
    # statement of its own ("I live in Denver so the boots need to handle snow", "I've got
    # twins and they love dinosaurs", "I use a Pixel 8 - will this charger work?", "我是护士所以
    # 经常上夜班"): "so" and "and" only before what can start a clause, never as "so much",
    # "so tired", "black and white".
    r"|所以|因此|\s[-–—]+\s|(?<![A-Za-z])so(?=\s+(?:(?:i|i'm|im|i've|i'd|we|we're|my|our|the"
    r"|it|it's|its|that|this|these|those|they|he|she|you|your|any|whatever|whenever|anything"
    r"|everything)(?![A-Za-z])|[0-9]))"
    r"|(?<![A-Za-z])and(?=\s+(?:i|i'm|i've|we|we're|they|they're|he|she|it|it's|my|our)(?![A-Za-z]))",
    re.I,
)


_EVER_AFTER = re.compile(r"\s*ever\s*(?:[.!;]|$)", re.I)


def _clean(raw: str) -> str:
    return _LEADING.sub("", _TRAILING.sub("", raw.strip()))


#: What a space parts in Chinese chat, typed where a comma would be ("短信我基本不看的 全是垃圾
#: 短信", "老丢件😂 贵一点点也没关系"): a Chinese character or an emoji before it, one after.
_BEFORE_SPACE = re.compile(r"[\u4e00-\u9fff\U0001F300-\U0001FAFF\u2600-\u27BF]")
_AFTER_SPACE = re.compile(r"[\u4e00-\u9fff]")


#: After a Latin word or a number, a blank parts clauses only before a word that opens one
#: ("我用LINE 不用微信", "我用的是iPhone 13 这个壳能装吗"; not "买了个Apple 手表").
_OPENS_AFTER_LATIN = re.compile(r"[不别没也都但就还我你他她唔冇这那能请帮]")
_OPENS_AFTER_NUMBER = re.compile(r"[这那能请帮]")
#: What ends a Chinese clause, before a blank and a Latin word ("发email给我就行 app推送太多了").
_CLAUSE_END_ZH = re.compile(r"(?:就行|就好|就可以|可以了|吧|哈|呢|嘛|呀|啊|哦|谢谢)$")
_EMOJI = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]")


def _space_parts(text: str, i: int, first_cjk: int) -> bool:
    """Whether the blank at text[i] parts two clauses (`_BEFORE_SPACE`): the first of a run
    of blanks, between Chinese words; after an emoji ("I'm vegan 🌱 does this have beeswax");
    after a Chinese clause's last word (`_CLAUSE_END_ZH`); or after a Latin word or a number in
    Chinese text (`first_cjk`: where its first Chinese character stands) before a word that
    opens a clause (`_OPENS_AFTER_LATIN`)."""
    if i == 0:
        return False
    j = i + 1
    while j < len(text) and j - i <= 3 and text[j] in " \u3000":
        j += 1
    if j >= len(text):
        return False
    if _EMOJI.match(text, i - 1) or _CLAUSE_END_ZH.search(text, max(0, i - 3), i):
        return True
    if text[i - 1].isascii() and text[i - 1].isalnum():
        opens = _OPENS_AFTER_NUMBER if text[i - 1].isdigit() else _OPENS_AFTER_LATIN
        return first_cjk < i and opens.match(text, j) is not None
    return _BEFORE_SPACE.match(text, i - 1) is not None and _AFTER_SPACE.match(text, j) is not None


def _sentence_bounds(text: str) -> list[list[tuple[int, int, str]]]:
    """Sentences, each a list of clauses as (start, end, the punctuation that ended it)."""
    sentences: list[list[tuple[int, int, str]]] = []
    clauses: list[tuple[int, int, str]] = []
    start = 0
    n = len(text)
    cjk = _CJK.search(text)
    first_cjk = n if cjk is None else cjk.start()  # (looked for once, not at every blank)
    for i, ch in enumerate(text):
        end_sentence = ch in _SENTENCE_END
        if ch == "." and (i + 1 == n or text[i + 1].isspace() or _CJK.match(text[i + 1])):
            end_sentence = not (
                (i > 0 and text[i - 1].isdigit() and i + 1 < n and text[i + 1].isdigit())
                or (i + 1 < n and _ABBREVIATION.search(text, max(0, i - 5), i) is not None)
            )
        end_clause = ch in _CLAUSE_END and not (
            ch == ","
            and (
                (0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit())
                # "…, ever." says how long what comes before holds: it stays with it
                or _EVER_AFTER.match(text, i + 1) is not None
            )
        )
        if ch in " \u3000" and not end_sentence and _space_parts(text, i, first_cjk):
            end_clause = True
        if end_sentence or end_clause:
            clauses.append((start, i, ch))
            start = i + 1
            if end_sentence:
                sentences.append(clauses)
                clauses = []
    if start < n:
        clauses.append((start, n, ""))
    if clauses:
        sentences.append(clauses)
    return sentences


def _split_sentences(text: str) -> list[list[tuple[str, str]]]:
    """Sentences, each a list of (clause verbatim, the punctuation that ended it)."""
    return [[(text[a:b], end) for a, b, end in s] for s in _sentence_bounds(text)]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of `text` stands, as [start, end) character offsets of its words
    (blanks and punctuation around it left out), as the extractor reads them; a sentence of
    nothing but punctuation has none."""
    spans: list[tuple[int, int]] = []
    for sentence in _sentence_bounds(text):
        start, end = sentence[0][0], sentence[-1][1]
        words = _verbatim(text[start:end])
        if words:
            at = text.index(words, start)
            spans.append((at, at + len(words)))
    return spans


#: Cantonese as it is spoken and written ("我喺香港住", "我淨係飲無糖嘅，唔該"): its words read as
#: Mandarin's, one character for one (offsets into the text hold), as the cues are Mandarin.
#: Traditional characters are read as Simplified first, so these are written Simplified.
def _sentence_text(clauses: list[_Clause], zh: bool) -> str:
    """A sentence as its clauses say it, joined as the language joins clauses."""
    return ("，" if zh else ", ").join(c.raw for c in clauses)


def read(text: str) -> str:
    """`text` folded, read as Simplified (`simplified`), and where it is Cantonese, read as
    Mandarin (`mandarin`; both of the same length): offsets into what is read are offsets into
    the text."""
    return mandarin(simplified(fold(text)))


def _verbatim(raw: str) -> str:
    """The clause as it stands in the utterance: only surrounding blanks and punctuation cut."""
    return _LEADING.sub("", _TRAILING.sub("", raw)).strip()


def _clauses(text: str) -> list[list[_Clause]]:
    out: list[list[_Clause]] = []
    order = 0
    for sentence in _split_sentences(text):
        clauses: list[_Clause] = []
        for raw, term in sentence:
            raw = _verbatim(raw)
            if not raw:
                continue
            question = term in ("?", "？")
            pieces = [p for p in (_verbatim(x) for x in _CONTRAST.split(raw)) if p]
            parts = tuple(
                _Part(p, read(p), question and i == len(pieces) - 1, order + i)
                for i, p in enumerate(pieces)
            )
            clauses.append(_Clause(raw, read(raw), question, parts, order))
            order += max(1, len(parts))
        if clauses:
            out.append(clauses)
    return out


def _is_chinese(text: str) -> bool:
    return len(_CJK.findall(text)) >= max(1, len(_LATIN_WORD.findall(text)))


def _is_question(p: _Part) -> bool:
    norm = p.norm.strip()
    if _POLITE_TAIL.search(norm.rstrip("?？ ")):
        return False
    return p.question or bool(_Q_START.match(norm) or _Q_ANY.search(norm.rstrip("?？ ")))


def _is_temporary(norm: str) -> bool:
    if _STANDING.search(norm):
        return False
    if _TEMPORARY.search(norm) or _ONE_OFF_OBJECT.search(norm):
        return True
    return bool(_FIRST_THEN.search(norm) and _FIRST_THEN_TAIL.search(norm))


def _one_off_context(norm: str) -> bool:
    """A part that sets a one-off context for the rest of its sentence ("这次的话", "just
    this once"); a wish withdrawn now ("现在不用了，中文就行") sets none for what replaces it."""
    if _WITHDRAWN.search(norm):
        return False
    return not _STANDING.search(norm) and bool(_TEMPORARY.search(norm))


_WITHDRAWN = re.compile(r"现在(?:不用|不需要|不要)了")


Whose = Literal["user", "third", "none"]


_PLACED_WITH = re.compile(r"(?:放|放在|放到|放去|交给|留给|寄放在|寄放到)\s*$")


#: Whom a note is addressed to, as its label ("Note for the courier:", "For the warehouse -",
#: 给骑手备注：).
_NOTE_FOR = re.compile(
    r"^\s*(?:(?:a\s+)?(?:quick\s+)?(?:note|message|msg|instructions?)\s+)?(?:for|to)\s+(?:the|my|your)\s+"
    r"(?:courier|driver|delivery\s+(?:guy|man|person|driver|people|team)|rider|postman|postie"
    r"|warehouse(?:\s+team)?|packers?)\s*[:：,\-–—]"
    r"|^\s*(?:给|致)(?:快递|骑手|司机|配送员|送货员|快递员|仓库)(?:小哥|师傅)?(?:的)?(?:备注|留言)?\s*[:：]"
)
_FOR_GOOD = re.compile(
    r"(?<![a-z])(?:always|every|each\s+time|from\s+now\s+on|going\s+forward|in\s+future)(?![a-z])"
    r"|以后|每次|今后|往后"
)


def _whose(norm: str) -> Whose:
    """Whom a wish or statement in `norm` is about (a person a parcel is left with is where it
    goes, not whom the wish is about: "快递永远不要放邻居家")."""
    # (whom a standing note is for is whom it speaks to: "Note for the courier: always ring
    # twice"; a note for one delivery stays the courier's: "…: gate code is 4471#, building C")
    if _FOR_GOOD.search(norm):
        norm = _NOTE_FOR.sub(" ", norm, count=1)
    tokens = [t for t in _PERSON_RE.finditer(norm) if not _PLACED_WITH.search(norm[: t.start()])]
    if any(t.lastgroup == "incl" for t in tokens):
        return "user"
    for t in tokens:
        if _TARGET_BEFORE.search(norm[: t.start()]):
            return "user" if t.lastgroup == "first" else "third"
    for t in tokens:
        if t.lastgroup == "first" and _OPINION_AFTER.match(norm[t.end() :]):
            continue
        return "user" if t.lastgroup == "first" else "third"
    return "none"


# --------------------------------------------------------------------------------------------
# Negation


def _neg_before_zh(before: str) -> str | None:
    m = _NEG_ZH_BEFORE.search(before[-14:])
    return m.group("neg") if m else None


def _neg_before_en(before: str) -> str | None:
    words = before.split()
    for n in range(1, min(len(words), 7) + 1):
        head = " ".join(words[-n:])
        for m in _NEG_EN_RE.finditer(head):
            if m.start() != 0 and head[m.start() - 1] != " ":
                continue
            rest = head[m.end() :].split()
            if head[: m.start()].strip() == "" and all(w.strip(",.'") in _GLUE_EN for w in rest):
                return m.group().removeprefix("please ").strip()
    return None


#: A channel said to fail the user ("texts just get lost", "emails end up in spam"): a reason
#: not to use it, never a choice of it.
_FAILS_AFTER = re.compile(
    r"^\s*(?:(?:just|always|usually|often|all|mostly|keep|tend\s+to)\s+)*"
    r"(?:(?:gets?|got|go(?:es)?|went|end(?:s)?\s+up)\s+(?:lost|buried|ignored|missed|(?:in|to)\s+"
    r"(?:my\s+)?(?:spam|junk))|never\s+(?:arrive|arrives|come\s+through|get\s+through|reach\s+me"
    r"|works?\b)"
    # or not always ("sms doesnt always come through when I'm abroad", "is so unreliable")
    r"|(?:doesn'?t|does\s+not|don'?t|do\s+not|won'?t|rarely)\s+(?:always\s+|reliably\s+|really\s+)?(?:arrive"
    r"|come\s+through|get\s+through|reach\s+me)|(?:is|are)\s+(?:so\s+|really\s+|pretty\s+)?"
    r"(?:unreliable|patchy|spotty))"
)

#: A channel said not to suit the user ("email isn't great for me anymore", "texts aren't
#: ideal", "phone calls won't work for me"): denied, weakly (a reason, not a ban).
_UNSUITED_AFTER = _rx(
    r"^\s*(?:calls?|texts?|messages?)?"
    r"\s*(?:(?:is|are|'s|'re)?\s*(?:n't|not|no\s+longer)\s+(?:really\s+|that\s+|so\s+|very\s+)?"
    r"(?:great|good|ideal|convenient|reliable|practical|an\s+option|possible)"
    r"|(?:won't|will\s+not|wouldn't|don't|doesn't|do\s+not|does\s+not)\s+(?:really\s+)?work"
    r"|(?:is|are)\s+(?:a\s+)?(?:no[- ]go|no\s+good|useless))(?![a-z])"
)


#: An action done, said before "without" ("was cancelled without", "they changed it without").
_DONE_WITHOUT = re.compile(
    r"(?:(?<![a-z])(?:was|were|been|got|get|gets|has|have|had)\s+(?:just\s+|already\s+|simply\s+)?"
    r"[a-z]+(?:ed|en)"
    r"|(?<![a-z])(?:they|you|you\s+guys|y'all)\s+(?:just\s+|already\s+|simply\s+)?"
    r"(?:[a-z]+ed|cut|put|set|shut|sent|sold|made|took|gave)(?![a-z]))"
    r"\s+(?:[\w#-]+\s+){0,4}?without\s+(?:\w+\s+){0,3}$"
)
#: "don't renew it without emailing me first": the channel asked for, not denied.
_WITHOUT_TELLING_ME = re.compile(r"without\s+(?:\w+ing|a|an|any)\s+(?:\w+\s+)?(?:me|us)\b")


def done_without(norm: str, start: int) -> bool:
    """The mention at `start` names what something was done without ("order 77120 was
    cancelled without any email", "you guys cut off my service without an email"): a
    complaint, neither a channel chosen nor one denied."""
    return bool(_DONE_WITHOUT.search(norm[:start]))


#: A channel the user cannot easily take, said after it or before it ("上班接电话不方便",
#: "我不太方便接电话", "电话不行", "I can't take calls at work"): denied, weakly (a reason, not a
#: ban).
_AWKWARD_AFTER = re.compile(
    r"\s*(?:我|的话|也|都|经常|老是|总是|上班|白天|平时)*\s*(?:接|打|看|回)?"
    # (or not at all: "其实微信可以，电话不行")
    r"(?:不方便|不太方便|不大方便|不好接|没法接|接不了|不行|不可以|不太行|不好使)"
)
_AWKWARD_BEFORE = _rx(
    r"(?:不方便|不太方便|不大方便|没法|没办法)(?:接|打|看|回)?$"
    r"|(?<![a-z])(?:can't|cannot|can\s+not|unable\s+to)\s+(?:take|answer|pick\s+up)\s+$"
)


def _negation(norm: str, start: int, end: int) -> str | None:
    """The negation word that denies the mention at norm[start:end], if any."""
    before = norm[:start]
    if _AWKWARD_BEFORE.search(before) or _AWKWARD_AFTER.match(norm, end):
        return "不方便"
    neg = _neg_before_zh(before) or _neg_before_en(before)
    if neg == "without" and _WITHOUT_TELLING_ME.match(norm, before.rfind("without")):
        return None  # the channel asked for ("don't renew it without emailing me first")
    if neg is not None:
        return neg
    m = _NEG_ZH_AFTER.match(norm[end : end + 10])
    if m is not None:
        return m.group("neg")
    if _FAILS_AFTER.match(norm[end : end + 40]) or _UNSUITED_AFTER.match(norm[end : end + 40]):
        return "not"
    return None


def _neg_confidence(neg: str) -> float:
    return WEAK if neg in _NEG_ZH_WEAK or neg in _NEG_EN_WEAK else STRONG
