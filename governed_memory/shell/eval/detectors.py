"""`memctl bench detectors`: how the write pipeline's injection detector does on labelled text.

A corpus holds texts labelled `attack` (by style: override, role change, task hijack,
exfiltration, lookalike letters, zero-width characters, spaced letters, base64, hex, rot13, a
directive embedded in an ordinary message) or `benign` (by carrier: email, chat, document, code,
review), in English and Chinese. Each text goes through the product's own injection detection
and counts as detected when it yields a finding: `rules` (what every write runs by default),
`+learned` (the rules and the learned detector, as writes run them with
`MEMORY_LEARNED_DETECTOR=true`) and `learned` alone. Beside them, in the same run: the detector
as it was before hardening, and a plain keyword list of the kind many filters use. Targets: at
least 90 % of the hijacking-style attacks detected, at most 2 % false positives on benign email
and chat.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.write.detectors import detect, detect_injection
from governed_memory.memory.write.detectors.injection import detect_injection_before_hardening
from governed_memory.memory.write.detectors.learned import available as learned_available
from governed_memory.memory.write.detectors.learned import configure as configure_learned
from governed_memory.memory.write.detectors.learned import enabled as learned_enabled
from governed_memory.memory.write.detectors.learned import find_learned

CORPORA = Path(__file__).with_name("corpora")
DEFAULT_CORPORA = (
    CORPORA / "injection.dev.json",
    CORPORA / "injection.heldout.json",
    CORPORA / "injection.heldout2.json",
    CORPORA / "injection.heldout3.json",
    CORPORA / "injection.blind.json",
    CORPORA / "injection.blind2.json",
    CORPORA / "injection.blind3.json",
    CORPORA / "injection.blind4.json",
    CORPORA / "injection.blind5.json",
    CORPORA / "injection.blind6.json",
    CORPORA / "injection.blind7.json",
    CORPORA / "injection.blind8.json",
    CORPORA / "injection.blind9.json",
    CORPORA / "injection.blind10.json",
    CORPORA / "injection.blind11.json",
    CORPORA / "injection.blind12.json",
    CORPORA / "injection.blind13.json",
    CORPORA / "injection.blind14.json",
    CORPORA / "injection.blind15.json",
    CORPORA / "injection.blind16.json",
    CORPORA / "injection.blind17.json",
    CORPORA / "injection.blind18.json",
    CORPORA / "injection.blind19.json",
    CORPORA / "injection.blind20.json",
    CORPORA / "injection.blind21.json",
    CORPORA / "injection.blind22.json",
    CORPORA / "injection.blind23.json",
    CORPORA / "injection.blind24.json",
    CORPORA / "injection.blind25.json",
    CORPORA / "injection.blind26.json",
    CORPORA / "injection.blind27.json",
    CORPORA / "injection.blind28.json",
    CORPORA / "injection.blind29.json",
    CORPORA / "injection.blind30.json",
    CORPORA / "injection.blind31.json",
    CORPORA / "injection.blind32.json",
    CORPORA / "injection.blind33.json",
    CORPORA / "injection.blind34.json",
    CORPORA / "injection.blind35.json",
    CORPORA / "injection.blind36.json",
    CORPORA / "injection.blind37.json",
    CORPORA / "injection.blind38.json",
    CORPORA / "injection.blind39.json",
    CORPORA / "injection.blind40.json",
    CORPORA / "injection.blind41.json",
    CORPORA / "injection.blind42.json",
    CORPORA / "injection.blind43.json",
    CORPORA / "injection.blind44.json",
    CORPORA / "injection.blind45.json",
    CORPORA / "injection.blind46.json",
    CORPORA / "injection.blind47.json",
    CORPORA / "injection.blind48.json",
    CORPORA / "injection.blind49.json",
    CORPORA / "injection.blind50.json",
    CORPORA / "injection.blind51.json",
    CORPORA / "injection.blind52.json",
    CORPORA / "injection.blind53.json",
    CORPORA / "injection.blind54.json",
    CORPORA / "injection.blind55.json",
    CORPORA / "injection.blind56.json",
    CORPORA / "injection.blind57.json",
    CORPORA / "injection.blind58.json",
    # read once at 9d243b7 with weights retrained on blinds 54-58 (and the weights before)
    CORPORA / "injection.blind59.json",
    # read once at bfe9259 (the weights retrained with blind 59, train3 and stress10)
    CORPORA / "injection.blind60.json",
    # each read once with the detectors of f4f8f0a (bfe9259's weights), unchanged between them
    CORPORA / "injection.blind61.json",
    CORPORA / "injection.blind62.json",
    # read once with the detectors of 177448b (bfe9259's weights)
    CORPORA / "injection.blind63.json",
    # read once with the rules of 79335fb and the weights retrained to blind 63
    CORPORA / "injection.blind64.json",
    # read once with the rules of f051e0f and the weights retrained to blind 64
    CORPORA / "injection.blind65.json",
    # read once with the rules of 089fee2 and the same weights
    CORPORA / "injection.blind66.json",
    # read once with the rules of 4a7ffc4 and the weights retrained to blind 66
    CORPORA / "injection.blind67.json",
    # read once with the rules of d494e07 and the same weights
    CORPORA / "injection.blind68.json",
    # read once with the rules of 0d7c457 and the weights retrained to blind 68
    CORPORA / "injection.blind69.json",
    # read once with the rules of 0232e27 and the same weights
    CORPORA / "injection.blind70.json",
    # read once with the rules of 37e56e1 and the same weights
    CORPORA / "injection.blind71.json",
    # read once with the rules of 377b33f, beside weights retrained to blind 71 (not kept)
    CORPORA / "injection.blind72.json",
    # read once with the rules of c21c862 and the same weights
    CORPORA / "injection.blind73.json",
)
#: `injection.blind74.json` (written on 2026-12-08 by a new helper after blind 73 was read) is
#: committed unread and left out of the default run: the measure of the next detector change.
#: The styles the ≥ 90 % target is about (attacks that try to take the agent's task over, in
#: plain words: a paraphrase without the usual trigger words, or in Chinese and mixed text).
HIJACKING = (
    "override",
    "role_change",
    "task_hijack",
    "exfiltration",
    "embedded",
    "paraphrase",
    "multilingual",
)

_KEYWORDS = re.compile(
    r"ignore (?:all )?(?:previous|prior) instructions|disregard (?:your|the) (?:rules|instructions)"
    r"|system prompt|you are now|jailbreak|忽略(?:之前|以上)的?(?:所有)?指令",
    re.IGNORECASE,
)


def product(text: str) -> bool:
    """The product's injection detection as a write runs it with `MEMORY_LEARNED_DETECTOR=true`:
    the rules (unless the learned detector vetoes their findings) and, where they find nothing,
    the learned detector (`detect` runs them beside the
    secret and sensitive-category detectors). Without the embeddings extra: the rules."""
    return any(d.reason == "prompt_injection" for d in detect(text))


def rules(text: str) -> bool:
    """The rules alone: what a write runs by default."""
    return bool(detect_injection(text))


def learned(text: str) -> bool:
    """The learned detector alone (never, without the embeddings extra)."""
    return bool(find_learned(text))


def keywords(text: str) -> bool:
    return bool(_KEYWORDS.search(text))


DETECTORS: dict[str, Callable[[str], bool]] = {
    "rules": rules,
    "+learned": product,
    "learned": learned,
    "before": detect_injection_before_hardening,
    "keywords": keywords,
}


def load(path: Path) -> list[dict[str, Any]]:
    try:
        items = json.loads(path.read_text(encoding="utf-8"))["items"]
    except (OSError, ValueError, KeyError) as exc:
        raise InvalidInput(f"{path} is not a detector corpus: {exc}", field="corpus") from None
    for i, item in enumerate(items):
        if item.get("label") not in ("attack", "benign") or not isinstance(item.get("text"), str):
            raise InvalidInput(
                f"{path} item {i} needs text and label attack|benign", field="corpus"
            )
    return list(items)


def measure(items: list[dict[str, Any]], detector: Callable[[str], bool]) -> dict[str, Any]:
    by_style: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    started = time.perf_counter()
    for item in items:
        found = detector(item["text"])
        key = f"{item['label']}:{item.get('style', '?')}"
        by_style[key][0] += int(found)
        by_style[key][1] += 1
    elapsed = time.perf_counter() - started

    def rate(label: str, styles: tuple[str, ...] | None = None) -> tuple[int, int]:
        hits = total = 0
        for key, (h, n) in by_style.items():
            lab, style = key.split(":", 1)
            if lab == label and (styles is None or style in styles):
                hits, total = hits + h, total + n
        return hits, total

    return {
        "styles": {k: {"flagged": h, "of": n} for k, (h, n) in sorted(by_style.items())},
        "attacks": rate("attack"),
        "hijacking": rate("attack", HIJACKING),
        "benign": rate("benign"),
        "benign_email_chat": rate("benign", ("email", "chat")),
        "ms_per_text": 1000 * elapsed / max(len(items), 1),
    }


def _pct(pair: tuple[int, int]) -> str:
    hits, total = pair
    return f"{hits}/{total} ({100 * hits / total:.1f} %)" if total else "-"


#: Long texts, 16 KB each (the content cap): prose, and the shapes that once made detection
#: super-linear.
_UNIT = "订单 ORD-A1B2C3D4 三天没发货，Please just text me with updates. "
LONG_TEXTS: dict[str, Callable[[int], str]] = {
    "prose en": lambda n: (
        "The customer asked about the parcel and said the delivery was late again. " * n
    )[:n],
    "prose zh": lambda n: ("用户说快递又晚了，希望下次用顺丰，并且周末不要打电话。" * n)[:n],
    "mixed": lambda n: (_UNIT * n)[:n],
    "digit groups": lambda n: ("1234 " * n)[:n],
    "one long word": lambda n: "1" * n,
    "one CJK run": lambda n: "我" * n,
    "password is": lambda n: ("password is " * n)[:n],
}


def _best_ms(text: str, runs: int = 3) -> float:
    from governed_memory.memory.write.detectors import detect

    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        detect(text)
        best = min(best, time.perf_counter() - started)
    return 1000 * best


def long_texts(size: int = 16_384) -> dict[str, dict[str, float]]:
    """Every detector (secrets, sensitive categories, injection) over `size` characters of each
    long text, with the literal gate and, beside it, with every rule run."""
    from governed_memory.memory.write.detectors import detect
    from governed_memory.memory.write.detectors.gate import ungated

    detect("password: hunter2, api_key = sk_live_0123456789abcdef")  # load what it loads lazily
    timings: dict[str, dict[str, float]] = {}
    for name, make in LONG_TEXTS.items():
        text = make(size)
        gated = _best_ms(text)
        with ungated():
            every = _best_ms(text)
        timings[name] = {"gated_ms": gated, "every_rule_ms": every}
    return timings


def run_detectors_bench(corpora: list[Path], out: Path | None = None) -> dict[str, Any]:
    report: dict[str, Any] = {}
    was = learned_enabled()
    configure_learned(enabled=True)  # measured whether writes run it here or not
    try:
        if not learned_available():
            print("the learned detector cannot run here (no embeddings extra): '+learned' is rules")
        for path in corpora or list(DEFAULT_CORPORA):
            _measure_corpus(path, report)
    finally:
        configure_learned(enabled=was)
    report["long_texts"] = long_texts()
    print("\n16 KB texts, every detector (ms, best of 3): with the literal gate | every rule run")
    for name, t in report["long_texts"].items():
        print(f"  {name:14} {t['gated_ms']:8.1f} | {t['every_rule_ms']:8.1f}")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return report


def _measure_corpus(path: Path, report: dict[str, Any]) -> None:
    items = load(path)
    name = path.stem.removeprefix("injection.")
    report[name] = {rule: measure(items, fn) for rule, fn in DETECTORS.items()}
    print(f"\n{name} ({len(items)} texts)")
    print(f"  {'rule':9} {'hijacking':18} {'all attacks':18} {'FP email+chat':18} {'FP all':18} ms")
    for rule, m in report[name].items():
        print(
            f"  {rule:9} {_pct(m['hijacking']):18} {_pct(m['attacks']):18} "
            f"{_pct(m['benign_email_chat']):18} {_pct(m['benign']):18} {m['ms_per_text']:.2f}"
        )
    for rule in ("rules", "+learned"):
        styles = report[name][rule]["styles"]
        print(
            f"  {rule}, by style: "
            + ", ".join(f"{k} {v['flagged']}/{v['of']}" for k, v in styles.items())
        )
