"""rubricate: rubric-driven LLM-as-judge grading and self-revision loops for AI agents.

Declare what "done" looks like as a rubric; a judge grades each criterion, says what is missing,
and that verdict gates completion. Offline by default on an embedded local model.
"""

from ._batch._agreement import AgreementReport, ameasure_agreement, measure_agreement
from ._batch._grade import agrade_file, grade_file
from ._batch._items import ItemResult
from ._batch._statistics import AgreementMetrics, agreement_metrics
from ._batch._streaming import BatchProgress
from ._batch._summary import GradeSummary
from ._exceptions import (
    CheckUndecided,
    GraderError,
    LocalModelError,
    ModelError,
    RubricateError,
    RubricError,
)
from ._judge._compile._compiler import CheckMapping, CompiledRubric
from ._judge._evidence import RUBRIC_GRADER_MESSAGE_SOURCE
from ._judge._judge import Judge
from ._judge._options import JudgeOptions
from ._judge._prompts import GRADER_SYSTEM_PROMPT
from ._judge._retry import RetryPolicy
from ._judge._scorer import RubricScorer, ScoreResult, create_rubric_scorer
from ._loop._completion import CompletionCheck, CompletionResult, ScorerOutcome, is_task_complete
from ._loop._core import (
    Budget,
    CriterionEval,
    CriterionFail,
    CriterionPass,
    RubricEvaluation,
    RubricResult,
    RubricState,
    RunStatus,
)
from ._loop._grader_response import GraderResponse, GraderVerdict
from ._loop._middleware import RubricMiddleware
from ._loop._refine import RefineResult, arefine, refine
from ._models import ModelLike, resolve_chat_model
from ._ray import grade_dataset, grade_file_ray, measure_agreement_ray
from ._rubric._criterion import CheckFn, CheckResult, Criterion
from ._rubric._rubric import Rubric, RubricLike
from ._types import (
    ContextPolicy,
    CriterionVerdict,
    DecidedBy,
    Evaluation,
    EvaluationResult,
    Evidence,
    Mode,
    Usage,
)

__version__ = "0.1.0"

__all__ = [
    "GRADER_SYSTEM_PROMPT",
    "RUBRIC_GRADER_MESSAGE_SOURCE",
    "AgreementMetrics",
    "AgreementReport",
    "BatchProgress",
    "Budget",
    "CheckFn",
    "CheckMapping",
    "CheckResult",
    "CheckUndecided",
    "CompiledRubric",
    "CompletionCheck",
    "CompletionResult",
    "ContextPolicy",
    "Criterion",
    "CriterionEval",
    "CriterionFail",
    "CriterionPass",
    "CriterionVerdict",
    "DecidedBy",
    "Evaluation",
    "EvaluationResult",
    "Evidence",
    "GradeSummary",
    "GraderError",
    "GraderResponse",
    "GraderVerdict",
    "ItemResult",
    "Judge",
    "JudgeOptions",
    "LocalModelError",
    "Mode",
    "ModelError",
    "ModelLike",
    "RefineResult",
    "RetryPolicy",
    "Rubric",
    "RubricError",
    "RubricEvaluation",
    "RubricLike",
    "RubricMiddleware",
    "RubricResult",
    "RubricScorer",
    "RubricState",
    "RubricateError",
    "RunStatus",
    "ScoreResult",
    "ScorerOutcome",
    "Usage",
    "__version__",
    "agrade_file",
    "agreement_metrics",
    "ameasure_agreement",
    "arefine",
    "create_rubric_scorer",
    "grade_dataset",
    "grade_file",
    "grade_file_ray",
    "is_task_complete",
    "measure_agreement",
    "measure_agreement_ray",
    "refine",
    "resolve_chat_model",
]
