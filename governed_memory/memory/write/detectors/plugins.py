"""The detect-secrets plugins the secret detector runs, and the glue around the library."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from typing import Any

from governed_memory.memory.write.detectors._text import Span

#: The detect-secrets plugins we run, by class name, and the category each finding becomes.
#: Only plugins that match a key's *shape* are used. Left out: Base64HighEntropyString and
#: HexHighEntropyString (they fire on ordinary prose, "I use Password Manager Pro", and on order
#: ids and hashes), KeywordDetector (fires on the bare word "password" in prose), IPPublicDetector
#: (an IP address is not a credential), ArtifactoryDetector (its ``AP[0-9A-F]…`` password shape
#: matches upper-case product codes), and the IBM, Softlayer and Cloudant detectors (keyword
#: proximity rules for source code, not prose).
_DS_PLUGINS: dict[str, str] = {
    "AWSKeyDetector": "api_key",
    "AzureStorageKeyDetector": "api_key",
    "BasicAuthDetector": "password",
    "DiscordBotTokenDetector": "token",
    "GitHubTokenDetector": "token",
    "GitLabTokenDetector": "token",
    "JwtTokenDetector": "token",
    "MailchimpDetector": "api_key",
    "NpmDetector": "token",
    "OpenAIDetector": "api_key",
    "PrivateKeyDetector": "private_key",
    "PypiTokenDetector": "token",
    "SendGridDetector": "api_key",
    "SlackDetector": "token",
    "SquareOAuthDetector": "api_key",
    "StripeDetector": "api_key",
    "TelegramBotTokenDetector": "token",
    "TwilioKeyDetector": "api_key",
}
#: detect-secrets' own false-positive heuristics we keep: templated values (``${API_KEY}``),
#: sequential strings, UUIDs, id-like and indirect references.
_DS_FILTERS = (
    "is_indirect_reference",
    "is_likely_id_string",
    "is_not_alphanumeric_string",
    "is_potential_uuid",
    "is_prefixed_with_dollar_sign",
    "is_sequential_string",
    "is_templated_secret",
)
# Lines worth handing to detect-secrets: something long and key-like, a PEM header, a URL.
_DS_PREFILTER = re.compile(r"[A-Za-z0-9_\-+/=.:]{16,}|PRIVATE KEY|PuTTY|://|_authToken")
_DS_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.~")
# detect-secrets keeps its configuration in process-global settings; transient_settings swaps
# them in and out, so scans are serialised.
_DS_LOCK = threading.Lock()


@functools.cache
def _ds_config() -> tuple[dict[str, Any], dict[str, str]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    by_type: dict[str, type[Any]] = get_mapping_from_secret_type_to_class()
    type_to_category = {
        secret_type: _DS_PLUGINS[cls.__name__]
        for secret_type, cls in by_type.items()
        if cls.__name__ in _DS_PLUGINS
    }
    names = sorted(cls.__name__ for cls in by_type.values() if cls.__name__ in _DS_PLUGINS)
    config = {
        "plugins_used": [{"name": name} for name in names],
        # Pinned, so whatever the process configured elsewhere, no verification filter (which
        # would call the providers' APIs) and no allowlist comment ("pragma: allowlist secret")
        # can take part.
        "filters_used": [
            {"path": f"detect_secrets.filters.heuristic.{name}"} for name in _DS_FILTERS
        ],
    }
    return config, type_to_category


def _expand_token(line: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and line[start - 1] in _DS_TOKEN_CHARS:
        start -= 1
    while end < len(line) and line[end] in _DS_TOKEN_CHARS:
        end += 1
    while end > start and line[end - 1] in ".=":
        end -= 1
    return start, end


def _library(text: str) -> Iterator[Span]:
    if not _DS_PREFILTER.search(text):
        return
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    config, type_to_category = _ds_config()
    hits: list[Span] = []
    with _DS_LOCK, transient_settings(config):
        offset = 0
        for line in text.split("\n"):
            if _DS_PREFILTER.search(line):
                for secret in scan_line(line):
                    category = type_to_category.get(secret.type)
                    value = secret.secret_value
                    if category is None or not value:
                        continue
                    for m in re.finditer(re.escape(value), line):
                        s, e = m.span()
                        if category != "password":  # Basic Auth reports the password itself
                            s, e = _expand_token(line, s, e)
                        hits.append((offset + s, offset + e, category))
            offset += len(line) + 1
    yield from hits
