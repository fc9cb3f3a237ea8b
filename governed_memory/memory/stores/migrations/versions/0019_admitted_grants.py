"""admitted grants: a grant admits one run

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-03 12:40:00

A grant (memory.grants) binds a workflow type, id and input; without a record of the run it
admitted, the same granted input read from a history could be started again under the same id
(another task queue, a start delay, a cron schedule) within its start window. The first run a
grant admits is kept here by the grant's hash; another run is refused. Rows hold hashes and ids,
no content, and go once the grant's start window is long past (the expiry sweep).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "admitted_grants",
        sa.Column("grant_hash", sa.String(length=80), primary_key=True),
        sa.Column("run_id", sa.String(length=64), nullable=False),
        sa.Column("workflow_id", sa.String(length=256), nullable=False),
        sa.Column("admitted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_admitted_grants_at", "admitted_grants", ["admitted_at"])


def downgrade() -> None:
    op.drop_index("ix_admitted_grants_at", table_name="admitted_grants")
    op.drop_table("admitted_grants")
