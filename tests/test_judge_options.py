"""`JudgeOptions`: every entry point takes the judge's options by the same names and hands them
to the `Judge` it builds; a misspelt option is a `TypeError` naming it, wherever it is given."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
from pathlib import Path
from typing import Any

import pytest
import typer.core
import typer.main
from typer.testing import CliRunner

from grading_fakes import KeywordJudge, keyword_judge
from rubricate import (
    Judge,
    JudgeOptions,
    RetryPolicy,
    RubricMiddleware,
    create_rubric_scorer,
    grade_file,
    measure_agreement,
    refine,
)
from rubricate._cli import create_app
from rubricate._cli._common import (
    FlagGroup,
    JudgeChoice,
    JudgeFlags,
    default_judge_factory,
    takes_flag_groups,
)
from rubricate._cli._ray import RayRun
from rubricate._ray._actor import build_judge
from rubricate.testing import GrammarScriptedChatModel, ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, timeout=None)
OPTIONS: JudgeOptions = {
    "mode": "per_criterion",
    "system_prompt": "Grade strictly.",
    "max_tool_calls": 3,
    "retry": FAST,
    "max_concurrency": 2,
    "max_evidence_chars": 1234,
    "guard_injections": False,
    "read_checks": True,
    "compile_checks": True,
    "explain_passes": False,
    "show_context": "when_referenced",
    "careful": True,
    "layout_facts": False,
    "tone_likelihood": False,
}
"""Every option but `tools`, each away from its default on a remote model."""


def word_count(text: str) -> int:
    """Count the words of `text`."""
    return len(text.split())


def settings(judge: Judge) -> dict[str, Any]:
    """The built judge's value of every option in `OPTIONS`, and its tools' names."""
    return {name: getattr(judge, name) for name in OPTIONS} | {
        "tools": [t.name for t in judge.tools]
    }


EXPECTED = {**OPTIONS, "tools": ["word_count"]}


def model() -> ScriptedChatModel:
    return ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))], repeat_last=True)


def test_every_option_is_documented_once_in_judge_options() -> None:
    assert set(EXPECTED) == set(JudgeOptions.__annotations__)
    for name in EXPECTED:
        assert f"        {name}: " in (JudgeOptions.__doc__ or ""), name


def test_judge_takes_every_option() -> None:
    assert settings(Judge(model(), tools=[word_count], **OPTIONS)) == EXPECTED


def test_none_means_the_default_for_the_kind_of_model() -> None:
    judge = Judge(model(), mode=None, read_checks=None, explain_passes=None, retry=None)
    assert (judge.mode, judge.read_checks, judge.explain_passes) == ("joint", False, True)
    assert judge.retry.timeout == 120.0


@pytest.mark.parametrize(
    ("build", "where"),
    [
        (lambda: Judge(model(), explain_pass=True), "Judge()"),
        (lambda: create_rubric_scorer(model(), "- A", explain_pass=True), "create_rubric_scorer()"),
        (lambda: RubricMiddleware(model=model(), explain_pass=True), "RubricMiddleware()"),
        (lambda: refine(lambda task, feedback: "x", "t", "- A", explain_pass=True), "refine()"),
        (lambda: grade_file("in.jsonl", judge=model(), explain_pass=True), "grade_file()"),
        (lambda: measure_agreement(["a.jsonl"], explain_pass=True), "measure_agreement()"),
    ],
)
def test_an_unknown_option_is_a_type_error_naming_it_and_the_valid_ones(
    build: Any, where: str
) -> None:
    with pytest.raises(TypeError) as raised:
        build()
    message = str(raised.value)
    assert message.startswith(f"{where} got unknown option(s) 'explain_pass'")
    assert all(name in message for name in OPTIONS)


def test_options_beside_a_built_judge_are_a_type_error_not_ignored() -> None:
    with pytest.raises(TypeError, match=r"refine\(\): judge options \(mode\) apply only when"):
        refine(lambda task, feedback: "x", "t", "- A", judge=Judge(model()), mode="joint")


def test_the_scorer_builds_its_judge_with_the_options() -> None:
    scorer = create_rubric_scorer(model(), "- A", scale=2, id="s", tools=[word_count], **OPTIONS)
    assert settings(scorer.judge) == EXPECTED
    assert (scorer.scale, scorer.id) == (2, "s")


def test_the_middleware_builds_its_judge_with_the_options() -> None:
    middleware = RubricMiddleware(model=model(), tools=[word_count], max_iterations=2, **OPTIONS)
    assert settings(middleware.judge) == EXPECTED


def test_refine_builds_its_judge_with_the_options() -> None:
    grader = model()
    result = refine(
        lambda task, feedback: "Paris.",
        "Capital of France?",
        "- Mentions Paris",
        judge=grader,
        mode="joint",
        system_prompt="Grade strictly.",
        retry=FAST,
    )
    assert result.status == "satisfied"
    assert grader.prompts()[0].startswith("[system] Grade strictly.")


def test_grade_file_builds_its_judge_with_the_options(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": 1, "output": "Paris"}) + "\n")
    grader = model()
    summary = grade_file(
        source, judge=grader, rubric="- Mentions Paris", system_prompt="Grade strictly."
    )
    assert summary.passed == 1
    assert grader.prompts()[0].startswith("[system] Grade strictly.")


# -- the CLI -----------------------------------------------------------------------------------


def test_judge_flags_become_options_and_defaults_set_nothing() -> None:
    assert JudgeFlags(mode=None).options() == {}
    assert JudgeFlags(
        mode=None,
        compile_checks=True,
        read_checks=False,
        explain_passes=True,
        guard_injections=False,
    ).options() == {
        "compile_checks": True,
        "read_checks": False,
        "explain_passes": True,
        "guard_injections": False,
    }


def _flags(command: str) -> list[tuple[str, ...]]:
    """The option names `command` takes, in the order its `--help` lists them."""
    group = typer.main.get_command(create_app())
    assert isinstance(group, typer.core.TyperGroup)
    return [tuple(p.opts + p.secondary_opts) for p in group.commands[command].params]


def test_every_command_that_grades_takes_the_same_judge_flags() -> None:
    judge_flags = [
        ("--judge",),
        ("--mode",),
        ("--compile-checks",),
        ("--read-checks", "--no-read-checks"),
        ("--explain-passes", "--no-explain-passes"),
        ("--guard-injections", "--no-guard-injections"),
        ("--show-context",),
        ("--careful",),
        ("--layout-facts", "--no-layout-facts"),
    ]
    for command in ("run", "grade", "agreement"):
        flags = _flags(command)
        start = flags.index(("--judge",))
        assert flags[start : start + len(judge_flags)] == judge_flags, command
    engine = [("--engine",), ("--address",), ("--actors",), ("--cpus-per-actor",), ("--rps",)]
    for command in ("grade", "agreement"):
        flags = _flags(command)
        start = flags.index(("--engine",))
        assert flags[start : start + len(engine)] == engine, command


def test_a_flag_group_reaches_the_command_as_one_object() -> None:
    seen: list[tuple[int, JudgeFlags]] = []

    @takes_flag_groups
    def command(*, jobs: int = 1, judge: JudgeFlags) -> None:
        seen.append((jobs, judge))

    assert list(inspect.signature(command).parameters)[:3] == ["jobs", "judge", "mode"]
    command(jobs=2, **{f.name: f.default for f in dataclasses.fields(JudgeFlags)})
    assert seen == [(2, JudgeFlags())]
    assert seen[0][1].choice(default_judge_factory).options == {}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Twice(FlagGroup):
    jobs: int = 1


def test_a_flag_group_that_repeats_a_parameter_is_refused() -> None:
    def command(*, jobs: int = 1, group: Twice) -> None:
        pass

    with pytest.raises(
        TypeError, match=r"command: a flag group repeats the parameter\(s\) \['jobs'\]"
    ):
        takes_flag_groups(command)


class Built(Exception):
    """Raised by the test's judge factory with the judge: the command goes no further."""


