"""export pages: a namespace's heads in memory id order

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-10 10:00:00

An export is read a page at a time, a namespace's heads in memory id order after the last one
sent (`ix_heads_ns_id`). An index only: no row changes.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_heads_ns_id", "memory_heads", ["namespace", "memory_id"])


def downgrade() -> None:
    op.drop_index("ix_heads_ns_id", table_name="memory_heads")
