"""The package as users install it: a wheel, in a fresh virtual environment, run elsewhere.

The bundled rule systems (the top-level ``models/``), the examples and the card libraries
(``examples/``) must ship inside the package and be found from any folder. The default test lets the fresh environment borrow this
environment's dependencies (a ``.pth`` file) so that it stays fast and offline; the slow one
installs the wheel with its dependencies from the package index.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"


def _env() -> dict[str, str]:
    """The environment for the installed command: nothing pointing back at this checkout."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env.pop("VERIFIER_MODELS", None)
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _build_wheel(tmp: Path) -> Path:
    """Build the wheel from a copy of the sources, so the checkout gets no build folders."""
    source = tmp / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("verifier", "models", "examples"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    dist = tmp / "dist"
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            source,
            "--no-deps",
            "--no-build-isolation",
            "--no-cache-dir",
            "-w",
            dist,
        ],
        tmp,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("chain_verifier-*.whl")
    return wheel


def _bin(env_dir: Path, name: str) -> Path:
    return env_dir / ("Scripts" if os.name == "nt" else "bin") / name


def _site_packages(env_dir: Path) -> Path:
    python = _bin(env_dir, "python")
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    return Path(out.stdout.strip())


def _check_installed(env_dir: Path, tmp: Path, every_example: bool = False) -> None:
    """From a folder that is not the checkout: the models are listed and an example checks."""
    work = tmp / "work"
    work.mkdir()
    where = _run([_bin(env_dir, "python"), "-c", "import verifier; print(verifier.__file__)"], work)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).resolve().is_relative_to(env_dir.resolve())

    listed = _run([_bin(env_dir, "verifier"), "models"], work)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    bundled = sorted(p.stem for p in (ROOT / "models").glob("*.yaml"))
    assert names == bundled
    assert {"yugioh", "cmc", "cmc-instant"} <= set(names)

    scenario = work / EXAMPLE.name
    shutil.copy2(EXAMPLE, scenario)
    checked = _run([_bin(env_dir, "verifier"), "check", scenario.name], work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith(f"{scenario.name} (yugioh)\n")
    claims = YAML(typ="safe").load(EXAMPLE.read_text(encoding="utf-8"))["claims"]
    for index, entry in enumerate(claims, start=1):
        line = rf"^  {entry['expect']}\s+ok\s+claim-{index}: {re.escape(entry['claim'])}$"
        assert re.search(line, checked.stdout, re.MULTILINE), (line, checked.stdout)
    count = len(claims)
    assert checked.stdout.rstrip().endswith(f"{count} claim(s) in 1 file(s): {count} as expected")

    # The HTML report's templates ship in the package.
    reported = _run([_bin(env_dir, "verifier"), "check", scenario.name, "--html", "r.html"], work)
    assert reported.returncode == 0, reported.stdout + reported.stderr
    page = (work / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "Imperial Order" in page

    # The examples and card libraries ship too: copied out, they check where they land,
    # and a scenario anywhere names a bundled card library as it names a rule system.
    copied = _run([_bin(env_dir, "verifier"), "examples", "ex"], work)
    assert copied.returncode == 0, copied.stderr
    shipped = sorted(
        p.relative_to(ROOT / "examples")
        for p in (ROOT / "examples").rglob("*")
        if p.is_file() and p.suffix in {".yaml", ".json"}
    )
    assert sorted(p.relative_to(work / "ex") for p in (work / "ex").rglob("*") if p.is_file()) == (
        shipped
    )
    again = _run([_bin(env_dir, "verifier"), "examples", "ex"], work)
    assert again.returncode == 2 and "use --force to overwrite" in again.stderr
    target = ["ex"] if every_example else ["ex/yugioh/battle-damage-step-limits.yaml"]
    checked = _run([_bin(env_dir, "verifier"), "check", "--brief", *target], work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert re.search(r"(\d+) claim\(s\) in \d+ file\(s\): \1 as expected", checked.stdout)
    (work / "named.yaml").write_text(
        "rules: yugioh\nlibrary: yugioh\nturn: A\ncards:\n"
        "  Raigeki: {controller: A, zone: hand}\n"
        "  Blue-Eyes White Dragon: {kind: normal-monster, controller: B, atk: 3000}\n"
        'claims:\n  - claim: can_activate(A, "Raigeki")\n    expect: holds\n',
        encoding="utf-8",
    )
    named = _run([_bin(env_dir, "verifier"), "check", "named.yaml"], work)
    assert named.returncode == 0, named.stdout + named.stderr


def test_the_wheel_holds_the_package_the_bundled_models_and_the_examples(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "verifier").rglob("*")
        if p.is_file() and p.suffix in {".py", ".lark", ".j2", ".css"}
    }
    models = {f"verifier/models/{p.name}" for p in (ROOT / "models").glob("*.yaml")}
    examples = {
        "verifier/examples/" + p.relative_to(ROOT / "examples").as_posix()
        for p in (ROOT / "examples").rglob("*")
        if p.is_file() and p.suffix in {".yaml", ".json"}
    }
    assert sources <= names, sorted(sources - names)
    assert models <= names, sorted(models - names)
    assert examples <= names, sorted(examples - names)
    assert "verifier/examples/yugioh/yugioh.cards.yaml" in examples
    assert models, "no bundled models found"
    assert "verifier/py.typed" in names  # the API's types reach programs that use it


@pytest.mark.full
def test_installed_wheel_finds_its_rule_systems(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            _bin(env_dir, "python"),
            "install",
            "--no-deps",
            "--no-index",
            wheel,
        ],
        tmp_path,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # Then borrow this environment's dependencies instead of downloading them again (after
    # the install, so pip does not see this checkout's own installation there).
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (_site_packages(env_dir) / "borrowed-dependencies.pth").write_text(
        "\n".join(sorted(borrowed)) + "\n", encoding="utf-8"
    )
    _check_installed(env_dir, tmp_path)


@pytest.mark.slow
def test_installed_wheel_with_its_dependencies_from_the_index(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    installed = _run([_bin(env_dir, "python"), "-m", "pip", "install", wheel], tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _check_installed(env_dir, tmp_path, every_example=True)
