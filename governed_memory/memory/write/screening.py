"""What of a message may be kept: every message is screened before anything stores it.

Secrets are replaced by ``[REDACTED:<category>]`` (the words around them stay, so the
conversation still reads), and a message that discloses a sensitive category is `restricted`,
so only principals whose ceiling reaches that level see it in a conversation slice. Injections
are kept as said (they are the record of an attack) and never become memories: the write
pipeline refuses them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from governed_memory.memory.models import Sensitivity, WriteRequest
from governed_memory.memory.write.detectors import detect, redact
from governed_memory.memory.write.detectors.secrets import detect_secrets


@dataclass(frozen=True, slots=True)
class Screened:
    #: The text as it may be stored.
    text: str
    sensitivity: Sensitivity
    #: What was found, as ``reason:category`` (reason codes only, never the words).
    findings: tuple[str, ...]


def screen(text: str) -> Screened:
    findings = detect(text)
    sensitive = any(d.reason == "sensitive_category" for d in findings)
    return Screened(
        text=redact(text, findings),
        sensitivity="restricted" if sensitive else "internal",
        findings=tuple(sorted({f"{d.reason}:{d.category}" for d in findings})),
    )


def redact_secrets(text: str) -> str:
    """`text` with every secret replaced by ``[REDACTED:<category>]`` (secrets only: an injection
    or a sensitive category is left for the pipeline to judge and refuse)."""
    found = detect_secrets(text)
    return redact(text, found) if found else text


def _redacted_value(value: Any) -> Any:
    """A structured value with every secret redacted, found as the pipeline finds them: in
    the value's JSON, where a key gives its value away (`{"password": "…"}`)."""
    text = json.dumps(value, ensure_ascii=False)
    found = {
        (text[d.start : d.end], d.category)
        for d in detect_secrets(text)
        if d.start is not None and d.end is not None and d.end > d.start
    }
    if not found:
        return value
    spans = sorted(found, key=lambda f: -len(f[0]))

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for secret, category in spans:
                v = v.replace(secret, f"[REDACTED:{category}]")
            return v
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return walk(value)


def redact_request(request: WriteRequest) -> WriteRequest:
    """A write as it may enter a workflow's history: every secret in its text (the message, or
    the candidate's content and structured value) redacted at the door. The pipeline still
    refuses the write for it (a redaction mark is a secret finding), and the raw value appears in
    no history, log or row."""
    if request.candidate is not None and request.candidate.source_refs:
        refs = [redact_secrets(r) for r in request.candidate.source_refs]
        if refs != request.candidate.source_refs:
            cited = request.candidate.model_copy(update={"source_refs": refs})
            request = request.model_copy(update={"candidate": cited})
    if request.utterance is not None:
        text = redact_secrets(request.utterance.text)
        if text == request.utterance.text:
            return request
        utterance = request.utterance.model_copy(update={"text": text})
        return request.model_copy(update={"utterance": utterance})
    candidate = request.candidate
    if candidate is None:
        return request
    content = redact_secrets(candidate.content)
    value = _redacted_value(candidate.structured_value)
    if content == candidate.content and value == candidate.structured_value:
        return request
    screened = candidate.model_copy(update={"content": content, "structured_value": value})
    return request.model_copy(update={"candidate": screened})
