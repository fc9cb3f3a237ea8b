"""Embeddings behind a small protocol, with a deterministic offline default.

The default hashes character n-grams (1 to 3 characters, which suits Chinese as well as English)
and whole words into a fixed number of signed buckets, then L2-normalises. It needs no model, no
network and gives the same vector for the same text on every machine, so projections can be
rebuilt and compared exactly. A real model can replace it behind the same protocol; a projection
records the embedder's name so vectors of different embedders never mix.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from typing import Protocol

import numpy as np
import numpy.typing as npt

_WORD = re.compile(r"[a-z0-9]+|[^\sa-z0-9]", re.UNICODE)
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text (a zero row for a text with no features)."""
        ...


def normalise_text(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


class HashedNgramEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashed-ngram-v1-{dim}"

    def features(self, text: str) -> list[str]:
        norm = normalise_text(text)
        words = [w for w in _WORD.findall(norm) if not _PUNCT.fullmatch(w)]
        feats = [f"w:{w}" for w in words if len(w) > 1 or not w.isascii()]
        # Character n-grams run inside each stretch of text; punctuation and spaces cut them so a
        # sentence's punctuation does not dominate a short query.
        for chunk in _PUNCT.split(norm):
            if not chunk:
                continue
            n = len(chunk)
            if chunk.isascii():
                padded = f"^{chunk}$"
                feats.extend(padded[i : i + 3] for i in range(len(padded) - 2))
                continue
            feats.extend(chunk)
            feats.extend(chunk[i : i + 2] for i in range(n - 1))
            feats.extend(chunk[i : i + 3] for i in range(n - 2))
        return feats

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        dim = self.dim
        for row, text in enumerate(texts):
            vec = out[row]
            for feat in self.features(text):
                h = zlib.crc32(feat.encode())
                vec[h % dim] += 1.0 if (h >> 31) & 1 else -1.0
            norm = float(np.linalg.norm(vec))
            if norm > 0:
                vec /= norm
        return out


def default_embedder() -> HashedNgramEmbedder:
    return HashedNgramEmbedder()
