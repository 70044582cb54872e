"""``verifier serve``: the permalink codec, the names-only loader, the one renderer, the runs,
and the server itself on loopback: its page and API, hostile requests, a bounded load (200
requests from 20 clients, none failed or lost, memory flat), a run stopped at its time
limit and the "busy" answer while the only worker is taken.

The server is started as a user starts it (``python -m verifier serve``) on a free port of
127.0.0.1 and stopped with Ctrl-C (SIGINT); every request loop here is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GOOD, ROOT, Run
from tests.test_input_bounds import billion_laughs
from verifier.api import Options, decide
from verifier.errors import VerifierError
from verifier.io.bundled import is_name
from verifier.io.scenario import InMemory
from verifier.io.source import parse_document
from verifier.report.html import FileSection, html_report, html_results
from verifier.serve import catalog, permalink
from verifier.serve.worker import SCENARIO_NAME, Job, RunLimits, run_job

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="the server's tests read /proc (Linux)"
)

WITNESS = """\
rules: yugioh
library: yugioh
turn: A
cards:
  Raigeki: {controller: A, zone: hand}
  Mystical Space Typhoon: {controller: B, set: earlier-turn}
  Blue-Eyes White Dragon: {controller: B}
history:
  - A activates Raigeki
claims:
  - claim: can_respond(B)
    expect: holds
  - claim: always zone("Blue-Eyes White Dragon") == graveyard
    expect: holds
  - claim: can_activate(B, "Raigeki")
    expect: fails
"""
"""A scenario whose claims need a witness chain, a proof and a "why"."""

SLOW_CARDS = "\n".join(
    f"  Typhoon {p}{i}: {{card: Mystical Space Typhoon, controller: {p}, set: earlier-turn}}"
    for p in "AB"
    for i in range(5)
)
SLOW = f"""\
rules: yugioh
library: yugioh
turn: A
cards:
{SLOW_CARDS}
claims:
  - always chain_length < 30
