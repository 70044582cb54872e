"""The HTML report (`verifier check --html`), read as HTML: every file and claim with its
verdict, the chains drawn in SVG in the right order, the rules --explain names, the files that
failed to load, escaping of untrusted scenario text, and nothing loaded from elsewhere.

The same page in a real browser: tests/test_html_browser.py.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.cli import main
from verifier.report.chains import chains, figure
from verifier.report.html import FileSection, html_report
from verifier.report.text import FileError
from verifier.run.check import ClaimResult
from verifier.run.verdict import Verdict
from verifier.trace.narrate import TraceStep

HOSTILE = "<script>alert(1)</script>"

SCENARIO = f"""\
rules: yugioh
description: A <b>bold</b> & "quoted" description.
turn: A
cards:
  "{HOSTILE}":
    kind: normal-spell
    controller: A
    zone: hand
    effect: {{destroy: all-monsters, of: opponent}}
  Imperial Order:
    kind: continuous-trap
    controller: B
    set: earlier-turn
    continuous: {{negate-effects: spells}}
  Dark Bribe:
    kind: counter-trap
    controller: A
    set: earlier-turn
    when: {{activates: [spell, trap], by: opponent}}
    effect: [{{negate: activation}}, {{destroy: that-card}}, {{draw: 1, player: opponent}}]
  Blue-Eyes White Dragon:
    kind: normal-monster
    controller: B
    atk: 3000
history:
  - A activates {HOSTILE}
  - B activates Imperial Order
claims:
  - claim: exists resolution_order == ["Dark Bribe", "Imperial Order", "{HOSTILE}"]
    expect: holds
  - claim: can_respond(B)
    expect: fails
  - claim: resolves("{HOSTILE}")
    expect: holds
"""
"""Raigeki renamed to a script tag; claim-3 is expected wrongly, so its counterexample shows."""

BROKEN = "rules: yugioh\ncards: [1\n"
CLICKWAR = EXAMPLES / "cmc" / "shadehawk-clickwar.yaml"  # activations that resolve at once


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find(self, tag: str, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.walk()
            if n.tag == tag and (cls is None or cls in n.attrs.get("class", "").split())
        ]


VOID = {"meta", "link", "br", "img", "input", "hr", "source", "area", "base", "col", "wbr"}


class _Tree(HTMLParser):
    """A strict little tree builder: every element it opens must be closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    tree = _Tree()
    tree.feed(page)
    tree.close()
    assert tree.stack == [tree.root], "unclosed elements"
    return tree.root


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, str, Node]:
    """One run over the hostile scenario, a broken file and a CMC example: its JSON and page
    (made once for this module's tests)."""
    folder = tmp_path_factory.mktemp("report")
    hostile, broken = folder / "hostile.yaml", folder / "broken.yaml"
    hostile.write_text(SCENARIO, encoding="utf-8")
    broken.write_text(BROKEN, encoding="utf-8")
    target = folder / "report.html"
    out, err = io.StringIO(), io.StringIO()
    args = ["check", "--json", "--explain", "--html", str(target), str(hostile), str(broken)]
    with redirect_stdout(out), redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main([*args, str(CLICKWAR)])
    code = exited.value.code
    result = Run(code if isinstance(code, int) else 0, out.getvalue(), err.getvalue())
    page = target.read_text(encoding="utf-8")
    return result, page, parse(page)


def _figures(article: Node) -> list[Node]:
    return article.find("svg", "chain-svg")