@pytest.mark.parametrize("command", ["grade", "agreement", "run"])
def test_every_command_passes_its_judge_flags_to_the_judge(command: str, tmp_path: Path) -> None:
    if command == "agreement":
        pytest.importorskip("sklearn")

    def factory(spec: str, options: JudgeOptions) -> Judge:
        raise Built(keyword_judge(KeywordJudge(), options))

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": 1, "output": "Paris"}) + "\n")
    target = {"grade": [str(source), "-r", "- A"], "agreement": [str(source)]}
    flags = [
        "--mode",
        "per_criterion",
        "--no-read-checks",
        "--explain-passes",
        "--no-guard-injections",
        "--compile-checks",
        "--show-context",
        "always",
        "--careful",
        "--no-layout-facts",
        "--no-tone-likelihood",
    ]
    args = [command, *target.get(command, ["task", "-r", "- A"]), *flags]
    app = create_app(judge_factory=factory, model_factory=lambda spec: model())
    raised = CliRunner().invoke(app, args).exception
    assert isinstance(raised, Built), raised
    judge = raised.args[0]
    assert judge.mode == "per_criterion"
    assert (judge.read_checks, judge.explain_passes) == (False, True)
    assert (judge.guard_injections, judge.compile_checks) == (False, True)
    assert (judge.show_context, judge.careful) == ("always", True)
    assert judge.layout_facts is False
    assert judge.tone_likelihood is False


