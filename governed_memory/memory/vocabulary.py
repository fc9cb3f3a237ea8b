"""The service's vocabulary, in one place: the profile keys it knows (with the words that name
them in a task and in a request to forget, Chinese and English) and the source types with their
trust.

Extraction produces these keys, normalisation canonicalises their values, retrieval looks them up
when a task needs them, deletion resolves a request in words to one of them, and the pipeline
merges a partial value by the field that completes it — all from this table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

#: What a memory is (the models' `kind`).
Kind = Literal["episodic", "semantic", "profile", "procedural", "summary"]

#: Where a memory comes from; each has its trust (`SOURCE_TRUST`).
SourceType = Literal[
    "user_assertion",
    "verified_tool_fact",
    "human_review",
    "derived_summary",
    "system_policy",
    "model_inference",
]

#: How sensitive a memory is, in order (`SENSITIVITY_ORDER`).
Sensitivity = Literal["public", "internal", "confidential", "restricted"]
SENSITIVITY_ORDER: dict[str, int] = {
    "public": 0,
    "internal": 1,
    "confidential": 2,
    "restricted": 3,
}

NOTIFICATION = "notification.preference"
LANGUAGE = "profile.language"
TIMEZONE = "profile.timezone"
CONTACT_HOURS = "contact.preferred_hours"
NAME = "profile.name"


def _cues(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@dataclass(frozen=True)
class ProfileKey:
    name: str
    #: What it holds, for people (memctl, the memory page).
    label_en: str
    label_zh: str
    #: Words of a task or query that need this key: recall looks it up by key.
    recall_cues: re.Pattern[str]
    #: Words of a request to forget that name this key.
    forget_cues: re.Pattern[str]
    #: The field that makes a value whole; a value without it is a part, merged with the stored
    #: one (quiet hours said without a channel keep the channel).
    completing_field: str | None = None


PROFILE_KEYS: dict[str, ProfileKey] = {
    k.name: k
    for k in (
        ProfileKey(
            NOTIFICATION,
            "how to notify (channel, quiet hours)",
            "通知方式（渠道、免打扰时段）",
            recall_cues=_cues(
                r"通知|提醒|告知|推送|短信|邮件|消息|联系|发给用户|notif|alert|remind|message|"
                r"\bcontact|\breach\b|\bsend\b|\bupdate the (user|customer)"
            ),
            forget_cues=_cues(
                r"通知|提醒|联系方式|怎么联系|短信|邮件|推送|notif|how i (like|want|prefer) to be "
                r"(notified|contacted|reached)|contact (preference|channel|method)|"
                r"text messages|emails?"
            ),
            completing_field="channel",
        ),
        ProfileKey(
            LANGUAGE,
            "reply language",
            "回复语言",
            recall_cues=_cues(
                r"回复|答复|回答|语言|翻译|撰写|写信|"
                r"reply|respond|answer|language|translat|write to"
            ),
            forget_cues=_cues(r"语言|回复.*语|language"),
        ),
        ProfileKey(
            TIMEZONE,
            "time zone",
            "时区",
            recall_cues=_cues(
                r"时区|安排|预约|会议|几点|schedule|meeting|appointment|time ?zone|when to"
            ),
            forget_cues=_cues(r"时区|time ?zone"),
        ),
        ProfileKey(
            CONTACT_HOURS,
            "when to contact",
            "可联系时间",
            recall_cues=_cues(
                r"联系|致电|回电|打电话|回访|预约|\bcall\b|contact|reach|follow[- ]up|callback"
            ),
            forget_cues=_cues(
                r"联系时间|什么时候联系|工作时间|contact hours|when to (call|contact)|hours"
            ),
        ),
        ProfileKey(
            NAME,
            "what to call you",
            "称呼",
            recall_cues=_cues(
                r"称呼|怎么叫|名字|问候|打招呼|开头|address (the|him|her|them)|greet|\bname\b"
                r"|salutation|how to call"
            ),
            forget_cues=_cues(r"称呼|名字|叫我|\bname\b|call me"),
        ),
    )
}


def implied_keys(text: str) -> list[str]:
    """The profile keys a task or query needs, by the words it uses."""
    return [k.name for k in PROFILE_KEYS.values() if k.recall_cues.search(text)]


def keys_to_forget(text: str) -> list[str]:
    """The profile keys a request to forget names."""
    return [k.name for k in PROFILE_KEYS.values() if k.forget_cues.search(text)]


def completing_field(key: str | None) -> str | None:
    known = PROFILE_KEYS.get(key or "")
    return known.completing_field if known else None


@dataclass(frozen=True)
class Trust:
    #: Order for resolving conflicts: a higher rank supersedes a lower one.
    rank: int
    #: Weight of the source in recall's score, 0..1.
    weight: float


#: Human review > an authenticated user's own statement > a verified business tool (and system
#: policy) > a derived summary > a model inference.
SOURCE_TRUST: dict[SourceType, Trust] = {
    "human_review": Trust(5, 1.0),
    "user_assertion": Trust(4, 0.9),
    "verified_tool_fact": Trust(3, 0.8),
    "system_policy": Trust(3, 0.8),
    "derived_summary": Trust(2, 0.5),
    "model_inference": Trust(1, 0.3),
}
#: Sources at or below this rank never settle a disagreement on their own: a review does.
LOW_TRUST_RANK = 2

assert set(SOURCE_TRUST) == set(get_args(SourceType)), "every source type has a trust"
KINDS: tuple[str, ...] = get_args(Kind)