@pytest.mark.full
def test_every_file_and_claim_with_its_verdict(report: tuple[Run, str, Node]) -> None:
    result, _, root = report
    assert result.code == 2  # a file failed to load; the page is written all the same
    data = json.loads(result.out)
    files = root.find("section", "file")
    assert [f.attrs["data-path"] for f in files] == [
        str(Path(data["claims"][0]["file"])),
        str(CLICKWAR),
    ]
    articles = root.find("article", "claim")
    assert len(articles) == len(data["claims"]) == 3 + 5
    for article, claim in zip(articles, data["claims"], strict=True):
        assert article.attrs["data-id"] == claim["id"]
        assert article.attrs["data-verdict"] == claim["verdict"]
        [code] = article.find("code", "claim-text")
        assert code.text() == claim["claim"]
        [expected] = article.find("dd", "fact-expected")
        assert expected.text() == (claim["expected"] or "no expectation")
        [engine] = article.find("dd", "fact-engine")
        assert engine.text() == claim["engine"]
        [seconds] = article.find("dd", "fact-seconds")
        assert float(seconds.text()) == pytest.approx(claim["seconds"], abs=0.001)
    statuses = [a.find("span", "status")[0].text() for a in articles[:3]]
    assert statuses == ["ok", "ok", "EXPECTED HOLDS"]
    [summary] = [p for p in root.find("p", "summary")]
    assert (
        summary.text() == "8 claim(s) in 3 file(s): 7 as expected, 1 not, 1 file(s) failed to load"
    )


@pytest.mark.full
def test_a_file_that_failed_to_load_appears_with_its_error(report: tuple[Run, str, Node]) -> None:
    result, _, root = report
    [section] = root.find("section", "failed")
    [error] = section.find("li", "error")
    [where] = error.find("code", "where")
    # The list left open is noticed at the end of the file: its last line, past its end.
    assert re.fullmatch(r".*broken\.yaml:2:10", where.text())
    [message] = error.find("span", "message")
    assert message.text() == json.loads(result.out)["errors"][0]["message"]
    assert "YAML syntax" in message.text()


def test_the_chains_are_drawn_link_by_link_then_resolution_by_resolution(
    report: tuple[Run, str, Node],
) -> None:
    _, _, root = report
    first, _, wrong = root.find("article", "claim")[:3]
    [svg] = _figures(first)  # the witness: one chain of three links
    links = svg.find("g", "link")
    assert [g.attrs["data-card"] for g in links] == [HOSTILE, "Imperial Order", "Dark Bribe"]
    assert [g.attrs["data-link"] for g in links] == ["1", "2", "3"]
    assert [g.attrs["data-player"] for g in links] == ["A", "B", "A"]
    resolutions = svg.find("g", "resolution")
    assert [g.attrs["data-card"] for g in resolutions] == ["Dark Bribe", "Imperial Order", HOSTILE]
    assert [g.attrs["data-outcome"] for g in resolutions] == [
        "resolved",
        "activation-negated",
        "resolved",
    ]
    # What each did, under its resolution; the stack says when each resolves.
    assert "Blue-Eyes White Dragon is destroyed" in resolutions[2].text()
    assert "the activation of Imperial Order is negated" in resolutions[0].text()
    assert "resolves 1st" in links[2].text() and "resolves 3rd" in links[0].text()
    # The counterexample of the wrong expectation: Raigeki's effect negated by Imperial Order.
    [svg] = _figures(wrong)
    assert [g.attrs["data-outcome"] for g in svg.find("g", "resolution")] == [
        "resolved",
        "effect-negated",
    ]
    narrative = [li.text() for li in wrong.find("li", "step")]
    assert narrative[0].startswith(f"1.A activates {HOSTILE} (Chain Link 1)")
    assert narrative[-1] == f"the chain has resolved: {HOSTILE} goes to the graveyard"


def test_activations_that_resolve_at_once(report: tuple[Run, str, Node]) -> None:
    _, _, root = report
    [cmc] = [f for f in root.find("section", "file") if f.attrs["data-path"] == str(CLICKWAR)]
    drawn = [
        g.attrs["data-link"] for a in cmc.find("article", "claim") for g in a.find("g", "link")
    ]
    assert "at once" in drawn
    titles = [t.text() for t in cmc.find("title")]
    assert titles and all(t.startswith("Stack ") for t in titles)  # CMC's word for a chain


def test_the_rules_explain_names(report: tuple[Run, str, Node]) -> None:
    _, _, root = report
    second = root.find("article", "claim")[1]
    [reasons] = second.find("div", "reasons")
    assert "B cannot activate Imperial Order" in reasons.text()
    assert [c.text() for c in reasons.find("code", "rule-name")] == ["card.location"]


def test_scenario_text_is_escaped(report: tuple[Run, str, Node]) -> None:
    _, page, root = report
    assert "<script" not in page.lower()
    assert "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert not root.find("script")
    assert all("bold" not in b.text() for b in root.find("b"))
    description = root.find("p", "description")[0]
    assert description.text() == 'A <b>bold</b> & "quoted" description.'


