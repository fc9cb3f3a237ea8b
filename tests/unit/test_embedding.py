from __future__ import annotations

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
