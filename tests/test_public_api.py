import rubricate


def test_all_is_sorted_and_every_name_is_exported() -> None:
    # ruff's order (RUF022): constants first, then the rest alphabetically.
    assert list(rubricate.__all__) == sorted(rubricate.__all__, key=lambda n: (not n.isupper(), n))
    for name in rubricate.__all__:
        assert hasattr(rubricate, name), name


def test_the_issue_example_names_import() -> None:
    from rubricate import Criterion, Rubric, create_rubric_scorer

    assert callable(create_rubric_scorer)
    assert Rubric.parse([Criterion(description="x")]).criteria[0].id == "x"
