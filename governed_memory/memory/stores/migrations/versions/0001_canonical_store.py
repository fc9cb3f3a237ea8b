"""canonical store

Revision ID: 0001
Revises:
Create Date: 2026-11-29 23:02:33.933077
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types, so later changes to memory/stores/schema.py never alter
# what this revision creates.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "applied_commits",
        sa.Column("commit_id", sa.String(length=256), nullable=False),
        sa.Column("result", JSON, nullable=False),
        sa.Column("committed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("commit_id"),
    )
    op.create_table(
        "audit_events",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=True),
        sa.Column("workflow_id", sa.String(length=256), nullable=True),
        sa.Column("stage", sa.String(length=48), nullable=False),
        sa.Column("outcome", sa.String(length=48), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=True),
        sa.Column("relation", sa.String(length=16), nullable=True),
        sa.Column("reason_code", sa.String(length=48), nullable=True),
        sa.Column("memory_id", sa.String(length=64), nullable=True),
        sa.Column("memory_version", sa.Integer(), nullable=True),
        sa.Column("principal", sa.String(length=256), nullable=True),
        sa.Column("extractor", JSON, nullable=True),
        sa.Column("details", JSON, nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.create_index("ix_audit_memory", ["memory_id"], unique=False)
        batch_op.create_index("ix_audit_workflow", ["workflow_id"], unique=False)

    op.create_table(
        "cache_generations",
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column(
            "generation",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("namespace"),
    )
    op.create_table(
        "deletion_probes",
        sa.Column("deletion_id", sa.String(length=64), nullable=False),
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("deletion_id", "memory_id"),
    )
    op.create_table(
        "deletion_receipts",
        sa.Column("deletion_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("scope_fingerprint", sa.String(length=32), nullable=False),
        sa.Column("verification_status", sa.String(length=16), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("receipt", JSON, nullable=False),
        sa.PrimaryKeyConstraint("deletion_id"),
    )
    with op.batch_alter_table("deletion_receipts", schema=None) as batch_op:
        batch_op.create_index("ix_receipts_scope", ["tenant_id", "scope_fingerprint"], unique=False)

    op.create_table(
        "key_slots",
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("slot", sa.String(length=160), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("namespace", "slot"),
    )
    op.create_table(
        "memory_heads",
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("subject_ref", sa.String(length=256), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("structured_value", JSON, nullable=True),
        sa.Column("source_refs", JSON, nullable=False),
        sa.Column("source_type", sa.String(length=32), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("sensitivity", sa.String(length=16), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("valid_to", sa.DateTime(timezone=True), nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("consent_ref", sa.String(length=256), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("content_hash", sa.String(length=80), nullable=False),
        sa.Column("extractor", JSON, nullable=False),
        sa.Column("written_by", sa.String(length=256), nullable=False),
        sa.Column("conflict_group", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("memory_id"),
    )
    with op.batch_alter_table("memory_heads", schema=None) as batch_op:
        batch_op.create_index("ix_heads_expires", ["expires_at"], unique=False)
        batch_op.create_index("ix_heads_ns_key", ["namespace", "key"], unique=False)
        batch_op.create_index("ix_heads_ns_hash", ["namespace", "content_hash"], unique=False)
        batch_op.create_index("ix_heads_tenant_subject", ["tenant_id", "subject_ref"], unique=False)

    op.create_table(
        "memory_outbox",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("event_id", sa.String(length=96), nullable=False),
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("memory_version", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("operation", sa.String(length=32), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("event_id"),
    )
    with op.batch_alter_table("memory_outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_unprocessed", ["processed_at", "seq"], unique=False)

    op.create_table(
        "memory_versions",
        sa.Column("memory_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("namespace", sa.String(length=256), nullable=False),
        sa.Column("subject_ref", sa.String(length=256), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("structured_value", JSON, nullable=True),
        sa.Column("source_refs", JSON, nullable=False),
        sa.Column("source_type", sa.String(length=32), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("sensitivity", sa.String(length=16), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("valid_to", sa.DateTime(timezone=True), nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("consent_ref", sa.String(length=256), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("content_hash", sa.String(length=80), nullable=False),
        sa.Column("extractor", JSON, nullable=False),
        sa.Column("written_by", sa.String(length=256), nullable=False),
        sa.Column("conflict_group", sa.String(length=64), nullable=True),
        sa.Column("change", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("memory_id", "version"),
    )
    op.create_table(
        "principals",
        sa.Column("ref", sa.String(length=256), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("definition", JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("ref"),
    )


def downgrade() -> None:
    op.drop_table("principals")
    op.drop_table("memory_versions")
    with op.batch_alter_table("memory_outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_unprocessed")

    op.drop_table("memory_outbox")
    with op.batch_alter_table("memory_heads", schema=None) as batch_op:
        batch_op.drop_index("ix_heads_tenant_subject")
        batch_op.drop_index("ix_heads_ns_key")
        batch_op.drop_index("ix_heads_expires")

    op.drop_table("memory_heads")
    op.drop_table("key_slots")
    with op.batch_alter_table("deletion_receipts", schema=None) as batch_op:
        batch_op.drop_index("ix_receipts_scope")

    op.drop_table("deletion_receipts")
    op.drop_table("deletion_probes")
    op.drop_table("cache_generations")
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_workflow")
        batch_op.drop_index("ix_audit_memory")

    op.drop_table("audit_events")
    op.drop_table("applied_commits")
