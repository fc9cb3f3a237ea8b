"""A client generated from the published OpenAPI document (openapi-python-client, as a user
would generate one) drives a write, a recall and a deletion against the running API, and reads
every refusal as the typed problem the document promises (the document once described 422s with
FastAPI's own schema, and a generated client crashed on each one)."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

from governed_memory.shell.client import MemoryClient
from tests.factories import sms

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
PACKAGE = "memory_api_client"


def _generate(url: str, into: Path) -> ModuleType:
    """The client package, generated from the served document into `into`, imported."""
    (into / "openapi.json").write_bytes(httpx.get(f"{url}/openapi.json").content)
    (into / "config.yaml").write_text(
        f"package_name_override: {PACKAGE}\nproject_name_override: memory-api-client\n"
        "post_hooks: []\n"
    )
    generator = Path(sys.executable).parent / "openapi-python-client"
    subprocess.run(
        [generator, "generate", "--path", "openapi.json", "--config", "config.yaml"],
        cwd=into,
        check=True,
        capture_output=True,
        timeout=300,
    )
    sys.path.insert(0, str(into / "memory-api-client"))
    importlib.invalidate_caches()
    return importlib.import_module(PACKAGE)


def _use(pkg: ModuleType, url: str, token: str, other_token: str) -> dict[str, Any]:
    """A write, a recall, a deletion and its receipt, and the refusals, with the generated
    client only. Returns what each call gave."""
    api = importlib.import_module(f"{PACKAGE}.api")
    models = importlib.import_module(f"{PACKAGE}.models")
    writes = importlib.import_module(f"{api.__name__}.writes.write_v1_memories_post")
    recall = importlib.import_module(f"{api.__name__}.reads.recall_v1_recall_post")
    forget = importlib.import_module(f"{api.__name__}.deletion.forget_v1_forget_post")
    receipt = importlib.import_module(
        f"{api.__name__}.deletion.receipt_v1_receipts_deletion_id_get"
    )
    me = pkg.AuthenticatedClient(base_url=url, token=token, timeout=httpx.Timeout(120))
    seen: dict[str, Any] = {}

    body = models.WriteBody(namespace=BOB_NS, candidate=models.Candidate.from_dict(sms()))
    seen["write"] = writes.sync_detailed(client=me, body=body)
    ask = models.RecallAsk(namespaces=[BOB_NS], task="通知物流异常")
    seen["recall"] = recall.sync_detailed(client=me, body=ask)

    bad = models.Candidate.from_dict({**sms(), "key": "Not A Key!"})
    seen["invalid"] = writes.sync_detailed(
        client=me, body=models.WriteBody(namespace=BOB_NS, candidate=bad)
    )
    stranger = pkg.AuthenticatedClient(base_url=url, token=other_token)
    seen["forbidden"] = writes.sync_detailed(client=stranger, body=body)
    nobody = pkg.AuthenticatedClient(base_url=url, token="not-a-token")
    seen["unauthenticated"] = recall.sync_detailed(client=nobody, body=ask)

    scope = models.DeletionScope(namespace=BOB_NS, key="notification.preference")
    seen["forget"] = forget.sync_detailed(client=me, body=models.ForgetBody(scope=scope))
    seen["receipt"] = receipt.sync_detailed(seen["forget"].parsed.deletion_id, client=me)
    seen["missing"] = receipt.sync_detailed("del_000000000000000000000000", client=me)
    seen["after"] = recall.sync_detailed(client=me, body=ask)
    seen["Problem"] = models.Problem
    return seen


async def test_a_generated_client_writes_recalls_forgets_and_reads_problems(
    served: str, client: MemoryClient, tmp_path: Path
) -> None:
    pkg = await asyncio.to_thread(_generate, served, tmp_path)
    seen = await asyncio.to_thread(
        _use, pkg, served, client.token_for(BOB), client.token_for("user:shop-a/123")
    )
    problem = seen["Problem"]

    assert seen["write"].status_code == 200, seen["write"].content
    assert [o.decision for o in seen["write"].parsed.outcomes] == ["add"]
    found = seen["recall"].parsed.memories
    assert [m.key for m in found] == ["notification.preference"]
    assert found[0].structured_value.to_dict() == {"channel": "sms"}

    for name, status, code in (
        ("invalid", 422, "invalid_input"),
        ("forbidden", 403, "unauthorized_namespace"),
        ("unauthenticated", 401, "unauthenticated"),
        ("missing", 404, "not_found"),
    ):
        response = seen[name]
        assert response.status_code == status, (name, response.content)
        assert isinstance(response.parsed, problem), (name, response.parsed)
        assert (response.parsed.status, response.parsed.code) == (status, code), name
        assert response.parsed.request_id == response.headers["x-request-id"]
    assert seen["invalid"].parsed.field == "candidate.key"

    assert seen["forget"].parsed.verification_status == "passed"
    assert seen["receipt"].parsed.deletion_id == seen["forget"].parsed.deletion_id
    assert seen["after"].parsed.memories == []
