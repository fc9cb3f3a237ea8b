"""`memctl bench extraction`: candidate extraction precision and recall, per class of utterance.

The seed's first write metric. A corpus (`corpora/extraction.*.json`, written by a helper who had
not seen the extractor) labels each utterance with a class (preference, self_fact, third_party,
instruction_to_other, one_off, negation, correction, business_claim, remember_request,
chit_chat) and the candidates a careful annotator wants remembered about the speaker: a kind, a
key and value where it is a keyed slot, and a few words the remembered content must hold.

A produced candidate matches an expected one when the key agrees (a keyed slot: same key, the
expected value within the structured value; a keyless memory: no profile key) and its content
holds every expected word (case folded). A negation is not a memory (it closes one) and is not
counted as produced. Precision is matched produced over produced, recall matched expected over
expected, per class and overall; an utterance is right when both sets match exactly.

Beside the extractor of this checkout, in the same run: the extractor of an earlier revision
(`--baseline`, default `BASELINE`), exported from git into a temporary folder and run there in
a subprocess on the same texts. Without git or that revision, the run says so and goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.vocabulary import NOTIFICATION
from governed_memory.memory.write.extraction import Extractor

CORPORA = Path(__file__).with_name("corpora")
DEV = CORPORA / "extraction.dev.json"
HELDOUT = CORPORA / "extraction.heldout.json"
#: Written after issue 31's second round of rule corrections was frozen (200 utterances).
HELDOUT2 = CORPORA / "extraction.heldout2.json"
#: Written on 2026-12-05, after that day's rules were frozen (200 utterances, 20 per class).
HELDOUT3 = CORPORA / "extraction.heldout3.json"
#: Written on 2026-12-05 by a new helper, after the rules that held-out 3 (then development
#: data) corrected were frozen (199 utterances, 20 per class but chit-chat's 19).
HELDOUT4 = CORPORA / "extraction.heldout4.json"
#: Written on 2026-12-05 by a new helper, after the rules that held-out 4 (then development
#: data) corrected were frozen (199 utterances: one also in held-out 4 removed).
HELDOUT5 = CORPORA / "extraction.heldout5.json"
#: Written on 2026-12-05 by a new helper, after the rules that held-out 5 (then development
#: data) corrected were frozen (198 utterances: two also in earlier corpora removed).
HELDOUT6 = CORPORA / "extraction.heldout6.json"
#: Written on 2026-12-05 by a new helper, after held-out 6 was read once and while its misses
#: were being corrected, never read by those corrections (196 utterances: four also in earlier
#: corpora removed).
HELDOUT7 = CORPORA / "extraction.heldout7.json"
#: Written on 2026-12-05 by a new helper, after held-out 7 was read and the rules it corrected
#: were frozen (194 utterances: six also in earlier corpora removed).
HELDOUT8 = CORPORA / "extraction.heldout8.json"
#: Written on 2026-12-05 by a new helper, while held-out 8's misses were corrected and never read
#: by those corrections (198 utterances: two also in earlier corpora removed).
HELDOUT9 = CORPORA / "extraction.heldout9.json"
#: Written on 2026-12-05 by a new helper, while held-out 9's misses were corrected and never read
#: by those corrections (193 utterances: seven also in earlier corpora removed).
HELDOUT10 = CORPORA / "extraction.heldout10.json"
#: Written on 2026-12-05 by a new helper, while held-out 10's misses were corrected and never
#: read by those corrections (197 utterances: three also in earlier corpora removed).
HELDOUT11 = CORPORA / "extraction.heldout11.json"
#: Written on 2026-12-05 by a new helper, while held-out 11's misses were corrected and never
#: read by those corrections.
HELDOUT12 = CORPORA / "extraction.heldout12.json"
#: Written on 2026-12-05 by a new helper, after held-out 12 was read and while its misses were
#: being corrected, never read by those corrections (199 utterances: one also in an earlier
#: corpus removed).
HELDOUT13 = CORPORA / "extraction.heldout13.json"
#: Written on 2026-12-05 by a new helper, while held-out 13's misses were corrected and never
#: read by those corrections (196 utterances: four also in earlier corpora removed).
HELDOUT14 = CORPORA / "extraction.heldout14.json"
#: Written on 2026-12-05 by a new helper, while held-out 14's misses were corrected and never
#: read by those corrections (190 utterances: ten also in earlier corpora removed).
HELDOUT15 = CORPORA / "extraction.heldout15.json"
#: Written on 2026-12-05 by a new helper after the rules that read held-out 15 were frozen
#: (193 utterances: seven also in earlier corpora removed).
HELDOUT16 = CORPORA / "extraction.heldout16.json"
HELDOUT17 = CORPORA / "extraction.heldout17.json"
HELDOUT18 = CORPORA / "extraction.heldout18.json"
#: Written on 2026-12-05 by a new helper while held-out 18's misses were corrected, never read by
#: those corrections (193 utterances: seven also in earlier corpora removed).
HELDOUT19 = CORPORA / "extraction.heldout19.json"
#: Written on 2026-12-05 by a new helper while held-out 19's misses were corrected, never read by
#: those corrections (193 utterances: seven also in earlier corpora removed).
HELDOUT20 = CORPORA / "extraction.heldout20.json"
#: Written on 2026-12-05 by a new helper while held-out 20's misses were corrected, never read by
#: those corrections (192 utterances: eight also in earlier corpora removed).
HELDOUT21 = CORPORA / "extraction.heldout21.json"
#: Written on 2026-12-06 by a new helper, after held-out 21 was read and before its misses were
#: corrected (194 utterances: six also in earlier corpora removed; one channel label put in the
#: corpus format).
HELDOUT22 = CORPORA / "extraction.heldout22.json"
#: Written on 2026-12-06 by a new helper while held-outs 21 and 22 were corrected, never read by
#: those corrections (191 utterances: nine also in earlier corpora removed).
HELDOUT23 = CORPORA / "extraction.heldout23.json"
#: Written on 2026-12-06 by a new helper while held-out 23 was corrected, never read by those
#: corrections (194 utterances: six also in earlier corpora removed).
HELDOUT24 = CORPORA / "extraction.heldout24.json"
#: Written on 2026-12-06 by a new helper while held-out 24 was corrected, never read by those
#: corrections (195 utterances: five also in earlier corpora removed).
HELDOUT25 = CORPORA / "extraction.heldout25.json"
#: Written on 2026-12-06 by a new helper after held-out 25's corrections were frozen, read once
#: at 7644196 (196 utterances: four also in earlier corpora removed).
HELDOUT26 = CORPORA / "extraction.heldout26.json"
#: Written on 2026-12-06 by a new helper while held-out 26 was corrected, read once after those
#: corrections were frozen, at 8ec0002 (193 utterances: seven also in earlier corpora removed).
HELDOUT27 = CORPORA / "extraction.heldout27.json"
#: Written on 2026-12-06 by a new helper after held-out 27's corrections, read once at fea16a2
#: (195 utterances: five also in earlier corpora removed).
HELDOUT28 = CORPORA / "extraction.heldout28.json"
#: Written on 2026-12-06 by a new helper while held-out 28 was read and corrected, read once
#: at 94b191f (195 utterances: five also in earlier corpora removed).
HELDOUT29 = CORPORA / "extraction.heldout29.json"
#: Written on 2026-12-06 by a new helper while held-out 29 was read and corrected, read once
#: at bcb2934 (188 utterances: twelve also in earlier corpora removed).
HELDOUT30 = CORPORA / "extraction.heldout30.json"
#: Written on 2026-12-06 by a new helper before held-out 30 was read, read once at 32b0639
#: after held-out 30's corrections (193 utterances: seven also in earlier corpora removed).
HELDOUT31 = CORPORA / "extraction.heldout31.json"
#: Written on 2026-12-06 by a new helper after held-out 31's corrections, read once at aff034d
#: (193 utterances: seven also in earlier corpora removed).
HELDOUT32 = CORPORA / "extraction.heldout32.json"
#: Written on 2026-12-06 by a new helper after held-out 32 was read, read once at 4a381e2
#: (198 utterances).
HELDOUT33 = CORPORA / "extraction.heldout33.json"
#: Written on 2026-12-06 by a new helper after held-out 33 was read, read once at dc63571
#: (196 utterances: four also in earlier corpora removed).
HELDOUT34 = CORPORA / "extraction.heldout34.json"
#: Written on 2026-12-06 by a new helper after held-out 34 was read, read once at fc11caf
#: (195 utterances: five also in earlier corpora removed).
HELDOUT35 = CORPORA / "extraction.heldout35.json"
#: Written on 2026-12-06 by a new helper after held-out 35 was read, read once at 10088d8
#: (195 utterances).
HELDOUT36 = CORPORA / "extraction.heldout36.json"
#: Written on 2026-12-07 by a new helper after held-out 36 was read, read once at c250735
#: (198 utterances).
HELDOUT37 = CORPORA / "extraction.heldout37.json"
#: Written on 2026-12-07 by a new helper after held-out 37 was read, read once at 01e53ed
#: (195 utterances: five also in earlier corpora removed).
HELDOUT38 = CORPORA / "extraction.heldout38.json"
#: Written on 2026-12-07 by another new helper after held-out 37 was read, read once at 355906b
#: (192 utterances: eight also in earlier corpora removed).
HELDOUT39 = CORPORA / "extraction.heldout39.json"
#: Written on 2026-12-07 by a new helper after held-out 39 was read, some of its Chinese in
#: Traditional characters or Cantonese; read once at 980b813 (193 utterances).
HELDOUT40 = CORPORA / "extraction.heldout40.json"
#: Written on 2026-12-07 by a new helper after held-out 40 was read; read once at f85184a (193
#: utterances: P 0.836, R 0.602, 126 exact). Its writer keeps what a courier is told of the
#: user's door (a gate code, a broken buzzer) where most writers before did not.
HELDOUT41 = CORPORA / "extraction.heldout41.json"
#: Written on 2026-12-07 by a new helper after held-out 41 was read; read once at 35fcf8c (191
#: utterances: P 0.792, R 0.629, 136 exact).
HELDOUT42 = CORPORA / "extraction.heldout42.json"
#: Written on 2026-12-07 by a new helper after held-out 42 was read; read once at d9e3891 (192
#: utterances: P 0.896, R 0.673, 148 exact).
HELDOUT43 = CORPORA / "extraction.heldout43.json"
#: Written on 2026-12-07 by a new helper after held-out 43 was read; read once at 177448b (190
#: utterances: P 0.827, R 0.652, 134 exact).
HELDOUT44 = CORPORA / "extraction.heldout44.json"
#: Written on 2026-12-07 by a new helper after held-out 44 was read; read once at aee350a (195
#: utterances: P 0.795, R 0.604, 137 exact; 177448b's extractor 0.784, 0.591, 136).
HELDOUT45 = CORPORA / "extraction.heldout45.json"
#: Written on 2026-12-07 by a new helper after held-out 45 was read; read once at ece63f9 (191
#: utterances: P 0.911, R 0.680, 145 exact; 177448b's extractor 0.901, 0.667, 143).
HELDOUT46 = CORPORA / "extraction.heldout46.json"
#: Written on 2026-12-07 by a new helper after held-out 46 was read; read once at 579bf20 (183
#: utterances: P 0.621, R 0.477, 103 exact; ece63f9's extractor 0.623, 0.470, 102).
HELDOUT47 = CORPORA / "extraction.heldout47.json"
#: Written on 2026-12-07 by a new helper after held-out 47 was read; read once at 0d7c457 (190
#: utterances: P 0.683, R 0.473, 98 exact; 579bf20's extractor the same).
HELDOUT48 = CORPORA / "extraction.heldout48.json"
#: Written on 2026-12-07 by a new helper after held-out 48 was read; read once at 3ed276e (195
#: utterances: P 0.656, R 0.506, 121 exact; 0d7c457's extractor 0.648, 0.500, 120).
HELDOUT49 = CORPORA / "extraction.heldout49.json"
#: Written on 2026-12-07 by a new helper after held-out 49 was read; read once at b59314b (193
#: utterances: P 0.828, R 0.596, 127 exact; 3ed276e's extractor the same).
HELDOUT50 = CORPORA / "extraction.heldout50.json"
#: Written on 2026-12-07 by a new helper after held-out 50 was read; read once at f0f53d8 (191
#: utterances: P 0.795, R 0.484, 109 exact; b59314b's extractor 0.793, 0.478, 108).
HELDOUT51 = CORPORA / "extraction.heldout51.json"
#: Written on 2026-12-07 by a new helper after held-out 51 was read; read once at 6f438c7 (186
#: utterances: P 0.761, R 0.444, 96 exact; 37e56e1's extractor, the same code, the same).
HELDOUT52 = CORPORA / "extraction.heldout52.json"
#: Written on 2026-12-08 by a new helper after held-out 52 was read; read once at 0265aa1 (192
#: utterances: P 0.801, R 0.665, 132 exact; 0.551, 0.457, 106 before the scorer matched a
#: profile value by its key and value alone, this writer having marked the user's words on them).
HELDOUT53 = CORPORA / "extraction.heldout53.json"
#: `extraction.heldout54.json` (written on 2026-12-08 by a new helper after held-out 53 was
#: read) is committed unread and left out of the default run: the next round's measure.
#: What `memctl bench extraction` scores by default.
EXTRACTION_CORPORA = (
    DEV,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    HELDOUT22,
    HELDOUT23,
    HELDOUT24,
    HELDOUT25,
    HELDOUT26,
    HELDOUT27,
    HELDOUT28,
    HELDOUT29,
    HELDOUT30,
    HELDOUT31,
    HELDOUT32,
    HELDOUT33,
    HELDOUT34,
    HELDOUT35,
    HELDOUT36,
    HELDOUT37,
    HELDOUT38,
    HELDOUT39,
    HELDOUT40,
    HELDOUT41,
    HELDOUT42,
    HELDOUT43,
    HELDOUT44,
    HELDOUT45,
    HELDOUT46,
    HELDOUT47,
    HELDOUT48,
    HELDOUT49,
    HELDOUT50,
    HELDOUT51,
    HELDOUT52,
    HELDOUT53,
)
#: The extractor before issue 31's corrections (the commit the work started from).
BASELINE = "ab0bcf2"
#: The time zone a rule extractor reads "晚上10点以后" in, for every text alike.
TIMEZONE = "Asia/Shanghai"
_PROFILE_KEYS = ("notification.preference", "profile.language", "profile.timezone")


def load(path: Path) -> list[dict[str, Any]]:
    try:
        items = json.loads(path.read_text(encoding="utf-8"))["items"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{path} is not an extraction corpus: {exc}", field="corpus") from None
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and {"id", "class", "text", "expected"} <= set(i) for i in items
    ):
        raise InvalidInput(f"{path}: every item needs id, class, text, expected", field="corpus")
    return items


def extract_all(
    texts: Sequence[str], extractor: Extractor | None = None
) -> list[list[dict[str, Any]]]:
    """What an extractor (default: this checkout's rules) produces for each text (negations
    left out)."""
    from governed_memory.memory.write.extraction import RuleExtractor

    extractor = extractor or RuleExtractor()
    out = []
    for text in texts:
        found = extractor.extract(text, default_timezone=TIMEZONE)
        out.append(
            [
                {
                    "kind": c.candidate.kind,
                    "key": c.candidate.key,
                    "value": c.candidate.structured_value,
                    "content": c.candidate.content,
                }
                for c in found.candidates
                if not c.negated
            ]
        )
    return out


_APP_PUSH = frozenset({"app", "push", "app_push"})


def _same_value(key: str, have: Any, want: Any) -> bool:
    """A label's value and a produced one: equal, or for a language the same language with a
    region ("zh-CN" is the "zh" a label names: the helpers label ISO 639-1 codes, the extractor
    says which script), or for a channel the app's notifications however a helper named them."""
    if have == want:
        return True
    if key == NOTIFICATION and {have, want} <= _APP_PUSH:
        return True  # (the product's "app_push", some helpers' "app" or "push")
    if key == "profile.language" and isinstance(have, str) and isinstance(want, str):
        return have.split("-")[0].lower() == want.split("-")[0].lower()
    return False


