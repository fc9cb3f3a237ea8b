"""Domain services: what each activity does, as plain typed Python over the stores.

Every Temporal activity is a one-line adapter over a method here (`activities/`); the methods take
and return the models that travel through workflow history. Nothing here knows Temporal: where a
long operation reports progress, it calls the `progress` callback it is given (an activity passes
its heartbeat).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Called with a small, JSON-able description of how far a long operation got.
Progress = Callable[[Any], None]


def no_progress(_: Any) -> None:
    return None
