"""Reads, and the registry, behind the same gate as every workflow: the token says who asks, and
each read says who may see it.

Who may read what:

- recall and context: the namespaces the principal's grants reach (a user: their own);
- a deletion receipt: who asked for it, the user it is about, a principal that may delete or
  read in its namespace, an operator, auditor or admin of its tenant;
- a write outcome: the writer that chose its idempotency key (keys belong to their writer);
- reviews: reviewers whose approve grants reach the review's namespace; overseers (operators,
  auditors, admins);
- audit, history, export: a principal that may read the namespace concerned; overseers;
- a principal's definition: the principal itself; overseers of its tenant;
- a registry change: only an admin of the tenant the principal belongs to.

Roles come from the registry and from the verified token (an identity provider's claim), never
from a payload. A principal proven by its token but not registered (an operator known only to the
identity provider) has its roles and no grants; a user needs no registration.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from governed_memory.memory.context import ContextBuilder
from governed_memory.memory.errors import Forbidden, InvalidInput, NotFound, from_validation_error
from governed_memory.memory.identity import Claims, Identity
from governed_memory.memory.models import (
    CandidateOutcome,
    DeletionReceipt,
    EntityView,
    MemoryRecord,
    Model,
    Principal,
    RecallQuery,
    RecallResult,
    ReviewRecord,
    parse_principal_ref,
    refuse_nul,
    utcnow,
)
from governed_memory.memory.models.context import (
    ChangedItem,
    ContextPackage,
    ContextRequest,
    ContextValidation,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.services.gate import GatedService
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.subjects import own_subject

#: References one attestation may carry.
MAX_ATTESTED = 500
#: Roles that see a tenant's receipts, reviews, audit, history and exports.
OVERSIGHT = frozenset({"operator", "auditor", "admin"})


@dataclass(frozen=True)
class Caller:
    """A proven principal: its registry entry (grants) and its roles (registry and token)."""

    principal: Principal
    roles: frozenset[str]

    @property
    def ref(self) -> str:
        return self.principal.ref

    @property
    def tenant(self) -> str:
        return self.principal.tenant

    def oversees(self, tenant: str) -> bool:
        return tenant == self.tenant and bool(self.roles & OVERSIGHT)

    def may_see(self, tenant: str, namespace: str | None) -> bool:
        """Whether this caller may see what concerns `namespace` (of `tenant`)."""
        if self.oversees(tenant):
            return True
        return (
            tenant == self.tenant and namespace is not None and self.principal.can_read(namespace)
        )


#: The memories one page of an export holds when the reader does not say (`export_page`).
EXPORT_PAGE = 500
#: The most one page may hold.
MAX_EXPORT_PAGE = 1000


class MemoryExport(Model):
    """Everything kept about a namespace, as JSON: each memory's current state and its versions
    (erased versions are blank), in memory id order. One page of it (`Access.export_page`) has
    the same shape, and says where the next page starts."""

    namespace: str
    """The namespace exported."""
    exported_at: datetime
    """When it was exported."""
    exported_by: str
    """The principal that asked for it."""
    memories: list[MemoryRecord]
    """Each memory's current state, in memory id order."""
    versions: dict[str, list[MemoryRecord]]
    """Every version of each memory, by memory id, oldest first (erased versions are blank)."""
    next: str | None = None
    """A page's `after` for the next page: the last memory id it holds, or null when no memory
    follows (the last page, or the whole export)."""


