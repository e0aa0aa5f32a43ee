"""Grading files: a JSONL of outputs graded in a stream, and agreement with labels.

`_streaming.py` is what the batch commands share (JSONL lines, bounded concurrency, progress).
`_grade.py` grades a file: its lines are `_items.py`, its results file and cache `_results.py`,
its totals `_summary.py`. `_agreement.py` measures the judge against labelled items
(`_labels.py`) with the statistics of `_statistics.py`. Showing the results is `_report/`'s.
"""
