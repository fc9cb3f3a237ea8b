"""memory gists: what a memory says, for duplicate detection and the slot of a memory without key

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 03:30:00

A memory without key used to take its concurrency slot from its content hash, and a near-duplicate
was anything whose vector came close — which dropped distinct facts that differ in a number or an
identifier. The gist (`memory.sameness`) is the canonical sequence of what a text says; its hash is
now the slot of a memory without key and the DUPLICATE rule. Existing rows are given their gist
here, computed by the current `memory.sameness.gist_of` (a gist carries its version prefix; a new
version of the rule ships with a migration that computes the gists again). Erased rows keep none.
Deletion fences recorded before this migration name `hash:` slots, which no new write uses: only
writes decided before the upgrade could still be in flight against them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for name in ("memory_versions", "memory_heads"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.add_column(sa.Column("gist", sa.String(length=48), nullable=True))
    from governed_memory.memory.stores.gists import recompute_gists

    recompute_gists(op.get_bind(), "memory_versions", ["memory_id", "version"])
    recompute_gists(op.get_bind(), "memory_heads", ["memory_id"])
    with op.batch_alter_table("memory_heads", schema=None) as batch_op:
        batch_op.create_index("ix_heads_ns_gist", ["namespace", "gist"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("memory_heads", schema=None) as batch_op:
        batch_op.drop_index("ix_heads_ns_gist")
    for name in ("memory_heads", "memory_versions"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.drop_column("gist")
