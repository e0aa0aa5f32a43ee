"""Compiling criteria to catalogue checks: read in code where the words allow, else by the model.

`_phrasing.py` reads a format criterion with a small grammar (no model), made of `_numbers.py`,
`_vocabulary.py` and the `_*_rules.py` modules (counts, presence, layout, start and end,
keywords, style); `_compiler.py` asks the judge model for a mapping and trusts it only as far
as `_grounding.py`'s rules allow.
"""
