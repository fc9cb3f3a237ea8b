"""Every recorded history replays against the current workflow code.

A change that alters the commands a workflow issues for a recorded history (order, types,
count) raises a non-determinism error here. Record new histories with
`python -m tests.replay.record` when a workflow changes on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.worker import Replayer

from governed_memory.workflows.registry import WORKFLOWS

HISTORIES = sorted(Path(__file__).with_name("histories").glob("*.json"))


def test_there_are_histories_for_every_workflow() -> None:
    types = set()
    for path in HISTORIES:
        events = json.loads(path.read_text())["events"]
        types.add(events[0]["workflowExecutionStartedEventAttributes"]["workflowType"]["name"])
    assert {w.__temporal_workflow_definition.name for w in WORKFLOWS} <= types


@pytest.mark.parametrize("path", HISTORIES, ids=[p.stem for p in HISTORIES])
async def test_history_replays(path: Path) -> None:
    replayer = Replayer(workflows=list(WORKFLOWS), data_converter=pydantic_data_converter)
    history = WorkflowHistory.from_json(path.stem, path.read_text())
    await replayer.replay_workflow(history)