def _matches(produced: dict[str, Any], expected: dict[str, Any]) -> bool:
    key = expected.get("key")
    if key is not None:
        if produced.get("key") != key:
            return False
        value = expected.get("value") or {}
        have = produced.get("value") or {}
        if any(not _same_value(key, have.get(k), v) for k, v in value.items()):
            return False
        if expected.get("kind") == "profile" and value:
            # a profile value is matched by its key and value: its content is the product's
            # own wording ("User prefers SMS notifications"), not the user's, so the words a
            # writer marks ("text me updates", as held-out 30's and 53's do) are not looked for
            return True
    elif produced.get("key") in _PROFILE_KEYS:
        return False
    content = str(produced.get("content", "")).casefold()
    return all(str(m).casefold() in content for m in expected.get("mentions") or [])


def score(
    items: Sequence[dict[str, Any]], produced: Sequence[list[dict[str, Any]]]
) -> dict[str, Any]:
    """Precision, recall and exact utterances per class and overall (greedy one-to-one
    matching of produced to expected candidates, in order)."""
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses: list[dict[str, Any]] = []
    for item, got in zip(items, produced, strict=True):
        expected = list(item["expected"])
        left = list(got)
        matched = 0
        for e in expected:
            hit = next((p for p in left if _matches(p, e)), None)
            if hit is not None:
                left.remove(hit)
                matched += 1
        for cls in (item["class"], "overall"):
            t = tally[cls]
            t["utterances"] += 1
            t["expected"] += len(expected)
            t["produced"] += len(got)
            t["matched"] += matched
            t["exact"] += int(matched == len(expected) and not left)
        if matched != len(expected) or left:
            misses.append({"id": item["id"], "class": item["class"], "produced": got})
    order = sorted(tally, key=lambda cls: (cls == "overall", cls))
    rows = {cls: _rates(tally[cls]) for cls in order}
    return {"classes": rows, "misses": misses}


