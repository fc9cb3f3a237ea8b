"""Governed memory for AI agents, on Temporal durable execution.

memory      the domain: models, policy, detectors, the canonical store and its projections
shell       how people and programs reach it: the URL client, the HTTP API, MCP, `memctl`
workflows   the lifecycles (links to the top-level `workflows/` folder)
activities  the activities, one-line adapters over the domain's services (`activities/`)

Only `pydantic` and `httpx` are needed for the URL client (`governed_memory.shell.remote`);
the service itself is the `service` extra (docs/install.md).
"""
