"""The HTML report of `rubricate grade`: self-contained, escaped, with chart and item table."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from grading_fakes import KeywordJudge, keyword_judge
from rubricate._grading import grade_file, iter_results
from rubricate._render import grade_summary_tables, render
from rubricate._report import write_html_report

HOSTILE = "</td><script>alert(1)</script>"


class Page(HTMLParser):
    """Collects every tag with its attributes, and the text of each item row."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[dict[str, Any]] = []
        self.text: list[str] = []
        self._row: dict[str, Any] | None = None
        self._in_items = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "table" and attributes.get("id") == "items":
            self._in_items = True
        if self._in_items and tag == "tr" and "data-passed" in attributes:
            self._row = {"attrs": attributes, "cells": []}
        if self._row is not None and tag == "td":
            self._row["cells"].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        if tag == "table":
            self._in_items = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._row is not None and self._row["cells"]:
            self._row["cells"][-1] += data

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


@pytest.fixture
def graded(tmp_path: Path) -> tuple[Path, Any]:
    rows = [
        {"id": "good", "output": "Paris in France"},
        {"id": "half", "output": "Paris only"},
        {"id": "<img src=x onerror=alert(1)>", "output": "nothing", "rubric": f"- Has {HOSTILE}"},
        {"id": "boom", "output": "EXPLODE"},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{broken\n")
    out = tmp_path / "out.jsonl"
    summary = grade_file(
        source,
        out,
        judge=keyword_judge(KeywordJudge()),
        rubric="- Mentions Paris\n- Mentions France",
    )
    report = tmp_path / "report.html"
    write_html_report(report, summary, iter_results(out))
    return report, summary


def test_the_report_is_self_contained(graded: tuple[Path, Any]) -> None:
    report, _ = graded
    html = report.read_text(encoding="utf-8")
    page = Page()
    page.feed(html)
    assert len(page.all("script")) == 1 and len(page.all("style")) == 1
    for name, attrs in page.tags:
        assert "src" not in attrs and "href" not in attrs, (name, attrs)
    assert "http://" not in html and "https://" not in html and "@import" not in html
    [csp] = [a for a in page.all("meta") if a.get("http-equiv") == "Content-Security-Policy"]
    assert (csp["content"] or "").startswith("default-src 'none'")
    assert not list(report.parent.glob(".*.partial"))


def test_user_text_is_escaped(graded: tuple[Path, Any]) -> None:
    report, _ = graded
    html = report.read_text(encoding="utf-8")
    page = Page()
    page.feed(html)
    assert len(page.all("script")) == 1  # the hostile criterion did not open a script
    assert not any(name == "img" for name, _ in page.tags)
    assert "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
    hostile_row = next(r for r in page.rows if "onerror" in r["cells"][0])
    assert hostile_row["cells"][0] == "<img src=x onerror=alert(1)>"
    assert hostile_row["cells"][4].startswith(f"Has {HOSTILE}: The output never mentions")


def test_the_report_has_the_summary_chart_and_items(graded: tuple[Path, Any]) -> None:
    report, summary = graded
    page = Page()
    page.feed(report.read_text(encoding="utf-8"))
    text = " ".join(" ".join(page.text).split())
    assert "Items 4" in text and "Passed 1 of 3 graded (33.3%)" in text
    assert "Errors (judge failed) 1" in text and "Malformed input lines (this run) 1" in text
    assert "invalid JSON" in text  # the skipped line is listed

    # One bar per criterion, its width proportional to the pass rate (the plot is 420 wide).
    assert len(page.all("svg")) == 1
    bars = {round(float(r["width"] or 0)) for r in page.all("rect")}
    assert bars == {round(420 * s.pass_rate) for s in summary.criteria.values()}
    assert "Mentions Paris (mentions-paris): 2/2 passed, 100.0%" in text

    rows = {r["cells"][0]: r for r in page.rows}
    assert len(page.rows) == 4
    good, half, boom = rows["good"], rows["half"], rows["boom"]
    assert good["attrs"]["data-passed"] == "1"
    assert good["cells"][1:5] == ["1", "satisfied", "1", "none"]
    assert half["attrs"]["data-passed"] == "0"
    assert half["cells"][1:4] == ["2", "needs_revision", "0"]
    assert half["cells"][4] == "Mentions France: The output never mentions france."
    assert "the provider exploded" in boom["cells"][4]
    assert boom["attrs"]["data-result"] == "grader_error"
    assert [a["id"] for a in page.all("input") if a.get("id")] == ["search", "only-failed"]


def test_the_terminal_summary_renders(graded: tuple[Path, Any]) -> None:
    _, summary = graded
    text = render(grade_summary_tables(summary), width=120)
    assert "Passed          │ 1 of 3 graded (33.3%)" in text
    assert HOSTILE in text  # rich prints it as text, never as markup


@pytest.mark.skipif(
    not any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")),
    reason="headless Chromium is not installed",
)
def test_the_search_box_works_in_headless_chromium(graded: tuple[Path, Any]) -> None:
    report, _ = graded
    browser = next(
        b for b in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if b
    )
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "4 of 4 items shown" in dom  # the inline script ran under the page's CSP
