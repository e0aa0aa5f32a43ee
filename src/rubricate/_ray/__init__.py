"""Grading on Ray Data: the same items, result rows and guarantees, on a pool of judge actors.

Nothing here imports Ray until it is called; without the `ray` extra a call raises a
`RubricateError` naming `pip install 'rubricate[ray]'`.
"""

from ._actor import JudgeSpec
from ._agreement import measure_agreement_ray
from ._dataset import grade_dataset
from ._file import grade_file_ray
from ._runtime import ray_session

__all__ = ["JudgeSpec", "grade_dataset", "grade_file_ray", "measure_agreement_ray", "ray_session"]