"""
"""Ten interchangeable quick-plays: an exploration that takes seconds."""

KNOWN_RULES = (
    "cmc, cmc-instant, mtg, mtg-damage-on-the-stack, yugioh, yugioh-ignition-priority, "
    "yugioh-seed-missing-timing, yugioh-trigger-first"
)


# -- the permalink codec ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", GOOD, WITNESS, "ünïcödé: «ok» ☃\n" * 40, catalog.blank("mtg")]
)
def test_a_link_carries_its_scenario_exactly(text: str) -> None:
    code = permalink.encode(text)
    assert re.fullmatch(r"1[A-Za-z0-9_-]*", code)
    assert permalink.decode(code) == text


def test_a_link_is_much_shorter_than_its_scenario() -> None:
    longest = max((e.text for g in catalog.games() for e in catalog.examples(g)), key=len)
    assert len(permalink.encode(longest)) < len(longest) / 1.5


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (
            permalink.encode("a" * 10_000_000),
            "the link's scenario is longer than 65,536 characters",
        ),
        ("1!!!!", "the link's scenario is damaged (not base64)"),
        ("1" + "A" * 40, "the link's scenario is damaged (not deflated text)"),
        (
            permalink.encode(WITNESS)[:-12],
            "the link's scenario is cut short (was the link copied whole?)",
        ),
        (
            "2" + permalink.encode(GOOD)[1:],
            "the link does not carry a scenario this version can read",
        ),
        ("1" + "A" * 50_000, "the link's scenario is too long (50,001 characters of code)"),
    ],
)
def test_a_link_that_is_no_scenario_is_refused(code: str, message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(permalink.LinkError) as refused:
        permalink.decode(code)
    assert str(refused.value) == message
    assert time.perf_counter() - start < 1


# -- only names, never files ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            "rules: yugioh",
            "rules: ../models/yugioh.yaml",
            "1:8",
            f"rules '../models/yugioh.yaml' names a file; here a scenario names a rule system by "
            f"its name (known: {KNOWN_RULES})",
        ),
        (
            "rules: yugioh",
            "rules: /etc/passwd",
            "1:8",
            f"rules '/etc/passwd' names a file; here a scenario names a rule system by its name "
            f"(known: {KNOWN_RULES})",
        ),
        (
            "library: yugioh",
            "library: yugioh.cards.yaml",
            "2:10",
            "library 'yugioh.cards.yaml' names a file; here a scenario names a bundled card "
            "library by its name (bundled: cmc, mtg, yugioh)",
        ),
        (
            "library: yugioh",
            "library: [yugioh, /tmp/x.cards.yaml]",
            "2:19",
            "library '/tmp/x.cards.yaml' names a file; here a scenario names a bundled card "
            "library by its name (bundled: cmc, mtg, yugioh)",
        ),
        (
            "  - claim: can_respond(B)\n",
            "  - claim: can_respond(B)\n    rules: ./yugioh.yaml\n",
            "12:12",
            f"rules './yugioh.yaml' names a file; here a scenario names a rule system by its "
            f"name (known: {KNOWN_RULES})",
        ),
    ],
)
def test_a_scenario_from_the_page_names_no_file(
    old: str, new: str, where: str, message: str
) -> None:
    text = WITNESS.replace(old, new, 1)
    assert text != WITNESS
    with pytest.raises(VerifierError) as refused:
        decide(
            InMemory(SCENARIO_NAME, text, ROOT / "examples" / "yugioh"), Options(names_only=True)
        )
    exc = refused.value
    assert f"{exc.line}:{exc.col}" == where
    assert exc.message == message
    # The same file is read where files may be named (the command line's default).
    if "/" not in new and "claim" not in old:
        folder = ROOT / "examples" / "yugioh"
        decide(InMemory(SCENARIO_NAME, text, folder), Options())


def test_every_example_on_the_page_names_its_library() -> None:
    shown = [e for g in catalog.games() for e in catalog.examples(g)]
    assert len(shown) >= 60
    assert {e.game for e in shown} == {"yugioh", "cmc", "mtg"}
    for example in shown:
        data = parse_document(example.text, example.name).data
        refs = data.get("library", [])
        assert all(is_name(r) for r in ([refs] if isinstance(refs, str) else refs)), example.name
    # A few of them decide on the page as in their folder.
    for name in (
        "yugioh/raigeki-imperial-order-dark-bribe",
        "mtg/split-second",
        "cmc/counterspell",
    ):
        found = catalog.example(name)
        assert found is not None
        checked = decide(InMemory(SCENARIO_NAME, found.text), Options(names_only=True))
        assert all(r.as_expected for r in checked.results), name
    assert catalog.example("../yugioh/chain-lock") is None
    assert catalog.example("yugioh/yugioh.cards") is None


@pytest.mark.parametrize("game", catalog.games())
def test_each_blank_scenario_decides_as_it_expects(game: str) -> None:
    checked = decide(InMemory(SCENARIO_NAME, catalog.blank(game)), Options(names_only=True))
    assert checked.scenario.model.game == game
    assert checked.results and all(r.as_expected for r in checked.results)


# -- one renderer -------------------------------------------------------------------------------


def _sections(html: str) -> list[str]:
    return re.findall(r'<section class="file".*?</section>', html, flags=re.S)


def test_the_page_draws_results_with_the_reports_renderer() -> None:
    checked = decide(InMemory(SCENARIO_NAME, WITNESS), Options(names_only=True))
    section = FileSection.of(SCENARIO_NAME, checked.scenario, checked.results)
    report = html_report([section], [], 1)
    page = html_results([section])
    assert _sections(page) == _sections(report) and len(_sections(page)) == 1
    assert page.count('<svg class="chain-svg"') == report.count('<svg class="chain-svg"') > 0
    assert 'id="arrowhead"' in page and "<script" not in page
    # "why?" only on the page that asks for it, on the claims it is offered for.
    assert "why?" not in report
    offered = html_results([section], lambda r: r.id == "claim-3", why_form="editor")
    assert offered.count('form="editor" name="why"') == 1
    assert 'value="can_activate(B, &#34;Raigeki&#34;)"' in offered


def test_the_pages_files_ship_in_the_package() -> None:
    import fnmatch
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert "verifier.serve" in setuptools["packages"]
    patterns = setuptools["package-data"]["verifier.serve"]
    folder = ROOT / "verifier" / "serve"
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
    data = [f for f in files if not f.endswith((".py", ".pyc")) and "__pycache__" not in f]
    assert sorted(data) == ["static/serve.css", "static/serve.js", "templates/page.html.j2"]
    assert all(any(fnmatch.fnmatch(f, p) for p in patterns) for f in data)
    assert "serve" in config["project"]["optional-dependencies"]
    assert any("serve" in d for d in config["project"]["optional-dependencies"]["dev"])


# -- runs ---------------------------------------------------------------------------------------

LIMITS = RunLimits(timeout=5)


def test_a_run_decides_the_claims_and_the_asked_one() -> None:
    outcome = run_job(Job(WITNESS, 'can_activate(B, "Raigeki")'), LIMITS)
    assert outcome.problem is None and outcome.ask_problem is None
    assert [(c.id, c.verdict, c.status) for c in outcome.claims] == [
        ("claim-1", "holds", "ok"),
        ("claim-2", "holds", "ok"),
        ("claim-3", "fails", "ok"),
    ]
    assert outcome.asked is not None and outcome.asked.verdict == "fails"
    assert (outcome.model, outcome.game) == ("yugioh", "yugioh")
    # Both failing can_activate claims, the scenario's and the asked one, offer "why?" (the
    # page's browser test asks it).
    assert len(_sections(outcome.html)) == 2
    assert [section.count('name="why"') for section in _sections(outcome.html)] == [1, 1]


def test_an_asked_claim_that_does_not_parse_leaves_the_scenarios_results() -> None:
    outcome = run_job(Job(WITNESS, 'can_activate(C, "Raigeki")'), LIMITS)
    assert outcome.problem is None and len(outcome.claims) == 3
    assert outcome.ask_problem is not None
    assert outcome.ask_problem.message.startswith("<claim>:1:14: error: unknown player 'C'")


def test_an_error_is_the_command_lines_message_at_its_line(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    text = WITNESS.replace("Raigeki: {controller: A", "Raigeki: {kind: normal-spel, controller: A")
    outcome = run_job(Job(text), LIMITS)
    problem = outcome.problem
    assert problem is not None and outcome.html == ""
    assert (problem.kind, problem.path, problem.line, problem.col) == (
        "input",
        SCENARIO_NAME,
        5,
        19,
    )
    target = tmp_path / "scenario.yaml"
    target.write_text(text, encoding="utf-8")
    cli = run("check", str(target))
    assert cli.code == 2
    assert cli.err.splitlines()[0] == problem.message.replace(SCENARIO_NAME, str(target), 1)
    assert problem.detail.splitlines()[1:] == cli.err.splitlines()[1:3]


def test_a_yaml_bomb_is_refused_at_its_line() -> None:
    start = time.perf_counter()
    outcome = run_job(Job(billion_laughs(9)), LIMITS)
    assert time.perf_counter() - start < 5
    assert outcome.problem is not None
    assert outcome.problem.message == (
        "scenario.yaml:5:45: error: aliases expand to too many nodes (at most 10000 in a file)"
    )


def test_serve_without_the_extra_says_how_to_install_it(
    run: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    result = run("serve")
    assert result.code == 2
    assert result.err == (
        "error: verifier serve needs the serve extra: pip install 'chain-verifier[serve]'\n"
    )


# -- the server -----------------------------------------------------------------------------------


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body, headers or {})
            response = connection.getresponse()
            headers = {k.lower(): v for k, v in response.getheaders()}
            return response.status, headers, response.read()
        finally:
            connection.close()

    def check(self, scenario: str, claim: str = "", why: bool = False) -> tuple[int, Any]:
        body = json.dumps({"scenario": scenario, "claim": claim, "why": why}).encode()
        status, _, data = self.request("POST", "/api/check", body, JSON)
        return status, json.loads(data)

    def post_form(self, **fields: str) -> tuple[int, str]:
        body = urllib.parse.urlencode(fields).encode()
        status, _, data = self.request("POST", "/", body, FORM)
        return status, data.decode()

    def figures(self) -> dict[str, Any]:
        status, _, data = self.request("GET", "/healthz")
        assert status == 200
        result: dict[str, Any] = json.loads(data)
        return result

    def rss(self, pid: int | None = None) -> int:
        status = Path(f"/proc/{pid or self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) * 1024  # type: ignore[union-attr]

    def workers(self) -> list[int]:
        """The pids of the server's worker processes (those running spawn_main)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == self.process.pid and b"spawn_main" in command:
                found.append(int(entry.name))
        return found


JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(log: Path, *options: str) -> Iterator[Server]:
    """``verifier serve`` on a free loopback port, stopped with Ctrl-C at the end; its workers
    must be gone after it."""
    port = _free_port()
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "verifier", "serve", "--port", str(port), *options],
            stdout=sink,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    server = Server(port, process, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                server.figures()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the server did not start:\n" + log.read_text()) from None
                time.sleep(0.1)
        yield server
    finally:
        workers = server.workers()
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        assert code == 0, log.read_text()
        for pid in workers:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        text = log.read_text()
        assert "Traceback" not in text, text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("serve") / "server.log"
    with running_server(log, "--workers", "2", "--queue", "40", "--timeout", "5") as started:
        yield started


def test_the_page_and_its_own_assets(server: Server) -> None:
    status, headers, body = server.request("GET", "/")
    page = body.decode()
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert '<textarea name="scenario"' in page and "rules: yugioh" in page
    assert re.findall(r'(?:src|href)="([^"#]+)"', page) == [
        "static/report.css",
        "static/serve.css",
        "static/serve.js",
        "./",
    ]
    for name, media in [
        ("report.css", "text/css"),
        ("serve.css", "text/css"),
        ("serve.js", "text/javascript"),
    ]:
        status, headers, body = server.request("GET", f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(media) and body
    status, _, body = server.request("GET", "/?game=cmc")
    assert status == 200 and "rules: cmc" in body.decode()
    status, _, body = server.request("GET", "/?example=mtg/split-second")
    assert status == 200 and "library: mtg\n" in body.decode()
    status, _, body = server.request("GET", "/?example=../../etc/passwd")
    assert status == 404 and "no bundled example &#39;../../etc/passwd&#39;" in body.decode()


def test_a_form_post_decides_and_links_to_the_same_answer(server: Server) -> None:
    status, page = server.post_form(scenario=WITNESS, claim="", game="yugioh", action="run")
    assert status == 200
    verdicts = re.findall(r'data-id="(claim-\d)" data-verdict="(\w+)"', page)
    assert verdicts == [("claim-1", "holds"), ("claim-2", "holds"), ("claim-3", "fails")]
    assert 'class="chain-svg"' in page
    link = re.search(r'id="permalink" href="\./(\?s=[^"]+)"', page)
    assert link is not None
    status, _, body = server.request("GET", "/" + link.group(1).replace("&amp;", "&"))
    again = body.decode()
    assert status == 200
    assert re.findall(r'data-id="(claim-\d)" data-verdict="(\w+)"', again) == verdicts
    textarea = re.search(r'<textarea name="scenario"[^>]*>(.*?)</textarea>', again, re.S)
    assert textarea is not None
    assert textarea.group(1).replace("&#34;", '"') == WITNESS


def test_the_api_answers_in_json(server: Server) -> None:
    status, answer = server.check(WITNESS, 'can_activate(B, "Raigeki")')
    assert status == 200
    assert [c["verdict"] for c in answer["claims"]] == ["holds", "holds", "fails"]
    assert answer["asked"]["verdict"] == "fails" and answer["error"] is None
    assert answer["html"].count('<section class="file"') == 2
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(answer["link"]).query)
    assert permalink.decode(query["s"][0]) == WITNESS
    assert query["q"] == ['can_activate(B, "Raigeki")'] and "why" not in query


def _raw(server: Server, data: bytes) -> bytes:
    """Send ``data`` as it is and read the answer (the server may close early)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        with suppress(OSError):  # the server may answer and close before all is sent
            raw.sendall(data)
        chunks = []
        while True:
            try:
                chunk = raw.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_hostile_requests_are_answered_with_an_error(server: Server) -> None:
    # A body announced as 10 MB: refused before it is sent.
    answer = _raw(
        server,
        b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 10000000\r\nConnection: close\r\n\r\n" + b"{" * 1000,
    )
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"the request is larger than 256 KiB" in answer
    # A body that grows past the bound without announcing its length.
    chunk = b"x" * 65536
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)) + b"0\r\n\r\n"
    answer = _raw(
        server,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked,
    )
    assert answer.startswith(b"HTTP/1.1 413 ")
    # JSON nested past the recursion limit, not JSON, not an object, not text.
    for body, message in [
        (b"[" * 100_000, "the body is not JSON"),
        (b"\xff\xfe", "the body is not JSON"),
        (b"[1]", 'the body is a JSON object: {"scenario": "...", "claim": "..."}'),
        (b'{"scenario": 3}', "scenario and claim are strings, why is true or false"),
        (b'{"scenario": " "}', "the scenario is empty: pick an example or a game to start from"),
    ]:
        status, _, data = server.request("POST", "/api/check", body, JSON)
        assert (status, json.loads(data)["error"]["message"]) == (400, "error: " + message)
    # A scenario too long for the page, in a body within the bound.
    status, answer = server.check("a: b\n" * 20_000)
    assert (status, answer["error"]["message"]) == (
        400,
        "error: the scenario is longer than 65,536 characters",
    )
    # Files named in the scenario, and a YAML bomb: located errors.
    status, answer = server.check(WITNESS.replace("rules: yugioh", "rules: /etc/passwd"))
    assert status == 422 and answer["error"]["line"] == 1
    assert answer["error"]["message"].startswith(
        "scenario.yaml:1:8: error: rules '/etc/passwd' names a file"
    )
    status, answer = server.check(billion_laughs(20))
    assert status == 422 and answer["error"]["message"] == (
        "scenario.yaml:5:45: error: aliases expand to too many nodes (at most 10000 in a file)"
    )
    # A form that is not URL-encoded text, and a damaged or oversized link.
    status, _, body = server.request("POST", "/", b"scenario=%ff%fe\xff", FORM)
    assert status in (200, 400, 422) and b"Traceback" not in body
    status, _, body = server.request("GET", "/?s=1!!!!")
    assert status == 400 and b"the link&#39;s scenario is damaged (not base64)" in body
    answer = _raw(
        server, b"GET /?s=1" + b"A" * 100_000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert re.match(rb"HTTP/1.1 4\d\d ", answer), answer[:80]
    # Still serving, with nothing left running or waiting.
    figures = server.figures()
    assert (figures["running"], figures["waiting"]) == (0, 0)


CHEAP = [
    (GOOD, ["holds"]),
    (catalog.blank("cmc"), ["holds"]),
    (catalog.blank("yugioh"), ["fails", "holds"]),
]


@pytest.mark.full
def test_a_bounded_load_is_answered_in_full_with_flat_memory(server: Server) -> None:
    def ask(index: int) -> tuple[int, list[str], list[str]]:
        text, expected = CHEAP[index % len(CHEAP)]
        status, answer = server.check(text)
        return status, [c["verdict"] for c in answer.get("claims", [])], expected

    with ThreadPoolExecutor(20) as clients:  # warm up: every worker has run each scenario
        assert all(s == 200 for s, _, _ in clients.map(ask, range(20)))
    before = server.figures()
    memory = server.rss()
    workers = {pid: server.rss(pid) for pid in server.workers()}
    start = time.monotonic()
    with ThreadPoolExecutor(20) as clients:
        answers = list(clients.map(ask, range(200)))
    seconds = time.monotonic() - start
    after = server.figures()
    assert [s for s, _, _ in answers] == [200] * 200
    assert all(got == expected for _, got, expected in answers)
    assert after["finished"] - before["finished"] == 200  # no run lost, none run twice
    assert after["refused"] == before["refused"]
    assert (after["running"], after["waiting"]) == (0, 0)
    assert seconds < 60
    assert server.rss() - memory < 16 * 1024 * 1024
    for pid, rss in workers.items():
        assert server.rss(pid) - rss < 32 * 1024 * 1024


@pytest.mark.full
def test_a_run_past_its_time_is_stopped_and_a_full_server_says_busy(
    tmp_path: Path,
) -> None:
    options = ("--workers", "1", "--queue", "0", "--timeout", "20", "--run-seconds", "0.5")
    with running_server(tmp_path / "server.log", *options) as small:
        assert small.check(GOOD)[0] == 200  # the worker is up
        slow: list[tuple[int, Any]] = []
        thread = threading.Thread(target=lambda: slow.append(small.check(SLOW)))
        thread.start()
        deadline = time.monotonic() + 5
        while small.figures()["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        status, headers, body = small.request(
            "POST", "/api/check", json.dumps({"scenario": GOOD}).encode(), JSON
        )
        assert status == 503 and headers["retry-after"] == "2"
        assert json.loads(body)["error"]["message"] == (
            "error: the server is busy: 1 runs are going or waiting; try again in a moment"
        )
        status, page = small.post_form(scenario=GOOD)
        assert status == 503 and "the server is busy" in page
        thread.join(30)
        [(status, answer)] = slow
        assert status == 200 and answer["claims"] == []
        assert answer["error"]["kind"] == "limit"
        assert answer["error"]["message"] == (
            "error: the run was stopped after 0.5 s, the most this server gives one run; "
            "ask fewer claims at a time, or use `verifier check`"
        )
        # A fresh worker took the killed one's place. On a loaded machine its first run
        # (the worker's start-up included) may itself pass the 0.5 s: then that run is
        # stopped as a limit too, and the next one is answered.
        for _ in range(5):
            status, answer = small.check(GOOD)
            if (answer.get("error") or {}).get("kind") != "limit":
                break
        assert status == 200 and [c["verdict"] for c in answer["claims"]] == ["holds"]
        assert small.figures()["refused"] == 2


def test_the_page_offers_the_registered_games_with_a_blank_scenario() -> None:
    # The first registered game is the page's default; the menus show the short titles.
    assert catalog.games() == ["yugioh", "cmc", "mtg"]
    assert catalog.default_game() == "yugioh"
    assert [catalog.title(g) for g in catalog.games()] == [
        "Yu-Gi-Oh!",
        "CMC",
        "Magic: The Gathering",
    ]
