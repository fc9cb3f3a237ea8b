"""references tools vouch for

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 22:30:00

A `verified_tool_fact` is taken only from the tool that is the system of record for its
reference scheme (a service principal with `tools`), or from an agent citing a reference such a
tool has attested. The attestations live here.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tool_attestations",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("ref", sa.String(length=512), nullable=False),
        sa.Column("scheme", sa.String(length=32), nullable=False),
        sa.Column("attested_by", sa.String(length=256), nullable=False),
        sa.Column("attested_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "ref"),
    )


def downgrade() -> None:
    op.drop_table("tool_attestations")
