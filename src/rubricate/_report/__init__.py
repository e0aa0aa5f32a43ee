"""Showing what a batch found: rich tables for the terminal, offline HTML pages for a browser.

The report data (`GradeSummary`, `AgreementReport`, in `_batch/`) knows nothing of rendering.
`_render.py` builds the rich tables the command line prints; `_grade_page.py` and
`_agreement_page.py` write the HTML reports, on what `_html.py` gives both.
"""
