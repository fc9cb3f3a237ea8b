"""What workflows and their activities exchange: the activities' inputs and outputs.

A workflow module imports these, the lifecycles' models (`memory.models`) and the activity
classes (whose services they name for typing only), so loading a workflow (a worker's sandbox,
a replay, a client starting it by typed reference) loads pydantic and Temporal, not the stores,
the detectors or numpy. What travels here is ids, hashes and decisions, never people's words
beyond what a request carries.

    admission    a run's admission (its grant's digest) and its continuation
    writes       deciding, staging and committing a write; a batch
    deletions    a deletion's steps, its receipt's timer, the expiry sweep
    projections  projecting committed memories; a repair's pages and cursor
    reviews      opening and settling a review
    summaries    planning a thread's summary
    promotions   planning a promotion (the copy, or the review it waits for)
    feedback     recording feedback and retiring what a correction replaced
"""
