"""What an extractor returns (candidates and skipped clauses), the `Extractor` protocol, and the
confidences `RuleExtractor` gives."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import Field

from governed_memory.memory.models import Candidate, ExtractorInfo, Model

SkipReason = Literal["temporary", "third_party"]


class ExtractedCandidate(Model):
    """One candidate found in an utterance."""

    candidate: Candidate
    #: The clause of the utterance it came from (verbatim).
    clause: str
    #: True for a negation ("别再给我发短信了", "stop texting me"): `candidate.structured_value`
    #: holds the value being denied; the pipeline closes that value instead of asserting it.
    negated: bool = False


class Skipped(Model):
    """A clause recognised as a wish or fact that must not become a standing memory."""

    reason: SkipReason
    clause: str
    #: The key it would have written, when recognisable (e.g. notification.preference).
    key: str | None = None
    structured_value: dict[str, object] | None = None


class Extraction(Model):
    candidates: list[ExtractedCandidate] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)


class Extractor(Protocol):
    info: ExtractorInfo

    def extract(self, text: str, *, default_timezone: str) -> Extraction:
        """Candidates in `text`, said by the subject of the namespace about themselves."""
        ...


# Confidences
STRONG = 0.95  # an explicit standing wish
WEAK = 0.8  # a weaker one ("还是短信最方便", "email is fine")
REPORTED = 0.75  # a wish recalled, nothing said now ("I asked for Dutch replies")
REMEMBER = 0.9  # an explicit "remember that ..."
SELF_STATEMENT = 0.7  # "我是素食主义者", "I live in Berlin"
CLAIM = 0.6  # a user's claim about an order, payment, shipment or refund
