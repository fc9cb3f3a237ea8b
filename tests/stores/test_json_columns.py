"""JSON columns keep their text as written, in any script: what an erasure looks for in a
column's text (`mentioning`: erased ids and keys in outcomes, staged plans, review tasks) is
found whether it is ASCII or not, on SQLite and Postgres."""

from __future__ import annotations

from sqlalchemy import insert, select

from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.canonical._db import mentioning
from governed_memory.memory.stores.schema import applied_commits
from tests.factories import T0


def test_a_non_ascii_value_in_a_json_column_is_found_by_its_text(stores: Stores) -> None:
    db = stores.canonical.db
    with db.write() as conn:
        conn.execute(
            insert(applied_commits),
            [
                {"commit_id": "c-1", "result": {"keys": ["偏好.颜色"]}, "committed_at": T0},
                {
                    "commit_id": "c-2",
                    "result": {"keys": ["notification.preference"]},
                    "committed_at": T0,
                },
                {
                    "commit_id": "c-3",
                    "result": {"keys": ["偏好.尺码"], "n": {1: "x"}},
                    "committed_at": T0,
                },
            ],
        )
    with db.read() as conn:
        found = {
            cid
            for said in mentioning(
                applied_commits.c.result, ["偏好.颜色", "notification.preference"]
            )
            for cid in conn.execute(select(applied_commits.c.commit_id).where(said)).scalars()
        }
        # read back as written (a non-string key as JSON makes it: a string)
        third = conn.execute(
            select(applied_commits.c.result).where(applied_commits.c.commit_id == "c-3")
        ).scalar_one()
    assert found == {"c-1", "c-2"}
    assert third == {"keys": ["偏好.尺码"], "n": {"1": "x"}}
