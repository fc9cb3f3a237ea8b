"""Thin Temporal adapters over the domain services, grouped by what they touch.

Each activity takes and returns one pydantic model. Domain errors leave an activity as a
non-retryable `ApplicationError` whose `type` is the error's class name (see `typed_errors`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, Protocol, TypeVar

from temporalio.exceptions import ApplicationError

from memory.errors import MemoryServiceError

P = ParamSpec("P")
R = TypeVar("R")


def typed_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn a `MemoryServiceError` into an `ApplicationError` the client can map back."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except MemoryServiceError as exc:
            raise to_application_error(exc) from exc

    return wrapper


def to_application_error(exc: MemoryServiceError) -> ApplicationError:
    return ApplicationError(
        exc.message,
        {"code": exc.code, "field": exc.field},
        type=type(exc).__name__,
        non_retryable=not exc.retryable,
    )


class ActivityGroup(Protocol):
    def activities(self) -> list[Callable[..., Any]]: ...


def all_activities(
    stores: Any, settings: Any, *, summarizer: Any = None
) -> list[Callable[..., Any]]:
    """Every activity of the service, bound to this process's stores."""
    from activities.deletion import DeletionActivities
    from activities.projection import ProjectionActivities
    from activities.review import ReviewActivities
    from activities.summary import SummaryActivities
    from activities.write import WriteActivities

    groups: list[ActivityGroup] = [
        WriteActivities(stores, settings),
        ReviewActivities(stores, settings),
        SummaryActivities(stores, settings, summarizer),
        ProjectionActivities(stores, settings),
        DeletionActivities(stores, settings),
    ]
    return [fn for group in groups for fn in group.activities()]
