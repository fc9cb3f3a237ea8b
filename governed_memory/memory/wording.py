"""How a memory reads to the person it is about: what it is about, what it says as a sentence,
where it came from and what became of it, in words, never code keys or raw JSON (the memory
page). The values are those normalisation canonicalised (memory.write.normalize)."""

from __future__ import annotations

from typing import Any

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.vocabulary import (
    CONTACT_HOURS,
    LANGUAGE,
    NAME,
    NOTIFICATION,
    PROFILE_KEYS,
    TIMEZONE,
)

CHANNELS = {
    "sms": "text message (SMS)",
    "email": "email",
    "phone": "phone call",
    "app_push": "app notification",
    "wechat": "WeChat",
    "whatsapp": "WhatsApp",
    "telegram": "Telegram",
    "line": "LINE",
}
LANGUAGES = {
    "en": "English",
    "zh": "Chinese",
    "zh-Hans": "Chinese (simplified)",
    "zh-Hant": "Chinese (traditional)",
    "zh-CN": "Chinese (simplified)",
    "zh-TW": "Chinese (traditional)",
    "ja": "Japanese",
    "ko": "Korean",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "pt": "Portuguese",
    "it": "Italian",
    "ru": "Russian",
}
SOURCES = {
    "user_assertion": "you said so",
    "verified_tool_fact": "from a verified system record",
    "human_review": "confirmed by a reviewer",
    "system_policy": "a rule of the service",
    "derived_summary": "summarised from your conversations",
    "model_inference": "guessed by a model",
}
KINDS = {
    "profile": "about you",
    "episodic": "something that happened",
    "semantic": "a fact",
    "procedural": "how you like things done",
    "summary": "a summary of a conversation",
}
#: What became of a memory that is no longer current.
STATUSES = {
    "active": "current",
    "superseded": "replaced by a newer value",
    "invalidated": "withdrawn",
    "deleted": "deleted",
    "quarantined": "on hold: reported as harmful, waiting for a review",
}


def topic(m: MemoryRecord) -> str:
    """What the memory is about: its key's label, or its key in words, or its kind."""
    known = PROFILE_KEYS.get(m.key or "")
    if known is not None:
        return known.label_en[0].upper() + known.label_en[1:]
    if m.key:
        return _words(m.key.replace(".", " "))
    return KINDS.get(m.kind, m.kind).capitalize()


def sentence(m: MemoryRecord) -> str:
    """What the memory says, as a sentence: a known preference in words, else what was said,
    else its fields in words."""
    v: dict[str, Any] = m.structured_value or {}
    if m.key == NOTIFICATION and v:
        said = []
        if v.get("channel"):
            said.append(f"Notify you by {CHANNELS.get(v['channel'], _words(v['channel']))}")
        if v.get("quiet_hours"):
            said.append(f"not during {v['quiet_hours']}")
        return _capital(", ".join(said)) + "."
    if m.key == LANGUAGE and v.get("value"):
        return f"Reply to you in {LANGUAGES.get(v['value'], v['value'])}."
    if m.key == TIMEZONE and v.get("value"):
        return f"Your time zone is {v['value']}."
    if m.key == CONTACT_HOURS and v.get("value"):
        return f"Contact you between {v['value']}."
    if m.key == NAME and v.get("value"):
        return f"Call you {v['value']}."
    if m.content:
        return m.content
    return "; ".join(f"{_words(k)}: {_plain(x)}" for k, x in v.items()) or "(nothing left)"


def source(m: MemoryRecord) -> str:
    return SOURCES.get(m.source_type, _words(m.source_type))


def status(m: MemoryRecord) -> str:
    return STATUSES.get(m.status, _words(m.status))


def _words(code: str) -> str:
    return code.replace("_", " ").strip().capitalize()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{_words(k).lower()} {_plain(x)}" for k, x in value.items())
    if isinstance(value, list):
        return ", ".join(_plain(x) for x in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
