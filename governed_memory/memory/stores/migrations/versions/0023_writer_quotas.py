"""writer quotas: how many active memories a writer keeps in a namespace, by index

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-10 10:10:00

A write is refused at the door when its writer already keeps its quota of active memories in
the namespace (`[quotas] memories_per_namespace`), counted per write: `ix_heads_ns_writer` makes
that count an index-only one. An index only: no row changes.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_heads_ns_writer", "memory_heads", ["namespace", "written_by", "status"])


def downgrade() -> None:
    op.drop_index("ix_heads_ns_writer", table_name="memory_heads")
