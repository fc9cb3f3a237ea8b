"""Logs never carry what people said: no local variables in a traceback, in the terminal or in
JSON, and JSON keeps the traceback as structured frames. Run in a fresh interpreter each time,
as a worker configures its logging once at start."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROGRAM = """
import logging, sys
import structlog
from governed_memory.shell.logs import configure_logging

configure_logging(sys.argv[1])

def refuse(text):
    password = text.split()[-1]
    raise ValueError("write refused: secret")

try:
    refuse("my password is ZZLOGLEAK-hunter2")
except ValueError:
    structlog.get_logger("memory").exception("activity failed", workflow_id="write/shop-a/1")
    # The Temporal SDK logs through the standard library.
    logging.getLogger("temporalio.activity").error("Completing activity as failed", exc_info=True)
"""


def _run(fmt: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, fmt], capture_output=True, text=True, check=True
    )
    return done.stderr


@pytest.mark.parametrize("fmt", ["console", "json"])
def test_a_traceback_shows_no_locals(fmt: str) -> None:
    out = _run(fmt)
    assert "write refused: secret" in out  # the failure itself is logged
    assert "ZZLOGLEAK" not in out


def test_json_logs_keep_the_traceback_as_frames() -> None:
    lines = [json.loads(line) for line in _run("json").splitlines() if line.strip()]
    failed = [e for e in lines if e.get("event") == "activity failed"]
    assert failed, lines
    [trace] = failed[0]["exception"]
    assert trace["exc_type"] == "ValueError"
    assert any(frame["name"] == "refuse" for frame in trace["frames"])
    assert all("locals" not in frame or not frame["locals"] for frame in trace["frames"])
