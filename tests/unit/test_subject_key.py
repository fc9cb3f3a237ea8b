"""The `MemorySubject` key an operator searches deletions by is the same for every accepted
form of a subject (`memctl deletions subject-key`), and a form that names no subject, or
another tenant's, is a typed error."""

from __future__ import annotations

import pytest

from governed_memory.memory.errors import InvalidInput, UnauthorizedNamespace
from governed_memory.shell.codec import Keyring


def test_every_accepted_form_of_a_subject_gives_one_key() -> None:
    ring = Keyring.new()
    forms = ("user:456", " user:456 ", "user:shop-a/456", "tenant/shop-a/user/456")
    keys = {ring.subject_key("shop-a", form) for form in forms}
    assert len(keys) == 1
    (key,) = keys
    assert ring.subject_key("shop-a", "user:457") != key
    assert ring.subject_key("shop-b", "user:456") != key  # the tenant is part of the key
    assert ring.subject_key("shop-a", "order:A-7781") != key


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ("user:shop-b/456", UnauthorizedNamespace),  # another tenant's: out of reach
        ("tenant/shop-b/user/456", UnauthorizedNamespace),
        ("user 456", InvalidInput),  # no subject at all
        ("", InvalidInput),
    ],
)
def test_another_tenants_or_no_subject_is_refused(form: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Keyring.new().subject_key("shop-a", form)
