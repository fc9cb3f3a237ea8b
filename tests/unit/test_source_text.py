"""The source holds no control characters: a `\\b` meant for a regular expression, written in a
string that was not raw, becomes a backspace (U+0008) and the pattern silently stops matching
(it happened once: an English "could you … reply to me" request was read as a plain question)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def test_no_python_source_holds_a_control_character() -> None:
    files = [
        p
        for folder in ("governed_memory", "workflows", "activities", "tests")
        for p in (ROOT / folder).rglob("*.py")
    ]
    assert len(files) > 100
    bad = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if _CONTROL.search(line)
    ]
    assert bad == []
