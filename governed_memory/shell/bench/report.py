"""Printing the figures as tables."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

# Wide enough for the tables when the output is piped or captured (80 columns cut headers).
console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)


def _print_duplicates(r: dict[str, Any]) -> None:
    table = Table(
        title="duplicate decisions — the write pipeline beside the former rule (cosine ≥ 0.92)"
    )
    for col in ("corpus", "kind", "class", "pairs", "DUPLICATE now", "DUPLICATE before"):
        table.add_column(col, justify="right")
    for c in r["classes"]:
        table.add_row(
            c["corpus"],
            "true" if c["duplicate"] else "false",
            c["class"],
            str(c["pairs"]),
            str(c["product"]),
            str(c["baseline"]),
        )
    console.print(table)
    summary = Table(title="duplicates — summary (targets: 0 false, ≥ 95 % of true caught)")
    for col in (
        "corpus",
        "rule",
        "false dups",
        "true caught",
        "rate",
        "rate, same words",
    ):
        summary.add_column(col, justify="right")
    for corpus, rules in r["summary"].items():
        for who, x in rules.items():
            summary.add_row(
                corpus,
                "now" if who == "product" else "before",
                f"{x['false_duplicates']}/{x['false_pairs']}",
                f"{x['true_caught']}/{x['true_pairs']}",
                str(x["true_rate"]),
                str(x["true_rate_same_words"]),
            )
    console.print(summary)
    if r["refused_first"]:
        console.print(
            f"{len(r['refused_first'])} pairs left out: their first statement was refused by "
            "policy (" + ", ".join(sorted({x["first"] for x in r["refused_first"]})) + ")"
        )
    load = r["event_load"]
    console.print(
        f"600-event load: {load['memories']} memories kept; DUPLICATE now "
        f"{load['product_duplicates']}, before {load['baseline_duplicates']} "
        f"(write p50 {r['write_ms_p50']} ms, pipeline + commit + projection, no Temporal)"
    )


def _print_write(section: dict[str, Any]) -> None:
    table = Table(
        title="write latency (ms) — WriteMemory beside the no-activity floor, and the floor with "
        "one empty local activity (the SDK's round trip before any work)"
    )
    columns = ("start", "floor p50", "floor p95", "+empty LA p50", "×", "write p50", "write p95")
    for col in (*columns, "×p50", "×p95"):
        table.add_column(col, justify="right")
    for name, r in section.items():
        local = r.get("floor_local_activity", {})
        table.add_row(
            name,
            str(r["floor"]["p50_ms"]),
            str(r["floor"]["p95_ms"]),
            str(local.get("p50_ms", "-")),
            str(r.get("local_activity_ratio_p50", "-")),
            str(r["write"]["p50_ms"]),
            str(r["write"]["p95_ms"]),
            str(r["ratio_p50"]),
            str(r["ratio_p95"]),
        )
    console.print(table)


def _print_background(section: dict[str, Any]) -> None:
    first: dict[str, Any] = next(iter(section.values()), {})
    table = Table(
        title="background throughput — committed writes per second"
        f" (worker: {first.get('worker', 'in process')}, embedder: {first.get('embedder', '?')})"
    )
    for col in ("mode", "writes", "committed", "seconds", "writes/s"):
        table.add_column(col, justify="right")
    for mode, r in section.items():
        table.add_row(
            mode, str(r["writes"]), str(r["committed"]), str(r["seconds"]), str(r["per_second"])
        )
    console.print(table)


def _print_delete(section: dict[str, Any]) -> None:
    floor = section["floor"]
    table = Table(
        title=f"deletion — request to passed receipt (ms); floor workflow p50 {floor['p50_ms']}"
    )
    for col in ("memories", "median", "runs", "×floor", "versions", "messages", "summaries"):
        table.add_column(col, justify="right")
    for size, r in section.items():
        if size == "floor":
            continue
        table.add_row(
            size,
            str(r["median_ms"]),
            " ".join(str(x) for x in r["runs_ms"]),
            str(r["ratio_to_floor_p50"]),
            str(r["versions"]),
            str(r["messages"]),
            str(r["summaries"]),
        )
    console.print(table)


def _print_projection(section: dict[str, Any]) -> None:
    table = Table(title="projection sweeps — outbox relay and full compare (embedded stack)")
    for col in (
        "memories",
        "relay events/s",
        "bare index/s",
        "×bare",
        "compare s",
        "read-only s",
        "×read",
        "repair 1% s",
    ):
        table.add_column(col, justify="right")
    for size, r in section.items():
        table.add_row(
            size,
            str(r["relay"]["events_per_second"]),
            str(r["relay"]["bare_per_second"]),
            str(r["relay"]["ratio"]),
            str(r["compare"]["seconds"]),
            str(r["compare"]["read_only_seconds"]),
            str(r["compare"]["ratio"]),
            str(r["repair"]["seconds"]),
        )
    console.print(table)
    graph = Table(
        title="graph projection — dropped, then derived again by a full repair, beside the"
        " extraction alone"
    )
    for col in (
        "memories",
        "entities",
        "mentions",
        "relations",
        "rebuild s",
        "memories/s",
        "nodes+edges/s",
        "extract-only s",
        "×extract",
    ):
        graph.add_column(col, justify="right")
    for size, r in section.items():
        g = r.get("graph")
        if g is None:
            continue
        graph.add_row(
            size,
            str(g["entities"]),
            str(g["mentions"]),
            str(g["relations"]),
            str(g["seconds"]),
            str(g["memories_per_second"]),
            str(g["nodes_and_edges_per_second"]),
            str(g["extract_only_seconds"]),
            str(g["ratio"]),
        )
    console.print(graph)


def _print_recall(section: dict[str, Any]) -> None:
    table = Table(
        title="recall latency (ms) — governed recall of k memories beside an exact numpy scan"
        " for the top k"
    )
    for col in (
        "memories",
        "k",
        "other tenants",
        "gc",
        "recall p50",
        "recall p95",
        "scan p50",
        "scan p95",
        "×p50",
        "×p95",
        "context p95",
    ):
        table.add_column(col, justify="right")
    for size, r in section.items():
        for series in ("alone", "isolated", "isolated_default_gc", "alone_k200"):
            if series not in r:
                continue
            x = r[series]
            others = (
                "0"
                if not series.startswith("isolated")
                else (f"{r['other_tenants']['tenants']}×{r['other_tenants']['rows_each']}")
            )
            context = r.get("context_build", {}).get("p95_ms", "") if series == "alone" else ""
            table.add_row(
                size,
                "200" if series == "alone_k200" else "5",
                others,
                "CPython default" if series == "isolated_default_gc" else "settled",
                str(x["recall"]["p50_ms"]),
                str(x["recall"]["p95_ms"]),
                str(x["numpy_scan"]["p50_ms"]),
                str(x["numpy_scan"]["p95_ms"]),
                str(x["ratio_p50"]),
                str(x["ratio_p95"]),
                str(context),
            )
    console.print(table)


_PRINTERS = {
    "duplicates": _print_duplicates,
    "write": _print_write,
    "background": _print_background,
    "delete": _print_delete,
    "projection": _print_projection,
    "recall": _print_recall,
}


def _print_http(section: dict[str, Any]) -> None:
    table = Table(title="through the HTTP API (ms) — beside the same call in the service's process")
    for col in ("call", "in-process p50", "p95", "HTTP p50", "p95", "×p50"):
        table.add_column(col, justify="right")
    calls = {name: r for name, r in section.items() if name != "export"}
    for name, r in calls.items():
        table.add_row(
            name,
            str(r["in_process"]["p50_ms"]),
            str(r["in_process"]["p95_ms"]),
            str(r["http"]["p50_ms"]),
            str(r["http"]["p95_ms"]),
            str(r["ratio_p50"]),
        )
    console.print(table)
    if "export" in section:
        e = section["export"]
        exported = Table(title=f"GET /v1/export of {e['memories']} memories (ms, median)")
        for col in ("streamed: first byte", "streamed: whole", "built in memory (before)"):
            exported.add_column(col, justify="right")
        exported.add_row(
            str(e["streamed_first_byte_ms"]),
            str(e["streamed_whole_ms"]),
            str(e["built_in_memory_ms"]),
        )
        console.print(exported)
        busy = e.get("recall_during_exports")
        if busy:
            load = Table(
                title=f"another caller's recall over HTTP (ms), alone and with {busy['exports']} "
                "exports in flight"
            )
            for col in ("", "p50", "p95", "n"):
                load.add_column(col, justify="right")
            for row in ("alone", "during"):
                r = busy[row]
                load.add_row(row, str(r["p50_ms"]), str(r["p95_ms"]), str(r["n"]))
            console.print(load)
            console.print(
                f"exports still running when the last recall was answered: "
                f"{busy['exports_still_running_at_the_end']}"
            )


def _print_retrieval(r: dict[str, Any]) -> None:
    _print_retrieval_set(r, "LoCoMo")
    if "chinese" in r:
        _print_retrieval_set(r["chinese"], "the Chinese set")
    for name in ("twohop", "twohop2"):
        if name in r:
            _print_twohop(r[name])


def _print_twohop(r: dict[str, Any]) -> None:
    table = Table(
        title=f"two hops ({Path(r['path']).name}): both memories a question needs within the top"
        f" {r['k']}, with the graph walk, without it, and BM25 over the same memories"
    )
    for col in ("set", "questions", "graph", "no graph", "bm25", "graph, evidence kept"):
        table.add_column(col, justify="right")
    for lang in ("en", "zh", "overall"):
        v = r.get(lang)
        if v:
            table.add_row(
                lang,
                str(v["questions"]),
                str(v["both_found_graph"]),
                str(v["both_found_no_graph"]),
                str(v["both_found_bm25"]),
                f"{v['both_found_graph_evidence_kept']} of {v['questions_evidence_kept']}",
            )
    console.print(table)


def _print_retrieval_set(r: dict[str, Any], label: str) -> None:
    table = Table(
        title=f"retrieval on {label} ({', '.join(r['conversations'])}; {r['questions']} "
        f"questions, {r['turns']} turns) — recall ({r.get('embedder', '?')}) beside baselines"
        " over the same turns"
    )
    for col in ("retriever", "rows", "questions", "R@5", "R@10", "R@20"):
        table.add_column(col, justify="right")
    peer = r.get("mem0", {})
    rows = {name: r.get(name, {}) for name in ("product", "product_without_graph", "bm25")}
    rows["char_tfidf"] = r.get("char_tfidf", {})
    if "scores" in peer:
        rows["mem0"] = peer["scores"]
    for name, table_rows in rows.items():
        for row, v in table_rows.items():
            table.add_row(
                name if row == "overall" else "",
                row,
                str(int(v["questions"])),
                str(v["R@5"]),
                str(v["R@10"]),
                str(v["R@20"]),
            )
    console.print(table)
    console.print(
        f"  written {r['written']} of {r['turns']} turns ({r['writes_per_second']} turns/s through "
        f"write_batch); refused {r['refused'] or 'none'}; recall p50 {r['recall_ms']['p50']} ms, "
        f"p95 {r['recall_ms']['p95']} ms"
    )
    if "skipped" in peer:
        console.print(f"  mem0: not run, {peer['skipped']}")
    elif peer:
        console.print(
            f"  mem0 {peer['version']} (infer=False, {peer['embedder']}, local Qdrant), the same"
            f" turns and questions: add p50 {peer['add_ms']['p50']} ms, p95"
            f" {peer['add_ms']['p95']} ms ({peer['adds_per_second']} turns/s, one by one: it"
            f" has no batch add); search p50 {peer['search_ms']['p50']} ms, p95"
            f" {peer['search_ms']['p95']} ms"
        )
    kept = r.get("product_evidence_kept", {}).get("overall")
    if kept:
        console.print(
            f"  over the {int(kept['questions'])} questions none of whose evidence was refused "
            "(R@5 / R@10 / R@20):"
        )
        for name in ("product", "bm25", "char_tfidf"):
            v = r.get(f"{name}_evidence_kept", {}).get("overall")
            if v:
                console.print(f"    {name:<11} {v['R@5']} / {v['R@10']} / {v['R@20']}")
    consented = r.get("with_consent")
    if consented:
        v = consented["product"]["overall"]
        console.print(
            f"  the same import with a consent ({consented['consent_purpose']}): written "
            f"{consented['written']} of {r['turns']}, refused {consented['refused'] or 'none'}"
            " (the consented turns are stored restricted, above the asking user's ceiling, so"
            f" withheld from recall); product R@5 / R@10 / R@20 {v['R@5']} / {v['R@10']} /"
            f" {v['R@20']}"
        )


def print_extraction(r: dict[str, Any]) -> None:
    """Per corpus: precision, recall and exact utterances per class, now and at the baseline."""
    for name, entry in r["corpora"].items():
        before = entry["baseline"]
        table = Table(
            title=f"candidate extraction — {name} ({entry['items']} utterances), this checkout"
            f" beside the extractor of {r['baseline']}"
        )
        for col in ("class", "n", "P", "R", "exact", "P before", "R before", "exact before"):
            table.add_column(col, justify="right")
        for cls, now in entry["now"]["classes"].items():
            was = before["classes"].get(cls, {}) if isinstance(before, dict) else {}
            table.add_row(
                cls,
                str(now["utterances"]),
                str(now["precision"]),
                str(now["recall"]),
                str(now["exact_rate"]),
                *(str(was.get(k, "—")) for k in ("precision", "recall", "exact_rate")),
            )
        console.print(table)
        if isinstance(before, str):
            console.print(f"  baseline {r['baseline']}: {before}")
        model = entry.get("model")
        if model is None:
            console.print("  model extractor: not run (MEMORY_EXTRACTOR_URL is not set)")
        else:
            m = model["classes"]["overall"]
            console.print(
                f"  model extractor ({r['model']['name']} {r['model'].get('model') or ''}):"
                f" P {m['precision']} R {m['recall']} exact {m['exact_rate']}"
            )


_PRINTERS["http"] = _print_http
_PRINTERS["retrieval"] = _print_retrieval


def print_report(report: dict[str, Any]) -> None:
    for section, printer in _PRINTERS.items():
        if section in report:
            printer(report[section])
