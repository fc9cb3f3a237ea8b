"""What of a message may be kept: every message is screened before anything stores it.

Secrets are replaced by ``[REDACTED:<category>]`` (the words around them stay, so the
conversation still reads), and a message that discloses a sensitive category is `restricted`,
so only principals whose ceiling reaches that level see it in a conversation slice. Injections
are kept as said (they are the record of an attack) and never become memories: the write
pipeline refuses them."""

from __future__ import annotations

from dataclasses import dataclass

from memory.models import Sensitivity
from memory.write.detectors import detect, redact


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
