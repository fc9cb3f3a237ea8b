"""consents a subject gave, and what depends on them

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03 09:00:00

`consents` records each consent (its subject, purpose, who gave it, when, and when it was
revoked): a memory's `consent_ref` must name one in force for its subject. Memories are indexed by
their consent so that a revocation finds what depended on it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "consents",
        sa.Column("consent_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("subject_ref", sa.String(length=256), nullable=False),
        sa.Column("purpose", sa.Text(), nullable=False),
        sa.Column("given_by", sa.String(length=256), nullable=False),
        sa.Column("given_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=256), nullable=True),
        sa.PrimaryKeyConstraint("consent_id"),
    )
    op.create_index("ix_consents_subject", "consents", ["tenant_id", "subject_ref"])
    op.create_index("ix_heads_consent", "memory_heads", ["tenant_id", "consent_ref"])


def downgrade() -> None:
    op.drop_index("ix_heads_consent", table_name="memory_heads")
    op.drop_index("ix_consents_subject", table_name="consents")
    op.drop_table("consents")
