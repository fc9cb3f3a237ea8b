from __future__ import annotations

import zlib

import numpy as np

from governed_memory.memory.embedding import HashedNgramEmbedder


def test_embeddings_are_deterministic_and_normalised() -> None:
    e = HashedNgramEmbedder()
    a = e.embed(["用户偏好短信通知", "please text me"])
    b = HashedNgramEmbedder().embed(["用户偏好短信通知", "please text me"])
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)


def test_related_texts_are_closer_than_unrelated_ones() -> None:
    e = HashedNgramEmbedder()
    q, near, far = e.embed(["短信通知", "用户偏好短信通知", "商家 A 属于跨境业务"])
    assert float(q @ near) > float(q @ far) + 0.2
    q, near, far = e.embed(["refund delay", "the refund was delayed", "likes blue hats"])
    assert float(q @ near) > float(q @ far)


def test_empty_text_gives_a_zero_vector() -> None:
    (v,) = HashedNgramEmbedder().embed([" ,。 "])
    assert not v.any()


def _one_feature_at_a_time(embedder: HashedNgramEmbedder, text: str) -> np.ndarray:
    """The embedding as first written: each feature's signed bucket added in turn."""
    vec = np.zeros(embedder.dim, dtype=np.float32)
    for feat in embedder.features(text):
        h = zlib.crc32(feat.encode())
        vec[h % embedder.dim] += 1.0 if (h >> 31) & 1 else -1.0
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 0 else vec


def test_the_counted_vector_is_the_one_added_feature_by_feature() -> None:
    """Stored vectors stay comparable across releases: the counted embedding (and the copy of
    it kept for a text embedded again) is bit for bit the one-at-a-time sum."""
    embedder = HashedNgramEmbedder()
    texts = [
        "I moved to Lisbon last spring and I love the light there.",
        "以后物流更新请优先短信通知",
        "Caroline: hey Mel, how was the pottery class? 我很喜欢",
        "",
        "!!!",
        "a",
    ]
    for _ in range(2):  # the second round is served from the kept vectors
        got = embedder.embed(texts)
        for row, text in zip(got, texts, strict=True):
            assert np.array_equal(row, _one_feature_at_a_time(embedder, text))
    got[0][0] = 42.0  # a caller may write into what it was given
    assert embedder.embed(texts[:1])[0][0] != 42.0
