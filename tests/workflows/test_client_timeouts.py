"""A client call never hangs silently: with no worker polling its task queue it says so within
its timeout, and names the run that waits."""

from __future__ import annotations

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.errors import ServiceUnavailable
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.shell.client import MemoryClient
from tests.factories import NS, USER, sms


async def test_no_worker_is_said_not_waited_for(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> None:
    quick = settings.model_copy(update={"client_timeout_seconds": 1.5})
    client = MemoryClient(temporal_env.client, quick, stores)
    client.eager = False  # no worker in this process either
    with pytest.raises(ServiceUnavailable, match="no worker polls task queue"):
        await client.write(USER, NS, sms())
    assert not await client.runs.workers_polling()
