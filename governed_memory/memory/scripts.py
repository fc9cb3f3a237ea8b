"""Chinese written in Traditional characters read as Simplified, as every cue of the write path
is written: OpenCC's Traditional-to-Simplified tables (its pure-Python port,
`opencc-python-reimplemented`), loaded on first use; and, for the detectors, written Cantonese
read as Mandarin (`mandarin`).

Two readings, both one character for one, so that offsets into what is read are offsets into
the text: `simplified` (OpenCC's conversion, phrase by phrase: "乾隆" stays, "乾淨" becomes
"干净"), for the extractor's cues; `simplified_char` (the table's first reading of a single
character), for the detectors, which fold a text character by character."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib.resources import files


@cache
def _tables() -> tuple[dict[str, str], frozenset[str], Callable[[str], str]]:
    """The single characters' readings, every character a table changes (a text holding none
    is not converted: most are not), and OpenCC's conversion."""
    from opencc import OpenCC

    tables = files("opencc") / "dictionary"
    chars: dict[str, str] = {}
    changed: set[str] = set()
    for name in ("TSCharacters.txt", "TSPhrases.txt"):
        for line in (tables / name).read_text(encoding="utf-8").splitlines():
            key, _, values = line.partition("\t")
            value = values.split(" ")[0]
            changed.update(k for k, v in zip(key, value, strict=False) if k != v)
            if name == "TSCharacters.txt" and len(key) == 1 == len(value) and key != value:
                chars[key] = value
    convert: Callable[[str], str] = OpenCC("t2s").convert
    return chars, frozenset(changed), convert


def simplified(text: str) -> str:
    """`text` with Traditional characters read as Simplified ("記住我用LINE" as "记住我用LINE"),
    where that keeps its length; else as it is."""
    if text.isascii():
        return text
    _, changed, convert = _tables()
    if changed.isdisjoint(text):
        return text
    converted = convert(text)
    return converted if len(converted) == len(text) else text


def simplified_char(ch: str) -> str:
    """One character as Simplified ("係" as "系"), or as it is."""
    return ch if ch.isascii() else _tables()[0].get(ch, ch)


# ============================================================================================
# Written Cantonese read as Mandarin, for the detectors: "你而家係店舖經理" says what "你现在是
# 店铺经理" says, and every cue is written in Mandarin. Cantonese's own characters (嘅 咗 唔 佢
# 哋 啲 喺 冇 …) mark a text as Cantonese; only such a text is read this way, so "關係" and the
# Mandarin interjection "唔，好的" are left alone elsewhere.

_CANTONESE_MARKS = frozenset("嘅咗唔佢哋咩嗰啲喺冇嚟嘢攞搵揾畀俾睇咁噉啱諗谂嗱冚")

#: Words first (the alternation is longest first), then single characters. Keys in the
#: characters a writer uses, Traditional and Simplified.
_CANTONESE_WORDS: dict[str, str] = {
    "而家": "现在",
    "依家": "现在",
    "宜家": "现在",
    "邊個": "谁",
    "边个": "谁",
    "邊度": "哪里",
    "边度": "哪里",
    "點樣": "怎样",
    "点样": "怎样",
    "點解": "为什么",
    "点解": "为什么",
    "乜嘢": "什么",
    "咩嘢": "什么",
    "唔使": "不用",
    "唔駛": "不用",
    "唔驶": "不用",
    "唔洗": "不用",
    "唔好": "不要",
    "唔該": "请",
    "唔该": "请",
    "話俾": "告诉",
    "话俾": "告诉",
    "話畀": "告诉",
    "话畀": "告诉",
    "話我知": "告诉我",
    "话我知": "告诉我",
    "同埋": "和",
    "即刻": "立刻",
    "老細": "老板",
    "老细": "老板",
    "佢哋": "他们",
    "冚唪唥": "全部",
    "嘅": "的",
    "咗": "了",
    "佢": "他",
    "哋": "们",
    "咩": "什么",
    "乜": "什么",
    "嗰": "那",
    "啲": "些",
    "喺": "在",
    "冇": "没有",
    "嚟": "来",
    "嘢": "东西",
    "攞": "拿",
    "搵": "找",
    "揾": "找",
    "畀": "给",
    "俾": "给",
    "睇": "看",
    "咁": "这样",
    "噉": "这样",
    "啱": "对",
    "諗": "想",
    "谂": "想",
    "冚": "全",
    "揀": "选",
    "嗱": "",
}
_CANTONESE = re.compile(
    "|".join(re.escape(k) for k in sorted(_CANTONESE_WORDS, key=len, reverse=True))
    # 係 is 是 (but not in 關係); 唔 before a word is 不; 呢 before a measure word is 这; 仲 is 还
    + r"|(?<![關关聯联維维])係|唔(?=[\u4e00-\u9fff])"
    + r"|呢(?=[個个隻只件張张份些次度條条位間间款單单邊边])"
    + r"|仲(?![裁秋夏春冬介])"
    # 話 is 说 (but not in 電話, 對話, 話題 …)
    + r"|(?<![電电對对笑說说通會会童講讲])[話话](?![題题費费筒術术])"
)
_CANTONESE_CHARS = {"係": "是", "唔": "不", "呢": "这", "仲": "还", "話": "说", "话": "说"}


def mandarin(text: str) -> tuple[str, list[int]] | None:
    """Written Cantonese read as Mandarin ("唔使理" as "不用理"), with index[i] the offset in
    `text` of character i of the reading (a word's replacement maps to the word's first
    character); None when `text` is not Cantonese."""
    if _CANTONESE_MARKS.isdisjoint(text):
        return None
    out: list[str] = []
    index: list[int] = []
    last = 0
    for m in _CANTONESE.finditer(text):
        out.append(text[last : m.start()])
        index.extend(range(last, m.start()))
        word = m.group()
        said = _CANTONESE_WORDS.get(word) or _CANTONESE_CHARS.get(word, "")
        out.append(said)
        index.extend(m.start() + min(i, len(word) - 1) for i in range(len(said)))
        last = m.end()
    out.append(text[last:])
    index.extend(range(last, len(text)))
    return "".join(out), index
