"""projection watermarks and repairs; outbox events by memory; a deletion's resolved scope

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 02:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types (see 0001).
SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "projection_watermarks",
        sa.Column("projection", sa.String(length=64), nullable=False),
        sa.Column("last_event_seen", sa.BigInteger(), nullable=False),
        sa.Column("last_event_committed", sa.BigInteger(), nullable=False),
        sa.Column("last_index_updated", sa.BigInteger(), nullable=False),
        sa.Column("repair_seq", sa.BigInteger(), nullable=False),
        sa.Column("repair_written", sa.BigInteger(), nullable=False),
        sa.Column("epoch", sa.String(length=64)),
        sa.Column("last_repair_at", sa.DateTime(timezone=True)),
        sa.Column("last_full_repair_at", sa.DateTime(timezone=True)),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("projection"),
    )
    op.create_table(
        "projection_repairs",
        sa.Column("id", SEQ, autoincrement=True, nullable=False),
        sa.Column("repair_id", sa.String(length=128), nullable=False),
        sa.Column("projection", sa.String(length=64), nullable=False),
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256)),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("result", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_repairs_run", "projection_repairs", ["repair_id"])
    op.create_index("ix_repairs_memory", "projection_repairs", ["memory_id"])
    # a write found already decided settles its memories' pending events (see settle())
    op.create_index("ix_outbox_memory", "memory_outbox", ["memory_id", "processed_at"])
    with op.batch_alter_table("deletion_receipts") as batch:
        batch.add_column(sa.Column("started", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deletion_receipts") as batch:
        batch.drop_column("started")
    op.drop_index("ix_outbox_memory", table_name="memory_outbox")
    op.drop_index("ix_repairs_memory", table_name="projection_repairs")
    op.drop_index("ix_repairs_run", table_name="projection_repairs")
    op.drop_table("projection_repairs")
    op.drop_table("projection_watermarks")
