"""What became of each sentence of an observed text: kept, or not and why. Built at the door
from the text the caller sent and the outcomes' spans (the workflow carries offsets, never the
words), so a write that keeps nothing says so, sentence by sentence.

The workflow read the text with its secrets redacted at the door (`screening.redact_request`):
the sentences are those it read, their offsets mapped back to the text as sent."""

from __future__ import annotations

from collections.abc import Sequence

from governed_memory.memory.models import CandidateOutcome, StatementOutcome
from governed_memory.memory.write.detectors import Detection
from governed_memory.memory.write.detectors.secrets import detect_secrets, redaction_marks
from governed_memory.memory.write.extraction.clauses import sentence_spans
from governed_memory.memory.write.screening import redact_secrets

#: Decisions that keep what a statement said (stored, changed, closed, or waiting for review).
KEPT = frozenset({"add", "update", "invalidate", "delete", "defer"})

#: Each reason code, in words a person reads.
WHY = {
    "not_memorable": "nothing in it to remember",
    "third_party": "it is about someone else",
    "temporary": "a one-off wish, not a standing one",
    "duplicate": "already remembered",
    "secret": "it holds a secret (a password, key or code), which is never stored",
    "sensitive_category": "it is sensitive (health, beliefs, finances …) and no consent covers it",
    "prompt_injection": "it reads as an instruction to the agent, not as something about you",
    "unverified_business_fact": "a claim about an order or payment needs a verified source",
    "low_confidence": "not said clearly enough to rely on",
    "candidate_only": "kept as a suggestion only, until confirmed",
    "consent_unknown": "no consent covers keeping it",
    "source_not_verified": "its source could not be verified",
    "source_not_allowed": "this source may not write it",
    "subject_not_allowed": "it is about someone this writer may not write about",
    "unauthorized_namespace": "this writer may not write there",
}


#: What a detector's finding outside every extracted clause refuses, the first that applies.
REFUSING = ("secret", "prompt_injection", "sensitive_category")


def clause_span(text: str, clause: str | None) -> tuple[int, int] | None:
    """Where a clause the extractor read stands in the text (it reads them verbatim)."""
    at = text.find(clause) if clause else -1
    return (at, at + len(clause)) if clause and at >= 0 else None


def refusals_by_sentence(
    text: str, findings: list[Detection]
) -> list[tuple[tuple[int, int] | None, list[Detection]]]:
    """The refusing findings, by the sentence they stand in (a finding with no place, or one
    between sentences, goes with the whole text: span None), in the text's order."""
    groups: dict[tuple[int, int] | None, list[Detection]] = {}
    spans = sentence_spans(text)
    for d in findings:
        if d.reason not in REFUSING:
            continue
        where = next((sp for sp in spans if d.start is not None and sp[0] <= d.start < sp[1]), None)
        groups.setdefault(where, []).append(d)
    return sorted(groups.items(), key=lambda g: (g[0] is not None, g[0] or (0, 0)))


def statements_of(
    text: str, outcomes: Sequence[CandidateOutcome], *, seen: str | None = None
) -> list[StatementOutcome]:
    """One entry per sentence of `text`: the outcomes about it (those whose span overlaps it;
    an outcome about the whole text, for a sentence no outcome names), whether any kept it,
    and the reasons of those that kept nothing (a sentence no outcome speaks of: nothing in it
    to remember). A sentence refused as a secret is not repeated back. `seen` is the text as
    the pipeline read it (its secrets redacted: `screening.redact_request`), when known."""
    seen = redact_secrets(text) if seen is None else seen
    marks = redaction_marks(text, detect_secrets(text)) if seen != text else []
    whole = [i for i, o in enumerate(outcomes) if o.span is None]
    found: list[StatementOutcome] = []
    for start, end in sentence_spans(seen):
        about = [
            i
            for i, o in enumerate(outcomes)
            if o.span is not None and o.span[0] < end and start < o.span[1]
        ] or whole
        kept = any(outcomes[i].decision in KEPT for i in about)
        reasons = list(
            dict.fromkeys(
                outcomes[i].reason or outcomes[i].decision
                for i in about
                if outcomes[i].decision not in KEPT
            )
        )
        if not about:
            reasons = ["not_memorable"]
        secret = any(outcomes[i].reason == "secret" for i in about) or any(
            m[0] < end and start < m[1] for m in marks
        )
        first, last = _original(start, marks, False), _original(end, marks, True)
        found.append(
            StatementOutcome(
                start=first,
                end=last,
                text=None if secret else text[first:last],
                kept=kept,
                reasons=reasons,
                why="; ".join(WHY.get(r, r.replace("_", " ")) for r in reasons) or None,
                outcomes=about,
            )
        )
    return found


def _original(at: int, marks: list[tuple[int, int, int, int]], end: bool) -> int:
    """An offset in the redacted text, as an offset in the text as sent (inside a mark: the
    start, or the end, of what it replaced)."""
    shift = 0
    for red_start, red_end, start, stop in marks:
        if at < red_start or (end and at == red_start):
            break
        if at < red_end or (end and at == red_end):
            return stop if end else start
        shift = stop - red_end
    return at + shift
