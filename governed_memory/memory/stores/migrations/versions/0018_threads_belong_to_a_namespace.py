"""thread ids belong to a namespace

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03 11:00:00

A message's position was unique per tenant and conversation (a thread id, or the namespace), so
thread `t` was one conversation across the tenant: a user reusing another's thread id took its
positions, its summaries and its context. Positions are now per namespace and conversation, and
threads are looked up within their namespace. Existing rows keep their positions (each was unique
tenant-wide, so it stays unique within its namespace).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_messages_thread")
        batch_op.drop_constraint("uq_message_position", type_="unique")
        batch_op.create_unique_constraint(
            "uq_message_position", ["tenant_id", "namespace", "conversation", "position"]
        )
        batch_op.create_index(
            "ix_messages_thread", ["tenant_id", "namespace", "thread", "position"], unique=False
        )


def downgrade() -> None:
    # Positions of one thread id in several namespaces may collide tenant-wide: a downgrade
    # refuses (a unique violation) rather than merge conversations.
    with op.batch_alter_table("conversation_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_messages_thread")
        batch_op.drop_constraint("uq_message_position", type_="unique")
        batch_op.create_unique_constraint(
            "uq_message_position", ["tenant_id", "conversation", "position"]
        )
        batch_op.create_index(
            "ix_messages_thread", ["tenant_id", "thread", "position"], unique=False
        )
