"""Sweeps: the file format's errors (one each, at its place), the rows a tiny sweep gives,
the cache, rows for instances that fail or reach a limit, and the same rows on a pool and on
a Dask cluster."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, Run
from tests.test_helper import children_of
from verifier.sweep.decide import Row
from verifier.sweep.expand import bindings
from verifier.sweep.load import load_sweep
from verifier.sweep.results import interesting

LIBRARY = """\
cards:
  Raigeki: {kind: normal-spell, effect: {destroy: all-monsters, of: opponent}}
  Dark Bribe:
    kind: counter-trap
    when: {activates: [spell, trap], by: opponent}
    effect: [{negate: activation}, {draw: 1, player: opponent}]
  Mirror Force:
    kind: normal-trap
    when: {attack-declared: monster, by: opponent}
    effect: {destroy: all-monsters, of: opponent}
  Book of Moon:
    kind: quick-play-spell
    target: {card: monster, zone: field, face: up}
    effect: {flip-face-down: target}
"""

SWEEP = """\
sweep: Which cards can B chain to Raigeki?
library: lib.cards.yaml
placeholders:
  ANSWER:
    kind: [counter-trap, normal-trap, quick-play-spell]
models: [yugioh]
scenario:
  turn: A
  cards:
    Raigeki: {controller: A, zone: hand}
    "{ANSWER}": {controller: B, set: earlier-turn}
    Blue-Eyes White Dragon: {kind: normal-monster, controller: B, atk: 3000}
  history:
    - A activates Raigeki
claims:
  - id: answers
    claim: can_activate(B, "{ANSWER}")
