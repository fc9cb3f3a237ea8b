"""Recall's diversity penalty: a pick lowers what repeats it, never a memory that says something
the question asks and the pick does not (issue 31: an exact answer buried by a similar, later
event)."""

from __future__ import annotations

import numpy as np

from governed_memory.memory.embedding import HashedNgramEmbedder
from governed_memory.memory.policy import load_policy
from governed_memory.memory.retrieval.candidates import _Candidate, _select, asked_terms
from tests.factories import record


def _candidate(content: str, score: float, vector: list[float], n: int) -> _Candidate:
    c = _Candidate(
        record(
            content=content,
            kind="episodic",
            key=None,
            structured_value=None,
            source_refs=[f"msg://t1/{n}"],
        )
    )
    c.score = score
    v = np.asarray(vector, dtype=np.float32)
    c.vector = v / np.linalg.norm(v)
    return c


def _pool() -> dict[str, _Candidate]:
    # The later, general event scores first (fresher); the earlier one reads much like it
    # (cosine 0.9) and no number, date or id tells the two apart; the third is unrelated.
    general = _candidate("师傅上门把整台洗衣机换了", 1.0, [1.0, 0.0, 0.0], 1)
    valve = _candidate("师傅上门把洗衣机的进水阀换了", 0.9, [0.9, 0.436, 0.0], 2)
    other = _candidate("客户说冰箱门关不上", 0.8, [0.0, 0.0, 1.0], 3)
    return {c.record.memory_id: c for c in (general, valve, other)}


def _chosen(asked: frozenset[str]) -> list[str]:
    policy = load_policy(None)
    chosen = _select(_pool(), 2, HashedNgramEmbedder(), policy, asked)
    return [c.record.content for c in chosen]


def test_a_memory_saying_what_the_question_asks_is_not_a_repeat_of_a_pick_that_does_not() -> None:
    assert _chosen(asked_terms("进水阀")) == [
        "师傅上门把整台洗衣机换了",
        "师傅上门把洗衣机的进水阀换了",
    ]
    assert _chosen(asked_terms("what about the inlet valve 进水阀?")) == [
        "师傅上门把整台洗衣机换了",
        "师傅上门把洗衣机的进水阀换了",
    ]


def test_without_anything_asked_that_tells_them_apart_the_repeat_still_yields() -> None:
    # Both say 洗衣机 and 换: the earlier event repeats the pick for this question, and the
    # unrelated memory goes before it (the penalty, as before).
    assert _chosen(asked_terms("洗衣机换了")) == ["师傅上门把整台洗衣机换了", "客户说冰箱门关不上"]
    assert _chosen(frozenset()) == ["师傅上门把整台洗衣机换了", "客户说冰箱门关不上"]


def test_asked_terms_leave_out_function_words_and_lone_characters() -> None:
    terms = asked_terms("洗衣机的进水阀换过吗？")
    assert {"进水", "水阀", "洗衣机"} <= terms
    assert all(len(t) >= 2 for t in terms)
    assert not {"的", "吗"} & terms
    assert asked_terms("") == frozenset()
