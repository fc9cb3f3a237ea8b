"""memory lineage

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 01:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memory_lineage",
        sa.Column("derived_id", sa.String(length=64), nullable=False),
        sa.Column("source_kind", sa.String(length=16), nullable=False),
        sa.Column("source_id", sa.String(length=128), nullable=False),
        sa.Column("derived_version", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("derived_id", "source_kind", "source_id"),
    )
    with op.batch_alter_table("memory_lineage", schema=None) as batch_op:
        batch_op.create_index("ix_lineage_source", ["source_kind", "source_id"], unique=False)


def downgrade() -> None:
    op.drop_table("memory_lineage")
