"""A sweep's rows: in a fixed order, written as CSV or Parquet, and summed up for people.

The rows are sorted by instance, model (the sweep's order) and claim (the sweep's order), so
a pool and a cluster, or a run and its resumption, write the same file but for ``seconds``.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence

from verifier.errors import InputError
from verifier.sweep.decide import ERROR, Row
from verifier.sweep.load import Sweep

__all__ = [
    "FORMATS",
    "columns",
    "differing",
    "interesting",
    "output_bytes",
    "sorted_rows",
    "summary_lines",
]

FORMATS = (".csv", ".parquet")
VERDICTS = ("holds", "fails", "unknown", ERROR)
SHOWN = 20
"""How many of the most interesting rows the summary prints."""


def columns(sweep: Sweep) -> list[str]:
    """The output's columns: the instance, a column per placeholder, then the decision."""
    return [
        "instance",
        *(p.name for p in sweep.placeholders),
        "model",
        "claim_id",
        "claim",
        "verdict",
        "engine",
        "seconds",
        "witness",
        "reason",
    ]


def sorted_rows(sweep: Sweep, rows: Sequence[Row]) -> list[Row]:
    models = {m.shown: i for i, m in enumerate(sweep.models)}
    claims = {ident: i for i, (ident, _) in enumerate(sweep.claims)}
    return sorted(rows, key=lambda r: (r.instance, models[r.model], claims[r.claim_id]))


def _records(sweep: Sweep, rows: Sequence[Row]) -> list[list[object]]:
    return [
        [
            r.instance,
            *r.cards,
            r.model,
            r.claim_id,
            r.claim,
            r.verdict,
            r.engine,
            r.seconds,
            r.witness,
            r.reason,
        ]
        for r in rows
    ]


def check_format(out: str) -> None:
    """Refuse an output whose format is unknown, or Parquet without pyarrow, before any work."""
    if not out.endswith(FORMATS):
        raise InputError(f"unknown output format for '{out}' (use .csv or .parquet)")
    if out.endswith(".parquet"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise InputError(
                "writing .parquet needs pyarrow: pip install 'chain-verifier[parquet]' "
                "(or write .csv)"
            ) from None


def output_bytes(sweep: Sweep, rows: Sequence[Row], out: str) -> bytes:
    """The rows as the file ``out`` names: CSV (UTF-8, a header line) or Parquet."""
    header = columns(sweep)
    records = _records(sweep, rows)
    if out.endswith(".parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({name: [r[i] for r in records] for i, name in enumerate(header)})
        sink = io.BytesIO()
        pq.write_table(table, sink)
        return sink.getvalue()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    return text.getvalue().encode("utf-8")


def _cards(sweep: Sweep, row: Row) -> str:
    return ", ".join(f"{p.name}={c}" for p, c in zip(sweep.placeholders, row.cards, strict=True))


def differing(rows: Sequence[Row]) -> dict[tuple[int, str], list[Row]]:
    """The instances' claims whose verdict is not the same under every model."""
    groups: dict[tuple[int, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.instance, row.claim_id), []).append(row)
    return {k: g for k, g in groups.items() if len({r.verdict for r in g}) > 1}


def interesting(rows: Sequence[Row]) -> list[Row]:
    """The rows, most interesting first: where the models differ; then the rarest verdicts of
    their claim and model (the few cards that answer, among many that do not); then the
    rest, in order. Undecided and failed rows count as rare only among themselves."""
    differs = {key for key in differing(rows)}
    counts = Counter((r.claim_id, r.model, r.verdict) for r in rows)
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(
        rows,
        key=lambda r: (
            (r.instance, r.claim_id) not in differs,
            r.verdict in {"unknown", ERROR},
            counts[r.claim_id, r.model, r.verdict],
            order[id(r)],
        ),
    )


def summary_lines(sweep: Sweep, rows: Sequence[Row], instances: int, cached: int) -> list[str]:
    """Counts by verdict, the claims the models decide differently, the rarest rows."""
    counts = Counter(r.verdict for r in rows)
    tally = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    lines = [
        f"{sweep.path}: {instances} instance(s) x {len(sweep.models)} model(s) x "
        f"{len(sweep.claims)} claim(s) = {len(rows)} row(s): {tally or 'none'}"
        + (f" ({cached} instance run(s) from the cache)" if cached else "")
    ]
    for model in sweep.models:
        mine = Counter(r.verdict for r in rows if r.model == model.shown)
        lines.append(
            f"  {model.shown}: " + ", ".join(f"{mine[v]} {v}" for v in VERDICTS if mine[v])
        )
    differs = differing(rows)
    if len(sweep.models) > 1:
        lines.append(f"where the models differ: {len(differs)} claim(s) of an instance")
    lines.append("most interesting first:")
    ranked = interesting(rows)
    for row in ranked[:SHOWN]:
        mark = "*" if (row.instance, row.claim_id) in differs else " "
        detail = row.witness or row.reason
        lines.append(
            f" {mark}{row.verdict:<8} {row.model:<20} {_cards(sweep, row)}  {row.claim_id}: "
            f"{row.claim}" + (f"\n             {detail}" if detail else "")
        )
    if len(ranked) > SHOWN:
        lines.append(f"  ... {len(ranked) - SHOWN} more row(s) (--out FILE writes them all)")
    return lines