"""

HEADER = "instance,ANSWER,model,claim_id,claim,verdict,engine,seconds,witness,reason"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "lib.cards.yaml").write_text(LIBRARY, encoding="utf-8")
    return tmp_path


def sweep_file(folder: Path, text: str = SWEEP) -> Path:
    path = folder / "s.sweep.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(handle)]


# --- the file format's errors --------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message", "line"),
    [
        pytest.param(
            "models: [yugioh]",
            "model: [yugioh]",
            "6:1: error: unknown key 'model'",
            "model: [yugioh]",
            id="unknown-key",
        ),
        pytest.param(
            "sweep: Which cards can B chain to Raigeki?\n",
            "",
            "1:1: error: missing key 'sweep'",
            "library: lib.cards.yaml",
            id="missing-key",
        ),
        pytest.param(
            "scenario:\n  turn: A",
            "scenario:\n  rules: yugioh\n  turn: A",
            "8:3: error: the rule systems go in the sweep's `models:`, not in its scenario",
            "  rules: yugioh",
            id="rules-in-template",
        ),
        pytest.param(
            "scenario:\n  turn: A",
            "scenario:\n  library: lib.cards.yaml\n  turn: A",
            "8:3: error: the card libraries go in the sweep's `library:`, not in its scenario",
            "  library: lib.cards.yaml",
            id="library-in-template",
        ),
        pytest.param(
            "scenario:\n  turn: A",
            "scenario:\n  claims: []\n  turn: A",
            "8:3: error: the claims go in the sweep's `claims:`, not in its scenario",
            "  claims: []",
            id="claims-in-template",
        ),
        pytest.param(
            "  turn: A",
            "  turn: A\n  cardz: {}",
            "9:3: error: unknown key 'cardz'",
            "  cardz: {}",
            id="template-not-a-scenario",
        ),
        pytest.param(
            "  ANSWER:\n",
            "  answer:\n",
            "4:3: error: placeholder 'answer' is not a name in capitals (ANSWER, FIRST_TRIGGER)",
            "  answer:",
            id="placeholder-name",
        ),
        pytest.param(
            "- A activates Raigeki",
            "- A activates {RAIGEKI}",
            "14:7: error: unknown placeholder {RAIGEKI} (defined: ANSWER)",
            "    - A activates {RAIGEKI}",
            id="unknown-placeholder-in-value",
        ),
        pytest.param(
            '"{ANSWER}": {controller: B',
            '"{ANSWR}": {controller: B',
            "11:5: error: unknown placeholder {ANSWR} (defined: ANSWER)",
            '    "{ANSWR}": {controller: B, set: earlier-turn}',
            id="unknown-placeholder-in-key",
        ),
        pytest.param(
            'claim: can_activate(B, "{ANSWER}")',
            'claim: can_activate(B, "{ANSWER}") or can_activate(B, "{OTHER}")',
            "17:12: error: unknown placeholder {OTHER} (defined: ANSWER)",
            '    claim: can_activate(B, "{ANSWER}") or can_activate(B, "{OTHER}")',
            id="unknown-placeholder-in-claim",
        ),
        pytest.param(
            "models: [yugioh]",
            "  UNUSED: {kind: normal-spell}\nmodels: [yugioh]",
            "6:3: error: placeholder UNUSED is not used in the scenario or the claims",
            "  UNUSED: {kind: normal-spell}",
            id="unused-placeholder",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "kind: [counter-trap, normal-trap, quickplay-spell]",
            "5:39: error: unknown kind 'quickplay-spell' (under yugioh: normal-monster, ",
            "    kind: [counter-trap, normal-trap, quickplay-spell]",
            id="unknown-kind",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "speed: 4",
            "5:12: error: unknown speed '4' (under yugioh: 1, 2, 3)",
            "    speed: 4",
            id="unknown-speed",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "condition: [activates, activated]",
            "5:28: error: unknown condition 'activated' (activates, summoned, ",
            "    condition: [activates, activated]",
            id="unknown-condition",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "trigger: sent-to-gy",
            "5:14: error: unknown trigger 'sent-to-gy' (sent-to-graveyard, destroyed, ",
            "    trigger: sent-to-gy",
            id="unknown-trigger",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "names: [Dark Bribe, Solemn Judgment]",
            "5:25: error: no card 'Solemn Judgment' in the library",
            "    names: [Dark Bribe, Solemn Judgment]",
            id="card-not-in-library",
        ),
        pytest.param(
            "kind: [counter-trap, normal-trap, quick-play-spell]",
            "kind: counter-trap\n    exclude: [Dark Bribe]",
            "4:3: error: no card of the library fits placeholder ANSWER's filters",
            "  ANSWER:",
            id="no-card-fits",
        ),
        pytest.param(
            '    claim: can_activate(B, "{ANSWER}")\n',
            '    claim: can_activate(B, "{ANSWER}")\n  - {id: answers, claim: can_respond(B)}\n',
            "18:5: error: claim id 'answers' is used twice",
            "  - {id: answers, claim: can_respond(B)}",
            id="claim-id-twice",
        ),
        pytest.param(
            "models: [yugioh]",
            "models: [yugioh, yugioh]",
            "6:18: error: rule system 'yugioh' is listed twice",
            "models: [yugioh, yugioh]",
            id="model-twice",
        ),
        pytest.param(
            "models: [yugioh]",
            "models: [yugioh, yugi]",
            "6:18: error: unknown rule system 'yugi' (known: ",
            "models: [yugioh, yugi]",
            id="unknown-model",
        ),
        pytest.param(
            "library: lib.cards.yaml",
            "library: nowhere.cards.yaml",
            "2:10: error: no card library 'nowhere.cards.yaml'",
            "library: nowhere.cards.yaml",
            id="no-library",
        ),
        pytest.param(
            "library: lib.cards.yaml",
            "library: /etc/hostname",
            "2:10: error: card library '/etc/hostname' is outside the scenario's folder",
            "library: /etc/hostname",
            id="library-outside",
        ),
    ],
)
def test_each_error_is_located(
    run: Callable[..., Run], folder: Path, old: str, new: str, message: str, line: str
) -> None:
    assert old in SWEEP
    path = sweep_file(folder, SWEEP.replace(old, new, 1))
    result = run("sweep", str(path))
    assert result.code == 2, result
    assert "Traceback" not in result.err
    first, shown, caret = result.err.splitlines()[:3]
    assert first.startswith(f"{path}:{message}"), first
    assert shown == f"    {line}"
    column = int(message.split(":")[1])
    assert caret == "    " + " " * (column - 1) + "^"


def test_a_sweep_that_is_not_a_mapping(run: Callable[..., Run], folder: Path) -> None:
    result = run("sweep", str(sweep_file(folder, "- a list\n")))
    assert result.code == 2
    assert result.err.splitlines()[0] == (
        f"{folder / 's.sweep.yaml'}:1:1: error: a sweep is a mapping with sweep, library, "
        "placeholders, models, scenario, claims"
    )


def test_too_many_instances(
    run: Callable[..., Run], folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("verifier.sweep.load.MAX_INSTANCES", 2)
    result = run("sweep", str(sweep_file(folder)))
    assert result.code == 2
    assert result.err.splitlines()[:3] == [
        f"{folder / 's.sweep.yaml'}:3:1: error: the placeholders give 3 instances, more than 2; "
        "narrow their filters",
        "    placeholders:",
        "    ^",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "r.txt"], "error: unknown output format for '{d}/r.txt' (use .csv or .parquet)"),
        (["--out", "exists.csv"], "error: '{d}/exists.csv' exists; use --force to overwrite"),
        (["--out", "link.csv", "--force"], "error: '{d}/link.csv' is a symbolic link"),
        (
            ["--out", "r.csv", "--cache", "linked"],
            "error: '{d}/linked' is a symbolic link; refusing to write into it",
        ),
        (["--out", "nowhere/r.csv"], "error: cannot write '{d}/nowhere/r.csv': no folder"),
        (["--scheduler", " "], "error: --scheduler takes an address"),
        (["--workers", "0"], "Invalid value for '--workers': 0 is not in the range 1<=x<=1024."),
    ],
)
def test_bad_options(run: Callable[..., Run], folder: Path, args: list[str], message: str) -> None:
    (folder / "exists.csv").write_text("kept\n")
    (folder / "link.csv").symlink_to(folder / "exists.csv")
    (folder / "linked").symlink_to(folder)
    args = [a if a.startswith("--") or a in {" ", "0"} else str(folder / a) for a in args]
    result = run("sweep", str(sweep_file(folder)), *args)
    assert result.code == 2, result
    assert message.format(d=folder) in result.err
    assert (folder / "exists.csv").read_text() == "kept\n"
    assert not (folder / "r.csv").exists()
    assert not any(folder.glob("*.cache"))


def test_parquet_without_pyarrow(
    run: Callable[..., Run], folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    result = run("sweep", str(sweep_file(folder)), "--out", str(folder / "r.parquet"))
    assert result.code == 2
    assert "error: writing .parquet needs pyarrow: pip install 'chain-verifier[parquet]'" in (
        result.err
    )
    assert not (folder / "r.parquet").exists()


def test_an_unreachable_scheduler(
    run: Callable[..., Run], folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("verifier.sweep.execute._CONNECT_SECONDS", 0.5)
    result = run("sweep", str(sweep_file(folder)), "--scheduler", "tcp://127.0.0.1:9")
    assert result.code == 2, result
    assert result.err.startswith("error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")


# --- what a sweep decides ------------------------------------------------------------------


def test_a_tiny_sweep_gives_one_row_per_instance_and_claim(
    run: Callable[..., Run], folder: Path
) -> None:
    out = folder / "r.csv"
    result = run("sweep", str(sweep_file(folder)), "--workers", "1", "--out", str(out))
    assert result.code == 0, result
    assert out.read_text().splitlines()[0] == HEADER
    rows = rows_of(out)
    assert [(r["instance"], r["ANSWER"], r["verdict"]) for r in rows] == [
        ("1", "Dark Bribe", "holds"),
        ("2", "Mirror Force", "fails"),
        ("3", "Book of Moon", "holds"),
    ]
    assert rows[0]["witness"] == "witness: B activates Dark Bribe (Chain Link 2)"
    assert rows[0]["engine"] == "auto: explore"
    assert rows[1]["witness"] == rows[1]["reason"] == ""
    assert "3 instance(s) x 1 model(s) x 1 claim(s) = 3 row(s): 2 holds, 1 fails" in result.out
    # The rarest verdict of the claim comes first.
    assert result.out.splitlines()[3].split()[:3] == ["fails", "yugioh", "ANSWER=Mirror"]
    assert sorted(p.name for p in (folder / "r.csv.cache").iterdir()) == sorted(
        p.name for p in (folder / "r.csv.cache").glob("*.json")
    )
    assert len(list((folder / "r.csv.cache").iterdir())) == 3


@pytest.mark.full
def test_the_cache_resumes_a_sweep(run: Callable[..., Run], folder: Path) -> None:
    path = sweep_file(folder)
    out = folder / "r.csv"
    assert run("sweep", str(path), "--workers", "1", "--out", str(out)).code == 0
    first = rows_of(out)
    entries = sorted((folder / "r.csv.cache").iterdir())
    entries[0].unlink()
    entries[1].write_text("[{")  # a run stopped while writing it
    again = run("sweep", str(path), "--workers", "1", "--out", str(out), "--force")
    assert again.code == 0
    assert "(1 instance run(s) from the cache)" in again.out
    assert rows_of(out) == first
    # A changed setting is another question: nothing is taken from the cache.
    other = run(
        "sweep", str(path), "--workers", "1", "--out", str(out), "--force", "--engine", "smt"
    )
    assert "from the cache" not in other.out
    assert [r["verdict"] for r in rows_of(out)] == [r["verdict"] for r in first]
    assert {r["engine"] for r in rows_of(out)} == {"smt"}


def test_no_cache_without_out_or_cache(run: Callable[..., Run], folder: Path) -> None:
    path = sweep_file(folder)
    before = sorted(folder.iterdir())
    assert run("sweep", str(path), "--workers", "1").code == 0
    assert sorted(folder.iterdir()) == before


def test_an_instance_that_does_not_load_is_a_row(run: Callable[..., Run], folder: Path) -> None:
    text = SWEEP.replace(
        "- A activates Raigeki", "- A activates Raigeki\n    - B activates {ANSWER}"
    )
    out = folder / "r.csv"
    result = run("sweep", str(sweep_file(folder, text)), "--workers", "1", "--out", str(out))
    assert result.code == 2, result
    rows = rows_of(out)
    assert [(r["ANSWER"], r["verdict"]) for r in rows] == [
        ("Dark Bribe", "fails"),  # once activated, it cannot be activated again
        ("Mirror Force", "error"),
        ("Book of Moon", "error"),
    ]
    assert rows[1]["reason"] == (
        "does not load: history step 'B activates Mirror Force' is not legal: its activation "
        "condition is not met (card.condition); it would have no effect: none of the cards its "
        "effect acts on is there (card.no-effect) (line 24 of the instance)"
    )
    assert rows[2]["reason"].startswith(
        "does not load: history step 'B activates Book of Moon' needs a target"
    )


def test_a_card_named_twice_once_filled_in_is_a_row(run: Callable[..., Run], folder: Path) -> None:
    text = SWEEP.replace(
        "    Blue-Eyes White Dragon:",
        "    Dark Bribe: {controller: A, set: earlier-turn}\n    Blue-Eyes White Dragon:",
    )
    out = folder / "r.csv"
    result = run("sweep", str(sweep_file(folder, text)), "--workers", "1", "--out", str(out))
    assert result.code == 2, result
    rows = rows_of(out)
    assert [(r["ANSWER"], r["verdict"]) for r in rows] == [
        ("Dark Bribe", "error"),
        ("Mirror Force", "fails"),
        ("Book of Moon", "holds"),
    ]
    assert rows[0]["reason"] == (
        "does not load: the template names 'Dark Bribe' twice once its placeholders are filled"
    )


def test_an_instance_that_reaches_a_limit_is_a_row(run: Callable[..., Run], folder: Path) -> None:
    out = folder / "r.csv"
    result = run(
        "sweep", str(sweep_file(folder)), "--workers", "1", "--out", str(out),
        "--engine", "explore", "--max-states", "1",
    )  # fmt: skip
    assert result.code == 3, result
    rows = rows_of(out)
    unknown = [r for r in rows if r["verdict"] == "unknown"]
    assert unknown
    assert all("state limit" in r["reason"] for r in unknown)


def test_parquet_holds_the_same_rows(run: Callable[..., Run], folder: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = sweep_file(folder)
    assert run("sweep", str(path), "--workers", "1", "--out", str(folder / "r.csv")).code == 0
    parquet = folder / "r.parquet"
    result = run("sweep", str(path), "--out", str(parquet), "--cache", str(folder / "r.csv.cache"))
    assert result.code == 0
    assert "(3 instance run(s) from the cache)" in result.out
    table = pq.read_table(parquet).to_pylist()
    assert [{k: str(v) for k, v in r.items() if k != "seconds"} for r in table] == rows_of(
        folder / "r.csv"
    )


def test_bindings_distinct_and_unordered(folder: Path) -> None:
    text = SWEEP.replace(
        "models: [yugioh]", "  OTHER: {kind: [counter-trap, normal-trap]}\nmodels: [yugioh]"
    ).replace(
        "Blue-Eyes White Dragon:", '"{OTHER}": {controller: A, set: earlier-turn}\n    Blue-Eyes:'
    )
    path = sweep_file(folder, text)
    assert (
        len(list(bindings(load_sweep(path)))) == 4
    )  # 3 x 2, less Dark Bribe and Mirror Force twice
    path.write_text(text.replace("models:", "unordered: true\nmodels:"))
    assert sorted(bindings(load_sweep(path))) == [
        ("Book of Moon", "Dark Bribe"),
        ("Book of Moon", "Mirror Force"),
        ("Dark Bribe", "Mirror Force"),
    ]
    path.write_text(text.replace("models:", "distinct: false\nmodels:"))
    assert len(list(bindings(load_sweep(path)))) == 6


def test_rows_where_the_models_differ_come_first() -> None:
    def row(instance: int, model: str, verdict: str) -> Row:
        return Row(instance, ("X",), model, "c", "claim", verdict, "auto", 0.0, "", "")

    rows = [
        row(1, "a", "fails"),
        row(1, "b", "fails"),
        row(2, "a", "holds"),
        row(2, "b", "fails"),
        row(3, "a", "fails"),
        row(3, "b", "fails"),
        row(4, "a", "unknown"),
        row(4, "b", "unknown"),
        row(5, "a", "fails"),
        row(5, "b", "holds"),
    ]
    ranked = [(r.instance, r.model) for r in interesting(rows)]
    assert ranked[:4] == [(2, "a"), (5, "b"), (2, "b"), (5, "a")]
    assert ranked[-2:] == [(4, "a"), (4, "b")]


def test_check_leaves_sweep_files_out(run: Callable[..., Run], folder: Path) -> None:
    sweep_file(folder)
    (folder / "good.yaml").write_text(
        "rules: yugioh\nturn: A\nlibrary: lib.cards.yaml\ncards:\n  Raigeki: {controller: A}\n"
        "  Blue-Eyes White Dragon: {kind: normal-monster, controller: B, atk: 3000}\n"
        'claims:\n  - claim: can_activate(A, "Raigeki")\n    expect: holds\n'
    )
    result = run("check", str(folder))
    assert result.code == 0, result
    assert "1 claim(s) in 1 file(s)" in result.out


def test_check_names_a_sweep_given_to_it(run: Callable[..., Run], folder: Path) -> None:
    result = run("check", str(sweep_file(folder)))
    assert result.code == 2
    assert result.err.splitlines()[:3] == [
        f"{folder / 's.sweep.yaml'}:1:1: error: this is a sweep, not a scenario: run it with "
        "`verifier sweep FILE`",
        "    sweep: Which cards can B chain to Raigeki?",
        "    ^",
    ]


# --- a pool and a cluster give the same rows -----------------------------------------------


def test_a_local_cluster_gives_the_pools_rows(run: Callable[..., Run], folder: Path) -> None:
    pytest.importorskip("dask.distributed")
    path = sweep_file(folder)
    pool, dask = folder / "pool.csv", folder / "dask.csv"
    assert run("sweep", str(path), "--workers", "1", "--out", str(pool)).code == 0
    result = run(
        "sweep", str(path), "--scheduler", "local-cluster", "--workers", "1", "--out", str(dask)
    )
    assert result.code == 0, result
    assert "from the cache" not in result.out
    assert rows_of(dask) == rows_of(pool)


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(EXAMPLES.rglob("*.sweep.yaml")), ids=lambda p: p.stem)
def test_each_example_gives_the_same_rows_on_a_pool_and_a_cluster(
    run: Callable[..., Run], tmp_path: Path, example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.chdir(ROOT)
    pool, dask = tmp_path / "pool.csv", tmp_path / "dask.csv"
    first = run("sweep", str(example.relative_to(ROOT)), "--workers", "2", "--out", str(pool))
    assert first.code == 0, first
    second = run(
        "sweep", str(example.relative_to(ROOT)), "--scheduler", "local-cluster",
        "--workers", "2", "--out", str(dask),
    )  # fmt: skip
    assert second.code == 0, second
    assert "from the cache" not in second.out
    assert rows_of(dask) == rows_of(pool)
    assert len(rows_of(pool)) >= 20


def test_the_examples_validate_against_the_sweep_schema(run: Callable[..., Run]) -> None:
    import json

    jsonschema = pytest.importorskip("jsonschema")
    from verifier.io.source import load_document

    result = run("schema", "sweep")
    assert result.code == 0
    schema = json.loads(result.out)
    for path in sorted(EXAMPLES.rglob("*.sweep.yaml")):
        jsonschema.validate(load_document(path).data, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**load_document(path).data, "colour": 1}, schema)


def test_every_key_of_the_sweep_format_has_a_description() -> None:
    import json

    from verifier.sweep.schema import sweep_schema

    schema = json.loads(sweep_schema())
    nodes = {"the file": schema, **schema.get("$defs", {})}
    keys = [
        (name, key, prop)
        for name, node in nodes.items()
        for key, prop in node["properties"].items()
    ]
    assert len(keys) >= 15
    assert [f"{name}.{key}" for name, key, prop in keys if "description" not in prop] == []


def test_the_examples_load() -> None:
    found = sorted(EXAMPLES.rglob("*.sweep.yaml"))
    assert len(found) >= 2
    for path in found:
        sweep = load_sweep(path.relative_to(ROOT) if Path.cwd() == ROOT else path, True)
        assert len(list(bindings(sweep))) >= 9


# --- Ctrl-C --------------------------------------------------------------------------------


@pytest.mark.full  # two sweeps of the SMT engine, interrupted: a quarter of a minute
def test_ctrl_c_stops_a_sweep_with_130_and_the_cache_keeps_what_is_done(folder: Path) -> None:
    # Nine instance runs (three cards under three rule systems), so that the sweep is still
    # going when the interrupt comes, however fast the machine decides each one.
    models = "models: [yugioh, yugioh-trigger-first, yugioh-ignition-priority]"
    path = sweep_file(folder, SWEEP.replace("models: [yugioh]", models))
    out = folder / "r.csv"
    cache = folder / "r.csv.cache"
    command = [sys.executable, "-m", "verifier", "sweep", str(path), "--workers", "1"]
    process = subprocess.Popen(
        [*command, "--out", str(out), "--engine", "smt"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not (cache.is_dir() and any(cache.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to every process of the group
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    # One line, and nothing from the pool's helper processes (no "leaked semaphore" warning).
    assert err == "interrupted (Ctrl-C): stopped; the claims not yet reported are undecided\n"
    assert not out.exists()
    kept = len(list(cache.iterdir()))
    assert 1 <= kept < 9
    # No worker is left running (the pool's helper processes end once the command is gone).
    deadline = time.monotonic() + 10
    with pytest.raises(ProcessLookupError):
        while time.monotonic() < deadline:
            os.killpg(process.pid, 0)
            time.sleep(0.1)
    # Ctrl-C sent to the command alone (not its group) stops its workers too.
    lone = subprocess.Popen(
        [*command[:-1], "2", "--engine", "smt"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    # As soon as its pool's workers are up (a fixed wait let a fast engine finish first).
    deadline = time.monotonic() + 30
    while not children_of(lone.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    lone.send_signal(signal.SIGINT)
    _, err = lone.communicate(timeout=30)
    assert lone.returncode == 130 and "leaked" not in err, err
    deadline = time.monotonic() + 10
    with pytest.raises(ProcessLookupError):
        while time.monotonic() < deadline:
            os.killpg(lone.pid, 0)
            time.sleep(0.1)
    resumed = subprocess.run(
        [*command, "--out", str(out), "--engine", "smt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"({kept} instance run(s) from the cache)" in resumed.stdout


# --- bad input never gives a traceback -----------------------------------------------------


MUTATIONS = [
    ("kind: effect-monster", "kind: 3"),
    ("kind: effect-monster", "kind: [effect-monster, [1]]"),
    ("trigger: tribute-summoned", "trigger: {a: 1}"),
    ("models: [yugioh, yugioh-trigger-first]", "models: yugioh"),
    ("models: [yugioh, yugioh-trigger-first]", "models: []"),
    ("models: [yugioh, yugioh-trigger-first]", "models: [yugioh.cards.yaml]"),
    ("models: [yugioh, yugioh-trigger-first]", "models: [yugioh, ../x.yaml]"),
    ("library: yugioh.cards.yaml", "library: [yugioh.cards.yaml, 3]"),
    ("library: yugioh.cards.yaml", "library: ../cmc/shadehawk-clickwar.yaml"),
    ("library: yugioh.cards.yaml", "library: raigeki-imperial-order-dark-bribe.yaml"),
    ("scenario:\n", "scenario: []\nx:\n"),
    ("  turn: A\n", "  turn: A\n  cards: 3\n"),
    ("  MONARCH:\n", "  MONARCH: 3\n  X:\n"),
    ("claims:\n", "claims: {}\nold:\n"),
    ("{MONARCH}", "{MONARCH"),
    ("{TRIBUTE}", "{}"),
    ('"{TRIBUTE}": {controller: A, zone: field}', '"{TRIBUTE}": 3'),
    ("sweep: For", "sweep: !!str For"),
    ("models:", "unordered: 3\nmodels:"),
    ("models:", "distinct: no\nmodels:"),
]


@pytest.mark.parametrize(("old", "new"), MUTATIONS)
def test_a_broken_sweep_is_an_error_not_a_traceback(
    tmp_path: Path, old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from verifier.errors import VerifierError

    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES, copy)
    monkeypatch.chdir(copy)
    text = (copy / "yugioh" / "monarch-and-tribute.sweep.yaml").read_text()
    assert old in text
    broken = text.replace(old, new)
    path = Path("yugioh") / "broken.sweep.yaml"
    for cut in (None, len(broken) // 3, len(broken) // 2):
        path.write_text(broken if cut is None else broken[:cut], encoding="utf-8")
        try:
            sweep = load_sweep(path)
        except VerifierError as exc:
            assert exc.span is None or exc.span.line >= 1
        else:
            assert list(bindings(sweep))


def test_a_big_library_is_hashed_once_not_per_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    from verifier.sweep import expand
    from verifier.sweep.expand import Settings, jobs

    traps = "".join(
        f"  Trap {i}: {{kind: normal-trap, effect: {{draw: 1}}, text: '{'x' * 200}'}}\n"
        for i in range(2000)
    )
    (tmp_path / "lib.cards.yaml").write_text("cards:\n" + traps, encoding="utf-8")
    size = (tmp_path / "lib.cards.yaml").stat().st_size
    sweep = load_sweep(
        sweep_file(
            tmp_path, SWEEP.replace("[counter-trap, normal-trap, quick-play-spell]", "normal-trap")
        )
    )
    hashed = 0
    real = hashlib.sha256

    class Counting:
        def __init__(self, data: bytes = b"") -> None:
            nonlocal hashed
            hashed += len(data)
            self.inner = real(data)

        def hexdigest(self) -> str:
            return self.inner.hexdigest()

    monkeypatch.setattr(expand.hashlib, "sha256", Counting)
    found = jobs(sweep, Settings())
    assert len(found) == 2000
    assert len({job.key for job in found}) == 2000
    # The library once, then a small key per instance (a whole library per instance before).
    assert hashed < 2 * size + len(found) * 2_000, (hashed, size)
