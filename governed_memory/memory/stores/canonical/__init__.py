"""The canonical store: the source of truth, on SQLAlchemy 2 (SQLite or Postgres, same code).

Split by aspect; `CanonicalStore` composes the parts over one database:

    principals   the registry of agents, reviewers and services
    attestations references the tenant's tools vouch for (verified tool facts cite them)
    records      memory versions (history) and heads
    slots        optimistic-concurrency slots and deletion fences
    commits      plans applied in one transaction across the parts; audit-only decisions; loads
    outcomes     write outcomes by idempotency key
    audit        every stage and decision, with reason codes
    outbox       one event per version written; projections follow it
    generations  per-namespace cache generations
    lineage      what derived records were made from
    messages     conversation messages
    reviews      deferred writes and conflict groups awaiting a reviewer, with their tasks
    staged       plans decided and not yet committed, by commit id
    erasure      erase and expire; ledger, probes
    feedback     feedback events on memories and what they taught recall
    consents     consents subjects gave, revoked with what depends on them
    receipts     deletion receipts
    sweeps       projection watermarks and repair records

What it guarantees:
- history: a change appends a version row and moves the head; only erasure blanks content;
- optimistic concurrency: a commit names the slot version it resolved against and fails with
  `VersionConflict` if anyone committed to that slot since (a unique violation is a lost race only
  on the tables where it means one; anywhere else it is a bug and is raised as such);
- one transaction per commit: versions, heads, outbox events, audit, reviews, outcome, lineage,
  the generation bump and the commit's idempotency row land together or not at all, and the
  staged plan it came from goes in the same transaction;
- idempotent commits: a commit id already applied returns its first result.
"""

from __future__ import annotations

from pathlib import Path

from governed_memory.memory.stores.canonical._db import Database, DatabaseOptions, at_head
from governed_memory.memory.stores.canonical.admissions import Admissions
from governed_memory.memory.stores.canonical.attestations import Attestations
from governed_memory.memory.stores.canonical.audit import Audit
from governed_memory.memory.stores.canonical.commits import Commits
from governed_memory.memory.stores.canonical.consents import Consents
from governed_memory.memory.stores.canonical.erasure import Erasure
from governed_memory.memory.stores.canonical.feedback import Feedback
from governed_memory.memory.stores.canonical.generations import Generations
from governed_memory.memory.stores.canonical.lineage import Lineage
from governed_memory.memory.stores.canonical.messages import Messages
from governed_memory.memory.stores.canonical.outbox import Outbox
from governed_memory.memory.stores.canonical.outcomes import Outcomes
from governed_memory.memory.stores.canonical.principals import Principals
from governed_memory.memory.stores.canonical.receipts import Receipts
from governed_memory.memory.stores.canonical.records import Records
from governed_memory.memory.stores.canonical.reviews import Reviews
from governed_memory.memory.stores.canonical.slots import Slots
from governed_memory.memory.stores.canonical.staged import Staged
from governed_memory.memory.stores.canonical.sweeps import Sweeps

MIGRATIONS = Path(__file__).parent.with_name("migrations")

__all__ = ["MIGRATIONS", "CanonicalStore"]


class CanonicalStore:
    """The parts of the canonical store over one database. Thread-safe."""

    def __init__(self, url: str, options: DatabaseOptions | None = None) -> None:
        self.db = Database(url, options)
        self.url = url
        self.dialect = self.db.dialect
        self.engine = self.db.engine
        self.principals = Principals(self.db)
        self.attestations = Attestations(self.db)
        self.records = Records(self.db)
        self.slots = Slots(self.db)
        self.outcomes = Outcomes(self.db)
        self.audit = Audit(self.db)
        self.outbox = Outbox(self.db)
        self.generations = Generations(self.db)
        self.lineage = Lineage(self.db)
        self.messages = Messages(self.db)
        self.reviews = Reviews(self.db)
        self.staged = Staged(self.db)
        self.receipts = Receipts(self.db)
        self.sweeps = Sweeps(self.db)
        self.feedback = Feedback(self.db)
        self.consents = Consents(self)
        self.admissions = Admissions(self.db)
        self.commits = Commits(self)
        self.erasure = Erasure(self)

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to an Alembic revision, by default the newest (idempotent; a store
        already at this release's head costs one query)."""
        if revision == "head" and at_head(self.db):
            return
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.db.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # A migration may run longer than the service's statement timeout allows.
                conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)

    def close(self) -> None:
        self.db.close()
