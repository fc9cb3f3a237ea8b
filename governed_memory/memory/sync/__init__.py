"""Keeping projections equal to the canonical store.

`apply` projects the current canonical state of memories and marks their outbox events processed
(the only writer of a projection); `commit` commits a plan and projects it at once; `relay`
applies what the outbox still holds; `repair` compares canonical and projection and fixes what
differs. Their vocabulary (outbox events, watermarks, head digests, repair records) is a
model module (`memory.models.sync`): `sync` imports `stores`, never the other way.
"""
