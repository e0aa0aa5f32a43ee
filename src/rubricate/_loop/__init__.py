"""The self-revision loop: the agent answers, the judge grades, feedback or stop.

`_core.py` holds every decision (pure, no I/O); `_grading_loop.py` the I/O around it, shared by
the two drivers, `RubricMiddleware` (`_middleware.py`) and `refine` (`_refine.py`), each pass in
a nested graph so that resuming after an interrupt does not grade again (`_resumable.py`);
completion checks (`_completion.py`) and deepagents' `GraderResponse` shape sit beside them.
"""