def test_the_ray_engine_builds_each_actors_judge_from_the_same_options() -> None:
    options = JudgeFlags(mode=None, read_checks=False, explain_passes=True).options()
    seen: list[JudgeOptions] = []

    def factory(spec: str, options: JudgeOptions) -> Judge:
        seen.append(options)
        return Judge(model(), **options)

    run = RayRun(
        judge=JudgeChoice(factory, "openai:x", options),
        address=None,
        actors=1,
        cpus_per_actor=1,
        jobs=1,
        requests_per_second=None,
    )
    spec = run.pool()["judge"]
    assert isinstance(spec, functools.partial)
    judge = build_judge(spec)  # what each actor does with its spec (`JudgeActor.__init__`)
    assert (judge.read_checks, judge.explain_passes) == (False, True)
    assert seen == [{"read_checks": False, "explain_passes": True}]


def test_a_ray_actor_builds_a_model_spec_with_the_options() -> None:
    judge = build_judge(model(), {"mode": "per_criterion", "read_checks": True})
    assert (judge.mode, judge.read_checks) == ("per_criterion", True)


def test_the_ray_engine_refuses_tools_and_options_it_would_ignore() -> None:
    with pytest.raises(TypeError, match="`tools` cannot be sent to Ray actors"):
        build_judge("openai:x", {"tools": [len]})
    with pytest.raises(TypeError, match="this `judge` is a function"):
        build_judge(lambda: Judge(model()), {"mode": "joint"})
    with pytest.raises(TypeError, match="unknown option"):
        build_judge("openai:x", {"explain_pass": True})  # type: ignore[typeddict-unknown-key]


def test_options_that_change_verdicts_change_the_cache_key() -> None:
    """Now that the CLI sets them, a result graded one way must not be reused for the other."""
    from rubricate._batch._items import GradeItem
    from rubricate._batch._results import cache_key, judge_fingerprint
    from rubricate._rubric._rubric import Rubric

    def key(**options: Any) -> str | None:
        fingerprint = judge_fingerprint(Judge(model(), **options))
        return cache_key(Rubric.parse("- A"), GradeItem(id="1", output="x"), fingerprint)

    default = key()
    assert key(read_checks=False) == default  # the remote model's default: keys kept
    assert len({default, key(read_checks=True), key(guard_injections=False)}) == 3
    # The tone likelihood moves verdicts only on the embedded model: there, a result graded
    # with it is never reused for one graded at the fixed tone bar, nor the other way round.
    assert key(tone_likelihood=False) == default
    embedded = GrammarScriptedChatModel(script=["yes"])
    with_it, without = (
        cache_key(
            Rubric.parse("- A"),
            GradeItem(id="1", output="x"),
            judge_fingerprint(Judge(embedded, tone_likelihood=on)),
        )
        for on in (True, False)
    )
    assert with_it != without