def _rates(t: dict[str, int]) -> dict[str, Any]:
    precision = t["matched"] / t["produced"] if t["produced"] else 1.0
    recall = t["matched"] / t["expected"] if t["expected"] else 1.0
    return {
        **t,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "exact_rate": round(t["exact"] / t["utterances"], 3) if t["utterances"] else 0.0,
    }


def baseline_outputs(revision: str, texts: Sequence[str]) -> list[list[dict[str, Any]]] | str:
    """What the extractor of `revision` produces for each text, run from that revision's
    sources (git archive into a temporary folder) in a subprocess; or why it could not run."""
    repo = Path(__file__).resolve().parents[3]
    with tempfile.TemporaryDirectory(prefix="memory-extractor-") as folder:
        try:
            archive = subprocess.run(
                ["git", "-C", str(repo), "archive", revision, "governed_memory"],
                capture_output=True,
                check=True,
                timeout=60,
            ).stdout
            subprocess.run(
                ["tar", "-x", "-C", folder], input=archive, check=True, capture_output=True
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"not run: revision {revision} could not be read from git ({type(exc).__name__})"
        # Only the extractor's own interface, which every revision has.
        code = (
            "import json, sys\n"
            "from governed_memory.memory.write.extraction import RuleExtractor\n"
            "x = RuleExtractor()\n"
            "out = []\n"
            "for t in json.load(sys.stdin):\n"
            f"    e = x.extract(t, default_timezone={TIMEZONE!r})\n"
            "    out.append([{'kind': c.candidate.kind, 'key': c.candidate.key,"
            " 'value': c.candidate.structured_value, 'content': c.candidate.content}"
            " for c in e.candidates if not c.negated])\n"
            "print(json.dumps(out))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(list(texts)),
            capture_output=True,
            text=True,
            cwd=folder,
            env={"PYTHONPATH": folder, "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
            timeout=600,
        )
        if done.returncode != 0:
            return f"not run: the extractor of {revision} failed ({done.stderr.strip()[-200:]})"
        result: list[list[dict[str, Any]]] = json.loads(done.stdout)
        return result


def run_extraction_bench(
    corpora: Sequence[Path] = EXTRACTION_CORPORA,
    baseline: str = BASELINE,
    model: Extractor | None = None,
) -> dict[str, Any]:
    """Each corpus scored with this checkout's extractor and, beside it, `baseline`'s; and
    the model extractor's (`MEMORY_EXTRACTOR_URL`) when one is configured."""
    from governed_memory.shell.bench.report import print_extraction

    report: dict[str, Any] = {"baseline": baseline, "corpora": {}}
    if model is not None:
        report["model"] = model.info.model_dump(mode="json")
    for path in corpora:
        items = load(path)
        texts = [str(i["text"]) for i in items]
        entry: dict[str, Any] = {"items": len(items), "now": score(items, extract_all(texts))}
        before = baseline_outputs(baseline, texts)
        entry["baseline"] = before if isinstance(before, str) else score(items, before)
        if model is not None:
            entry["model"] = score(items, extract_all(texts, model))
        report["corpora"][path.name] = entry
    print_extraction(report)
    return report
