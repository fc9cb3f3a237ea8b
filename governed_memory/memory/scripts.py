"""Chinese written in Traditional characters read as Simplified, as every cue of the write path
is written: OpenCC's Traditional-to-Simplified tables (its pure-Python port,
`opencc-python-reimplemented`), loaded on first use.

Two readings, both one character for one, so that offsets into what is read are offsets into
the text: `simplified` (OpenCC's conversion, phrase by phrase: "乾隆" stays, "乾淨" becomes
"干净"), for the extractor's cues; `simplified_char` (the table's first reading of a single
character), for the detectors, which fold a text character by character."""

from __future__ import annotations

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
