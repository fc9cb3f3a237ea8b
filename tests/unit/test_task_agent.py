"""The task agent's policy (shell/eval/agent.py) on memory items rendered as a context package
renders them, the task format's action names, and the tasks the public cases imply."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from governed_memory.memory.context import memory_line
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import KeyVerdict, RetrievedMemory
from governed_memory.memory.models.context import ContextBudget, ContextItem, ContextPackage
from governed_memory.shell.eval.agent import (
    ASK,
    Action,
    RuleAgent,
    intent_of,
    parse_action,
    view_of,
    views_of,
)
from governed_memory.shell.eval.spec import Case, expected_actions, load_case
from governed_memory.shell.eval.tasks import implied_task

CASES = Path(__file__).parents[1] / "eval" / "cases"
T0 = datetime(2026, 7, 10, 9, tzinfo=UTC)


def memory(
    key: str | None,
    value: dict[str, Any] | None,
    *,
    memory_id: str = "mem_1",
    content: str = "用户偏好",
    confidence: float = 0.95,
    group: str | None = None,
    source_type: str = "user_assertion",
) -> RetrievedMemory:
    return RetrievedMemory.model_validate(
        {
            "memory_id": memory_id,
            "version": 1,
            "namespace": "tenant/shop-a/user/123",
            "kind": "profile" if key else "semantic",
            "key": key,
            "content": content,
            "structured_value": value,
            "source_refs": ["msg://t1/1"],
            "source_type": source_type,
            "valid_from": T0,
            "valid_to": None,
            "recorded_at": T0,
            "confidence": confidence,
            "sensitivity": "internal",
            "retrieval_score": 1.0,
            "retrieval_reasons": ["key"],
            "conflict_group": group,
        }
    )


def item(m: RetrievedMemory, **extra: Any) -> ContextItem:
    content = memory_line(m)
    return ContextItem(
        item_id=f"selected_memory-{m.memory_id}",
        kind="selected_memory",
        content=content,
        trust="untrusted",
        source_refs=m.source_refs,
        token_estimate=10,
        priority=7,
        content_hash="sha256:x",
        memory_id=m.memory_id,
        version=m.version,
        **extra,
    )


def verdict_item(key: str, state: str) -> ContextItem:
    v = KeyVerdict(key=key, state=state, detail="use none of them as confirmed")
    return ContextItem(
        item_id="selected_memory-v",
        kind="selected_memory",
        content=f"key {v.key}: {v.state} — {v.detail}",
        trust="untrusted",
        token_estimate=10,
        priority=7,
        content_hash="sha256:y",
    )


def package(*items: ContextItem) -> ContextPackage:
    goal = ContextItem(
        item_id="current_goal-1",
        kind="current_goal",
        content="通知物流异常",
        trust="instruction",
        token_estimate=6,
        priority=2,
        content_hash="sha256:z",
    )
    return ContextPackage(
        package_id="ctx_test",
        principal="agent:shop-a/support-bot",
        namespaces=["tenant/shop-a/user/123"],
        task="通知物流异常",
        created_at=T0,
        at=T0,
        budget=ContextBudget(total_tokens=4000),
        items=[goal, *items],
        total_tokens=100,
        pinned=[],
    )


def decide(task: str, *items: ContextItem) -> Action:
    return RuleAgent().decide(task, views_of(package(*items)))


SMS = memory("notification.preference", {"channel": "sms"}, memory_id="mem_sms")
EMAIL = memory("notification.preference", {"channel": "email"}, memory_id="mem_email")
EN = memory("profile.language", {"value": "en"}, memory_id="mem_en", content="以后用英文回复我")
HOURS = memory(
    "contact.preferred_hours", {"value": "09:00-18:00 Asia/Shanghai"}, memory_id="mem_hours"
)


@pytest.mark.parametrize(
    ("task", "action"),
    [
        ("通知物流异常", "notify"),
        ("通知发货", "notify"),
        ("提醒用户包裹已到", "notify"),
        ("notify the customer about the delay", "notify"),
        ("回复用户关于退货的问题", "reply"),
        ("reply to the customer's question", "reply"),
        ("电话回访用户", "call"),
        ("call the customer back", "call"),
        ("联系用户确认地址", "call"),
        ("回复用户的物流咨询", "reply"),
        ("处理退款申请", None),
    ],
)
def test_intent_by_cue_words(task: str, action: str | None) -> None:
    intent = intent_of(task)
    assert (intent.action if intent else None) == action


def test_one_remembered_value_is_acted_on() -> None:
    action = decide("通知物流异常", item(SMS), item(EN))
    assert action.as_dict() == {"action": "notify", "channel": "sms"}
    assert action.used == ["mem_sms"]
    assert decide("回复用户", item(SMS), item(EN)).as_dict() == {
        "action": "reply",
        "language": "en",
    }
    call = decide("电话回访用户", item(HOURS))
    assert call.as_dict() == {"action": "call", "hours": "09:00-18:00 Asia/Shanghai"}
    assert call.name == "call:09:00-18:00 Asia/Shanghai"


def test_it_asks_rather_than_guesses() -> None:
    assert decide("通知物流异常").action == ASK  # nothing remembered
    assert decide("通知物流异常", item(EN)).action == ASK  # only another key
    assert decide("通知物流异常", item(SMS), item(EMAIL)).action == ASK  # two values
    assert decide("回复用户").used == []


def test_a_conflict_or_an_unusable_key_is_not_acted_on() -> None:
    a = memory("notification.preference", {"channel": "sms"}, memory_id="a", group="cg_1")
    b = memory("notification.preference", {"channel": "sms"}, memory_id="b", group="cg_1")
    assert decide("通知物流异常", item(a), item(b)).action == ASK  # one group, even one value
    for state in ("conflicting", "low_confidence_only", "needs_reconfirmation"):
        flagged = decide("通知物流异常", verdict_item("notification.preference", state), item(SMS))
        assert flagged.action == ASK, state
    # a verdict about another key does not stop the notification
    other = decide("通知物流异常", verdict_item("profile.language", "conflicting"), item(SMS))
    assert other.action == "notify"


def test_low_confidence_and_cut_items_are_ignored() -> None:
    weak = memory("notification.preference", {"channel": "sms"}, confidence=0.5)
    assert decide("通知物流异常", item(weak)).action == ASK
    assert decide("通知物流异常", item(SMS, truncated=True)).action == ASK
    assert decide("通知物流异常", item(SMS, omitted=True)).action == ASK


def test_a_stale_item_handed_over_alone_is_acted_on() -> None:
    """Why modes D and E can fail: the agent trusts what the package shows. If retrieval let a
    stale or another tenant's value through on its own, the agent would act on it."""
    stale = memory("notification.preference", {"channel": "app_push"}, memory_id="mem_stale")
    action = decide("通知物流异常", item(stale))
    assert action.as_dict() == {"action": "notify", "channel": "app_push"}
    assert action.used == ["mem_stale"]


