"""conversation messages carry their sensitivity

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 09:30:00

A message is screened before it is stored (secrets redacted, sensitive categories found): the
conversation slice of a context shows a message only to principals whose sensitivity ceiling
reaches it. Messages stored before this revision are `internal`, what the slice assumed.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "sensitivity", sa.String(length=16), nullable=False, server_default="internal"
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.drop_column("sensitivity")
