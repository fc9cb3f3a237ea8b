"""What an attacker does to get a directive past a pattern: lookalike letters, letters spaced
out, leetspeak, and the directive encoded (base64, hex, rot13). The injection detector reads the
text as written, with lookalikes folded (`deconfuse`, one character for one, so offsets hold),
and each hidden `View` of it: a spaced-out run joined up, leetspeak read as letters, an encoded run
decoded, the text rot13'd.

Zero-width and tag characters are already dropped by the shared folding (`_text._fold`).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

#: Cyrillic, Greek and other letters drawn like Latin ones (Unicode's confusables, the common
#: ones), folded to the Latin letter: "Ignоre" with a Cyrillic о reads "Ignore".
_LOOKALIKES = {
    **dict.fromkeys("аɑα", "a"),
    **dict.fromkeys("вʙβ", "b"),
    **dict.fromkeys("сϲ", "c"),
    **dict.fromkeys("ԁ", "d"),
    **dict.fromkeys("еєε", "e"),
    **dict.fromkeys("ɡ", "g"),
    **dict.fromkeys("һ", "h"),
    **dict.fromkeys("іıιӏ", "i"),
    **dict.fromkeys("ј", "j"),
    **dict.fromkeys("кκ", "k"),
    **dict.fromkeys("ⅼ", "l"),
    **dict.fromkeys("м", "m"),
    **dict.fromkeys("ոη", "n"),
    **dict.fromkeys("оοσ", "o"),
    **dict.fromkeys("рρ", "p"),
    **dict.fromkeys("ԛ", "q"),
    **dict.fromkeys("г", "r"),
    **dict.fromkeys("ѕ", "s"),
    **dict.fromkeys("т", "t"),
    **dict.fromkeys("υս", "u"),
    **dict.fromkeys("ѵν", "v"),
    **dict.fromkeys("ԝ", "w"),
    **dict.fromkeys("хχ", "x"),
    **dict.fromkeys("уγ", "y"),
    **dict.fromkeys("ᴢ", "z"),
    **dict.fromkeys("АΑ", "A"),
    **dict.fromkeys("ВΒ", "B"),
    **dict.fromkeys("СϹ", "C"),
    **dict.fromkeys("ЕΕ", "E"),
    **dict.fromkeys("НΗ", "H"),
    **dict.fromkeys("ІΙ", "I"),
    **dict.fromkeys("Ј", "J"),
    **dict.fromkeys("КΚ", "K"),
    **dict.fromkeys("МΜ", "M"),
    **dict.fromkeys("НΝ", "N"),
    **dict.fromkeys("ОΟ", "O"),
    **dict.fromkeys("РΡ", "P"),
    **dict.fromkeys("Ѕ", "S"),
    **dict.fromkeys("ТΤ", "T"),
    **dict.fromkeys("ХΧ", "X"),
    **dict.fromkeys("УΥ", "Y"),
    **dict.fromkeys("Ζ", "Z"),
}
_DECONFUSE = str.maketrans(_LOOKALIKES)
_LATIN = re.compile(r"[A-Za-z]")


def deconfuse(text: str) -> str:
    """Lookalike letters folded to Latin, in words that also hold Latin letters (a word wholly
    in Cyrillic or Greek stays as it is); one character for one."""
    if text.isascii():
        return text
    return re.sub(
        r"\w+",
        lambda m: m.group(0).translate(_DECONFUSE) if _LATIN.search(m.group(0)) else m.group(0),
        text,
    )


@dataclass(frozen=True, slots=True)
class View:
    """A hidden reading of text[start:end]."""

    start: int
    end: int
    text: str
    how: str

    @property
    def whole(self) -> bool:
        """Whether the view reads the whole text again (not a hidden run of it)."""
        return self.how in WHOLE_TEXT


_SPACED = re.compile(r"(?<![A-Za-z])(?:[A-Za-z](?:[ .\-_*·|]{1,3})){4,}[A-Za-z](?![A-Za-z])")
_CJK_SPACED = re.compile(r"(?:[\u4e00-\u9fff][ .\-_*·|]{1,2}){3,}[\u4e00-\u9fff]")
_ESCAPED_HEX = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){8,}")
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[\s:]?){12,}(?![0-9A-Fa-f])")


#: The words directives are made of, rot13'd: a text holding none of them is not read rot13'd
#: (which would scan every text twice).
_ROT13_HINT = re.compile(
    "|".join(
        codecs.encode(w, "rot13")
        for w in (
            "ignore",
            "disregard",
            "forget",
            "instruction",
            "policy",
            "system",
            "prompt",
            "reveal",
            "approve",
            "refund",
            "forward",
            "send",
            "always",
            "rules",
            "admin",
            "password",
            "assistant",
            "override",
            "include",
            "reply",
            "every",
            "customer",
            "user",
            "tell",
            "fee",
            "history",
            "restriction",
        )
    ),
    re.IGNORECASE,
)


def _readable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(ch.isalpha() or ch.isspace() for ch in text)
    return text if text and letters / len(text) >= 0.7 else None


def _joined(run: str) -> str:
    """`i g n o r e  a l l` → `ignore all`, `i.g.n.o.r.e a.l.l` → `ignore all`: letters are
    joined across single separators; a wider gap, or a space where the letters are joined by
    another mark, parts words."""
    if re.search(r"[A-Za-z][.\-_*·|]+[A-Za-z]", run):
        words = run.split()
    else:
        words = re.split(r"\s{2,}", run)
    return " ".join(re.sub(r"[ .\-_*·|]", "", w) for w in words)


#: A word written in leetspeak: letters with digits (or @, $) standing for some of them
#: ("1gn0re", "pr0mpt", "@dmin"), read one character for one.
_LEET_WORD = re.compile(
    r"(?<![A-Za-z0-9@$])(?=[A-Za-z0-9@$]*[A-Za-z])(?=[A-Za-z0-9@$]*[013457@$])[A-Za-z0-9@$]{3,}"
    r"(?![A-Za-z0-9@$])"
)
_UNLEET = str.maketrans("013457@$", "oieastas")
#: "1" stands for "l" as often as for "i" ("ru1es"): the words are read both ways.
_UNLEET_L = str.maketrans("013457@$", "oleastas")


def _unleeted(text: str, table: dict[int, int] = _UNLEET) -> str | None:
    """`text` with its leetspeak words read as letters (one for one, by `table`), when at least
    two are (one alone is a code or a model name, "B2B", "mp3"); else None."""
    changed = 0

    def read(m: re.Match[str]) -> str:
        nonlocal changed
        word = m.group(0)
        if re.search(r"[2689]", word):
            return word  # a digit no letter is written as: a code, not a word
        changed += 1
        return word.translate(table)

    out = _LEET_WORD.sub(read, text)
    return out if changed >= 2 else None


#: The words directives are made of, which an attacker misspells or abbreviates to get past a
#: pattern ("Fogret evrything above this line", "ignor ur previus instructons").
_DIRECTIVE_WORDS = (
    "ignore",
    "disregard",
    "forget",
    "instructions",
    "previous",
    "everything",
    "guidelines",
    "restrictions",
    "override",
    "system",
    "prompt",
    "developer",
    "pretend",
)
#: Chat spellings of the small words directives are made of.
_TEXTSPEAK = {"ur": "your", "u": "you", "r": "are", "pls": "please", "plz": "please", "wat": "what"}
#: Real words one letter from a directive word: never read as it.
_REAL_NEIGHBOURS = frozenset({"forgot", "forgets", "systems", "prompts", "prompted", "ignored"})
#: What one deleted letter leaves of each directive word, to the word.
_DELETED: dict[str, str] = {}
for _word in _DIRECTIVE_WORDS:
    for _i in range(len(_word)):
        _DELETED.setdefault(_word[:_i] + _word[_i + 1 :], _word)
#: Longer texts are not respelled: misspelt orders are typed in chat.
_RESPELL_LIMIT = 2_000


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one inserted, deleted, changed or swapped letter."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


@functools.lru_cache(maxsize=16384)
def _respelt(word: str) -> str | None:
    """The directive word `word` misspells by one letter (or the word a chat spelling
    stands for), or None."""
    low = word.lower()
    if low in _TEXTSPEAK:
        return _TEXTSPEAK[low]
    if len(low) < 5 or low in _REAL_NEIGHBOURS or low in _DIRECTIVE_WORDS:
        return None
    for variant in (low, *(low[:i] + low[i + 1 :] for i in range(len(low)))):
        target = _DELETED.get(variant) or (variant if variant in _DIRECTIVE_WORDS else None)
        if target is not None and _one_edit(low, target) and not _inflected(low, target):
            return target
    return None


def _inflected(word: str, target: str) -> bool:
    """`word` a form of `target` rather than a misspelling of it ("pretends", "instruction";
    "ignor" is a misspelling)."""
    return word.startswith(target) or (target.startswith(word) and not target.endswith("e"))


#: A word as written in prose, not a string prefix in code (`r'…'`, `u"…"`).
_WORD = re.compile(r"(?<![A-Za-z0-9_'\"\\])[A-Za-z]+(?![A-Za-z0-9_'\"])")


def _respelled(text: str) -> str | None:
    """`text` with its misspelt directive words and chat spellings written out, when any are
    (`_respelt`); None otherwise, or for a long text."""
    if len(text) > _RESPELL_LIMIT:
        return None
    changed = False

    def read(m: re.Match[str]) -> str:
        nonlocal changed
        found = _respelt(m.group(0))
        if found is None:
            return m.group(0)
        changed = True
        return found

    out = _WORD.sub(read, text)
    return out if changed else None


def views(text: str) -> Iterator[View]:
    unleeted = _unleeted(text)
    if unleeted is not None:
        yield View(0, len(text), unleeted, "leet")
        if "1" in text:
            other = _unleeted(text, _UNLEET_L)
            if other is not None and other != unleeted:
                yield View(0, len(text), other, "leet")
    respelled = _respelled(unleeted or text)
    if respelled is not None:
        yield View(0, len(text), respelled, "respelled")
    for m in _SPACED.finditer(text):
        yield View(m.start(), m.end(), _joined(m.group(0)), "spaced")
    for m in _CJK_SPACED.finditer(text):
        yield View(m.start(), m.end(), re.sub(r"[ .\-_*·|]", "", m.group(0)), "spaced")
    for m in _ESCAPED_HEX.finditer(text):
        decoded = _readable(bytes.fromhex(m.group(0).replace("\\x", "")))
        if decoded:
            yield View(m.start(), m.end(), decoded, "hex")
    for m in _BASE64.finditer(text):
        run = m.group(0)
        try:
            raw = base64.b64decode(
                run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None
            )
        except (binascii.Error, ValueError):
            continue
        decoded = _readable(raw)
        if decoded:
            yield View(m.start(), m.end(), decoded, "base64")
    for m in _HEX.finditer(text):
        try:
            raw = bytes.fromhex(re.sub(r"[\s:]", "", m.group(0)))
        except ValueError:
            continue
        decoded = _readable(raw)
        if decoded:
            yield View(m.start(), m.end(), decoded, "hex")
    if _ROT13_HINT.search(text):
        # Only what rot13 changes: the Latin letters (Chinese reads the same either way).
        latin = " ".join(re.findall(r"[A-Za-z][A-Za-z0-9' ,.:;!?@/_+-]*", text))
        yield View(0, len(text), codecs.encode(latin, "rot13"), "rot13")


#: The views that read the whole text again (not a hidden run of it).
WHOLE_TEXT = frozenset({"rot13", "leet", "respelled"})


def revealed(text: str, found: list[View] | None = None) -> str | None:
    """The text with each hidden run (spaced letters, hex, base64) read in place, so that a
    directive split between plain and hidden words reads whole: `d.i.s.r.e.g.a.r.d your
    r.u.l.e.s` → `disregard your rules`. None when nothing is hidden."""
    runs = sorted(
        (v for v in (found if found is not None else views(text)) if v.how not in WHOLE_TEXT),
        key=lambda v: (v.start, -v.end),
    )
    if not runs:
        return None
    out: list[str] = []
    at = 0
    for v in runs:
        if v.start < at:
            continue
        out += [text[at : v.start], " ", v.text, " "]
        at = v.end
    out.append(text[at:])
    return "".join(out)