def test_items_outside_the_readers_namespaces_are_ignored_when_shown() -> None:
    view = view_of(memory_line(SMS), memory_id="mem_sms", namespace="tenant/other/user/123")
    assert RuleAgent(["tenant/shop-a/user/*"]).decide("通知物流异常", [view]).action == ASK
    assert RuleAgent().decide("通知物流异常", [view]).action == "notify"


def test_the_line_is_parsed_as_a_package_renders_it() -> None:
    tricky = memory(
        "notification.preference",
        {"channel": "sms", "quiet_hours": "22:00-08:00 Asia/Shanghai"},
        content='用户说 {"channel": "email"} 不要了',
        group="cg_9",
    )
    view = view_of(memory_line(tricky), memory_id="m")
    assert view.label == "notification.preference"
    assert view.value == {"channel": "sms", "quiet_hours": "22:00-08:00 Asia/Shanghai"}
    assert view.conflict_group == "cg_9"
    assert view.source_type == "user_assertion"
    assert view.confidence == pytest.approx(0.95)
    assert view.since == "2026-07-10"
    plain = view_of(memory_line(memory(None, None, content="用户常买家居用品")), memory_id="m")
    assert plain.label == "semantic"
    assert plain.value is None


def test_a_models_answer_is_parsed_and_its_used_ids_checked() -> None:
    action = parse_action(
        'Sure: {"action": "notify", "channel": "sms", "used": ["mem_sms", "mem_made_up"]}',
        known={"mem_sms"},
    )
    assert action.as_dict() == {"action": "notify", "channel": "sms"}
    assert action.used == ["mem_sms"]
    assert parse_action("I would send an SMS").action == "error"
    assert parse_action('{"action": "delete_account"}').action == "error"


