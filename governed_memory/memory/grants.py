"""Grants: what the service lets one workflow run (or one Update) do, signed by the service.

A workflow input is a request, never a fact. Whoever can reach Temporal can start any workflow
with any input, so a run does nothing on its input's word: the door (the HTTP API, MCP, `memctl`,
the Python client in process) verifies the caller's bearer token once and hands the run a *grant*,
a short JWT signed with the service's own key (`memory.secrets`, HS256) that binds

- `op`: the workflow type, or an Update as `Workflow.update`;
- `wid`: the workflow id (for a Schedule's runs, the id the schedule prefixes them with);
- `dig`: the digest of the input (`digest_of`: every field but the grant itself);
- `sub`: the principal the door proved (`system` for what the service starts itself: sweeps,
  reviews a write opens, a receipt's timer, a continued run), and `ten` its tenant;
- `sby`: the instant by which Temporal must have accepted the start. A run accepted in time keeps
  its grant for its whole life, so a write accepted before a worker outage completes after it,
  however long the outage lasted.

A worker admits a run only with a grant that verifies against the run's own type, id, start time
and input (`memory.services.admission`). No bearer token travels in an input, a history, a query
result or a stored row: a grant is worth only the one run it names.
"""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from pydantic import BaseModel

from governed_memory.memory.contracts.admission import digest_of
from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.models import Model
from governed_memory.memory.secrets import ServiceKeys

#: The principal of what the service starts on its own account.
SYSTEM = "system"
ISSUER = "governed-memory/grant"
#: How long a Schedule's grant admits the runs it starts (`memctl schedules apply` renews it).
SCHEDULE_LIFETIME = timedelta(days=5 * 365)


class Grant(Model):
    """A verified grant's claims."""

    operation: str
    workflow_id: str
    digest: str
    principal: str
    tenant: str
    issued_at: datetime
    start_by: datetime
    scheduled: bool = False


class Grants:
    def __init__(self, keys: ServiceKeys, *, start_seconds: int = 900) -> None:
        self.keys = keys
        self.start_within = timedelta(seconds=start_seconds)

    def issue(
        self,
        operation: str,
        workflow_id: str,
        request: BaseModel | str,
        principal: str,
        tenant: str,
        *,
        scheduled: bool = False,
        now: datetime | None = None,
    ) -> str:
        """A grant for one run of `operation` under `workflow_id` with exactly `request` (or an
        input of that digest)."""
        issued = now or datetime.now(UTC)
        within = SCHEDULE_LIFETIME if scheduled else self.start_within
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "op": operation,
            "wid": workflow_id,
            "dig": request if isinstance(request, str) else digest_of(request),
            "sub": principal,
            "ten": tenant,
            "iat": int(issued.timestamp()),
            "sby": math.ceil((issued + within).timestamp()),
            # each grant its own: two grants for the same request in the same second are two
            # grants, and the one a run claimed is never another run's (`Admissions.claim`)
            "jti": uuid.uuid4().hex,
        }
        if scheduled:
            claims["sch"] = True
        key = self.keys.keys[self.keys.current]
        return jwt.encode(claims, key, algorithm="HS256", headers={"kid": self.keys.current})

    def verify(
        self,
        grant: str | None,
        *,
        operation: str,
        workflow_id: str,
        digest: str,
        started_at: datetime,
    ) -> Grant:
        """The claims of a grant that admits this run (`operation` under `workflow_id`, with an
        input of `digest`, accepted by Temporal at `started_at`), or `Unauthenticated`."""
        if not grant:
            raise Unauthenticated(
                "the run carries no grant: start it through the service (the HTTP API, MCP, "
                "memctl or the Python client), or ask the service for a grant first",
                field="grant",
            )
        try:
            kid = jwt.get_unverified_header(grant).get("kid")
            key = self.keys.key(kid) if isinstance(kid, str) else None
            if key is None:
                raise Unauthenticated("the grant is signed with a key this service does not hold")
            claims = jwt.decode(
                grant,
                key,
                algorithms=["HS256"],
                issuer=ISSUER,
                options={
                    "require": ["iss", "op", "wid", "dig", "sub", "ten", "iat", "sby"],
                    "verify_iat": False,
                },
            )
            found = Grant(
                operation=str(claims["op"]),
                workflow_id=str(claims["wid"]),
                digest=str(claims["dig"]),
                principal=str(claims["sub"]),
                tenant=str(claims["ten"]),
                issued_at=datetime.fromtimestamp(int(claims["iat"]), UTC),
                start_by=datetime.fromtimestamp(int(claims["sby"]), UTC),
                scheduled=bool(claims.get("sch", False)),
            )
        except Unauthenticated as exc:
            raise Unauthenticated(exc.message, field="grant") from None
        except (jwt.PyJWTError, ValueError, TypeError, KeyError) as exc:
            raise Unauthenticated(f"the grant is not valid: {exc}", field="grant") from None
        if found.operation != operation:
            raise Unauthenticated(
                f"the grant is for {found.operation}, not {operation}", field="grant"
            )
        same_run = found.workflow_id == workflow_id or (
            found.scheduled and workflow_id.startswith(found.workflow_id + "-")
        )
        if not same_run:
            raise Unauthenticated("the grant is for another workflow id", field="grant")
        if found.digest != digest:
            raise Unauthenticated("the grant is for another input", field="grant")
        if started_at > found.start_by:
            raise Unauthenticated(
                "the grant had expired when the run was started: ask the service again",
                field="grant",
            )
        return found
