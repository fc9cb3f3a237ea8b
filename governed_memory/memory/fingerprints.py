"""Salted fingerprints of erased text: how verification recognises what a deletion erased
without keeping it.

At erasure every erased text (a memory's content, a message or the clauses cut out of one) is
squashed (no case, spacing or punctuation) and cut into overlapping windows of `WINDOW`
characters; what is kept is a keyed BLAKE2b hash of each window under a salt drawn for that one
deletion. A text T "holds" an erased text E when every window of E hashes to a window of T: the
same containment test as looking for E in T, on hashes. Short fragments (under `WINDOW`
characters, "好的") would match unrelated speech and are looked for by id only. The salt and the
hashes are dropped with the probes when the deletion ends, whatever its outcome.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence

WINDOW = 4
_DIGEST = 8
_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)


def squash(text: str) -> str:
    """Text without case, spacing or punctuation, for looking erased text up in other text
    (deletion verification). Not a sameness test: "1.5" and "15" squash alike."""
    return _NOISE.sub("", text.casefold())


def new_salt() -> str:
    return os.urandom(16).hex()


def _windows(flat: str) -> Iterable[str]:
    return (flat[i : i + WINDOW] for i in range(len(flat) - WINDOW + 1))


def _hash(salt: bytes, window: str) -> bytes:
    return hashlib.blake2b(window.encode("utf-8"), key=salt, digest_size=_DIGEST).digest()


def fingerprint(text: str, salt: str) -> str:
    """The hashes of every window of `text` (hex, space-separated, in order); "" for a text too
    short to look for."""
    key = bytes.fromhex(salt)
    return " ".join(_hash(key, w).hex() for w in _windows(squash(text)))


class Fingerprints:
    """The fingerprints of one deletion, found by containment in any text: each text's windows
    are hashed once, and only the erased texts whose first window is among them are checked."""

    def __init__(self, salt: str | None, fingerprints: Sequence[str]) -> None:
        self._salt = bytes.fromhex(salt) if salt else b""
        self._texts = [frozenset(bytes.fromhex(h) for h in f.split()) for f in fingerprints if f]
        self._by_anchor: dict[bytes, list[int]] = {}
        for i, f in enumerate(fingerprints_first(fingerprints)):
            self._by_anchor.setdefault(f, []).append(i)

    def __bool__(self) -> bool:
        return bool(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def found_in(self, text: str) -> bool:
        if not self._texts or not text:
            return False
        seen = {_hash(self._salt, w) for w in _windows(squash(text))}
        return any(
            self._texts[i] <= seen
            for anchor in seen & self._by_anchor.keys()
            for i in self._by_anchor[anchor]
        )


def fingerprints_first(fingerprints: Sequence[str]) -> list[bytes]:
    """The first window's hash of each non-empty fingerprint, in order."""
    return [bytes.fromhex(f.split(maxsplit=1)[0]) for f in fingerprints if f]
