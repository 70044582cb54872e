"""The page of ``verifier serve`` in a real browser: Debian's headless Chromium, driven by
Playwright, against the server on loopback.

A scenario is typed and run, and the verdicts the page shows are those of the API; an error
lands on its line with the command line's message; the question's link reopens the same
scenario with the same answer; the ask box and "why?" answer a failing ``can_activate``;
the page works as a plain form without its script; at 1400 and 420 px it never scrolls
sideways, loads nothing but its own files and logs no error.

Without a browser the tests are skipped, unless VERIFIER_REQUIRE_BROWSER is set (as CI
sets it): there a missing browser fails. With VERIFIER_SERVE_SCREENSHOT=PATH the page with
its results is saved there (the README's picture: tests/screenshots/serve.png).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_html_browser import ARGS, CHROMIUM, _browser_or_skip
from tests.test_serve import WITNESS, Server, running_server
from verifier.api import Options, decide
from verifier.errors import VerifierError
from verifier.io.scenario import InMemory
from verifier.serve.worker import SCENARIO_NAME

BROKEN = WITNESS.replace("Raigeki: {controller: A", "Raigeki: {kind: normal-spel, controller: A")
"""WITNESS with an unknown card kind on line 5."""

# The page never scrolls sideways, and no line of the results leaves it.
_LAYOUT = """() => {
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth)
    problems.push("the page scrolls sideways: " + page.scrollWidth + " > " + window.innerWidth);
  for (const el of document.querySelectorAll(
      "article.claim > header, dl.facts, ol.narrative li, .actions, .ask .row, form.open, .problem")) {
    const box = el.getBoundingClientRect();
    if (box.right > window.innerWidth + 0.5) problems.push("leaves the page: " + el.className);
  }
  return problems;
}"""

_VERDICTS = """() => [...document.querySelectorAll("section.file")].map(s => [
  s.dataset.path,
  [...s.querySelectorAll("article.claim")].map(a => [a.dataset.id, a.dataset.verdict]),
])"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    _browser_or_skip()
    log = tmp_path_factory.mktemp("serve-browser") / "server.log"
    with running_server(log, "--workers", "2", "--timeout", "5") as started:
        yield started


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page and what it did: the requests it made, the errors it logged."""

    def __init__(self, browser: Any, width: int, script: bool = True) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": 1000}, java_script_enabled=script
        )
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self) -> None:
        self.context.close()


def _expected(text: str) -> list[list[Any]]:
    checked = decide(InMemory(SCENARIO_NAME, text), Options(names_only=True))
    return [[SCENARIO_NAME, [[r.id, r.verdict.value] for r in checked.results]]]


@pytest.mark.full
def test_type_run_share_ask_and_why(server: Server, browser: Any) -> None:
    origin = f"http://127.0.0.1:{server.port}/"
    watched = Watched(browser, 1400)
    page = watched.page
    page.goto(origin)
    assert page.title() == "Chain verifier"
    editor = page.locator("#scenario")
    editor.fill(WITNESS)
    # The line numbers follow the text.
    assert page.locator("#gutter li").count() == WITNESS.count("\n") + 1
    with page.expect_navigation():
        page.click("#run")
    assert page.evaluate(_VERDICTS) == _expected(WITNESS)
    assert page.locator("#tally").inner_text() == "rule system yugioh · 3 claim(s): 3 as expected"
    # The witness of can_respond(B) is drawn as the report draws it.
    first = page.locator("article.claim").first
    assert first.locator("svg.chain-svg").count() == 1
    cards = first.locator("svg.chain-svg g.link").evaluate_all("gs => gs.map(g => g.dataset.card)")
    assert cards == ["Raigeki", "Mystical Space Typhoon"]
    assert first.locator("ol.narrative li").count() > 2
    assert page.evaluate(_LAYOUT) == []

    # The address is now the question's link: another visitor opens the same scenario and
    # answer.
    link = page.url
    assert link.startswith(origin + "?s=1")
    other = Watched(browser, 420)
    other.page.goto(link)
    assert other.page.locator("#scenario").input_value() == WITNESS
    assert other.page.evaluate(_VERDICTS) == _expected(WITNESS)
    assert other.page.evaluate(_LAYOUT) == [], "at 420 px"
    assert other.errors == []
    other.close()

    # One more claim, then the rules that forbid it.
    page.fill("#claim", 'can_activate(B, "Raigeki")')
    with page.expect_navigation():
        page.click("button[value=ask]")
    asked = page.locator('section.file[data-path="ask"] article.claim')
    assert asked.get_attribute("data-verdict") == "fails"
    with page.expect_navigation():
        asked.locator("p.why button").click()
    reasons = page.locator('section.file[data-path="ask"] .reasons').inner_text()
    assert reasons.startswith("B cannot activate Raigeki on any continuation")
    assert "why=1" in page.url and page.locator("#claim").input_value() == (
        'can_activate(B, "Raigeki")'
    )
    shot = os.environ.get("VERIFIER_SERVE_SCREENSHOT")
    if shot:
        Path(shot).parent.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": 1400, "height": 1400})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=shot)

    assert page.locator("script:not([src])").count() == 0
    assert all(url.startswith(origin) for url in watched.requests), watched.requests
    assert watched.errors == []
    watched.close()


@pytest.mark.full
def test_an_error_lands_on_its_line(server: Server, browser: Any) -> None:
    with pytest.raises(VerifierError) as refused:
        decide(InMemory(SCENARIO_NAME, BROKEN), Options(names_only=True))
    message = refused.value.render().splitlines()[0]
    assert message.startswith("scenario.yaml:5:19: error: unknown card kind 'normal-spel'")
    for width in (1400, 420):
        watched = Watched(browser, width)
        page = watched.page
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.fill("#scenario", BROKEN)
        with page.expect_navigation():
            page.click("#run")
        assert page.locator("#gutter li.error").all_inner_texts() == ["5"]
        assert page.locator("#problem .message").inner_text() == message
        # The cursor is on that line, in the editor.
        start = sum(len(line) + 1 for line in BROKEN.split("\n")[:4])
        assert page.evaluate("document.activeElement.id") == "scenario"
        assert page.evaluate("document.getElementById('scenario').selectionStart") == start
        assert page.locator("article.claim").count() == 0
        assert page.evaluate(_LAYOUT) == [], width
        # Editing the text takes the mark away.
        page.locator("#scenario").press("End")
        page.keyboard.type(" ")
        assert page.locator("#gutter li.error").count() == 0
        # The page with the error is answered 422 (bad input), which Chromium logs.
        assert watched.errors == [
            "Failed to load resource: the server responded with a status of 422 "
            "(Unprocessable Entity)"
        ]
        watched.close()


def test_the_page_works_as_a_plain_form(server: Server, browser: Any) -> None:
    watched = Watched(browser, 1400, script=False)
    page = watched.page
    page.goto(f"http://127.0.0.1:{server.port}/?example=cmc/counterspell")
    text = page.locator("#scenario").input_value()
    assert text.startswith("# Seed 000") and "library:" not in text
    with page.expect_navigation():
        page.click("#run")
    verdicts = page.evaluate(_VERDICTS)
    assert verdicts == _expected(text)
    assert len(verdicts[0][1]) == 4 and page.locator("#permalink").count() == 1
    watched.close()
