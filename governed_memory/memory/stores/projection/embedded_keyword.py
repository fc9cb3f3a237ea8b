"""The embedded projection's keyword sides: each tenant's FTS5 word and trigram indexes give
the rows of the query's selective terms, ranked by BM25 in numpy over the namespaces' columns
(Anserini's k1 and b, Lucene's IDF), a row's score being its share of the query's IDF mass;
document frequencies are kept a while."""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from governed_memory.memory.stores.projection import Hit, SearchFilters
from governed_memory.memory.stores.projection.embedded_vectors import _Matrix
from governed_memory.memory.terms import query_trigrams, query_words

#: How many postings one keyword side may rank per query, and how many of the newest rows
#: holding a term it takes when even the rarest term is over that (see `_side`).
_KEYWORD_POSTINGS_BUDGET = 2_000
_NEWEST_ROWS = 200
#: How many rows beyond those asked for a keyword side scores exactly (see `_side`).
_RESCORED = 20
#: How long, and for how many terms, document frequencies are kept per index.
_DF_SECONDS = 300.0
_DF_TERMS = 200_000


#: BM25's term-frequency saturation and length normalisation: Anserini's defaults for short
#: passages (k1 0.9, b 0.4), which memories are. Beside FTS5's and Lucene's 1.2 / 0.75 they
#: lifted LoCoMo R@10 0.633 → 0.640 and the Chinese set's 0.609 → 0.630 (the search alone).
_K1, _B = 0.9, 0.4


def _idf(rows: int, df: int) -> float:
    """BM25's inverse document frequency as Lucene has it: positive however small the index
    (FTS5's own is floored to nothing for a term in half the rows, which in a tenant of a few
    memories is every term)."""
    return math.log(1.0 + (rows - df + 0.5) / (df + 0.5))


def _trigram_length(content: str) -> int:
    return max(len(content) - 2, 0)


def _word_length(content: str) -> int:
    """How many terms a row of the word index holds: its terms are joined by one space each
    (`index_words`), so they are counted without splitting (at 100k memories a keyword side
    rescoring 200 rows spent a third of a millisecond splitting them for their lengths)."""
    return content.count(" ") + 1 if content else 0


def _bm25_rows(
    tf: npt.NDArray[np.float64],
    idf: Sequence[float],
    lengths: npt.NDArray[np.float64],
    average: float,
    mass: float,
) -> npt.NDArray[np.float64]:
    """Rows' BM25 (`tf`: a row per row, a column per term), each as a share of the query's IDF
    mass, at most 1: a row of average length holding every term once scores the mass itself.
    In numpy, as it was row by row in Python and bit for bit the same: the same operations in
    the same order, the terms summed left to right (`cumsum`; a term a row lacks adds an exact
    zero). At k = 200 the rows one by one were a sixth of the recall."""
    if not len(tf) or mass <= 0:
        return np.zeros(len(tf))
    norm = _K1 * (1.0 - _B + _B * lengths / average) if average > 0 else np.full(len(tf), _K1)
    terms = np.asarray(idf, dtype=np.float64) * tf * (_K1 + 1.0) / (tf + norm[:, None])
    return np.minimum(np.cumsum(terms, axis=1)[:, -1] / mass, 1.0)


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass
class _Frequencies:
    """Document frequencies of one keyword index, as counted at `rows` rows."""

    rows: int
    filled: float
    counts: dict[str, int] = field(default_factory=dict)


#: Words are matched to terms by a polynomial hash of their code points (`_word_hashes`),
#: in uint64 arithmetic that wraps; every match is then compared code point by code point.
_BASE = 1_000_003
_MASK = (1 << 64) - 1
_powers: tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]] = (
    np.ones(1, np.uint64),
    np.ones(1, np.uint64),
)


