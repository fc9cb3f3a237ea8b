"""Temporal activities: one-line adapters over the domain services (`memory.services`), grouped
by what they touch. Each takes and returns one pydantic model; a domain error leaves as a typed,
non-retryable `ApplicationError` (`activities.failures`); long ones heartbeat their progress.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from temporalio import activity


class ActivityGroup(Protocol):
    def activities(self) -> list[Callable[..., Any]]: ...


def heartbeat(details: Any) -> None:
    """Report progress when running as an activity (a plain call, in tests, does nothing)."""
    if activity.in_activity():
        activity.heartbeat(details)


def all_activities(
    stores: Any, settings: Any, *, summarizer: Any = None, extractor: Any = None
) -> list[Callable[..., Any]]:
    """Every activity of the service, bound to this process's stores."""
    from activities.deletion import DeletionActivities
    from activities.projection import ProjectionActivities
    from activities.review import ReviewActivities
    from activities.summary import SummaryActivities
    from activities.write import WriteActivities
    from memory.identity import identity_for
    from memory.services.deletions import Deletions
    from memory.services.projections import Projections
    from memory.services.reviews import Reviews
    from memory.services.summaries import Summaries
    from memory.services.writes import Writes

    identity = identity_for(settings)  # every service verifies the same principals' tokens
    writes = Writes(stores, settings, extractor, identity)
    groups: list[ActivityGroup] = [
        WriteActivities(writes),
        ReviewActivities(Reviews(stores, settings, extractor, identity)),
        SummaryActivities(Summaries(stores, settings, summarizer, identity), writes),
        ProjectionActivities(Projections(stores, settings)),
        DeletionActivities(Deletions(stores, settings, extractor, identity)),
    ]
    return [fn for group in groups for fn in group.activities()]
