"""plans staged by commit id, review tasks kept with their reviews

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 21:00:00

Workflows carry ids between activities, not content: a decided plan waits in `staged_plans`
until its commit (which deletes it), and what a review needs to be settled (the write that
opened it, the drafts it waits on) is kept in `reviews.task` instead of the review workflow's
input.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "staged_plans",
        sa.Column("commit_id", sa.String(length=256), primary_key=True),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("plan", JSON, nullable=False),
        sa.Column("staged_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_staged_namespace", "staged_plans", ["namespace"])
    op.create_index("ix_staged_at", "staged_plans", ["staged_at"])
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.add_column(sa.Column("task", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.drop_column("task")
    op.drop_index("ix_staged_at", table_name="staged_plans")
    op.drop_index("ix_staged_namespace", table_name="staged_plans")
    op.drop_table("staged_plans")
