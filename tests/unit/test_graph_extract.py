"""The offline extractor on what notes about people say, in English and Chinese: entities, the
names a text says are one, and relations. Deterministic: the same text, the same facts."""

from __future__ import annotations

import pytest

from governed_memory.memory.graph import entity_key, extract, facts_of
from governed_memory.memory.models import GraphHints

CASES = [
    # (text, keys it must find, keys it must not find)
    (
        "Every December the customer sends a gift parcel to their sister Anna.",
        {"anna", "role:sister"},
        {"december", "customer"},
    ),
    ("Anna moved to Porto last spring.", {"anna", "porto"}, set()),
    ("What do we know about order ORD-A1B2C3D4?", {"id:orda1b2c3d4"}, {"ord-a1b2c3d4"}),
    ("Support ticket #88213 was escalated on 3 July.", {"id:88213"}, {"id:3"}),
    (
        "Customer prefers morning deliveries before 11am on 2025-11-03",
        set(),
        {"id:11am", "id:20251103"},
    ),
    ("He rents allotment plot 27 at the Fennick Road site.", {"id:plot27", "fennick road"}, set()),
    ("每学期开学前给儿子小宇寄零食", {"role:son", "小宇"}, set()),
    ("小宇现在在杭州读书", {"小宇", "杭州"}, set()),
    ("订单DD20251103由李明签收", {"id:dd20251103", "李明"}, set()),
    ("用户每个月给表哥李航寄一箱家乡腊肉。", {"role:cousin", "李航"}, {"李航寄"}),
    ("今年夏天李航调到了成都分公司。", {"李航", "成都"}, {"今年夏天", "李航调"}),
    ("用户在“力健健身”办了一张年卡。", {"力健健身"}, set()),
    ("黄总监下周去深圳出差", {"黄总监", "深圳"}, set()),
    ("用户的弟弟李明在远航物流做调度。", {"role:brother", "李明", "远航物流"}, set()),
    ("用户装了个小程序提高工作效率", set(), {"小程", "高工"}),
    ("张伟: 明白了，谢谢你。", {"张伟"}, {"明白"}),
]


@pytest.mark.parametrize(("text", "found", "absent"), CASES, ids=[c[0][:24] for c in CASES])
def test_entities(text: str, found: set[str], absent: set[str]) -> None:
    keys = set(extract(text).keys)
    assert found <= keys, keys
    assert not absent & keys, keys


def test_aliases_and_relations() -> None:
    annie = extract("The customer's sister Anna, whom the family calls Annie, collects parcels.")
    assert ("annie", "anna") in annie.aliases
    assert ("role:sister", "anna") in annie.aliases
    moved = extract("Anna moved to Porto last spring.")
    assert ("anna", "moved_to", "porto") in {
        (r.subject, r.predicate, r.object) for r in moved.relations
    }
    qiqi = extract("用户的外甥女王思琪（家里都叫她琪琪）每年暑假来住一个月。")
    assert ("琪琪", "王思琪") in qiqi.aliases
    studies = extract("小宇现在在杭州读书")
    assert ("小宇", "studies_at", "杭州") in {
        (r.subject, r.predicate, r.object) for r in studies.relations
    }


def test_keys_join_forms_of_one_name() -> None:
    assert entity_key("ORD-A1B2", "id") == entity_key("ord a1b2", "id") == "id:orda1b2"
    assert entity_key("Dr. Müller") == entity_key("müller")
    assert entity_key("Anna's") == "anna"
    assert extract("同一句话") == extract("同一句话")


def test_a_letter_or_a_name_inside_a_longer_one_is_no_entity() -> None:
    assert set(extract("王芳: 我上衣一般穿M，偶尔穿L。").keys) == {"王芳"}
    assert set(extract("I take an M in shirts, sometimes an L.").keys) == set()
    shop = extract('小秘: 已下单两袋"汪星厨房"三文鱼味狗粮。')
    assert "汪星厨房" in shop.keys
    assert "汪星" not in shop.keys  # only ever part of the shop's name


def test_a_word_opening_a_sentence_is_a_name_only_weakly() -> None:
    opened = {
        m.key: m.weak for m in extract("Creating a family is my dream. Anna agrees.").mentions
    }
    assert opened == {"creating": True, "anna": True}
    said = {m.key: m.weak for m in extract("We send a parcel to my sister Anna.").mentions}
    assert said["anna"] is False
    # written as a name anywhere in the text, it is one
    both = {m.key: m.weak for m in extract("Anna called. I told Anna to wait.").mentions}
    assert both["anna"] is False


def test_the_models_know_every_relation_the_extractor_states() -> None:
    """A writer may propose what the extractor states: the two vocabularies are one."""
    from governed_memory.memory.graph import lexicon
    from governed_memory.memory.graph import relations as stated
    from governed_memory.memory.models import RELATION_PREDICATES, ROLE_PREDICATES

    roles = set(lexicon._ROLES_EN.values()) | set(lexicon._ROLES_ZH.values())
    relations = {
        name for _, name in (*stated._RELATIONS_EN, *stated._RELATIONS_ZH, *stated._AFTER_ZH)
    }
    assert roles <= ROLE_PREDICATES
    assert relations | {"located_in"} <= RELATION_PREDICATES


def test_a_writers_hints_join_what_the_extractor_finds() -> None:
    hints = GraphHints.model_validate(
        {
            "entities": [
                {"name": "lake house", "kind": "place", "aliases": ["the cabin"]},
                {"name": "Ingrid", "kind": "person"},
            ],
            "relations": [
                {"subject": "self", "predicate": "sister", "object": "Ingrid"},
                {"subject": "Ingrid", "predicate": "owns", "object": "lake house"},
            ],
        }
    )
    text = "Ingrid keeps the lake house (the cabin, we say) for the whole family."
    hints.check_against(text)
    facts = facts_of(text, hints)
    assert {"lake house", "cabin", "ingrid"} <= set(facts.keys)
    assert ("cabin", "lake house") in facts.aliases
    assert ("role:sister", "ingrid") in facts.aliases
    triples = {(r.subject, r.predicate, r.object) for r in facts.relations}
    assert {("self", "sister", "ingrid"), ("ingrid", "owns", "lake house")} <= triples
    # a redaction that takes a name takes its hints with it
    kept = hints.still_said("Ingrid keeps it for the whole family.")
    assert [e.name for e in kept.entities] == ["Ingrid"]
    assert [(r.subject, r.object) for r in kept.relations] == [("self", "Ingrid")]
