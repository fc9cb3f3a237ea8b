"""conversation messages and reviews

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 23:39:33.653354
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types (see 0001).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "conversation_messages",
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("thread", sa.String(length=128), nullable=True),
        sa.Column("conversation", sa.String(length=256), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("speaker", sa.String(length=256), nullable=False),
        sa.Column("speaker_type", sa.String(length=16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("content_hash", sa.String(length=80), nullable=False),
        sa.Column("workflow_id", sa.String(length=256), nullable=True),
        sa.PrimaryKeyConstraint("message_id"),
        sa.UniqueConstraint("tenant_id", "conversation", "position", name="uq_message_position"),
    )
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.create_index(
            "ix_messages_thread", ["tenant_id", "thread", "position"], unique=False
        )

    op.create_table(
        "reviews",
        sa.Column("review_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason_code", sa.String(length=48), nullable=False),
        sa.Column("workflow_id", sa.String(length=256), nullable=False),
        sa.Column("write_workflow_id", sa.String(length=256), nullable=False),
        sa.Column("conflict_group", sa.String(length=64), nullable=True),
        sa.Column("memory_ids", JSON, nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(length=256), nullable=True),
        sa.Column("decision", JSON, nullable=True),
        sa.PrimaryKeyConstraint("review_id"),
    )
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.create_index("ix_reviews_group", ["conflict_group"], unique=False)
        batch_op.create_index("ix_reviews_open", ["tenant_id", "status"], unique=False)
        batch_op.create_index("ix_reviews_write", ["write_workflow_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.drop_index("ix_reviews_write")
        batch_op.drop_index("ix_reviews_open")
        batch_op.drop_index("ix_reviews_group")

    op.drop_table("reviews")
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_messages_thread")

    op.drop_table("conversation_messages")
