"""The retrieval bench's machinery on a tiny conversation of LoCoMo's shape (written here; the
development split itself is evaluation data and stays out of the repo)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.shell.eval.locomo import (
    Scores,
    baselines,
    load,
    recall_at,
    run_product,
    session_time,
)

TINY = [
    {
        "sample_id": "conv-t1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a grey cat named Pixel."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! I started pottery classes."},
            ],
            "session_2_date_time": "10:02 am on 20 June, 2023",
            "session_2": [
                {"speaker": "Ann", "dia_id": "D2:1", "text": "We hiked Mount Tam on Sunday."},
                {"speaker": "Bo", "dia_id": "D2:2", "text": "My pottery bowl finally came out."},
            ],
        },
        "qa": [
            {
                "question": "What is the name of Ann's cat?",
                "answer": "Pixel",
                "evidence": ["D1:1"],
                "category": 1,
            },
            {
                "question": "Which mountain did Ann hike?",
                "answer": "Mount Tam",
                "evidence": ["D2:1"],
                "category": 4,
            },
            {
                "question": "What class did Bo take?",
                "answer": "pottery",
                "evidence": ["D1:2", "D2:2"],
                "category": 2,
            },
            {"question": "Adversarial", "answer": "-", "evidence": ["D1:1"], "category": 5},
        ],
    }
]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_sessions_turns_and_questions_load_as_the_measure_says(tiny: Path) -> None:
    assert session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    (conv,) = load(tiny)
    assert [t.source for t in conv.turns][:2] == ["msg://conv-t1-s1/1", "msg://conv-t1-s1/2"]
    assert conv.turns[0].content == "Ann: I adopted a grey cat named Pixel."
    assert conv.turns[2].at == datetime(2023, 6, 20, 10, 2, tzinfo=UTC)
    assert [q.category for q in conv.questions] == [1, 4, 2]  # category 5 left out
    assert conv.questions[2].evidence == ["msg://conv-t1-s1/2", "msg://conv-t1-s2/2"]
    with pytest.raises(InvalidInput):
        session_time("yesterday")


def test_recall_at_k_counts_evidence_in_the_top_k() -> None:
    assert recall_at(["a", "b", "c"], ["b", "z"], 2) == 0.5
    scores = Scores()
    scores.add(1, ["a"], ["a"])
    scores.add(2, ["b"], ["a"])
    table = scores.table()
    assert table["overall"]["R@5"] == 0.5
    assert table["category 1"]["questions"] == 1.0


async def test_the_product_and_the_baselines_run_on_the_same_turns(tiny: Path) -> None:
    conversations = load(tiny)
    measured = await run_product(conversations)
    assert measured["written"] + sum(measured["refused"].values()) == 4
    product = measured["scores"].table()["overall"]
    assert product["questions"] == 3.0
    assert product["R@20"] > 0  # four turns: everything is within the top 20
    base = baselines(conversations)
    assert base["bm25"].table()["overall"]["R@5"] > 0
    assert base["char_tfidf"].table()["overall"]["R@5"] > 0


async def test_a_refused_turn_counts_as_missed_and_a_consented_import_keeps_it(
    tiny: Path, tmp_path: Path
) -> None:
    from governed_memory.shell.eval.locomo import IMPORT_CONSENT

    data = json.loads(tiny.read_text(encoding="utf-8"))
    data[0]["conversation"]["session_2"].append(
        {"speaker": "Ann", "dia_id": "D2:3", "text": "I went to an LGBTQ support group yesterday."}
    )
    data[0]["qa"].append(
        {
            "question": "Where did Ann go yesterday?",
            "answer": "-",
            "evidence": ["D2:3"],
            "category": 4,
        }
    )
    path = tmp_path / "special.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    conversations = load(path)
    strict = await run_product(conversations)
    assert strict["refused"] == {"sensitive_category": 1}
    assert strict["refused_sources"] == {"msg://conv-t1-s2/3"}
    assert strict["kept_only"].table()["overall"]["questions"] == 3.0
    base = baselines(conversations, "en", strict["refused_sources"])
    assert base["bm25_evidence_kept"].table()["overall"]["questions"] == 3.0
    consented = await run_product(conversations, IMPORT_CONSENT)
    assert consented["refused"] == {}
    assert consented["written"] == 5


def test_the_chinese_set_is_of_the_measure_s_shape() -> None:
    from governed_memory.shell.eval.locomo import CHINESE_DEV

    conversations = load(CHINESE_DEV)
    assert len(conversations) == 4
    assert sum(len(c.turns) for c in conversations) >= 300
    assert sum(len(c.questions) for c in conversations) >= 60
    for conv in conversations:
        sources = {t.source for t in conv.turns}
        assert all(set(q.evidence) <= sources for q in conv.questions)
    base = baselines(conversations, "zh")
    assert base["bm25"].table()["overall"]["R@20"] > 0


def test_without_the_peer_extra_the_bench_says_what_is_missing(
    tiny: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from governed_memory.shell.bench.report import _print_retrieval_set
    from governed_memory.shell.eval import peer

    monkeypatch.setattr(peer, "_NEEDS", (*peer._NEEDS, "no_such_module_for_the_peer"))
    result = peer.run_mem0(load(tiny))
    assert set(result) == {"skipped"}
    assert "no_such_module_for_the_peer" in result["skipped"]
    assert "governed-memory[peer]" in result["skipped"]
    report = {
        "conversations": ["conv-t1"],
        "questions": 3,
        "turns": 4,
        "written": 4,
        "refused": {},
        "writes_per_second": 1.0,
        "recall_ms": {"p50": 1.0, "p95": 1.0},
        "mem0": result,
    }
    _print_retrieval_set(report, "tiny")
    assert "mem0: not run, not installed: " in " ".join(capsys.readouterr().out.split())


def test_mem0_runs_offline_on_the_same_turns(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the `peer` extra: mem0 adds each turn (infer=False, no LLM) and finds the evidence
    of each question among its top 20 (four turns)."""
    from governed_memory.shell.eval import peer

    if peer.missing():
        pytest.skip(f"the peer extra is not installed: {peer.missing()}")
    for name in ("MEM0_TELEMETRY", "MEM0_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "")  # what the peer sets is undone after the test
    result = peer.run_mem0(load(tiny))
    assert result["scores"]["overall"]["questions"] == 3.0
    assert result["scores"]["overall"]["R@20"] == 1.0
    assert result["add_ms"]["p50"] > 0
    assert result["search_ms"]["p50"] > 0
