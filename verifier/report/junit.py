"""A run as JUnit XML, so that a corpus of rulings runs in any CI.

One ``testsuite`` per scenario file, one ``testcase`` per claim (``classname`` the file,
``name`` the claim's id and text, ``time`` its seconds):

- a claim as expected (or decided without an expectation) passes;
- a decided verdict that differs from its expectation, or engines that disagree, is a
  ``failure`` (its message says what was expected; its text is the report's lines, the
  counterexample or witness included);
- an ``unknown`` verdict is ``skipped`` (undecided: a limit was reached, never a failure,
  as the exit status 3 says), its message the limit;
- a file that could not be checked is one ``testcase`` named ``(load)`` with an ``error``
  (``type`` ``input`` with its line and column, or ``internal``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from verifier.errors import printable
from verifier.report.text import FileError, differs, text_report
from verifier.run.check import ClaimResult
from verifier.run.verdict import Verdict

__all__ = ["LOAD_CASE", "junit_xml"]

LOAD_CASE = "(load)"
"""The name of the test case that stands for a file that could not be checked."""


def _case(file: str, model: str, r: ClaimResult) -> ET.Element:
    case = ET.Element(
        "testcase", classname=file, name=f"{r.id}: {r.claim}", time=f"{r.seconds:.4f}"
    )
    if differs(r):
        if r.disagreement is not None:
            message = r.detail
        else:
            message = f"expected {r.expected}, {r.verdict.value}"
        failure = ET.SubElement(case, "failure", message=message, type=r.verdict.value)
        failure.text = "\n".join(text_report(file, model, [r], brief=False)) + "\n"
    elif r.verdict is Verdict.UNKNOWN:
        ET.SubElement(case, "skipped", message=f"unknown: {r.detail}" if r.detail else "unknown")
    return case


def _error_case(error: FileError) -> ET.Element:
    case = ET.Element("testcase", classname=error.file, name=LOAD_CASE, time="0")
    place = f"{error.file}:{error.line}:{error.col}: " if error.line is not None else ""
    element = ET.SubElement(case, "error", message=error.message, type=error.kind)
    element.text = f"{place}{error.message}\n"
    return case


def junit_xml(
    results: Sequence[tuple[str, ClaimResult]],
    errors: Sequence[FileError],
    models: dict[str, str],
    files: Sequence[str],
) -> str:
    """The JUnit XML of a run: ``results`` as ``(file, result)``, the ``errors`` of files that
    could not be checked, each file's rule system in ``models``, and the files in run order."""
    suites = ET.Element("testsuites", name="verifier")
    by_file: dict[str, list[ET.Element]] = {f: [] for f in files}
    for file, r in results:
        by_file.setdefault(file, []).append(_case(file, models.get(file, ""), r))
    for error in errors:
        by_file.setdefault(error.file, []).append(_error_case(error))
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    seconds = 0.0
    for file, cases in by_file.items():
        if not cases:
            continue
        counts = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
            "skipped": sum(1 for c in cases if c.find("skipped") is not None),
        }
        time = sum(float(c.get("time", "0")) for c in cases)
        suite = ET.SubElement(suites, "testsuite", name=file, time=f"{time:.4f}")
        for key, value in counts.items():
            suite.set(key, str(value))
        suite.extend(cases)
        for key, value in counts.items():
            totals[key] += value
        seconds += time
    for key, value in totals.items():
        suites.set(key, str(value))
    suites.set("time", f"{seconds:.4f}")
    # XML 1.0 cannot carry most control characters, escaped or not: names and paths are
    # written with them escaped as text.
    for element in suites.iter():
        for name, text in list(element.attrib.items()):
            element.set(name, printable(text, keep="\n"))
        if element.text:
            element.text = printable(element.text, keep="\n")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
