"""the host that serves the embedded projection

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 05:00:00

The embedded projection is a file on one host while the outbox's processed flags are global: a
second host keeping a file of its own would fall behind for good. The first host claims it here;
another is refused with a message pointing to the Weaviate projection.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "projection_hosts",
        sa.Column("projection", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=256), nullable=False),
        sa.Column("epoch", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("projection"),
    )


def downgrade() -> None:
    op.drop_table("projection_hosts")
