"""The judge: grading evidence against a rubric, criterion by criterion.

The `Judge` (`_judge.py`) takes its settings as `JudgeOptions` (`_options.py`) and asks its
questions with one of two strategies, `_joint.py` (every criterion in one call) or
`_per_criterion.py` (one question each), after an optional grader-tool phase
(`_grader_tools.py`); `_calls.py` is how a question reaches the model, and `_verdicts.py` turns
answers into verdicts and an evaluation's result. Around them: the prompts, how the graded text
is shown (`_evidence.py`) and defended (`_injection.py`, which masks what `_suspects.py` finds
with `_suspect_patterns.py`), the answer schemas and their validation (`_answers.py`), confidence
from log-probabilities, retries, code-checked criteria, the rubric scorer, and compiling
criteria to catalogue checks (`_compile/`).
"""