def test_the_page_loads_nothing_from_elsewhere(report: tuple[Run, str, Node]) -> None:
    _, page, root = report
    assert not re.search(r"https?:|//[a-z]", page, re.IGNORECASE)
    assert not root.find("script") and not root.find("link") and not root.find("img")
    assert not root.find("iframe") and not root.find("object") and not root.find("embed")
    for node in root.walk():
        for name in ("src", "href", "xlink:href", "action"):
            if name in node.attrs:
                assert node.attrs[name].startswith("#"), (node.tag, node.attrs)
    assert re.findall(r"url\(([^)]*)\)", page) and all(
        u == "#arrowhead" for u in re.findall(r"url\(([^)]*)\)", page)
    )
    [style] = root.find("style")
    assert "@import" not in style.text()


def test_the_page_is_written_like_every_output(run: Callable[..., Run], tmp_path: Path) -> None:
    example = str(EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml")
    target = tmp_path / "report.html"
    target.write_text("keep me\n", encoding="utf-8")
    refused = run("check", example, "--html", str(target))
    assert refused.code == 2
    assert refused.err == f"error: '{target}' exists; use --force to overwrite\n"
    assert refused.out == ""  # refused before any claim is decided
    assert target.read_text(encoding="utf-8") == "keep me\n"
    forced = run("check", example, "--html", str(target), "--force")
    assert forced.code == 0
    assert target.read_text(encoding="utf-8").startswith("<!doctype html>")
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "elsewhere.html")
    through = run("check", example, "--html", str(link), "--force")
    assert through.code == 2
    assert "is a symbolic link" in through.err
    assert not (tmp_path / "elsewhere.html").exists()


def test_a_resolution_the_trace_does_not_show_activating() -> None:
    """A trace cut short before the activations (never made by the engines, but the picture
    must not lose the link): the resolution gets a link of its own."""
    steps = [TraceStep("resolution", "X resolves", "A", "X", 1, 1, outcome="resolved")]
    [chain] = chains(steps)
    assert [(link.card, link.order) for link in chain.links] == [("X", 1)]
    drawn = figure(chain, "chain", ("A", "B"))
    assert len(drawn.stack) == len(drawn.resolved) == 1


def test_disagreements_unknowns_variants_and_internal_errors() -> None:
    """The parts of the page the examples do not reach: the engines' two answers, each with
    its own continuation; an unknown verdict; a claim decided on a variant; a file that met an
    internal error (no line and column)."""
    opened = TraceStep("activation", "A activates X (Chain Link 1)", "A", "X", 1, 1)
    resolved = TraceStep(
        "resolution", "Chain Link 1: X resolves", "A", "X", 1, 1, outcome="resolved"
    )
    explore = ClaimResult(
        "c1", "resolves(X)", None, Verdict.FAILS, "explore", "counterexample", "",
        (opened,), 0.5,
    )  # fmt: skip
    smt = ClaimResult(
        "c1", "resolves(X)", None, Verdict.HOLDS, "smt", "witness", "", (opened, resolved), 0.25
    )
    disagree = ClaimResult(
        "c1", "resolves(X)", "holds", Verdict.UNKNOWN, "both", "",
        "the engines disagree: explore says fails, smt says holds", (), 0.75,
        disagreement=(explore, smt),
    )  # fmt: skip
    unknown = ClaimResult(
        "c2", "can_respond(B)", "fails", Verdict.UNKNOWN, "explore", "",
        "a limit was reached (--max-states)", (), 2.0, variant="at the end of the Battle Phase",
    )  # fmt: skip
    section = FileSection("s.yaml", "yugioh", "yugioh", "", ("A", "B"), (disagree, unknown))
    failed = [FileError("t.yaml", "internal error: KeyError: 'x'", kind="internal")]
    root = parse(html_report([section], failed, 2))
    first, second = root.find("article", "claim")
    assert first.find("span", "status")[0].text() == "DISAGREE"
    assert "explore says fails, smt says holds" in first.find("p", "detail")[0].text()
    sides = first.find("div", "side")
    assert [s.find("h4")[0].text() for s in sides] == ["explore says fails", "smt says holds"]
    assert [len(s.find("g", "link")) for s in sides] == [1, 1]
    assert [len(s.find("g", "resolution")) for s in sides] == [0, 1]
    assert "not resolved in this continuation" in sides[0].find("g", "link")[0].text()
    assert second.attrs["data-verdict"] == "unknown"
    assert second.find("span", "status")[0].text() == "undecided"
    assert "at the end of the Battle Phase" in second.find("dl", "facts")[0].text()
    [error] = root.find("li", "error")
    assert error.find("code", "where")[0].text() == "t.yaml"
    assert error.find("span", "error-kind")[0].text() == "internal error"
    counts = [li.text() for li in root.find("ul", "counts")[0].find("li")]
    assert counts == ["0 as expected", "1 not as expected", "1 unknown", "1 file(s) failed"]


