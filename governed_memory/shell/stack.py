"""The embedded stack for one machine: the Temporal dev server and a worker, started on demand.

`memctl dev` runs it in the foreground; `memctl demo`, `memctl eval` and `memctl bench` use
`embedded_stack()` to reuse what is already running or start (and later stop) what is missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from temporalio.api.enums.v1 import TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest
from temporalio.client import Client

from governed_memory.memory.errors import ServiceUnavailable
from governed_memory.memory.extras import missing
from governed_memory.memory.metrics import free_port
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.devserver import DevServer, port_open, split_address
from governed_memory.shell.temporal import connect


async def has_pollers(client: Client, namespace: str, task_queue: str) -> bool:
    reply = await client.workflow_service.describe_task_queue(
        DescribeTaskQueueRequest(
            namespace=namespace,
            task_queue=TaskQueue(name=task_queue),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        )
    )
    return len(reply.pollers) > 0


@dataclass
class Stack:
    client: MemoryClient
    started_server: bool
    started_worker: bool


@asynccontextmanager
async def embedded_stack(
    settings: Settings, *, always_own_worker: bool = False, log: bool = True
) -> AsyncIterator[Stack]:
    """Connect to Temporal (starting the dev server if nothing listens) and make sure a worker
    polls the task queue (starting one in this process if none does). Stops what it started."""
    from governed_memory.shell.worker import build_worker, ensure_search_attributes

    async with AsyncExitStack() as exit_stack:
        host, port = split_address(settings.temporal_address)
        started_server = False
        if not port_open(host, port):
            if host not in ("127.0.0.1", "localhost"):
                raise ServiceUnavailable(f"Temporal at {settings.temporal_address} is unreachable")
            headless = port_open("127.0.0.1", settings.dev_ui_port)
            # With the server extra, the UI sits behind shell/ui_proxy.py, which lets it send
            # the codec server's sign-in cookie: it decodes with nothing set by hand.
            proxy = not headless and not missing("server")
            server = DevServer(
                settings.data_dir / "temporal.db",
                port=port,
                ui_port=free_port() if proxy else settings.dev_ui_port,
                namespace=settings.temporal_namespace,
                headless=headless,
                ui_codec_endpoint=settings.codec_server_url,
            )
            if log:
                print(f"· starting the Temporal dev server on {server.address} ...", flush=True)
            await asyncio.to_thread(server.start)
            exit_stack.callback(server.stop)
            started_server = True
            if proxy:
                from governed_memory.shell.ui_proxy import proxied_ui

                await exit_stack.enter_async_context(
                    proxied_ui(server.ui_port, settings.dev_ui_port)
                )
        temporal = await connect(settings)
        stores: Stores = await asyncio.to_thread(open_stores, settings)  # migrations, files
        exit_stack.callback(stores.close)
        started_worker = False
        if always_own_worker or not await has_pollers(
            temporal, settings.temporal_namespace, settings.task_queue
        ):
            await ensure_search_attributes(temporal, settings.temporal_namespace)
            worker = build_worker(temporal, settings, stores)
            await exit_stack.enter_async_context(worker)
            started_worker = True
            if log:
                print(f"· worker polling task queue {settings.task_queue!r} in this process")
        yield Stack(MemoryClient(temporal, settings, stores), started_server, started_worker)
