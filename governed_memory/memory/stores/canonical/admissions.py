"""Admitted grants: the one run each grant admitted (memory.services.admission).

A grant binds a workflow type, id and input, but the same granted input could be started again
(read from a history by whoever holds the codec key): the first run admitted is kept here by the
grant's hash, and another run is refused. A retried admission of the same run finds its own row.
Rows go once the grant's start window is long past: such a grant admits nothing any more.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from governed_memory.memory.stores.canonical._db import Part
from governed_memory.memory.stores.schema import admitted_grants


def grant_hash(grant: str) -> str:
    return "sha256:" + hashlib.sha256(grant.encode()).hexdigest()


class Admissions(Part):
    def claim(self, grant: str, run_id: str, workflow_id: str, at: datetime) -> str:
        """Record that `grant` admitted `run_id`; the run it admitted (this one, or an earlier
        one when the grant was used already)."""
        key = grant_hash(grant)
        try:
            with self.db.write() as conn:
                found = conn.execute(
                    select(admitted_grants.c.run_id).where(admitted_grants.c.grant_hash == key)
                ).scalar()
                if found is not None:
                    return str(found)
                # the values as parameters, not `.values(...)`: every write admits a run, and
                # building the statement with its values coerced into it took about 0.1 ms more
                conn.execute(
                    admitted_grants.insert(),
                    {
                        "grant_hash": key,
                        "run_id": run_id,
                        "workflow_id": workflow_id,
                        "admitted_at": at,
                    },
                )
        except IntegrityError:  # another admission of the same grant won the race
            with self.db.read() as conn:
                return str(
                    conn.execute(
                        select(admitted_grants.c.run_id).where(admitted_grants.c.grant_hash == key)
                    ).scalar()
                )
        return run_id

    def sweep(self, before: datetime) -> int:
        """Forget the admissions of grants whose start window closed long ago."""
        with self.db.write() as conn:
            return int(
                conn.execute(
                    delete(admitted_grants).where(admitted_grants.c.admitted_at < before)
                ).rowcount
            )
