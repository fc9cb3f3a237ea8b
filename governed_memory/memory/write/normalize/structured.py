"""Structured values: the value of a known profile key, canonicalised."""

from __future__ import annotations

from typing import Any

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.vocabulary import CONTACT_HOURS, LANGUAGE, NOTIFICATION, TIMEZONE
from governed_memory.memory.write.normalize.channels import CHANNELS, normalize_channel
from governed_memory.memory.write.normalize.hours import normalize_hours, normalize_quiet_hours
from governed_memory.memory.write.normalize.languages import normalize_language
from governed_memory.memory.write.normalize.timezones import normalize_timezone


def _required_str(value: dict[str, Any], name: str, key: str) -> str:
    v = value.get(name)
    if not isinstance(v, str) or not v.strip():
        raise InvalidInput(
            f"{key} needs a non-empty string {name!r}", field=f"structured_value.{name}"
        )
    return v


def normalize_structured_value(
    key: str | None, value: dict[str, Any] | None, *, default_timezone: str
) -> dict[str, Any] | None:
    """Canonicalise the structured value of a known profile key; other keys pass unchanged.

    notification.preference: channel -> one of CHANNELS, quiet_hours -> "HH:MM-HH:MM Zone";
    profile.language: value -> BCP-47; profile.timezone: value -> IANA name;
    contact.preferred_hours: value -> "HH:MM-HH:MM Zone". A value that cannot be canonicalised
    raises InvalidInput naming the field (e.g. structured_value.channel).
    """
    if value is None or key is None:
        return value
    if key == NOTIFICATION:
        out = dict(value)
        if "channel" not in out and "quiet_hours" not in out:
            raise InvalidInput(
                "notification.preference needs a channel or quiet_hours",
                field="structured_value.channel",
            )
        if "channel" in out:
            raw = _required_str(out, "channel", key)
            channel = normalize_channel(raw)
            if channel is None:
                raise InvalidInput(
                    f"unknown notification channel {raw!r}: one of {', '.join(CHANNELS)}",
                    field="structured_value.channel",
                )
            out["channel"] = channel
        if out.get("quiet_hours") is not None:
            raw = _required_str(out, "quiet_hours", key)
            hours = normalize_quiet_hours(raw, default_timezone)
            if hours is None:
                raise InvalidInput(
                    f"cannot read quiet hours {raw!r}", field="structured_value.quiet_hours"
                )
            out["quiet_hours"] = hours
        return out
    if key in (LANGUAGE, TIMEZONE, CONTACT_HOURS):
        out = dict(value)
        raw = _required_str(out, "value", key)
        normalized: str | None
        if key == LANGUAGE:
            normalized = normalize_language(raw)
            what = "language"
        elif key == TIMEZONE:
            normalized = normalize_timezone(raw)
            what = "time zone"
        else:
            normalized = normalize_hours(raw, default_timezone)
            what = "hour range"
        if normalized is None:
            raise InvalidInput(f"unknown {what} {raw!r}", field="structured_value.value")
        out["value"] = normalized
        return out
    return value
