"""writer graph hints: the entities and relations a writer proposed with a memory

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03 16:40:00

A candidate may carry the entities it mentions and the relations it states (`GraphHints`),
validated against its own text. They are part of the memory's version, as its content is: the
graph projection derives them with what the extractor finds, and an erasure blanks them with the
content. Existing rows have none.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    for name in ("memory_versions", "memory_heads"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.add_column(sa.Column("graph", JSON, nullable=True))


def downgrade() -> None:
    for name in ("memory_heads", "memory_versions"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.drop_column("graph")
