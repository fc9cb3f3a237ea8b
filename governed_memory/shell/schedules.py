"""Schedules that run the sweeps without anyone starting them, created or updated from code.

`memctl schedules apply` is idempotent: a schedule that exists is updated to this definition,
one that does not is created. Overlaps are skipped (a sweep still running is not doubled).

A scheduled run is admitted like any other, by a grant (memory.grants): the schedule's action
carries one the service signs for the schedule (its workflow type, the id prefix its runs take,
its input), valid for the runs it starts over years; applying the schedules again renews it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import BaseModel
from temporalio.client import (
    Client,
    Schedule,
    ScheduleActionStartWorkflow,
    ScheduleIntervalSpec,
    ScheduleOverlapPolicy,
    SchedulePolicy,
    ScheduleSpec,
    ScheduleUpdate,
    ScheduleUpdateInput,
)
from temporalio.service import RPCError, RPCStatusCode

from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.models import ExpireRequest, RelayRequest, RepairRequest
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.workflows.attributes import ALL_TENANTS, search_attributes


@dataclass(frozen=True)
class SweepSchedule:
    name: str
    workflow: str
    every: timedelta
    arg: BaseModel

    def schedule_id(self, settings: Settings) -> str:
        """`<task queue>-<name>`: `memory-expire` for the default deployment. Deployments that
        share a Temporal namespace have queues of their own, so each keeps its own schedules
        (one applying never retargets another's)."""
        return f"{settings.task_queue}-{self.name}"


SCHEDULES = (
    SweepSchedule("relay", "RelayOutbox", timedelta(minutes=1), RelayRequest()),
    SweepSchedule("expire", "ExpireMemories", timedelta(hours=1), ExpireRequest()),
    SweepSchedule("repair", "RepairProjections", timedelta(minutes=10), RepairRequest()),
)


def _schedule(sweep: SweepSchedule, settings: Settings) -> Schedule:
    runs = f"sweep/{sweep.schedule_id(settings)}"  # each run's id: this, "-" and its time
    grants = Grants(ServiceKeys.for_settings(settings))
    grant = grants.issue(sweep.workflow, runs, sweep.arg, SYSTEM, "*", scheduled=True)
    return Schedule(
        action=ScheduleActionStartWorkflow(
            sweep.workflow,
            sweep.arg.model_copy(update={"grant": grant}),
            id=runs,
            task_queue=settings.task_queue,
            execution_timeout=timedelta(hours=1),
            typed_search_attributes=search_attributes(ALL_TENANTS, f"sweep_{sweep.workflow}"),
        ),
        spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=sweep.every)]),
        policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP),
    )


async def apply_schedules(
    client: Client, settings: Settings, only: tuple[str, ...] | None = None
) -> list[tuple[str, str]]:
    """Create or update every sweep schedule; returns (schedule id, "created" | "updated")."""
    done: list[tuple[str, str]] = []
    for sweep in SCHEDULES:
        if only is not None and sweep.workflow not in only:
            continue
        wanted = _schedule(sweep, settings)
        schedule_id = sweep.schedule_id(settings)
        handle = client.get_schedule_handle(schedule_id)
        try:
            await handle.describe()
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            await client.create_schedule(schedule_id, wanted)
            done.append((schedule_id, "created"))
            continue

        def updater(_: ScheduleUpdateInput, wanted: Schedule = wanted) -> ScheduleUpdate:
            return ScheduleUpdate(schedule=wanted)

        await handle.update(updater)
        done.append((schedule_id, "updated"))
    return done


async def list_schedules(client: Client, settings: Settings) -> list[dict[str, Any]]:
    """Each sweep schedule as the server has it: paused or not (and why), how often, when it
    runs next, how many runs it started; a schedule not applied yet says so."""
    found: list[dict[str, Any]] = []
    for sweep in SCHEDULES:
        schedule_id = sweep.schedule_id(settings)
        try:
            d = await client.get_schedule_handle(schedule_id).describe()
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            found.append({"schedule": schedule_id, "state": "not applied"})
            continue
        state = d.schedule.state
        upcoming = d.info.next_action_times
        found.append(
            {
                "schedule": schedule_id,
                "workflow": sweep.workflow,
                "every": str(sweep.every),
                "state": "paused" if state.paused else "running",
                "note": state.note or None,
                "next_run": upcoming[0].isoformat() if upcoming else None,
                "runs": d.info.num_actions,
            }
        )
    return found


async def set_paused(
    client: Client, settings: Settings, name: str, paused: bool, note: str
) -> None:
    """Pause or unpause one of this deployment's sweep schedules, named as listed
    (`memory-relay`) or by its sweep (`relay`), with a note."""
    ids = {sweep.schedule_id(settings): sweep for sweep in SCHEDULES}
    ids.update({sweep.name: sweep for sweep in SCHEDULES})
    if name not in ids:
        from governed_memory.memory.errors import NotFound

        names = ", ".join(s.schedule_id(settings) for s in SCHEDULES)
        raise NotFound(f"no schedule {name!r} (one of {names})", field="schedule")
    handle = client.get_schedule_handle(ids[name].schedule_id(settings))
    if paused:
        await handle.pause(note=note)
    else:
        await handle.unpause(note=note)
