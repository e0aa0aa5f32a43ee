"""Rubrics: the criteria that say what "done" looks like, and how each form of rubric is read.

`_criterion.py` holds one criterion; `_checklist.py` the checklist text form (read and written);
`_rubric.py` the `Rubric` itself and its other forms (lists, mappings, YAML and JSON files).
"""
