"""deletion probes keep salted fingerprints, never the erased text

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 20:30:00

Verification recognises erased text by salted hashes of its windows (memory.fingerprints).
Probe rows left by a deletion still in progress held the erased text itself: they are dropped
(that deletion verifies by id alone), and the text column goes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DELETE FROM deletion_probes")
    with op.batch_alter_table("deletion_probes", schema=None) as batch_op:
        batch_op.drop_column("content")
        batch_op.add_column(sa.Column("salt", sa.String(length=32), nullable=False))
        batch_op.add_column(sa.Column("fingerprint", sa.Text(), nullable=False))


def downgrade() -> None:
    op.execute("DELETE FROM deletion_probes")
    with op.batch_alter_table("deletion_probes", schema=None) as batch_op:
        batch_op.drop_column("fingerprint")
        batch_op.drop_column("salt")
        batch_op.add_column(sa.Column("content", sa.Text(), nullable=False))
