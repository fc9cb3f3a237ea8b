"""gists g2: synonyms, fronted phrases and the English passive said one way

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 09:40:00

The gist rule of `memory.sameness` now reads everyday synonyms ("purchased" is "bought", 购买 is
买), a phrase put in front of a sentence and the English passive as the same statement, so its
version moves from g1 to g2 and every stored gist of another version is computed again. A memory
without key whose gist changes takes a new concurrency slot (`gist:…`), like any first write.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from governed_memory.memory.stores.gists import recompute_gists

    recompute_gists(op.get_bind(), "memory_versions", ["memory_id", "version"])
    recompute_gists(op.get_bind(), "memory_heads", ["memory_id"])


def downgrade() -> None:
    """The g1 rule is no longer in the code: the g2 gists stay (a reader of g1 computes its own
    for any stored gist of another version)."""