def _powers_of(n: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The base's first `n` powers and its inverse's (modulo 2**64), kept and grown."""
    global _powers
    powers = _powers
    if len(powers[0]) < n:
        size = max(n, 2 * len(powers[0]), 1 << 16)
        up = np.full(size, _BASE, np.uint64)
        down = np.full(size, pow(_BASE, -1, 1 << 64), np.uint64)
        up[0] = down[0] = 1
        powers = _powers = (np.cumprod(up), np.cumprod(down))  # wrapping
    return powers


def _word_hashes(
    points: npt.NDArray[np.uint64],
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each space-separated word of `points` (code points): its hash, where it starts and its
    length. A word's hash does not depend on where it is (its sum is divided by the power at
    its start)."""
    up, down = _powers_of(len(points))
    spaces = np.flatnonzero(points == 32)
    starts = np.concatenate(([0], spaces + 1))
    ends = np.concatenate((spaces, [len(points)]))
    prefix = np.zeros(len(points) + 1, np.uint64)
    np.cumsum(points * up[: len(points)], out=prefix[1:])
    hashes: npt.NDArray[np.uint64] = (prefix[ends] - prefix[starts]) * down[starts]
    return hashes, starts, ends - starts


def _term_hash(term: str) -> int:
    return sum(ord(c) * pow(_BASE, i, 1 << 64) for i, c in enumerate(term)) & _MASK


def _word_tf(contents: Sequence[str], terms: Sequence[str]) -> npt.NDArray[np.float64]:
    """How often each term occurs in each row of the word index (its terms, joined by single
    spaces): a row per content, a column per term. In numpy over the rows joined by a space:
    each word's hash is looked up among the terms', and each match is confirmed code point by
    code point. At 100k memories a side scores 200 rows of some 40 words each; splitting them
    and looking each word up in Python was a tenth of the recall."""
    tf = np.zeros((len(contents), len(terms)))
    column = {t: j for j, t in enumerate(terms) if t and not any(c.isspace() for c in t)}
    if not contents or not column:
        return tf
    with np.errstate(over="ignore"):
        points = np.frombuffer(" ".join(contents).encode("utf-32-le"), np.uint32).astype(np.uint64)
        hashes, starts, lengths = _word_hashes(points)
        wanted = np.array([_term_hash(t) for t in column], np.uint64)
    if len(np.unique(wanted)) < len(wanted):  # two terms hash alike: counted one by one
        for i, content in enumerate(contents):
            for word in content.split():
                if word in column:
                    tf[i, column[word]] += 1
        return tf
    order = np.argsort(wanted, kind="stable")
    ranked = wanted[order]
    at = np.minimum(np.searchsorted(ranked, hashes), len(ranked) - 1)
    hit = np.flatnonzero(ranked[at] == hashes)
    term = order[at[hit]]
    sizes = np.array([len(t) for t in column], np.int64)
    hit, term = hit[lengths[hit] == sizes[term]], term[lengths[hit] == sizes[term]]
    if len(hit):
        width = int(sizes.max())
        spelled = np.zeros((len(column), width), np.uint64)
        for n, t in enumerate(column):
            spelled[n, : len(t)] = np.frombuffer(t.encode("utf-32-le"), np.uint32)
        offsets = np.arange(width)
        read = points[np.minimum(starts[hit][:, None] + offsets, len(points) - 1)]
        beyond = offsets >= sizes[term][:, None]
        same = ((read == spelled[term]) | beyond).all(axis=1)
        hit, term = hit[same], term[same]
    row_starts = np.cumsum([0] + [len(c) + 1 for c in contents[:-1]])
    rows = np.searchsorted(row_starts, starts[hit], side="right") - 1
    columns = np.array(list(column.values()), np.int64)
    np.add.at(tf, (rows, columns[term]), 1.0)
    return tf


def _codes(text: str) -> npt.NDArray[np.int64]:
    """Each 3-character run of `text` as one number (three code points of 21 bits each)."""
    points = np.frombuffer(text.encode("utf-32-le"), np.uint32).astype(np.int64)
    if len(points) < 3:
        return np.zeros(0, np.int64)
    result: npt.NDArray[np.int64] = (points[:-2] << 42) | (points[1:-1] << 21) | points[2:]
    return result


def _trigram_tf(contents: Sequence[str], terms: Sequence[str]) -> npt.NDArray[np.float64]:
    """How often each trigram occurs in each row of the trigram index (its text; the tokenizer
    folds case), counted as the index's tokenizer counts them: every 3-character run, overlapping
    ("ana" twice in "banana"). In numpy over the rows joined by a character no term holds: at
    100k memories a keyword side scores 200 rows by some 30 trigrams, and a `str.count` per row
    and term was a fifth of the recall."""
    tf = np.zeros((len(contents), len(terms)))
    if not contents or not terms:
        return tf
    folded = [c.casefold() for c in contents]
    if any(len(t) != 3 for t in terms):  # not trigrams: counted as written
        return np.array([[c.count(t) for t in terms] for c in folded], np.float64)
    starts = np.cumsum([0] + [len(c) + 1 for c in folded[:-1]])
    runs = _codes("\x00".join(folded))
    wanted = _codes("\x00".join(terms))[::4]
    order = np.argsort(wanted, kind="stable")
    ranked = wanted[order]
    at = np.minimum(np.searchsorted(ranked, runs), len(ranked) - 1)
    hit = np.flatnonzero(ranked[at] == runs)
    rows = np.searchsorted(starts, hit, side="right") - 1
    np.add.at(tf, (rows, order[at[hit]]), 1.0)
    return tf


def _document_frequencies(
    conn: sqlite3.Connection,
    table: str,
    terms: list[str],
    rows: int,
    kept: dict[str, _Frequencies],
    lock: threading.Lock,
) -> dict[str, int]:
    """How many rows hold each term (absent: none). fts5vocab counts a term's rows by
    reading its whole doclist, a millisecond for a common term at 100k rows, so counts are
    kept a while: until the tenant's row count has moved by 1 % (at least 50 rows) or for
    `_DF_SECONDS`. BM25's statistics need no more (scores, never filters, use them)."""
    now = time.monotonic()
    with lock:
        cache = kept.get(table)
        if (
            cache is None
            or abs(rows - cache.rows) > max(50, rows // 100)
            or now - cache.filled > _DF_SECONDS
            or len(cache.counts) > _DF_TERMS
        ):
            cache = kept[table] = _Frequencies(rows, now)
        missing = [t for t in terms if t not in cache.counts]
    if missing:
        marks = ",".join("?" * len(missing))
        found = dict.fromkeys(missing, 0)
        for term, df in conn.execute(
            f"SELECT term, doc FROM {table}_vocab WHERE term IN ({marks})", missing
        ):
            found[str(term)] = int(df)
        with lock:
            cache.counts.update(found)
    return {t: cache.counts.get(t, 0) for t in terms}


def _side(
    conn: sqlite3.Connection,
    table: str,
    terms: list[str],
    filters: SearchFilters,
    limit: int,
    rows: int,
    average: float,
    frequencies: Callable[[Sequence[str], Sequence[str]], npt.NDArray[np.float64]],
    kept: dict[str, _Frequencies],
    lock: threading.Lock,
    places: Sequence[tuple[str, _Matrix]],
) -> list[tuple[str, int, str, float]]:
    """One keyword index's best rows for `terms`: (memory id, version, namespace, score),
    the score being the row's BM25 as a share of the query's IDF mass (`_bm25_rows`), with an
    IDF that stays positive in a small tenant.

    What is scored is bounded, whatever the size of the tenant. Terms go from rare to
    common while the sum of their document frequencies stays within a budget: a common term
    ("的记录", a speaker's name) would cost milliseconds to score and, its IDF being low,
    change little. Their rows are ranked in numpy over the namespaces' columns (`_ranked`).
    When even the rarest term is over the budget, the newest rows holding it are taken. Either
    way the best rows are scored by every term of the query, from their text, so a score stays
    a share of the query."""
    if not terms:
        return []
    df = _document_frequencies(conn, table, terms, rows, kept, lock)
    idf = [_idf(rows, df[t]) for t in terms]
    mass = sum(idf)
    present = sorted((t for t in terms if df[t] > 0), key=lambda t: (df[t], t))
    if not present:
        return []
    chosen: list[str] = []
    postings = 0
    for term in present:
        if postings + df[term] > _KEYWORD_POSTINGS_BUDGET:
            break
        chosen.append(term)
        postings += df[term]
    words = table.endswith("_w")
    if chosen:
        weights = [idf[terms.index(t)] for t in chosen]
        # A few rows more than asked are read and scored exactly: the ranking above counts
        # each chosen term once and leaves the common terms out.
        depth = limit + _RESCORED
        found = _ranked(conn, table, chosen, weights, average, depth, places, filters, words)
    else:
        found = _newest(conn, table, present[0], places, filters)
    length = _word_length if words else _trigram_length
    scores = _bm25_rows(
        frequencies([content for *_, content in found], terms),
        idf,
        np.array([length(content) for *_, content in found], np.float64),
        average,
        mass,
    )
    scored = [
        (m, v, ns, score) for (m, v, ns, _), score in zip(found, scores.tolist(), strict=True)
    ]
    scored.sort(key=lambda s: (-s[3], s[0]))
    return scored[:limit]


def _postings(conn: sqlite3.Connection, table: str, term: str) -> npt.NDArray[np.int64]:
    """The rowids of the rows holding `term`, read as one string: a thousand rows cost a
    third of what as many fetched tuples do."""
    (joined,) = conn.execute(
        f"SELECT group_concat(rowid, ' ') FROM {table} WHERE {table} MATCH ?", (_quoted(term),)
    ).fetchone()
    return np.fromstring(joined or "", np.int64, sep=" ")


def _placed(
    rids: npt.NDArray[np.int64], places: Sequence[tuple[str, _Matrix]], filters: SearchFilters
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each of `rids` (sorted, unique), which of the namespaces (`places`) holds it and at
    which row of its columns, where the filters pass it; -1 and -1 elsewhere."""
    place = np.full(len(rids), -1, np.int64)
    row = np.full(len(rids), -1, np.int64)
    for n, (_, m) in enumerate(places):
        at = m.rows_of(rids)
        inside = at >= 0
        passed = np.zeros(len(rids), np.bool_)
        passed[inside] = m.mask(filters, at[inside])
        place[passed], row[passed] = n, at[passed]
    return place, row


def _read(
    conn: sqlite3.Connection,
    table: str,
    rids: npt.NDArray[np.int64],
    chosen: npt.NDArray[np.int64],
    place: npt.NDArray[np.int64],
    row: npt.NDArray[np.int64],
    places: Sequence[tuple[str, _Matrix]],
) -> list[tuple[str, int, str, str]]:
    """The `chosen` postings (placed by `_placed`), in order, as (memory id, version,
    namespace, text), their texts read in one go."""
    texts = _texts(conn, table, [int(rids[i]) for i in chosen])
    out: list[tuple[str, int, str, str]] = []
    for i in chosen:
        namespace, m = places[place[i]]
        text = texts.get(int(rids[i]))
        if text is not None:
            out.append((m.ids[row[i]], int(m.versions[row[i]]), namespace, text))
    return out


def _texts(conn: sqlite3.Connection, table: str, rids: Sequence[int]) -> dict[int, str]:
    """The indexed text of each row of `rids`, from the index's content table (FTS5's
    `%_content`, a plain table keyed by rowid): 200 rows read there cost half what they cost
    through the index's own rowid lookups."""
    texts: dict[int, str] = {}
    for part in range(0, len(rids), 500):  # IN-lists of a bounded size
        chunk = rids[part : part + 500]
        texts.update(
            conn.execute(
                f"SELECT id, c0 FROM {table}_content WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    return texts


def _newest(
    conn: sqlite3.Connection,
    table: str,
    term: str,
    places: Sequence[tuple[str, _Matrix]],
    filters: SearchFilters,
) -> list[tuple[str, int, str, str]]:
    """The `_NEWEST_ROWS` newest rows holding `term` in the namespaces (`places`) that the
    filters pass: (memory id, version, namespace, text). The term's rowids come newest first
    from its doclist, without their rows; the namespaces' columns place and filter them; only
    the rows kept are read. Joining each posting to its projection row in SQL cost twice as
    much (at 100k memories, a millisecond per side)."""
    depth = 2 * _NEWEST_ROWS
    while True:
        (joined,) = conn.execute(
            f"SELECT group_concat(rowid, ' ') FROM (SELECT rowid FROM {table}"
            f" WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT ?)",
            (_quoted(term), depth),
        ).fetchone()
        newest = np.fromstring(joined or "", np.int64, sep=" ")
        rids = np.sort(newest)
        place, row = _placed(rids, places, filters)
        kept = np.flatnonzero(place >= 0)[::-1][:_NEWEST_ROWS]  # newest first
        if len(kept) == _NEWEST_ROWS or len(newest) < depth:
            break
        depth *= 4
    return _read(conn, table, rids, kept, place, row, places)


def _ranked(
    conn: sqlite3.Connection,
    table: str,
    chosen: list[str],
    weights: list[float],
    average: float,
    limit: int,
    places: Sequence[tuple[str, _Matrix]],
    filters: SearchFilters,
    words: bool,
) -> list[tuple[str, int, str, str]]:
    """The `limit` rows of the namespaces (`places`) that the filters pass and that rank best
    by BM25 over the chosen terms, each term counted once (a row's term frequencies are read
    from its text afterwards, for those rows only): (memory id, version, namespace, text).

    FTS5 gives each term's rows (its doclist, read without scoring), the namespaces' columns
    give each row's length and filters: no per-row lookups in SQLite, which ranking with FTS5's
    `bm25()` over a join costs (its document sizes and the joined rows, a few milliseconds at
    a thousand rows)."""
    lists = [_postings(conn, table, t) for t in chosen]
    rids, inverse = np.unique(np.concatenate(lists), return_inverse=True)
    if not len(rids):
        return []
    place, row = _placed(rids, places, filters)
    length = np.zeros(len(rids))
    for n, (_, m) in enumerate(places):
        here = place == n
        length[here] = (m.words if words else m.trigrams)[row[here]]
    norm = _K1 * (1.0 - _B + _B * length / average) if average > 0 else np.full(len(rids), _K1)
    weight = np.repeat(np.array(weights), [len(x) for x in lists])
    score = np.bincount(inverse, weight * (_K1 + 1.0) / (1.0 + norm[inverse]), len(rids))
    score[place < 0] = -np.inf
    admitted = int(np.count_nonzero(place >= 0))
    if not admitted:
        return []
    n = min(limit, admitted)
    best = np.argpartition(-score, n - 1)[:n] if n < len(rids) else np.flatnonzero(place >= 0)
    return _read(conn, table, rids, best, place, row, places)


def _keyword_hits(
    conn: sqlite3.Connection,
    table: str,
    text: str,
    filters: SearchFilters,
    limit: int,
    kept: dict[str, _Frequencies],
    lock: threading.Lock,
    places: Sequence[tuple[str, _Matrix]],
) -> dict[str, Hit]:
    """Both keyword sides for `text` in the tenant's indexes (`table`, its trigram index) over
    the namespaces' rows (`places`), each hit carrying the score of each side it is on."""
    hits: dict[str, Hit] = {}
    totals = conn.execute(
        "SELECT rows, words, trigrams FROM proj_tenants WHERE tenant_id = ?",
        (filters.tenant_id,),
    ).fetchone()
    if totals is None or totals[0] <= 0:
        return hits
    rows, words, grams = totals
    found = _side(
        conn,
        table + "_w",
        query_words(text),
        filters,
        limit,
        rows,
        words / rows,
        _word_tf,
        kept,
        lock,
        places,
    )
    for m, version, namespace, score in found:
        hits[m] = Hit(m, version, namespace, word_score=score)
    for m, version, namespace, score in _side(
        conn,
        table,
        query_trigrams(text),
        filters,
        limit,
        rows,
        grams / rows,
        _trigram_tf,
        kept,
        lock,
        places,
    ):
        hit = hits.get(m)
        if hit is None:
            hit = hits[m] = Hit(m, version, namespace)
        hit.trigram_score = score
    return hits
