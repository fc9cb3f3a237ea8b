"""The terms of keyword search: what a memory is indexed under and what a query looks for.

Two term sets, each ranked by BM25 in its own index (`memory.stores.projection`):

- **words**: Latin-script words stemmed with the Snowball English stemmer (PyStemmer), Chinese
  (read as Simplified: `normalise`) cut into words by jieba (rjieba) and, beside them, its
  single characters and character pairs (the usual unigram + bigram indexing of Chinese: a
  paraphrase shares characters with what it paraphrases more often than whole words), numbers
  kept whole. A query drops closed-class
  function words ("what", "did", "the", 的, 了 …): they say how a question is asked, not what it
  is about.
- **trigrams**: every three-character run, the fallback for what words miss: identifiers and
  codes ("ord-88172"), misspellings and inflections the stemmer does not join, and Chinese the
  segmenter cuts differently in the memory and in the question.

Both are computed here, once, for indexing and for queries alike, so the two always agree.
"""

from __future__ import annotations

import re
import threading
import unicodedata

import Stemmer

from governed_memory.memory.scripts import simplified

#: What the word index's tokenizer must leave alone: terms are already cut and stemmed here.
WORD_TOKENIZER = "unicode61 remove_diacritics 0"

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_LATIN = re.compile(r"[a-z0-9][a-z0-9._@-]*[a-z0-9]|[a-z0-9]")


def _cut(text: str) -> list[str]:
    """jieba's words of a CJK run; its dictionary loads on the first Chinese text (0.08 s a
    process need not pay to read English)."""
    import rjieba

    return list(rjieba.cut(text))


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Closed-class English words: pronouns, determiners, auxiliaries, prepositions, conjunctions,
#: question words. Content words (nouns, verbs, adjectives, numbers) are never here.
STOP_EN = _set(
    """
    a an the this that these those some any each every
    i me my mine myself we us our ours ourselves you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    is are was were be been being am do does did doing done have has had having
    can could would should will shall may might must
    what which who whom whose when where why how
    of in on at to for from by with about as into onto over under after before between
    through during and or but nor not no so if than then there here also too very just
    s t d ll m re ve
    """
)
#: Chinese particles, pronouns, question words and copulas (as jieba cuts them).
STOP_ZH = _set(
    """
    的 了 着 过 吗 呢 吧 啊 呀 嘛 哦 么 之 地 得 和 与 及 或 也 都 就 还 又 在 是 有 把 被 给 对
    我 你 您 他 她 它 我们 你们 他们 她们 它们 自己 这 那 这个 那个 这些 那些 这里 那里
    什么 怎么 怎样 怎么样 哪 哪里 哪儿 哪个 哪些 谁 为什么 多少 几 如何 是否 是不是 有没有
    请问 一下 一个
    """
)

_local = threading.local()


def _stemmer() -> Stemmer.Stemmer:
    """PyStemmer objects are not thread-safe: one per thread."""
    stemmer: Stemmer.Stemmer | None = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer


def normalise(text: str) -> str:
    """What word terms are cut from: NFKC, lower case, Chinese read as Simplified (a memory said
    in Traditional characters and a question in Simplified share their words, and the other way
    round)."""
    return simplified(_folded(text))


def _folded(text: str) -> str:
    """What trigram terms are cut from: NFKC and lower case, the characters as written (the
    trigram index holds a memory's text as it is)."""
    return unicodedata.normalize("NFKC", text).lower()


def _tokens(text: str) -> list[tuple[str, bool]]:
    """(token, is_chinese) in order: jieba's words for CJK runs, word characters elsewhere."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for run in _CJK.finditer(text):
        out.extend((w, False) for w in _WORD.findall(text[pos : run.start()]))
        out.extend((w, True) for w in _cut(run.group()) if _WORD.fullmatch(w))
        pos = run.end()
    out.extend((w, False) for w in _WORD.findall(text[pos:]))
    return out


def _stem(tokens: list[tuple[str, bool]]) -> list[str]:
    latin = [w for w, zh in tokens if not zh and w.isascii() and w.isalpha()]
    stems = dict(zip(latin, _stemmer().stemWords(latin), strict=True))
    return [stems.get(w, w) for w, _ in tokens]


def _characters(text: str, query: bool) -> list[str]:
    """The character pairs and single characters of each CJK run (a query leaves out the
    function words and the pairs that hold a function character)."""
    out: list[str] = []
    for run in _CJK.findall(text):
        pairs = [run[i : i + 2] for i in range(len(run) - 1)]
        if query:
            pairs = [p for p in pairs if p not in STOP_ZH and not (set(p) & STOP_ZH)]
        out.extend(pairs)
        out.extend(ch for ch in run if not (query and ch in STOP_ZH))
    return out


def index_words(text: str) -> str:
    """A memory's word terms, space-separated, for the word index."""
    norm = normalise(text)
    return " ".join(_stem(_tokens(norm)) + _characters(norm, query=False))


def name_terms(text: str) -> list[str]:
    """The word-index terms every row that holds `text` holds: the stems of its Latin words and
    the character pairs of its CJK runs (a lone character itself), however jieba cuts the row."""
    norm = normalise(text)
    stems = _stem([(w, False) for w, zh in _tokens(norm) if not zh])
    pairs: list[str] = []
    for run in _CJK.findall(norm):
        pairs += [run[i : i + 2] for i in range(len(run) - 1)] or [run]
    return list(dict.fromkeys(stems + pairs))


def query_words(text: str) -> list[str]:
    """A query's word terms without function words (all of them, if that leaves none)."""
    norm = normalise(text)
    tokens = _tokens(norm)
    content = [(w, zh) for w, zh in tokens if w not in (STOP_ZH if zh else STOP_EN)]
    return list(dict.fromkeys(_stem(content or tokens) + _characters(norm, query=True)))[:64]


def query_trigrams(text: str) -> list[str]:
    """A query's trigram terms: every 3-character run of its CJK text and of its Latin words of
    3+ characters (function words left out, as for words)."""
    norm = _folded(text)
    terms: list[str] = []
    for run in _CJK.findall(norm):
        kept = "".join(w for w in _cut(run) if w not in STOP_ZH) or run
        terms.extend(kept[i : i + 3] for i in range(len(kept) - 2))
    words = [w for w in _LATIN.findall(_CJK.sub(" ", norm)) if len(w) >= 3]
    for word in [w for w in words if w not in STOP_EN] or words:
        terms.extend(word[i : i + 3] for i in range(len(word) - 2))
    return list(dict.fromkeys(terms))[:64]
