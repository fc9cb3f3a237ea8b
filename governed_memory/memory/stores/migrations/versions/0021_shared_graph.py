"""shared graph: the graph projection in the canonical database

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-03 16:50:00

A deployment whose projection keeps no graph (Weaviate, many hosts) keeps it here, beside the
heads it is derived from and read joined to (`memory.stores.projection.shared_graph`). Like any projection
it is derived by the sync path from canonical, compared and rebuilt by the repair, and may be
dropped at any time. Rows hold the names a memory says; a removal deletes them with the memory.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "graph_mentions",
        sa.Column("entity", sa.String(length=256), primary_key=True),
        sa.Column("namespace", sa.String(length=256), primary_key=True),
        sa.Column("memory_id", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("weak", sa.Integer(), nullable=False),
    )
    op.create_index("ix_graph_mentions_memory", "graph_mentions", ["memory_id"])
    op.create_index("ix_graph_mentions_ns", "graph_mentions", ["namespace"])
    op.create_table(
        "graph_aliases",
        sa.Column("alias", sa.String(length=256), primary_key=True),
        sa.Column("namespace", sa.String(length=256), primary_key=True),
        sa.Column("entity", sa.String(length=256), primary_key=True),
        sa.Column("memory_id", sa.String(length=64), primary_key=True),
    )
    op.create_index("ix_graph_aliases_entity", "graph_aliases", ["entity", "namespace"])
    op.create_index("ix_graph_aliases_memory", "graph_aliases", ["memory_id"])
    op.create_table(
        "graph_relations",
        sa.Column("subject", sa.String(length=256), primary_key=True),
        sa.Column("namespace", sa.String(length=256), primary_key=True),
        sa.Column("predicate", sa.String(length=32), primary_key=True),
        sa.Column("object", sa.String(length=256), primary_key=True),
        sa.Column("memory_id", sa.String(length=64), primary_key=True),
    )
    op.create_index("ix_graph_relations_object", "graph_relations", ["object", "namespace"])
    op.create_index("ix_graph_relations_memory", "graph_relations", ["memory_id"])
    op.create_table(
        "graph_done",
        sa.Column("memory_id", sa.String(length=64), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("extractor", sa.String(length=16), nullable=False),
        sa.Column("removed", sa.Integer(), nullable=False),
    )
    op.create_table(
        "graph_epoch",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("epoch", sa.String(length=64), nullable=False),
    )


def downgrade() -> None:
    for table in ("graph_epoch", "graph_done", "graph_relations", "graph_aliases"):
        op.drop_table(table)
    op.drop_table("graph_mentions")
