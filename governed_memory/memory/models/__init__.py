"""Records, principals and the inputs and outputs of every workflow, update and query, one module
per lifecycle:

    base         the base classes (`Model`, `Stored`), vocabularies and small helpers
    principals   who may do what where (`Principal`)
    records      a memory's versions (`MemoryRecord`), candidates, graph hints
    writes       WriteMemory's and WriteBatch's requests and outcomes
    reads        recall and entity queries and results
    deletion     DeleteSubject's scope, probes and receipt
    reviews      conversation messages, reviews and their answers
    sweeps       repair, expiry and the outbox relay
    summaries    SummarizeThread's request and result
    promotions   PromoteMemory's request and result
    sync         the vocabulary of following the outbox (events, watermarks, digests)
    audit        audit events
    context      the context builder's request, package and validation

Everything here is a pydantic v2 model: the same classes travel through the Temporal data
converter, the canonical store and the client. Nothing here does I/O, and these modules import
nothing of the service beyond errors, namespaces and the sameness of texts, so a workflow that
imports its input and output loads only these. `memory.models` names every public one.
"""

from __future__ import annotations

from governed_memory.memory.models.audit import AuditEvent
from governed_memory.memory.models.base import (
    READABLE_STATUSES,
    SENSITIVITY_ORDER,
    Decision,
    Kind,
    Model,
    Operation,
    PrincipalType,
    Relation,
    Sensitivity,
    SourceType,
    Status,
    Stored,
    built,
    check_key,
    content_hash,
    refuse_nul,
    utcnow,
)
from governed_memory.memory.models.context import (
    ChangedItem,
    ChangeReason,
    ContextBudget,
    ContextItem,
    ContextPackage,
    ContextRequest,
    ContextValidation,
    Evidence,
    PinnedVersion,
    ToolFact,
    Trust,
)
from governed_memory.memory.models.deletion import (
    CloseReceiptInput,
    DeleteRequest,
    DeletionReceipt,
    DeletionScope,
    ErasedHistories,
    HistoryErasure,
    ProbeResult,
    TemporalRetention,
    VerificationStatus,
)
from governed_memory.memory.models.principals import Principal, parse_principal_ref, principal_ref
from governed_memory.memory.models.promotions import (
    PromoteRequest,
    PromotionResult,
    PromotionStatus,
)
from governed_memory.memory.models.reads import (
    EntityMemory,
    EntityRelation,
    EntityView,
    KeyState,
    KeyVerdict,
    RecallAsk,
    RecallQuery,
    RecallResult,
    RetrievedMemory,
)
from governed_memory.memory.models.records import (
    DIRECT_EXTRACTOR,
    RELATION_PREDICATES,
    ROLE_PREDICATES,
    SELF,
    Candidate,
    EntityHint,
    ExtractorInfo,
    GraphHints,
    HintKind,
    MemoryMutationProposal,
    MemoryRecord,
    RelationHint,
)
from governed_memory.memory.models.reviews import (
    ConversationMessage,
    Place,
    ReviewDecision,
    ReviewKind,
    ReviewOutcome,
    ReviewRecord,
    ReviewStart,
    ReviewStatus,
    place_of,
    thread_position,
)
from governed_memory.memory.models.summaries import SummarizeRequest, SummaryResult
from governed_memory.memory.models.sweeps import (
    ExpireRequest,
    ExpireSummary,
    RelayRequest,
    RelayResult,
    RepairReport,
    RepairRequest,
)
from governed_memory.memory.models.writes import (
    MAX_BATCH,
    MAX_BATCH_BYTES,
    BatchItem,
    BatchRequest,
    BatchResult,
    CandidateOutcome,
    StatementOutcome,
    Utterance,
    WriteRequest,
    WriteResult,
    cut,
    request_size,
    without_values,
)

__all__ = [
    "DIRECT_EXTRACTOR",
    "MAX_BATCH",
    "MAX_BATCH_BYTES",
    "READABLE_STATUSES",
    "RELATION_PREDICATES",
    "ROLE_PREDICATES",
    "SELF",
    "SENSITIVITY_ORDER",
    "AuditEvent",
    "BatchItem",
    "BatchRequest",
    "BatchResult",
    "Candidate",
    "CandidateOutcome",
    "ChangeReason",
    "ChangedItem",
    "CloseReceiptInput",
    "ContextBudget",
    "ContextItem",
    "ContextPackage",
    "ContextRequest",
    "ContextValidation",
    "ConversationMessage",
    "Decision",
    "DeleteRequest",
    "DeletionReceipt",
    "DeletionScope",
    "EntityHint",
    "EntityMemory",
    "EntityRelation",
    "EntityView",
    "ErasedHistories",
    "Evidence",
    "ExpireRequest",
    "ExpireSummary",
    "ExtractorInfo",
    "GraphHints",
    "HintKind",
    "HistoryErasure",
    "KeyState",
    "KeyVerdict",
    "Kind",
    "MemoryMutationProposal",
    "MemoryRecord",
    "Model",
    "Operation",
    "PinnedVersion",
    "Place",
    "Principal",
    "PrincipalType",
    "ProbeResult",
    "PromoteRequest",
    "PromotionResult",
    "PromotionStatus",
    "RecallAsk",
    "RecallQuery",
    "RecallResult",
    "Relation",
    "RelationHint",
    "RelayRequest",
    "RelayResult",
    "RepairReport",
    "RepairRequest",
    "RetrievedMemory",
    "ReviewDecision",
    "ReviewKind",
    "ReviewOutcome",
    "ReviewRecord",
    "ReviewStart",
    "ReviewStatus",
    "Sensitivity",
    "SourceType",
    "StatementOutcome",
    "Status",
    "Stored",
    "SummarizeRequest",
    "SummaryResult",
    "TemporalRetention",
    "ToolFact",
    "Trust",
    "Utterance",
    "VerificationStatus",
    "WriteRequest",
    "WriteResult",
    "built",
    "check_key",
    "content_hash",
    "cut",
    "parse_principal_ref",
    "place_of",
    "principal_ref",
    "refuse_nul",
    "request_size",
    "thread_position",
    "utcnow",
    "without_values",
]
