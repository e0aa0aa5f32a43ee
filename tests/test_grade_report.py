"""The HTML report of `rubricate grade`: self-contained, escaped, with chart and item table."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from grading_fakes import KeywordJudge, keyword_judge
from rubricate._batch._grade import grade_file
from rubricate._batch._items import iter_results
from rubricate._report._grade_page import write_html_report
from rubricate._report._render import grade_summary_tables, render

HOSTILE = "</td><script>alert(1)</script>"


class Page(HTMLParser):
    """Collects every tag with its attributes, and the text of each item row.

    What an item row folds in its `<details>` (the output and every verdict) is kept apart:
    `row["output"]`, and `row["verdicts"]` as lists of cell texts.
    """

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[dict[str, Any]] = []
        self.text: list[str] = []
        self._row: dict[str, Any] | None = None
        self._in_items = False
        self._details = 0
        self._in_output = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "details":
            self._details += 1
        if self._details and self._row is not None:
            if tag == "pre":
                self._in_output = True
                self._row["output"] = ""
            elif tag == "tr":
                self._row["verdicts"].append({"attrs": attributes, "cells": []})
            elif tag in ("td", "th") and self._row["verdicts"]:
                self._row["verdicts"][-1]["cells"].append("")
            return
        if tag == "table" and attributes.get("id") == "items":
            self._in_items = True
        if self._in_items and tag == "tr" and "data-passed" in attributes:
            self._row = {"attrs": attributes, "cells": [], "verdicts": [], "output": None}
        if self._row is not None and tag == "td":
            self._row["cells"].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self._details -= 1
        if tag == "pre":
            self._in_output = False
        if self._details:
            return
        if tag == "tr" and self._row is not None:
            self._row["verdicts"] = [v["cells"] for v in self._row["verdicts"][1:]]  # no header
            self.rows.append(self._row)
            self._row = None
        if tag == "table":
            self._in_items = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._row is None:
            return
        if self._details:
            if self._in_output:
                self._row["output"] += data
            elif self._row["verdicts"] and self._row["verdicts"][-1]["cells"]:
                self._row["verdicts"][-1]["cells"][-1] += data
            return
        if self._row["cells"]:
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
    assert [a["id"] for a in page.all("input") if a.get("id")] == [
        "search",
        "only-failed",
        "only-unsure",
    ]
    # Each item folds in its output (from the input file) and every verdict, not only failures.
    assert half["output"] == "Paris only"
    assert half["verdicts"] == [
        ["Mentions Paris", "pass", "", ""],
        ["Mentions France", "fail", "", "The output never mentions france."],
    ]
    assert boom["output"] == "EXPLODE" and boom["verdicts"] == []


def test_unsure_items_come_first_with_their_confidences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rubricate._judge._confidence.UNSURE_BAND", (0.35, 0.65))
    rows = [
        {"id": "sure", "output": "Paris in France"},
        {"id": "unsure", "output": "Paris only"},
        {"id": "also-sure", "output": "France and Paris"},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    # P(pass) 0.97 at a pass, 0.45 at a fail: the fail is inside the uncertainty band.
    judge = keyword_judge(KeywordJudge(p_pass={"pass": 0.97, "fail": 0.45}))
    summary = grade_file(source, out, judge=judge, rubric="- Mentions Paris\n- Mentions France")
    report = tmp_path / "report.html"
    write_html_report(report, summary, iter_results(out))
    page = Page()
    page.feed(report.read_text(encoding="utf-8"))

    assert summary.unsure == 1
    assert [r["cells"][0] for r in page.rows] == ["unsure", "sure", "also-sure"]
    first = page.rows[0]
    assert first["attrs"]["data-unsure"] == "1"
    assert first["verdicts"] == [  # the unsure verdict first
        ["Mentions France", "fail, unsure", "0.45", "The output never mentions france."],
        ["Mentions Paris", "pass", "0.97", ""],
    ]
    assert page.rows[1]["attrs"]["data-unsure"] == "0"
    results = [json.loads(line) for line in out.read_text().splitlines()]
    france = next(r for r in results if r["id"] == "unsure")["criteria"][1]
    assert (france["confidence"], france["unsure"]) == (0.45, True)
    text = render(grade_summary_tables(summary), width=160)
    assert "Unsure verdicts │ 1 verdict(s) the judge was unsure of" in text


def test_the_terminal_summary_renders(graded: tuple[Path, Any]) -> None:
    _, summary = graded
    text = render(grade_summary_tables(summary), width=120)
    assert "Passed          │ 1 of 3 graded (33.3%)" in text
    assert HOSTILE in text  # rich prints it as text, never as markup


# -- in a real browser --------------------------------------------------------------------------
# Headless Chromium opens the report as a user would: its DOM after the inline script ran, and a
# screenshot, both compared by structure (elements, text, colours, size), never pixel by pixel.
# `.ci/run` installs Debian's `chromium` and sets RUBRICATE_REQUIRE_BROWSER, so CI cannot skip.

_BROWSERS = ("chromium", "chromium-browser", "google-chrome")
_WINDOW = (1280, 2000)


@pytest.fixture
def browser() -> str:
    found = next((b for b in map(shutil.which, _BROWSERS) if b), None)
    if found is not None:
        return found
    if os.environ.get("RUBRICATE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"RUBRICATE_REQUIRE_BROWSER=1 but none of {', '.join(_BROWSERS)} is on PATH")
    pytest.skip("headless Chromium is not installed (apt-get install chromium)")


def _chromium(browser: str, profile: Path, *args: str) -> str:
    """Run headless Chromium offline with a throwaway profile; its stdout."""
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
    ]
    done = subprocess.run(
        [browser, *flags, *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_report_renders_and_its_script_runs_in_headless_chromium(
    graded: tuple[Path, Any], browser: str, tmp_path: Path
) -> None:
    report, summary = graded
    dom = _chromium(browser, tmp_path / "profile", "--dump-dom", report.as_uri())

    page = Page()
    page.feed(dom)
    text = " ".join(" ".join(page.text).split())
    assert "4 of 4 items shown" in text  # the inline script ran under the page's CSP
    assert "Grading report: in.jsonl" in text and "Passed 1 of 3 graded (33.3%)" in text
    assert [a["id"] for a in page.all("section")][:2] == ["summary", "criteria"]
    assert len(page.all("svg")) == 1 and len(page.all("rect")) == len(summary.criteria)
    assert sorted(r["attrs"]["data-result"] or "" for r in page.rows) == [
        "grader_error",
        "needs_revision",
        "needs_revision",
        "satisfied",
    ]
    assert not any("hidden" in r["attrs"] for r in page.rows)  # every row is shown
    # The hostile id and criterion stayed text in the live DOM: no element came of them.
    assert not any(name == "img" for name, _ in page.tags) and len(page.all("script")) == 1
    assert f"Has {HOSTILE}" in text


def test_a_screenshot_of_the_report_shows_its_chart_and_badges(
    graded: tuple[Path, Any], browser: str, tmp_path: Path
) -> None:
    image_module = pytest.importorskip("PIL.Image")
    report, _ = graded
    shot = tmp_path / "report.png"
    _chromium(
        browser,
        tmp_path / "profile",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={_WINDOW[0]},{_WINDOW[1]}",
        f"--screenshot={shot}",
        report.as_uri(),
    )

    with image_module.open(shot) as opened:
        image = opened.convert("RGB")
    assert image.size == _WINDOW
    colours = {rgb: count for count, rgb in image.getcolors(maxcolors=_WINDOW[0] * _WINDOW[1])}
    white = colours.get((255, 255, 255), 0)
    assert 0.02 < 1 - white / (_WINDOW[0] * _WINDOW[1]) < 0.9, "blank or flooded page"
    # Each colour the stylesheet gives a result, painted as a solid area (a bar or a badge).
    for name, rgb in {
        "satisfied / chart bar": (0x2E, 0x7D, 0x32),
        "needs_revision": (0xC6, 0x28, 0x28),
        "grader_error": (0xEF, 0x6C, 0x00),
    }.items():
        assert colours.get(rgb, 0) >= 100, f"no {name} area in the screenshot"
    # Text is drawn: dark pixels in the heading's band at the top of the page.
    heading = image.crop((0, 0, _WINDOW[0], 120)).convert("L")
    assert sum(heading.histogram()[:100]) > 200, "no visible heading text"
