"""Chinese written in Traditional characters read as Simplified, as every cue of the write path
is written: OpenCC's Traditional-to-Simplified tables (its pure-Python port,
`opencc-python-reimplemented`), loaded on first use; and written Cantonese read as Mandarin
(`mandarin`).

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
# Written Cantonese read as Mandarin, character for character: "你而家係店舖經理" says what
# "你现在是店舖經理" says, and every cue of the write path (the extractor's and the
# detectors') is written in Mandarin. Only a text with Cantonese's own words (嘅 咗 唔 佢 哋 啲
# 喺 冇 …) is read this way, so Mandarin's 关系 and 系统 are left alone.

_CANTONESE_MARK = re.compile(
    r"[嘅咗唔佢哋咩嗰啲喺冇嚟嘢攞搵揾畀俾睇咁噉啱諗谂嗱冚]|净系|淨係|而家|钟意|鍾意|[我你][系係](?![统列統])"
)
#: Each word and its Mandarin reading, of the same length (keys in the characters a writer uses,
#: Traditional and Simplified: the extractor reads Simplified, the detectors the text).
_CANTONESE_WORDS: dict[str, str] = {
    **dict.fromkeys(("而家", "依家", "宜家"), "现在"),
    **dict.fromkeys(("邊個", "边个"), "哪个"),
    **dict.fromkeys(("邊度", "边度"), "哪里"),
    **dict.fromkeys(("點樣", "点样"), "怎样"),
    **dict.fromkeys(("點解", "点解"), "为何"),
    **dict.fromkeys(("乜嘢", "咩嘢"), "什么"),
    **dict.fromkeys(("唔使", "唔駛", "唔驶", "唔洗"), "不用"),
    **dict.fromkeys(("唔該", "唔该"), "谢谢"),
    **dict.fromkeys(("話俾", "话俾", "話畀", "话畀"), "告诉"),
    **dict.fromkeys(("話我知", "话我知"), "告诉我"),
    **dict.fromkeys(("老細", "老细"), "老板"),
    **dict.fromkeys(("淨係", "净系", "净係"), "只是"),
    **dict.fromkeys(("係咪", "系咪"), "是不"),
    **dict.fromkeys(("鍾意", "钟意"), "喜欢"),
    "唔好": "不要",
    "唔食": "不吃",
    "冇食": "没吃",
    "同埋": "以及",
    "即刻": "立刻",
    "佢哋": "他们",
    "冚唪唥": "全部都",
}
_CANTONESE_CHARS = str.maketrans(
    "嘅咗佢哋咩乜嗰啲喺冇嚟嘢攞搵揾畀俾睇咁噉啱諗谂冚揀嗱",
    "的了他们啥啥那些在没来物拿找找给给看这这对想想全选呐",
)
_CANTONESE = re.compile(
    "|".join(re.escape(k) for k in sorted(_CANTONESE_WORDS, key=len, reverse=True))
    # 係 is 是 (not in 關係, 系统); 唔 before a word is 不; 呢 before a measure word is 这; 仲 is
    # 还; 話 is 说 (not in 電話, 話題); 飲 is 喝 (not in 饮料)
    + r"|(?P<is>(?<![關关聯联維维体體派世直])[係系](?![統统列數数]))|(?P<no>唔(?=[\u4e00-\u9fff]))"
    + r"|(?P<this>呢(?=[個个隻只件張张份些啲次度條条位間间款單单邊边]))"
    + r"|(?P<still>仲(?![裁秋夏春冬介]))"
    + r"|(?P<say>(?<![電电對对笑說说通會会童講讲])[話话](?![題题費费筒術术]))"
    + r"|(?P<drink>[飲饮](?![料食品]))"
)
_CANTONESE_GROUPS = {
    "is": "是",
    "no": "不",
    "this": "这",
    "still": "还",
    "say": "说",
    "drink": "喝",
}


def _cantonese_word(m: re.Match[str]) -> str:
    group = m.lastgroup
    return _CANTONESE_GROUPS[group] if group else _CANTONESE_WORDS[m.group()]


def mandarin(text: str) -> str:
    """Written Cantonese read as Mandarin, character for character ("唔使理" as "不用理"), so
    offsets into the reading are offsets into `text`; any other text as it is."""
    if not _CANTONESE_MARK.search(text):
        return text
    return _CANTONESE.sub(_cantonese_word, text).translate(_CANTONESE_CHARS)