class Access(GatedService):
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        identity: Identity | None = None,
        reader: Reader | None = None,
    ) -> None:
        super().__init__(stores, settings, identity)
        self.reader = reader or Reader(stores, clock_override=settings.allow_clock_override)
        self.contexts = ContextBuilder(self.reader)

    # ------------------------------------------------------------------------ who asks

    def caller(
        self,
        token: str | None,
        principal: str | None = None,
        *,
        namespace: str | None = None,
        client: str | None = None,
    ) -> Caller:
        """The proven caller of a read: `token` must prove `principal` when one is named.
        `client` (an HTTP client's address) is kept in the trace of refused tokens."""
        tenant = _tenant_of(principal)
        claims = self.gate.admit(
            token,
            principal,
            tenant=tenant,
            namespace=namespace,
            workflow_id=None,
            at=utcnow(),
            client=client,
        )
        return self._caller(claims)

    def admitted(self, principal: str, roles: Sequence[str]) -> Caller:
        """The caller a run's grant proves (the door checked its token, and signed the roles it
        proved into the run's input): its registry entry, with those roles."""
        try:
            registered = self.reader.principal(principal)
        except NotFound:
            if not roles:
                raise
            type_, tenant, id_ = parse_principal_ref(principal)
            registered = Principal.model_validate({"type": type_, "tenant": tenant, "id": id_})
        return Caller(registered, frozenset(registered.roles) | frozenset(roles))

    def _caller(self, claims: Claims) -> Caller:
        try:
            # the reader's copy of the registry, as recall uses it (a change of grants or
            # roles takes effect within PRINCIPAL_TTL seconds)
            registered = self.reader.principal(claims.sub)
        except NotFound:
            type_, tenant, id_ = parse_principal_ref(claims.sub)
            if not claims.roles:
                raise
            registered = Principal.model_validate({"type": type_, "tenant": tenant, "id": id_})
        if claims.tenant and claims.tenant != registered.tenant:
            raise Forbidden(
                f"the token is for tenant {claims.tenant!r}, not {registered.tenant!r}",
                field="token",
            )
        return Caller(registered, frozenset(registered.roles) | frozenset(claims.roles))

    # ------------------------------------------------------------------------ memory reads

    def recall(self, token: str | None, query: RecallQuery) -> RecallResult:
        caller = self.caller(token, query.principal)
        return self.reader.recall(query, roles=caller.roles)

    def entity(
        self,
        token: str | None,
        principal: str,
        name: str,
        namespaces: Sequence[str],
        *,
        at: datetime | None = None,
    ) -> EntityView:
        """An entity as the caller may read it: the same ACL as recall."""
        self.caller(token, principal)
        return self.reader.entity(principal, name, namespaces, at=at)

    def context(self, token: str | None, request: ContextRequest) -> ContextPackage:
        caller = self.caller(token, request.principal)
        return self.contexts.build(request, roles=caller.roles)

    def validate_context(self, token: str | None, package: ContextPackage) -> ContextValidation:
        """Check a package still holds; only its own principal (or an overseer) may ask."""
        caller = self.caller(token)
        if caller.ref != package.principal and not caller.oversees(
            _tenant_of(package.principal) or ""
        ):
            raise Forbidden(f"{caller.ref} may not check {package.principal}'s context")
        return self._validate_visible(caller, package)

    def _validate_visible(self, caller: Caller, package: ContextPackage) -> ContextValidation:
        """The package checked as far as `caller` may read: a package is the caller's to write,
        so it may pin any memory id and cite any message; each it may not read (another
        tenant's, a namespace outside its grants) is answered exactly as an id that does not
        exist (`missing`), so that validating is no oracle of what others keep."""
        heads = self.stores.canonical.records.heads(p.memory_id for p in package.pinned)
        readable = {
            memory_id
            for memory_id, head in heads.items()
            if caller.may_see(head.tenant_id, head.namespace)
        }
        said = [i for i in package.items if i.kind == "conversation_slice" and not i.omitted]
        cites = bool(said and package.namespaces)
        visible: set[str] = set()
        if cites:
            tenant = parse_namespace(package.namespaces[0]).tenant
            for item in said:
                # a thread is its namespace's (a package that names none: its first)
                namespace = item.namespace or package.namespaces[0]
                found = self.stores.canonical.messages.by_refs(tenant, namespace, item.source_refs)
                visible |= {r for r, m in found.items() if caller.may_see(m.tenant_id, m.namespace)}
        shown = package.model_copy(
            update={
                "pinned": [p for p in package.pinned if p.memory_id in readable],
                "items": [
                    i.model_copy(update={"source_refs": [r for r in i.source_refs if r in visible]})
                    if i.kind == "conversation_slice"
                    else i
                    for i in package.items
                ],
            }
        )
        checked = self.contexts.validate(shown)
        pins = {
            (c.memory_id, c.pinned_version): c for c in checked.changed if c.message_ref is None
        }
        cited = {(c.item_id, c.message_ref): c for c in checked.changed if c.message_ref}
        changed: list[ChangedItem] = []
        for pin in package.pinned:
            if pin.memory_id in readable:
                changed += [c for c in [pins.get((pin.memory_id, pin.version))] if c is not None]
            else:  # as ContextBuilder.validate answers an id it does not find
                changed.append(
                    ChangedItem(
                        memory_id=pin.memory_id, pinned_version=pin.version, reason="missing"
                    )
                )
        for item in said if cites else []:
            for ref in item.source_refs:
                if ref in visible:
                    changed += [c for c in [cited.get((item.item_id, ref))] if c is not None]
                else:
                    changed.append(
                        ChangedItem(item_id=item.item_id, message_ref=ref, reason="missing")
                    )
        return ContextValidation(valid=not changed, changed=changed)

    # ------------------------------------------------------------------------ records of runs

    def receipt(self, token: str | None, deletion_id: str) -> DeletionReceipt:
        caller = self.caller(token)
        receipt = self.stores.canonical.receipts.get(deletion_id)
        if not self._may_read_receipt(caller, receipt):
            raise Forbidden(
                f"{caller.ref} may not read deletion {deletion_id}", field="deletion_id"
            )
        return receipt

    def receipts(
        self,
        token: str | None,
        *,
        subject: str | None = None,
        namespace: str | None = None,
        limit: int = 1000,
    ) -> list[DeletionReceipt]:
        """The deletions of the caller's tenant it may see (an overseer: all), newest first,
        optionally those about a subject (`user:123`, `order:ORD-1`) or in a namespace."""
        caller = self.caller(token)
        found = []
        for r in self.stores.canonical.receipts.of_tenant(caller.tenant, limit):
            scope = r.resolved_scope or r.scope
            if subject is not None and subject not in (r.subject_ref, scope.subject_ref):
                continue
            if namespace is not None and scope.namespace != namespace:
                continue
            if self._may_read_receipt(caller, r):
                found.append(r)
        return found

    def _may_read_receipt(self, caller: Caller, receipt: DeletionReceipt) -> bool:
        """Who asked, whom it is about (the resolved scope's subject, in its stored form: a
        person reads the receipt of a deletion about them whoever asked), an overseer of the
        tenant, or whoever may delete or read the namespace it covered."""
        scope = receipt.resolved_scope or receipt.scope
        namespace = scope.namespace
        about = own_subject(caller.principal)
        return receipt.tenant_id == caller.tenant and (
            caller.ref == receipt.requested_by
            or (about is not None and about == scope.subject_ref)
            or caller.oversees(receipt.tenant_id)
            or (
                namespace is not None
                and (caller.principal.can_delete(namespace) or caller.principal.can_read(namespace))
            )
        )

    def outcome(
        self, token: str | None, tenant: str, idempotency_key: str
    ) -> list[CandidateOutcome] | None:
        """The decision of the caller's own write by its idempotency key (None while it is not
        decided): keys belong to their writer, so nobody reads another's."""
        caller = self.caller(token)
        if tenant != caller.tenant:
            raise Forbidden(f"{caller.ref} may not read outcomes of tenant {tenant!r}")
        stored = self.stores.canonical.outcomes.get(tenant, caller.ref, idempotency_key)
        return stored.outcomes if stored else None

    def reviews(self, token: str | None, *, status: str | None = "open") -> list[ReviewRecord]:
        """The reviews of the caller's tenant it may answer (or, for an overseer, all)."""
        caller = self.caller(token)
        found = self.stores.canonical.reviews.find(caller.tenant, status=status)
        return [r for r in found if self._may_review(caller, r)]

    def review(self, token: str | None, review_id: str) -> ReviewRecord:
        caller = self.caller(token)
        review = self.stores.canonical.reviews.get(review_id)
        if not self._may_review(caller, review):
            raise Forbidden(f"{caller.ref} may not see review {review_id}", field="review_id")
        return review

    @staticmethod
    def _may_review(caller: Caller, review: ReviewRecord) -> bool:
        return caller.oversees(review.tenant_id) or (
            review.tenant_id == caller.tenant and caller.principal.can_approve(review.namespace)
        )

    def audit(
        self, token: str | None, *, memory_id: str | None = None, workflow_id: str | None = None
    ) -> list[dict[str, Any]]:
        """The audit trail of a memory (with the runs that touched it) or of a run, as far as
        the caller may see it: an overseer sees its tenant's, a principal what concerns the
        namespaces it reads."""
        caller = self.caller(token)
        audit = self.stores.canonical.audit
        if memory_id is not None:
            rows = audit.trail(memory_id=memory_id)
            for wf in sorted({r["workflow_id"] for r in rows if r["workflow_id"]}):
                rows += [r for r in audit.trail(workflow_id=wf) if r not in rows]
            rows.sort(key=lambda r: r["seq"])
        elif workflow_id is not None:
            rows = audit.trail(workflow_id=workflow_id)
        else:
            raise NotFound("name a memory or a workflow run", field="ref")
        visible = [r for r in rows if caller.may_see(r["tenant_id"], r["namespace"])]
        if rows and not visible:
            raise Forbidden(f"{caller.ref} may not read this audit trail", field="ref")
        return visible

    def history(self, token: str | None, memory_id: str) -> list[MemoryRecord]:
        """Every version of a memory (erased ones are blank)."""
        caller = self.caller(token)
        records = self.stores.canonical.records
        head = records.head(memory_id)
        if head is None:
            raise NotFound(f"no memory {memory_id!r}", field="memory_id")
        if not caller.may_see(head.tenant_id, head.namespace):
            raise Forbidden(f"{caller.ref} may not read {memory_id}", field="memory_id")
        return _with_head(records.versions(memory_id), head)

    def export(self, token: str | None, namespace: str) -> MemoryExport:
        """Everything kept about a namespace, in one document: a user's own, or one the caller
        may read. (Each of `export_pages`, gathered: a large namespace is better paged.)"""
        pages = self.export_pages(token, namespace, limit=MAX_EXPORT_PAGE)
        first = next(pages)
        for page in pages:
            first.memories += page.memories
            first.versions.update(page.versions)
        first.next = None
        return first

    def export_page(
        self,
        token: str | None,
        namespace: str,
        after: str | None = None,
        limit: int = EXPORT_PAGE,
        *,
        versions: bool = True,
    ) -> MemoryExport:
        """One page of an export: at most `limit` memories of the namespace in memory id order
        after `after` (None: from the first), each with its versions (unless `versions` is
        false), and in `next` the `after` of the next page. The same ACL as `export`, checked
        for every page."""
        caller = self._exporter(token, namespace)
        refuse_nul(after, "after")
        return self._page(caller, namespace, after, _page_size(limit), versions)

    def export_pages(
        self,
        token: str | None,
        namespace: str,
        *,
        limit: int = EXPORT_PAGE,
        versions: bool = True,
    ) -> Iterator[MemoryExport]:
        """Every page of an export, in order, read as they are asked for (each memory exactly
        once: a keyset over memory ids, which never change). The caller is proven and the ACL
        checked here, before the first page is read (a refusal is raised by this call, not by
        the iterator)."""
        caller = self._exporter(token, namespace)
        return self._pages(caller, namespace, _page_size(limit), versions)

    def _exporter(self, token: str | None, namespace: str) -> Caller:
        caller = self.caller(token)
        tenant = parse_namespace(namespace).tenant
        if not caller.may_see(tenant, namespace):
            raise Forbidden(f"{caller.ref} may not export {namespace}", field="namespace")
        return caller

    def _pages(
        self, caller: Caller, namespace: str, limit: int, versions: bool
    ) -> Iterator[MemoryExport]:
        after: str | None = None
        while True:
            page = self._page(caller, namespace, after, limit, versions)
            yield page
            if page.next is None:
                return
            after = page.next

    def _page(
        self, caller: Caller, namespace: str, after: str | None, limit: int, versions: bool
    ) -> MemoryExport:
        records = self.stores.canonical.records
        heads = records.namespace_page(namespace, after, limit + 1)
        more = len(heads) > limit
        heads = heads[:limit]
        kept = records.versions_of(h.memory_id for h in heads) if versions else {}
        return MemoryExport(
            namespace=namespace,
            exported_at=utcnow(),
            exported_by=caller.ref,
            memories=heads,
            versions={h.memory_id: _with_head(kept.get(h.memory_id, []), h) for h in heads}
            if versions
            else {},
            next=heads[-1].memory_id if more else None,
        )

    # ------------------------------------------------------------------------ tools

    def attest(self, token: str | None, refs: Sequence[str]) -> list[str]:
        """A tool vouches for references it issued (`order://ORD-1?version=8`), so that an agent
        may relay its facts as `verified_tool_fact`: only the tool whose `tools` hold each
        reference's scheme may. Returns the references attested."""
        caller = self.caller(token)
        if not refs or len(refs) > MAX_ATTESTED:
            raise InvalidInput(f"attest 1 to {MAX_ATTESTED} references", field="refs")
        pairs = []
        for ref in refs:
            scheme = _scheme(ref)
            if scheme not in caller.principal.tools:
                raise Forbidden(
                    f"{caller.ref} is not the tool of {scheme or '(no scheme)'}:// references",
                    field="refs",
                )
            pairs.append((ref, scheme))
        self.stores.canonical.attestations.attest(caller.tenant, pairs, caller.ref, utcnow())
        return list(refs)

    # ------------------------------------------------------------------------ registry

    def principal(self, token: str | None, ref: str) -> Principal:
        caller = self.caller(token)
        if caller.ref != ref and not caller.oversees(_tenant_of(ref) or ""):
            raise Forbidden(f"{caller.ref} may not read principal {ref}", field="principal")
        return self.stores.canonical.principals.get(ref)

    def principals(self, token: str | None) -> list[Principal]:
        caller = self.caller(token)
        if not caller.oversees(caller.tenant):
            raise Forbidden(f"{caller.ref} may not list the principals of {caller.tenant}")
        return self.stores.canonical.principals.of_tenant(caller.tenant)

    def put_principal(self, token: str | None, definition: Principal | dict[str, Any]) -> Principal:
        """Create or replace a principal: only an admin of its tenant may."""
        try:
            principal = (
                definition
                if isinstance(definition, Principal)
                else Principal.model_validate(definition)
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "principal") from None
        caller = self.caller(token)
        if principal.tenant != caller.tenant or "admin" not in caller.roles:
            raise Forbidden(
                f"{caller.ref} may not change the principals of tenant {principal.tenant!r}: "
                "that needs the admin role",
                field="principal",
            )
        self.stores.canonical.principals.put(principal, utcnow())
        self.reader.forget_principal(principal.ref)
        return principal


def _with_head(versions: list[MemoryRecord], head: MemoryRecord) -> list[MemoryRecord]:
    """Earlier versions, then the current one (the versions table keeps what was replaced)."""
    return [v for v in versions if v.version != head.version] + [head]


def _page_size(limit: int) -> int:
    if not 1 <= limit <= MAX_EXPORT_PAGE:
        raise InvalidInput(f"a page holds 1 to {MAX_EXPORT_PAGE} memories", field="limit")
    return limit


def _scheme(ref: str) -> str:
    parts = urlsplit(ref)
    if len(ref) > 512 or not parts.scheme or not (parts.netloc + parts.path).strip("/"):
        raise InvalidInput(f"{ref[:80]!r} is not a reference (scheme://id)", field="refs")
    return parts.scheme


def _tenant_of(ref: str | None) -> str | None:
    if ref is None:
        return None
    try:
        return parse_principal_ref(ref)[1]
    except ValueError:
        return None
