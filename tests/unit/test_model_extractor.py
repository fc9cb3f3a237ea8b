"""The model extractor's contract, against a local HTTP server that replays recorded chat
completions (tests/fixtures/model_extractor/completions.json, written by hand): no model runs
here. What is tested is what the extractor sends (an OpenAI-compatible request with a strict
JSON schema, the key as a Bearer token, never a secret of the text), what it takes of an answer
(verbatim clauses, normalised values, clamped confidences), that every failure of the endpoint
or of its answer hands the text to the rule extractor, and that a batch written through
`WriteService` with the model's candidates still goes through governance."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY
from pydantic import SecretStr, ValidationError

from governed_memory.memory.contracts.writes import BatchInput, DecideInput
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import CandidateOutcome, WriteRequest
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services.writes import WriteService
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.extraction import RuleExtractor
from governed_memory.memory.write.extraction import model as model_module
from governed_memory.memory.write.extraction.model import (
    ANSWER_SCHEMA,
    BatchExtractor,
    ModelExtractor,
    model_extractor,
)
from tests.factories import NS, T0, USER

FIXTURE = Path(__file__).parents[1] / "fixtures" / "model_extractor" / "completions.json"
RECORDINGS: dict[str, dict[str, Any]] = {
    r["name"]: r for r in json.loads(FIXTURE.read_text(encoding="utf-8"))["recordings"]
}
SH = "Asia/Shanghai"
MODEL = "gpt-4o-mini"
RULES = RuleExtractor()


def text_of(name: str) -> str:
    return str(RECORDINGS[name]["text"])


def _answer(name: str) -> dict[str, Any]:
    """The model's answer in a recording (the completion's content, parsed)."""
    content = RECORDINGS[name]["completion"]["choices"][0]["message"]["content"]
    answer: dict[str, Any] = json.loads(content)
    return answer


# --------------------------------------------------------------------------------------------
# The replaying server


class Replay(ThreadingHTTPServer):
    """Answers POST /v1/chat/completions with the recording whose text is the request's user
    message (404 for none), or as `mode` says: `error` (500), `slow` (after `delay` seconds),
    `html` (a proxy's error page with status 200)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.replies = {r["text"]: r["completion"] for r in RECORDINGS.values()}
        self.seen: list[dict[str, Any]] = []
        self.mode = "replay"
        self.delay = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that timed out has gone: nothing to report."""


class _Handler(BaseHTTPRequestHandler):
    server: Replay

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.seen.append({"path": self.path, "headers": headers, "body": body})
        mode = self.server.mode
        if mode == "error":
            error = {"error": {"message": "The server is overloaded", "type": "server_error"}}
            self._send(500, json.dumps(error).encode())
            return
        if mode == "html":
            self._send(200, b"<html><body>502 Bad Gateway</body></html>", "text/html")
            return
        if mode == "slow":
            time.sleep(self.server.delay)
        reply = self.server.replies.get(body["messages"][-1]["content"])
        if reply is None:
            self._send(404, b'{"error": {"message": "no recording", "type": "not_found"}}')
            return
        self._send(200, json.dumps(reply, ensure_ascii=False).encode())

    def _send(self, status: int, payload: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Replay]:
    replay = Replay()
    thread = threading.Thread(target=replay.serve_forever, daemon=True)
    thread.start()
    yield replay
    replay.shutdown()
    replay.server_close()


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def extractor(url: str, **over: Any) -> ModelExtractor:
    return ModelExtractor(url, MODEL, **{"cooldown": 0.0, **over})


def count(metric: str, reason: str) -> float:
    return REGISTRY.get_sample_value(f"memory_extractor_{metric}_total", {"reason": reason}) or 0.0


class Logged:
    """Stands in for the module's logger: what it was told."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def warning(self, event: str, **fields: Any) -> None:
        self.events.append({"event": event, **fields})


@pytest.fixture
def logged(monkeypatch: pytest.MonkeyPatch) -> Logged:
    found = Logged()
    monkeypatch.setattr(model_module, "log", found)
    return found


# --------------------------------------------------------------------------------------------
# The request


def _strict(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every object schema in `schema`."""
    if schema.get("type") == "object":
        yield schema
        for sub in schema["properties"].values():
            yield from _strict(sub)
    if "items" in schema:
        yield from _strict(schema["items"])


def test_the_request_is_a_chat_completion_with_a_strict_json_schema(server: Replay) -> None:
    text = text_of("preferences_en")
    extractor(server.url + "/", key="sk-test-not-a-real-key").extract(text, default_timezone=SH)
    [seen] = server.seen
    assert seen["path"] == "/v1/chat/completions"
    assert seen["headers"]["authorization"] == "Bearer sk-test-not-a-real-key"
    assert seen["headers"]["content-type"] == "application/json"
    body = seen["body"]
    assert body["model"] == MODEL
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"] == text
    assert "notification.preference" in body["messages"][0]["content"]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == ANSWER_SCHEMA
    objects = list(_strict(fmt["json_schema"]["schema"]))
    assert len(objects) == 3  # the answer, a candidate, a skipped clause
    for obj in objects:  # strict mode: every field required, no others
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])


def test_without_a_key_no_authorization_header_is_sent(server: Replay) -> None:
    extractor(server.url).extract(text_of("preferences_en"), default_timezone=SH)
    [seen] = server.seen
    assert "authorization" not in seen["headers"]


def test_a_secret_of_the_text_never_reaches_the_endpoint(server: Replay) -> None:
    text = "My password is ZZLEAKA-hunter2xyz, and please text me by SMS"
    before = count("dropped", "clause_not_verbatim")
    read = extractor(server.url).read(text, default_timezone=SH)
    [seen] = server.seen
    assert "ZZLEAKA" not in json.dumps(seen["body"])
    assert seen["body"]["messages"][1]["content"] == text_of("secret_redacted_before_sending")
    # the clause quoting the redaction is not in the text as written: dropped
    assert [(c.candidate.key, c.clause) for c in read.extraction.candidates] == [
        ("notification.preference", "please text me by SMS")
    ]
    assert count("dropped", "clause_not_verbatim") == before + 1


def test_an_unknown_time_zone_is_the_callers_error(server: Replay) -> None:
    with pytest.raises(InvalidInput):
        extractor(server.url).extract("I prefer email.", default_timezone="Mars/Olympus")
    assert server.seen == []


# --------------------------------------------------------------------------------------------
# The answer as candidates


def test_candidates_are_mapped_normalised_merged_and_clamped(server: Replay) -> None:
    read = extractor(server.url).read(text_of("preferences_en"), default_timezone=SH)
    assert read.info.name == "model-extractor"
    assert read.info.model == MODEL
    got = [
        (
            c.candidate.kind,
            c.candidate.key,
            c.candidate.structured_value,
            c.candidate.content,
            c.candidate.confidence,
            c.clause,
            c.negated,
        )
        for c in read.extraction.candidates
    ]
    assert got == [
        (
            "profile",
            "notification.preference",
            {"channel": "sms", "quiet_hours": "22:00-08:00 Asia/Shanghai"},
            "User prefers SMS notifications; do not disturb 22:00-08:00 (Asia/Shanghai)",
            0.9,
            "From now on please text me instead of emailing",
            False,
        ),
        (
            "profile",
            "profile.language",
            {"value": "en"},
            "User prefers replies in English",
            0.9,
            "reply in English",
            False,
        ),
        (
            "profile",
            "profile.timezone",
            {"value": "Europe/Berlin"},
            "User's timezone is Europe/Berlin",
            0.9,
            "My timezone is Europe/Berlin",
            False,
        ),
        ("semantic", None, None, "User is vegetarian", 0.85, "I am vegetarian", False),
    ]
    assert all(c.candidate.source_type == "user_assertion" for c in read.extraction.candidates)
    assert read.extraction.skipped == []


def test_a_claim_names_its_entity_and_one_offs_and_third_parties_are_skipped(
    server: Replay,
) -> None:
    extraction = extractor(server.url).extract(
        text_of("claim_preference_skips_zh"), default_timezone=SH
    )
    claim, pref = extraction.candidates
    assert claim.candidate.key == "order.status"
    assert claim.candidate.kind == "semantic"
    assert claim.candidate.subject_ref == "order:ORD-A1B2C3D4"
    assert claim.candidate.confidence == 0.8
    assert claim.clause == "订单 ORD-A1B2C3D4 三天没发货"
    # the channel as the model said it ("短信"), normalised; the content the rules would write
    assert pref.candidate.structured_value == {"channel": "sms"}
    assert pref.candidate.content == "用户偏好短信通知"
    assert [(s.reason, s.clause, s.key, s.structured_value) for s in extraction.skipped] == [
        ("temporary", "这次先发邮件给我吧", "notification.preference", {"channel": "email"}),
        ("third_party", "我妈妈喜欢微信联系", "notification.preference", {"channel": "wechat"}),
    ]


def test_what_the_text_does_not_hold_or_no_normaliser_reads_is_dropped(server: Replay) -> None:
    reasons = ("clause_not_verbatim", "value_not_normalised", "unknown_key")
    before = {r: count("dropped", r) for r in reasons}
    extraction = extractor(server.url).extract(text_of("partly_unusable"), default_timezone=SH)
    assert [(c.candidate.key, c.candidate.content, c.clause) for c in extraction.candidates] == [
        (None, "User works night shifts", "I work night shifts")
    ]
    assert extraction.skipped == []
    after = {r: count("dropped", r) - before[r] for r in reasons}
    # a paraphrased clause and a skipped clause not in the text; Klingon; "user.mood"
    assert after == {"clause_not_verbatim": 2, "value_not_normalised": 1, "unknown_key": 1}


def test_json_in_a_code_fence_is_read(server: Replay) -> None:
    read = extractor(server.url).read(text_of("fenced_json"), default_timezone=SH)
    assert read.info.name == "model-extractor"
    [found] = read.extraction.candidates
    assert found.candidate.structured_value == {"channel": "sms"}


# --------------------------------------------------------------------------------------------
# Failures: the rule extractor reads the text


@pytest.mark.parametrize(
    ("case", "text", "reason"),
    [
        ("down", "I prefer email.", "unreachable"),
        ("error", "I prefer email.", "http_status"),
        ("slow", text_of("fenced_json"), "timeout"),
        ("html", "I prefer email.", "not_json"),
        ("replay", "Email me the receipt, thanks.", "http_status"),  # 404: no such recording
        ("replay", text_of("not_json"), "not_json"),
        ("replay", text_of("out_of_schema"), "invalid_output"),
        ("replay", text_of("refusal"), "refused"),
    ],
)
def test_a_failure_hands_the_text_to_the_rule_extractor(
    server: Replay, logged: Logged, case: str, text: str, reason: str
) -> None:
    server.mode = case
    server.delay = 1.0
    url = closed_port_url() if case == "down" else server.url
    before = count("fallbacks", reason)
    read = extractor(url, timeout=0.2).read(text, default_timezone=SH)
    assert read.extraction == RULES.extract(text, default_timezone=SH)
    assert read.info == RULES.info
    assert count("fallbacks", reason) == before + 1
    [event] = logged.events
    assert event["reason"] == reason
    assert event["model"] == MODEL
    # neither the text nor the completion is logged
    said = json.dumps(event, default=str)
    assert text not in said
    assert "email" not in said.lower()


def test_after_the_endpoint_fails_it_is_left_alone_for_a_while(
    server: Replay, logged: Logged
) -> None:
    model = extractor(server.url, cooldown=60.0)
    server.mode = "error"
    model.extract("I prefer email.", default_timezone=SH)
    before = count("fallbacks", "cooling_down")
    server.mode = "replay"
    read = model.read(text_of("fenced_json"), default_timezone=SH)
    assert len(server.seen) == 1  # not asked again
    assert read.info == RULES.info
    assert count("fallbacks", "cooling_down") == before + 1
    assert len(logged.events) == 1


def test_a_bad_answer_does_not_rest_the_endpoint(server: Replay) -> None:
    model = extractor(server.url, cooldown=60.0)
    model.extract(text_of("not_json"), default_timezone=SH)
    read = model.read(text_of("fenced_json"), default_timezone=SH)
    assert len(server.seen) == 2
    assert read.info.name == "model-extractor"


# --------------------------------------------------------------------------------------------
# One batch


def test_a_batch_reads_a_text_once_reports_progress_and_names_the_reader(server: Replay) -> None:
    progress: list[Any] = []
    batch = BatchExtractor(extractor(server.url), RULES, progress.append)
    text = text_of("fenced_json")
    first = batch.extract(text, default_timezone=SH)
    assert batch.info.name == "model-extractor"
    assert batch.extract(text, default_timezone=SH) == first
    assert len(server.seen) == 1
    assert progress == [{"extracted": 1}]
    server.mode = "error"
    batch.extract("I prefer email.", default_timezone=SH)
    assert batch.info == RULES.info  # the rules read that one
    assert progress == [{"extracted": 1}, {"extracted": 2}]


def test_past_its_budget_a_batch_asks_the_model_no_more(server: Replay) -> None:
    before = count("fallbacks", "budget")
    batch = BatchExtractor(extractor(server.url), RULES, budget=0.0)
    extraction = batch.extract("I prefer email.", default_timezone=SH)
    assert server.seen == []
    assert extraction == RULES.extract("I prefer email.", default_timezone=SH)
    assert batch.info == RULES.info
    assert count("fallbacks", "budget") == before + 1


# --------------------------------------------------------------------------------------------
# Settings


def test_the_settings_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MEMORY_EXTRACTOR_URL", "https://llm.example.com/v1")
    monkeypatch.setenv("MEMORY_EXTRACTOR_MODEL", "qwen2.5-72b-instruct")
    monkeypatch.setenv("MEMORY_EXTRACTOR_KEY", "sk-env-not-a-real-key")
    settings = Settings(data_dir=tmp_path)
    assert settings.extractor_url == "https://llm.example.com/v1"
    assert isinstance(settings.extractor_key, SecretStr)
    assert "sk-env-not-a-real-key" not in repr(settings)
    assert settings.extractor_timeout_seconds == 30.0
    built = model_extractor(settings)
    assert built is not None
    assert built.endpoint == "https://llm.example.com/v1/chat/completions"
    assert built.info.model == "qwen2.5-72b-instruct"
    built.close()

    monkeypatch.delenv("MEMORY_EXTRACTOR_MODEL")
    with pytest.raises(ValidationError, match="MEMORY_EXTRACTOR_MODEL"):
        Settings(data_dir=tmp_path)
    monkeypatch.setenv("MEMORY_EXTRACTOR_URL", "llm.example.com/v1")
    monkeypatch.setenv("MEMORY_EXTRACTOR_MODEL", "m")
    with pytest.raises(ValidationError, match="http"):
        Settings(data_dir=tmp_path)
    for name in ("MEMORY_EXTRACTOR_URL", "MEMORY_EXTRACTOR_MODEL", "MEMORY_EXTRACTOR_KEY"):
        monkeypatch.delenv(name)
    assert model_extractor(Settings(data_dir=tmp_path)) is None


# --------------------------------------------------------------------------------------------
# Through the write service: the background path only, and governance as ever


def _said(texts: list[str]) -> list[WriteRequest]:
    return [
        WriteRequest(
            principal=USER,
            namespace=NS,
            idempotency_key=f"model-{i}",
            utterance={"text": text, "thread": "t-1"},
        )
        for i, text in enumerate(texts)
    ]


def _outcomes(outcomes: list[CandidateOutcome]) -> set[tuple[str, str | None, str | None]]:
    return {(o.decision, o.reason, o.key) for o in outcomes}


def _with_model(settings: Settings, url: str) -> Settings:
    return settings.model_copy(update={"extractor_url": url, "extractor_model": MODEL})


def test_a_batch_uses_the_model_and_governance_refuses_what_it_should(
    stores: Stores, settings: Settings, server: Replay
) -> None:
    writes = WriteService(stores, _with_model(settings, server.url), ServiceKeys.new())
    assert isinstance(writes.background_extractor, ModelExtractor)
    texts = [
        text_of("secret_as_redacted_at_the_door"),
        text_of("injection"),
        text_of("claim_preference_skips_zh"),
    ]
    result = writes.batch(
        BatchInput(requests=_said(texts), workflow_id="batch/model", seed="model", now=T0)
    )
    assert len(server.seen) == 3  # each text read once, by the model
    secret, injection, mixed = (item.outcomes for item in result.items)
    # the model extracted them; the detectors refused them, as they refuse the rules'
    # candidates: one outcome each, at the model's clause (a finding outside every clause
    # would be refused at its whole sentence)
    for outcomes, text, name, reason in (
        (secret, texts[0], "secret_as_redacted_at_the_door", "secret"),
        (injection, texts[1], "injection", "prompt_injection"),
    ):
        [refused] = outcomes
        assert (refused.decision, refused.reason, refused.key) == ("reject", reason, None)
        clause = _answer(name)["candidates"][0]["clause"]
        assert refused.span == (text.find(clause), text.find(clause) + len(clause))
        assert refused.span != (0, len(text))
    assert _outcomes(mixed) == {
        ("reject", "unverified_business_fact", "order.status"),
        ("add", None, "notification.preference"),
        ("no_op", "temporary", "notification.preference"),
        ("no_op", "third_party", "notification.preference"),
    }
    [added] = [o for o in mixed if o.decision == "add"]
    assert added.memory_id is not None
    record = stores.canonical.records.head(added.memory_id)
    assert record is not None
    assert record.structured_value == {"channel": "sms"}
    assert record.extractor.name == "model-extractor"
    assert record.extractor.model == MODEL
    assert [r.memory_id for r in stores.canonical.records.namespace_heads(NS)] == [added.memory_id]


def test_an_endpoint_down_loses_no_write_of_a_batch(stores: Stores, settings: Settings) -> None:
    writes = WriteService(
        stores, settings, ServiceKeys.new(), background_extractor=extractor(closed_port_url())
    )
    result = writes.batch(
        BatchInput(requests=_said(["I prefer email."]), workflow_id="b/down", seed="d", now=T0)
    )
    [outcome] = result.items[0].outcomes
    assert (outcome.decision, outcome.key) == ("add", "notification.preference")
    assert outcome.memory_id is not None
    record = stores.canonical.records.head(outcome.memory_id)
    assert record is not None
    assert record.structured_value == {"channel": "email"}
    assert record.extractor == RULES.info


def test_a_single_write_keeps_the_rule_extractor(
    stores: Stores, settings: Settings, server: Replay
) -> None:
    writes = WriteService(stores, _with_model(settings, server.url), ServiceKeys.new())
    [request] = _said([text_of("preferences_en")])
    decision = writes.decide(DecideInput(request=request, workflow_id="w", seed="w", now=T0))
    assert server.seen == []  # the hot path never asks the model
    assert {c.outcome.key for c in decision.candidates} >= {"notification.preference"}
    assert all(e.extractor in (None, RULES.info) for c in decision.candidates for e in c.audit)


def test_the_extraction_bench_scores_the_model_extractor_when_one_is_configured(
    server: Replay, tmp_path: Path
) -> None:
    """`memctl bench extraction` puts the model's precision and recall beside the rules'
    whenever an endpoint is configured (here the replaying server: no model runs)."""
    from governed_memory.shell.eval.extraction import run_extraction_bench

    corpus = tmp_path / "extraction.replayed.json"
    items = [
        {
            "id": "m1",
            "class": "preference",
            "text": text_of("fenced_json"),
            "expected": [
                {"kind": "profile", "key": "notification.preference", "value": {"channel": "sms"}}
            ],
        },
        {"id": "m2", "class": "chit_chat", "text": "好的，谢谢！", "expected": []},
    ]
    corpus.write_text(json.dumps({"items": items}), encoding="utf-8")
    report = run_extraction_bench([corpus], "no-such-revision", extractor(server.url))
    entry = report["corpora"][corpus.name]
    assert entry["baseline"].startswith("not run")
    model = entry["model"]["classes"]["overall"]
    assert (model["expected"], model["matched"]) == (1, 1)
    assert report["model"]["model"] == MODEL
    asked = [s["body"]["messages"][-1]["content"] for s in server.seen]
    assert text_of("fenced_json") in asked


def test_a_name_to_be_called_by_is_a_profile_name(server: Replay) -> None:
    found = extractor(server.url).extract(text_of("preferred_name"), default_timezone=SH)
    (name,) = found.candidates
    assert (name.candidate.key, name.candidate.structured_value) == (
        "profile.name",
        {"value": "Sam"},
    )
    assert name.candidate.content == "The user goes by Sam"
    assert "profile.name" in json.dumps(server.seen[-1]["body"]["response_format"])
