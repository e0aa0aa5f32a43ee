"""The judge: grading evidence against a rubric, criterion by criterion.

Around the `Judge` (`_judge.py`): the prompts, how the graded text is shown (`_evidence.py`) and
defended (`_injection.py`, which masks what `_suspects.py` finds with `_suspect_patterns.py`),
the answer schemas and their validation (`_answers.py`), confidence from log-probabilities,
retries, code-checked criteria, the rubric scorer, and compiling criteria to catalogue checks
(`_compile/`).
"""