def test_what_a_link_did_includes_what_follows_the_triggers_it_caused() -> None:
    """Soul Taker: "destroy that target, then your opponent gains 1000 LP"; the destroyed
    monster's trigger is told between the two parts, and both parts are what the link did."""
    steps = [
        TraceStep("activation", "A activates Soul Taker (Chain Link 1)", "A", "Soul Taker", 1, 1),
        TraceStep("pass", "B passes", "B", chain=1),
        TraceStep("resolution", "Chain Link 1: Soul Taker resolves", "A", "Soul Taker", 1, 1),
        TraceStep("effect", "Fire Hand is destroyed", card="Fire Hand", chain=1),
        TraceStep("trigger", "Fire Hand's trigger effect triggers", chain=1),
        TraceStep("effect", "B gains 1000 Life Points", "B", chain=1),
        TraceStep("cleanup", "the chain has resolved: Soul Taker goes to the graveyard", chain=1),
    ]
    [chain] = chains(steps)
    [link] = chain.resolved
    assert link.did == [
        "Fire Hand is destroyed",
        "Fire Hand's trigger effect triggers",
        "B gains 1000 Life Points",
    ]
    assert link.paid == []
    assert chain.cleanup == "the chain has resolved: Soul Taker goes to the graveyard"


def test_a_continuation_is_drawn_once_per_file_and_counts_its_moves() -> None:
    """Two claims shown by the same witness: the first draws it, the second points to it; the
    summary counts the numbered moves (three), not the lines that narrate what they caused."""
    steps = (
        TraceStep("activation", "A activates X (Chain Link 1)", "A", "X", 1, 1),
        TraceStep("pass", "B passes", "B", chain=1),
        TraceStep("pass", "A passes", "A", chain=1),
        TraceStep("resolution", "Chain Link 1: X resolves", "A", "X", 1, 1, outcome="resolved"),
        TraceStep("effect", "A draws 1 card", "A", chain=1),
    )
    first = ClaimResult(
        "claim-1", "exists resolves(X)", "holds", Verdict.HOLDS, "explore", "witness", "",
        steps, 0.1,
    )  # fmt: skip
    second = ClaimResult(
        "claim-2", "can_activate(A, X)", "holds", Verdict.HOLDS, "explore", "witness", "",
        steps, 0.1,
    )  # fmt: skip
    other = FileSection("t.yaml", "yugioh", "yugioh", "", ("A", "B"), (second,))
    section = FileSection("s.yaml", "yugioh", "yugioh", "", ("A", "B"), (first, second))
    root = parse(html_report([section, other], [], 2))
    drawn, pointing, elsewhere = root.find("article", "claim")
    assert drawn.find("summary")[0].text() == "witness: 3 step(s), 1 chain(s) drawn"
    assert len(drawn.find("li", "step")) == len(steps)
    assert pointing.find("details") == [] and pointing.find("svg") == []
    [same] = pointing.find("p", "same-as")
    assert same.text() == "witness: the same 3 step(s) as claim-1, drawn there"
    assert same.find("a")[0].attrs["href"] == "#" + drawn.attrs["id"]
    # Another file draws its own.
    assert elsewhere.find("p", "same-as") == [] and len(elsewhere.find("li", "step")) == len(steps)
