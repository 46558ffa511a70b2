"""The level recommendation: known students, hand-checked cases, and simulated students of known level."""

import pytest

from reports import levels


def test_half_right_at_a_level_recommends_that_level():
    result = levels.recommend({3: (10, 20)})
    assert result.level == 3 and result.ability == pytest.approx(3.0, abs=0.05)
    assert result.evidence == {3: (10, 20)} and result.answers == 20


def test_nearly_all_right_moves_up_and_nearly_all_wrong_moves_down():
    assert levels.recommend({3: (19, 20)}).level == 5
    assert levels.recommend({3: (17, 20)}).level == 4
    assert levels.recommend({3: (3, 20)}).level == 2
    assert levels.recommend({2: (0, 20)}).level == 1


def test_more_answers_give_more_confidence():
    few, many = levels.recommend({3: (5, 10)}), levels.recommend({3: (25, 50)})
    assert few.level == many.level == 3
    assert many.confidence > few.confidence
    assert many.confidence_word == "high"


def test_too_few_answers_recommend_nothing():
    result = levels.recommend({4: (3, 5)})
    assert (result.level, result.confidence, result.answers) == (None, None, 5)


def test_evidence_counts_right_answers_per_level():
    answers = [(3, True), (3, False), (4, False), (None, True), (2, None), (4, True)]
    assert levels.evidence_of(answers) == {3: (1, 2), 4: (1, 2)}


def test_the_simulation_recovers_the_true_level_of_90_percent_after_40_answers():
    """Synthetic students with a known level answer Word Up-style questions at their current level
    (the teacher applies each recommendation); after 40 answers the recommendation must be exact for
    at least 90% of them. (bench/reports_levels.py runs the same on 20 000 students.)"""
    result = levels.simulate(students=300, answers=40, seed=2026)
    assert result.exact_share >= 0.9, result.confusion
    assert result.within_one == result.students
    assert {true for true, _found in result.confusion} == set(levels.LEVELS)
