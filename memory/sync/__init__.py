"""Keeping projections equal to the canonical store.

`apply` projects the current canonical state of memories and marks their outbox events processed
(the only writer of a projection); `relay` applies what the outbox still holds; `repair` compares
canonical and projection and fixes what differs; `state` is their vocabulary (outbox events,
watermarks, head digests, repair records).
"""
