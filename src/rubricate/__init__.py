"""rubricate: rubric-driven LLM-as-judge grading and self-revision loops for AI agents.

Declare what "done" looks like as a rubric; a judge grades each criterion, says what is missing,
and that verdict gates completion. Offline by default on an embedded local model.
"""

from ._agreement import AgreementMetrics, AgreementReport, ameasure_agreement, measure_agreement
from ._batch import BatchProgress
from ._compile import CheckMapping, CompiledRubric
from ._completion import CompletionCheck, CompletionResult, ScorerOutcome, is_task_complete
from ._evidence import RUBRIC_GRADER_MESSAGE_SOURCE
from ._exceptions import GraderError, LocalModelError, ModelError, RubricateError, RubricError
from ._grader_response import GraderResponse
from ._grading import GradeSummary, ItemResult, agrade_file, grade_file
from ._judge import Judge
from ._loop import Budget, CriterionEval, RubricEvaluation, RubricResult, RubricState, RunStatus
from ._middleware import RubricMiddleware
from ._models import ModelLike, resolve_chat_model
from ._prompts import GRADER_SYSTEM_PROMPT
from ._ray import grade_dataset, grade_file_ray, measure_agreement_ray
from ._refine import RefineResult, arefine, refine
from ._retry import RetryPolicy
from ._rubric import CheckFn, CheckResult, Criterion, Rubric, RubricLike
from ._scorer import RubricScorer, ScoreResult, create_rubric_scorer
from ._types import (
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
    "CompiledRubric",
    "CompletionCheck",
    "CompletionResult",
    "Criterion",
    "CriterionEval",
    "CriterionVerdict",
    "DecidedBy",
    "Evaluation",
    "EvaluationResult",
    "Evidence",
    "GradeSummary",
    "GraderError",
    "GraderResponse",
    "ItemResult",
    "Judge",
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
