"""The keyword sides' BM25, scored for many rows at once in numpy, equal to the formula row by
row (what the sides computed before): the same scores to the last bit, so rankings and ties are
unchanged. The term frequencies it reads, counted for many rows at once, equal each row's own
count: words as the word index splits them, trigrams as the trigram tokenizer cuts them
(every 3-character run, overlapping), even where two different words hash alike. A word row's
length, counted without splitting it, is what splitting it gives."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from governed_memory.memory.stores.projection.embedded_keyword import (
    _B,
    _K1,
    _bm25_rows,
    _trigram_tf,
    _word_length,
    _word_tf,
)
from governed_memory.memory.terms import index_words


def _bm25(
    tf: Sequence[int], idf: Sequence[float], length: int, average: float, mass: float
) -> float:
    """One row's BM25 as a share of the query's IDF mass, in plain Python."""
    norm = _K1 * (1.0 - _B + _B * length / average) if average > 0 else _K1
    score = sum(i * f * (_K1 + 1.0) / (f + norm) for f, i in zip(tf, idf, strict=True) if f)
    return min(score / mass, 1.0) if mass > 0 else 0.0


def test_rows_at_once_score_as_each_row_alone_to_the_last_bit() -> None:
    rng = random.Random(29)
    for _ in range(300):
        terms = rng.randint(1, 40)
        rows = rng.randint(1, 60)
        idf = [rng.uniform(0.01, 9.0) for _ in range(terms)]
        tf = [[rng.choice((0, 0, 0, 1, 1, 2, 3, 7)) for _ in range(terms)] for _ in range(rows)]
        lengths = [rng.randint(0, 400) for _ in range(rows)]
        average = rng.choice((0.0, rng.uniform(1.0, 120.0)))
        mass = rng.choice((0.0, sum(idf), sum(idf) * rng.uniform(0.2, 1.0)))
        together = _bm25_rows(
            np.array(tf, np.float64), idf, np.array(lengths, np.float64), average, mass
        ).tolist()
        alone = [_bm25(t, idf, n, average, mass) for t, n in zip(tf, lengths, strict=True)]
        assert together == alone  # exact equality, not closeness


def test_a_row_holding_every_term_once_at_average_length_scores_the_whole_mass() -> None:
    idf = [math.log(2.0), 3.0, 0.5]
    score = _bm25_rows(np.ones((1, 3)), idf, np.array([10.0]), 10.0, sum(idf))
    assert score.tolist() == [1.0]
    assert _bm25_rows(np.zeros((0, 3)), idf, np.zeros(0), 10.0, sum(idf)).tolist() == []


def test_word_frequencies_of_many_rows_are_each_rows_own_counts() -> None:
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(40)] + ["退款", "订单"]
    for _ in range(200):
        contents = [
            " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 25)))
            for _ in range(rng.randint(0, 30))
        ]
        terms = list(dict.fromkeys(rng.choice(vocab) for _ in range(rng.randint(1, 8))))
        want = [[c.split().count(t) for t in terms] for c in contents]
        got = _word_tf(contents, terms)
        assert got.shape == (len(contents), len(terms))
        assert got.tolist() == want


@given(st.lists(st.text(max_size=40), max_size=12), st.lists(st.text(max_size=6), max_size=8))
@settings(max_examples=300, deadline=None)
def test_word_frequencies_of_indexed_rows_are_what_splitting_them_counts(
    texts: list[str], others: list[str]
) -> None:
    contents = [index_words(t) for t in texts]
    said = [w for c in contents for w in c.split()]
    terms = list(dict.fromkeys(said[::3] + others))
    got = _word_tf(contents, terms)
    assert got.shape == (len(contents), len(terms))
    assert got.tolist() == [[c.split().count(t) for t in terms] for c in contents]


def test_two_words_that_hash_alike_are_still_told_apart() -> None:
    # Thue-Morse words of 2**11 letters and their complements have one polynomial hash
    # modulo 2**64 whatever the base: every match is compared letter by letter.
    word = "".join("ab"[bin(i).count("1") % 2] for i in range(2048))
    twin = word.translate(str.maketrans("ab", "ba"))
    assert word != twin
    got = _word_tf([f"x {word} y", twin, f"{word} {word}"], [twin, "x", word])
    assert got.tolist() == [[0, 1, 1], [1, 0, 0], [0, 0, 2]]


def _runs(text: str, term: str) -> int:
    folded = text.casefold()
    return sum(folded[i : i + 3] == term for i in range(len(folded) - 2))


def test_trigram_frequencies_count_every_run_as_the_tokenizer_cuts_them() -> None:
    rng = random.Random(7)
    letters = "abAB 退款订单\U0001f600"  # an astral character counts as one, as SQLite's does
    for _ in range(300):
        contents = [
            "".join(rng.choice(letters) for _ in range(rng.randint(0, 40)))
            for _ in range(rng.randint(0, 20))
        ]
        terms = list(
            dict.fromkeys(
                "".join(rng.choice(letters.lower()) for _ in range(3))
                for _ in range(rng.randint(1, 10))
            )
        )
        got = _trigram_tf(contents, terms)
        assert got.tolist() == [[_runs(c, t) for t in terms] for c in contents]
    # overlapping runs count each ("ana" twice in "banana"), and no run spans two rows
    assert _trigram_tf(["banana", "BAN", "ANA"], ["ana", "nan", "ana"[:2] + "b"]).tolist() == [
        [2, 1, 0],
        [0, 0, 0],
        [1, 0, 0],
    ]


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_a_word_rows_length_counts_its_terms_as_splitting_would(text: str) -> None:
    words = index_words(text)
    assert _word_length(words) == len(words.split())