def test_expected_action_forms() -> None:
    assert expected_actions("send_sms_after_policy_check") == [
        {"action": "notify", "channel": "sms"}
    ]
    assert expected_actions("notify:email") == [{"action": "notify", "channel": "email"}]
    assert expected_actions("reply_in_en") == [{"action": "reply", "language": "en"}]
    assert expected_actions("call:09:00-18:00 Asia/Shanghai") == [
        {"action": "call", "hours": "09:00-18:00 Asia/Shanghai"}
    ]
    assert expected_actions(["ask_user", {"action": "proceed"}]) == [
        {"action": "ask_clarification"},
        {"action": "proceed"},
    ]
    with pytest.raises(ValueError, match="unknown action name"):
        expected_actions("launch_rocket")


def _case(step: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {
        "case_id": "T-1",
        "actors": {
            "u": {"type": "user", "tenant": "shop-a", "id": "123"},
            "bot": {
                "type": "agent",
                "tenant": "shop-a",
                "id": "b",
                "read": ["tenant/shop-a/user/*"],
            },
        },
        "steps": [
            {
                "id": "e1",
                "op": "observe",
                "actor": "u",
                "namespace": "tenant/shop-a/user/123",
                "text": "以后短信通知我",
            },
            step,
        ],
        **top,
    }


def test_a_malformed_task_step_names_its_field(tmp_path: Path) -> None:
    good = {
        "op": "task",
        "actor": "bot",
        "namespace": "tenant/shop-a/user/123",
        "task": "通知物流异常",
        "expected_action": "notify:sms",
        "must_use": [{"from_step": "e1"}],
        "modes": ["A", "c"],
    }
    case = Case.model_validate(_case(good, modes="ace"))
    assert case.steps[1].modes == "AC"
    assert case.modes == "ACE"
    for broken, message in [
        ({**good, "expected_action": "launch_rocket"}, "unknown action name"),
        ({**good, "modes": "ABX"}, "modes"),
        ({**good, "must_use": [{"from_step": "later"}]}, "from_step"),
        ({**good, "must_not_use": [{"weight": 3}]}, "must_not_use"),
        ({k: v for k, v in good.items() if k != "expected_action"}, "expected_action"),
    ]:
        path = tmp_path / "case.json"
        path.write_text(json.dumps(_case(broken)))
        with pytest.raises(InvalidInput, match=message):
            load_case(path)


def test_the_tasks_the_public_cases_imply() -> None:
    """Derivation (docs/evaluation.md, "Implied tasks") on the published cases: which steps
    imply a task and what it expects."""
    found: dict[str, list[tuple[str, list[dict[str, Any]], int]]] = {}
    for path in sorted(CASES.glob("*.json")):
        case = load_case(path)
        for i, step in enumerate(case.steps, 1):
            spec = implied_task(str(i), step, case)
            if spec is not None:
                found.setdefault(case.case_id, []).append(
                    (spec.index, spec.expected, len(spec.must_not_use))
                )
    sms = [{"action": "notify", "channel": "sms"}]
    ask = [{"action": ASK}]
    assert found["M-CONF-009"] == [("3", ask, 0), ("5", sms, 1)]
    assert found["M-DEL-010"] == [("3", sms, 0), ("5", ask, 2)]
    assert found["M-PREF-013"] == [("4", sms, 2)]
    assert found["M-LATE-008"] == [("3", sms, 1)]  # step 4 asks about the past: no task
    # an episode, an injection, a secret, a summary, another tenant: nothing to personalise
    for none in ("M-EXP-016", "M-INJ-007", "M-SECRET-006", "M-SUM-017", "M-XT-012"):
        assert none not in found
