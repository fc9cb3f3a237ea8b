"""The HTTP API and the memory page (`memctl serve`): `app` puts them together.

This package's `__init__` imports nothing, so that importing one of its modules (the page, who
calls) does not import the app and every router with it.
"""
