"""feedback on memories, and what it taught recall

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02 07:30:00

`memory_feedback` keeps the seed's MemoryFeedbackEvent (ids, types, sources, times; no words)
with the effect each had; `memory_signals` what recall learned from it (an ignored streak and a
rank weight). Both are erased with the memory they point to.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "memory_feedback",
        sa.Column("event_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("memory_version", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.String(length=200), nullable=True),
        sa.Column("feedback_type", sa.String(length=16), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("given_by", sa.String(length=256), nullable=False),
        sa.Column("evidence_refs", JSON, nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("effect", sa.String(length=32), nullable=False),
        sa.Column("effect_ref", sa.String(length=256), nullable=True),
        sa.PrimaryKeyConstraint("event_id"),
    )
    op.create_index("ix_feedback_memory", "memory_feedback", ["memory_id"])
    op.create_index("ix_feedback_run", "memory_feedback", ["tenant_id", "run_id"])
    op.create_table(
        "memory_signals",
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("ignored_streak", sa.Integer(), nullable=False),
        sa.Column("rank_weight", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("memory_id"),
    )
    op.create_index("ix_signals_lowered", "memory_signals", ["tenant_id", "rank_weight"])


def downgrade() -> None:
    op.drop_index("ix_signals_lowered", table_name="memory_signals")
    op.drop_table("memory_signals")
    op.drop_index("ix_feedback_run", table_name="memory_feedback")
    op.drop_index("ix_feedback_memory", table_name="memory_feedback")
    op.drop_table("memory_feedback")
