"""The HTML report in a real browser: Debian's headless Chromium, driven by Playwright.

The page made for bundled examples is loaded from a file; the test reads what the browser
shows (the summary, every file and claim, the chains' SVG pictures with their card names),
checks that every line of text in a picture lies inside its box and that no box overlaps
another, that the page asked for nothing but itself and logged no error, and takes a
screenshot (kept in the test's temporary folder).

Without a browser (no /usr/bin/chromium, or no playwright) the test is skipped, unless
VERIFIER_REQUIRE_BROWSER is set, as CI sets it: there a missing browser fails.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from tests.test_html_report import SCENARIO
from verifier.cli import main

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SUBSET = [
    EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml",
    EXAMPLES / "yugioh" / "black-whirlwind-segoc.yaml",
    EXAMPLES / "yugioh" / "chain-lock.yaml",
    EXAMPLES / "cmc" / "shadehawk-clickwar.yaml",
    EXAMPLES / "cmc" / "counterspell.yaml",
]


def _browser_or_skip() -> None:
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        missing.append("playwright (pip install -e '.[dev]')")
    if missing:
        message = "no browser for the HTML report: " + ", ".join(missing)
        if os.environ.get("VERIFIER_REQUIRE_BROWSER"):
            pytest.fail(message + " (VERIFIER_REQUIRE_BROWSER is set)")
        pytest.skip(message)


def _page_for(paths: list[Path], folder: Path, code: int = 0) -> tuple[Path, dict[str, Any]]:
    """``verifier check --json --html`` over ``paths``: the page and the JSON of the run."""
    target = folder / "report.html"
    out = io.StringIO()
    args = ["check", "--quiet", "--json", "--html", str(target), *map(str, paths)]
    with redirect_stdout(out), redirect_stderr(io.StringIO()), pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == code
    return target, json.loads(out.getvalue())


def _unexpected(claim: dict[str, Any]) -> bool:
    """Whether a claim is unknown, or decided otherwise than expected."""
    verdict, expected = claim["verdict"], claim["expected"]
    return verdict == "unknown" or (expected is not None and expected != verdict)


# Every text of each box within its rectangle, and no two boxes of a figure overlapping.
_GEOMETRY = """() => {
  const problems = [];
  for (const svg of document.querySelectorAll("svg.chain-svg")) {
    const boxes = [...svg.querySelectorAll("g.box")].map(g => {
      const r = g.querySelector("rect").getBBox();
      for (const t of g.querySelectorAll("text")) {
        const b = t.getBBox();
        if (b.x < r.x || b.x + b.width > r.x + r.width + 0.5 || b.y < r.y
            || b.y + b.height > r.y + r.height + 0.5)
          problems.push("text outside its box: " + t.textContent);
      }
      return r;
    });
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        problems.push("boxes overlap in " + svg.getAttribute("aria-label"));
    }));
    const view = svg.viewBox.baseVal;
    for (const r of boxes)
      if (r.y + r.height > view.height || r.x + r.width > view.width)
        problems.push("a box leaves its figure: " + svg.getAttribute("aria-label"));
  }
  return problems;
}"""


# What the browser shows of each claim, in one call (each call is a round trip).
_CLAIMS = """() => [...document.querySelectorAll("article.claim")].map(a => ({
  claim: a.querySelector("code.claim-text").innerText,
  verdict: a.querySelector(".verdict").innerText,
  steps: a.querySelectorAll("ol.narrative li").length,
  moves: a.querySelectorAll("ol.narrative li .n:not(:empty)").length,
  summary: (a.querySelector("details.trace > summary") || {innerText: ""}).innerText,
  same_as: (a.querySelector("p.same-as a") || {hash: ""}).hash,
  figures: a.querySelectorAll("svg.chain-svg").length,
  links: [...a.querySelectorAll("svg.chain-svg g.link")].map(g => g.dataset.card),
  visible_heads: [...a.querySelectorAll("svg.chain-svg g.link")]
    .filter(g => g.checkVisibility() && g.getBoundingClientRect().width > 0)
    .map(g => g.dataset.card),
  written: [...a.querySelectorAll("svg.chain-svg g.link text.head")]
    .map(t => t.textContent).join(""),
}))"""


# At any width: the page never scrolls sideways, no file entry of the list is split across
# its columns, and the chains' text is drawn at a readable size (a wide chain scrolls inside
# its own figure instead of shrinking).
_LAYOUT = """() => {
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth)
    problems.push("the page scrolls sideways: " + page.scrollWidth + " > " + window.innerWidth);
  for (const li of document.querySelectorAll("nav.files li"))
    if (li.getClientRects().length !== 1) problems.push("a file entry is split: " + li.innerText);
  for (const svg of document.querySelectorAll("svg.chain-svg")) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (scale < 0.99) problems.push("a chain is shrunk to " + scale.toFixed(2));
  }
  for (const el of document.querySelectorAll("article.claim > header, dl.facts, p.detail, ol.narrative li")) {
    const box = el.getBoundingClientRect();
    if (box.right > window.innerWidth + 0.5) problems.push("text leaves the page: " + el.innerText.slice(0, 60));
  }
  return problems;
}"""

WIDTHS = (1400, 420)
"""A desktop and a phone (420 px)."""


def _check_in_browser(page_path: Path, data: dict[str, Any], shots: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for width in WIDTHS:
                _check_at(browser, width, page_path, data, shots)
        finally:
            browser.close()


def _check_at(browser: Any, width: int, page_path: Path, data: dict[str, Any], shots: Path) -> None:
    page = browser.new_page(viewport={"width": width, "height": 1600})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"a dialog opened: {d.message}"), d.dismiss()))
    page.goto(page_path.as_uri())

    assert page.title() == "Chain verifier report"
    claims = data["claims"]
    files = sorted({c["file"] for c in claims}, key=[c["file"] for c in claims].index)
    summary = page.locator("#summary")
    assert summary.is_visible()
    wrong = sum(map(_unexpected, claims))
    expected = f"{len(claims)} claim(s) in {len(files)} file(s): "
    expected += f"{len(claims) - wrong} as expected" + (f", {wrong} not" if wrong else "")
    assert summary.inner_text() == expected
    headings = page.locator("section.file > h2").all_inner_texts()
    assert headings == files
    shown = page.evaluate(_CLAIMS)
    assert len(shown) == len(claims)
    ids = page.evaluate("() => [...document.querySelectorAll('article.claim')].map(a => a.id)")
    for claim, seen in zip(claims, shown, strict=True):
        assert seen["claim"] == claim["claim"]
        assert seen["verdict"].lower() == claim["verdict"]
        if seen["same_as"]:
            # Drawn once: the same continuation as an earlier claim of the file.
            earlier = claims[ids.index(seen["same_as"][1:])]
            assert earlier["file"] == claim["file"] and earlier is not claim
            assert earlier["trace"] == claim["trace"] and seen["steps"] == 0
            continue
        assert seen["steps"] == len(claim["trace"])
        if claim["trace"]:
            # The summary counts the numbered moves, not the lines that narrate them.
            assert f": {seen['moves']} step(s)" in seen["summary"], seen["summary"]
        built = [s["card"] for s in claim["trace"] if s["kind"] == "activation" and "card" in s]
        assert seen["links"] == built, claim["id"]
        assert (seen["figures"] > 0) == bool(built)
        # Each card is written, visibly, in the picture of its chain.
        assert set(built) <= set(seen["visible_heads"]), claim["id"]
        written = "".join(seen["written"].split())
        assert all("".join(card.split()) in written for card in built), claim["id"]
    first = page.locator("svg.chain-svg").first
    assert first.is_visible() and first.bounding_box()["height"] > 80

    assert page.evaluate(_GEOMETRY) == []
    assert page.evaluate(_LAYOUT) == [], width

    # The filter leaves the claims that are not as expected, or unknown.
    visible = "() => [...document.querySelectorAll('article.claim')]" + (
        ".filter(a => a.checkVisibility()).length"
    )
    assert page.evaluate(visible) == len(claims)
    page.check("#only-unexpected")
    assert page.evaluate(visible) == sum(map(_unexpected, claims))
    sections = "() => [...document.querySelectorAll('section.file')]" + (
        ".filter(s => s.checkVisibility()).length"
    )
    assert page.evaluate(sections) == len({c["file"] for c in claims if _unexpected(c)})
    page.uncheck("#only-unexpected")
    assert page.evaluate(visible) == len(claims)
    assert page.locator("script").count() == 0
    assert requests == [page_path.as_uri()]
    assert errors == []

    whole = shots / f"report-{width}.png"
    page.screenshot(path=str(whole), full_page=True)
    chain = shots / f"chain-{width}.png"
    page.locator("figure.chain").first.screenshot(path=str(chain))
    for shot in (whole, chain):
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert whole.stat().st_size > 50_000
    page.close()


@pytest.mark.full
def test_the_report_in_a_browser(tmp_path: Path) -> None:
    """Five examples, and a scenario whose first card is named like a script that would open
    a dialog, with a claim expected wrongly."""
    _browser_or_skip()
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(SCENARIO, encoding="utf-8")
    page_path, data = _page_for([*SUBSET, hostile], tmp_path, code=1)
    assert any(c["trace"] for c in data["claims"])
    assert sum(map(_unexpected, data["claims"])) == 1
    _check_in_browser(page_path, data, tmp_path)


@pytest.mark.slow
def test_the_report_of_every_example_in_a_browser(tmp_path: Path) -> None:
    _browser_or_skip()
    page_path, data = _page_for([EXAMPLES], tmp_path)
    _check_in_browser(page_path, data, tmp_path)
