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
    stores: Any,
    settings: Any,
    *,
    summarizer: Any = None,
    extractor: Any = None,
    vouch: Callable[[str], None] = lambda _run_id: None,
) -> list[Callable[..., Any]]:
    """Every activity of the service, bound to this process's stores; `vouch` is told each run
    admitted here (`activities.callers`)."""
    from governed_memory.activities.admission import AdmissionActivities
    from governed_memory.activities.deletion import DeletionActivities
    from governed_memory.activities.feedback import FeedbackActivities
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.activities.promotion import PromotionActivities
    from governed_memory.activities.review import ReviewActivities
    from governed_memory.activities.summary import SummaryActivities
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.secrets import ServiceKeys
    from governed_memory.memory.services.access import Access
    from governed_memory.memory.services.admission import Admission
    from governed_memory.memory.services.deletions import DeletionService
    from governed_memory.memory.services.feedback import FeedbackService
    from governed_memory.memory.services.projections import ProjectionService
    from governed_memory.memory.services.promotions import PromotionService
    from governed_memory.memory.services.reviews import ReviewService
    from governed_memory.memory.services.summaries import SummaryService
    from governed_memory.memory.services.writes import WriteService

    keys = ServiceKeys.for_settings(settings)  # grants and ids: the same keys as the door's
    admission = Admission(keys, settings, stores.canonical)
    admitting = AdmissionActivities(admission, vouch)
    groups: list[ActivityGroup] = [
        admitting,
        WriteActivities(WriteService(stores, settings, keys, extractor), admitting.admit_here),
        ReviewActivities(ReviewService(stores, settings, admission, extractor)),
        SummaryActivities(SummaryService(stores, settings, keys, summarizer)),
        PromotionActivities(PromotionService(stores, settings, keys)),
        ProjectionActivities(ProjectionService(stores, settings)),
        DeletionActivities(DeletionService(stores, settings, keys, admission, extractor)),
        FeedbackActivities(FeedbackService(stores, settings, Access(stores, settings), keys)),
    ]
    return [fn for group in groups for fn in group.activities()]
