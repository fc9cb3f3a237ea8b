"""deletion ledger and fences

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 00:55:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types (see 0001).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "deletion_ledger",
        sa.Column("deletion_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("entry", JSON, nullable=False),
        sa.Column("committed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("deletion_id"),
    )
    op.create_table(
        "deletion_fences",
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("slot", sa.String(length=160), nullable=False),
        sa.Column("deletion_id", sa.String(length=64), nullable=False),
        sa.Column("committed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("namespace", "slot", "deletion_id"),
    )


def downgrade() -> None:
    op.drop_table("deletion_fences")
    op.drop_table("deletion_ledger")
