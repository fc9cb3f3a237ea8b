"""idempotency keys are scoped by the principal that wrote

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 21:30:00

A key decided once is never decided again, but only for the principal that sent it: another
principal's write with the same key is another write (before, it got the first writer's outcome
and was dropped). The outcome table gains the principal in its key; rows written before take
the principal their run's audit names (a batch's rows, whose run wrote for several principals,
take the first one it names: a retry of such an old write by another principal is decided anew).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _table(name: str, *keys: str) -> None:
    op.create_table(
        name,
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        *(
            [sa.Column("principal", sa.String(length=256), nullable=False)]
            if "principal" in keys
            else []
        ),
        sa.Column("idempotency_key", sa.String(length=200), nullable=False),
        sa.Column("workflow_id", sa.String(length=256), nullable=False),
        sa.Column("outcomes", JSON, nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(*keys, name=f"pk_{name}"),
    )


def upgrade() -> None:
    _table("write_outcomes_by_principal", "tenant_id", "principal", "idempotency_key")
    op.execute(
        """
        INSERT INTO write_outcomes_by_principal
            (tenant_id, principal, idempotency_key, workflow_id, outcomes, decided_at)
        SELECT w.tenant_id,
               COALESCE(
                   (SELECT a.principal FROM audit_events a
                     WHERE a.workflow_id = w.workflow_id AND a.principal IS NOT NULL
                     ORDER BY a.seq LIMIT 1),
                   ''),
               w.idempotency_key, w.workflow_id, w.outcomes, w.decided_at
          FROM write_outcomes w
        """
    )
    op.drop_table("write_outcomes")
    op.rename_table("write_outcomes_by_principal", "write_outcomes")


def downgrade() -> None:
    _table("write_outcomes_by_key", "tenant_id", "idempotency_key")
    op.execute(
        """
        INSERT INTO write_outcomes_by_key
            (tenant_id, idempotency_key, workflow_id, outcomes, decided_at)
        SELECT w.tenant_id, w.idempotency_key, w.workflow_id, w.outcomes, w.decided_at
          FROM write_outcomes w
         WHERE NOT EXISTS (
               SELECT 1 FROM write_outcomes o
                WHERE o.tenant_id = w.tenant_id AND o.idempotency_key = w.idempotency_key
                  AND o.principal < w.principal)
        """
    )
    op.drop_table("write_outcomes")
    op.rename_table("write_outcomes_by_key", "write_outcomes")
