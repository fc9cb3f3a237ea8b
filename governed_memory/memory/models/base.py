"""The shared ground of every model: the base classes, the vocabularies (kinds, sources,
sensitivity, statuses, decisions) and the small helpers they validate with."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from types import ModuleType
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput

# The service's words (defined in `memory.vocabulary`, which loads no model: `memctl --help`
# and the settings need them before any model).
from governed_memory.memory.vocabulary import SENSITIVITY_ORDER as SENSITIVITY_ORDER
from governed_memory.memory.vocabulary import Kind as Kind
from governed_memory.memory.vocabulary import Sensitivity as Sensitivity
from governed_memory.memory.vocabulary import SourceType as SourceType

# active: currently asserted.  superseded: history, its valid time was closed by a newer value or a
# withdrawal; it still answers "valid at" questions for its interval.  invalidated: out of every
# read (a rejected side of a conflict, an expired retention).  deleted: erased.
#: `quarantined`: reported harmful and held out of every read path until a reviewer decides.
Status = Literal["active", "superseded", "invalidated", "deleted", "quarantined"]
READABLE_STATUSES: tuple[str, ...] = ("active", "superseded")

Relation = Literal["NEW", "DUPLICATE", "REFINEMENT", "SUPERSEDES", "CONFLICTS"]
Operation = Literal["add", "update", "invalidate", "delete", "no_op"]
Decision = Literal["add", "update", "invalidate", "delete", "no_op", "reject", "defer"]

PrincipalType = Literal["user", "agent", "reviewer", "service"]

_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")


class Model(BaseModel):
    # use_attribute_docstrings: the docstring under a field is its description (the OpenAPI
    # document's and every JSON schema's); it changes neither validation nor serialization.
    model_config = ConfigDict(extra="forbid", frozen=False, use_attribute_docstrings=True)


M = TypeVar("M", bound=BaseModel)


def built(cls: type[M], data: dict[str, Any]) -> M:
    """`cls.model_construct(**data)` for `data` that names every field of a model with no
    private attributes or post-init, and nothing else (a stored row: our own writes through
    validated models): the dict becomes the instance's, unvalidated and uncopied. The hot read
    paths build hundreds of records per recall; model_construct's per-field walk was a quarter
    of a long recall's time."""
    if cls.__pydantic_post_init__ is not None or cls.__private_attributes__:
        return cls.model_construct(**data)
    m = cls.__new__(cls)
    object.__setattr__(m, "__dict__", data)
    object.__setattr__(m, "__pydantic_fields_set__", set(data))
    object.__setattr__(m, "__pydantic_extra__", None)
    object.__setattr__(m, "__pydantic_private__", None)
    return m


def refuse_nul(value: Any, where: str) -> Any:
    """Text a store cannot keep (NUL, which Postgres text and JSONB refuse) is bad input, said
    at once, not a failed write deep in a commit."""
    if _may_hold_nul(value):
        _refuse_nul(value, where)
    return value


def _may_hold_nul(value: Any) -> bool:
    """False only when no text in `value` (its strings, its dicts' keys and values, its lists'
    and tuples' items, at any depth; what else it holds is not text of its own) holds NUL: one
    pass of orjson, which writes every NUL as the escape it looks for (five times quicker than
    the standard library's encoder, which this took 4 % of a Postgres batch's worker in: every
    nested model checks its own part again). A literal backslash before "u0000" is a false
    alarm, settled by the walk; so is what it cannot encode. A request is decoded several times
    on its way (door, workflow, activity)."""
    if isinstance(value, str):
        return "\x00" in value
    try:
        if _ORJSON is not None:
            return b"\\u0000" in _ORJSON.dumps(
                value, default=_opaque, option=_ORJSON.OPT_NON_STR_KEYS
            )
        return "\\u0000" in json.dumps(value, default=_opaque)
    except (TypeError, ValueError, RecursionError):
        return True


def _load_orjson() -> ModuleType | None:
    """The service's extra brings orjson; the URL client (the base install) speaks the same
    models without it, and checks with the standard library's encoder. Imported here, with the
    module, not at the first check: a check that runs inside a workflow would otherwise import
    it in the workflow sandbox, which warns on every worker start."""
    try:
        import orjson
    except ImportError:
        return None
    return orjson


_ORJSON = _load_orjson()


def _opaque(_: Any) -> None:
    return None


def _refuse_nul(value: Any, where: str) -> Any:
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidInput("text may not contain NUL characters", field=where)
    elif isinstance(value, dict):
        for k, v in value.items():
            _refuse_nul(k, where)
            _refuse_nul(v, f"{where}.{k}" if isinstance(k, str) else where)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _refuse_nul(v, where)
    return value


class Stored(Model):
    """A request whose text the service keeps: NUL characters are refused before anything."""

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        return refuse_nul(data, cls.__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


def content_hash(content: str, structured_value: dict[str, Any] | None = None) -> str:
    """Hash of what a memory says: its normalised text and structured value."""
    h = hashlib.sha256()
    h.update(" ".join(content.split()).encode())
    if structured_value is not None:
        h.update(b"\x00")
        h.update(json.dumps(structured_value, sort_keys=True, ensure_ascii=False).encode())
    return "sha256:" + h.hexdigest()


def check_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not key or len(key) > 128 or not set(key) <= _KEY_CHARS or key[0] in "._-":
        raise InvalidInput(
            f"invalid key {key!r}: lower-case letters, digits and . _ - only",
            field="key",
        )
    return key
