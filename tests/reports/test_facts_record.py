"""``reports.services.facts_record``: the rows a log entry's facts become (one statement on PostgreSQL,
one prepared INSERT elsewhere: both must store the same thing)."""

from types import SimpleNamespace

import pytest

from reports.models import LearningFact
from reports.services import facts_record
from tests.factories import started_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return started_session(class_7b, ms_rivera, [ava, ben], "wordup").tables.get()


def test_every_column_is_stored_as_the_rule_gave_it(table, ava, ben):
    facts = [
        {
            "player": f"s{ava.pk}",
            "skill": "vocabulary",
            "category": "missing_word",
            "level": 4,
            "correct": False,
            "score": 0.25,
            "time_taken": 7.5,
            "item_id": "w-17",
            "response": {"typed": "recieve", "choices": [1, 2]},
            "detail": {"answer": "receive", "note": "ü"},
            "teacher_marked": True,
        },
        {"player": f"s{ben.pk}", "game": "lineup", "skill": "ordering"},
    ]
    assert facts_record(table=table, entry=SimpleNamespace(seq=3), facts=facts) == 2
    first, second = LearningFact.objects.order_by("id")
    assert (first.key, first.student_id, first.classroom_id) == (
        f"{table.pk}:3:0",
        ava.pk,
        table.session.classroom_id,
    )
    assert (first.session_id, first.table_id, first.game) == (table.session_id, table.pk, "wordup")
    assert (first.skill, first.category, first.level, first.correct) == (
        "vocabulary",
        "missing_word",
        4,
        False,
    )
    assert (first.score, first.time_taken, first.item_id, first.teacher_marked) == (0.25, 7.5, "w-17", True)
    assert first.response == {"typed": "recieve", "choices": [1, 2]}
    assert first.detail == {"answer": "receive", "note": "ü"}
    assert first.created_at is not None
    # What a fact leaves out takes the model's defaults; a missing response is SQL NULL, not JSON null.
    assert (second.key, second.game, second.category, second.level) == (f"{table.pk}:3:1", "lineup", "", None)
    assert (second.correct, second.score, second.detail, second.teacher_marked) == (None, None, {}, False)
    assert LearningFact.objects.filter(response__isnull=True).get() == second


def test_rows_keep_the_facts_order_and_skip_players_who_are_not_students(table, ava, ben):
    facts = [{"player": f"s{pk}", "skill": f"skill-{i}"} for i, pk in enumerate([ben.pk, ava.pk] * 50)]
    facts.insert(7, {"player": "bot-1", "skill": "computer"})
    assert facts_record(table=table, entry=SimpleNamespace(seq=9), facts=facts) == 100
    rows = list(LearningFact.objects.order_by("id").values_list("skill", flat=True))
    assert rows == [fact["skill"] for fact in facts if fact["player"] != "bot-1"]


def test_recording_an_entry_again_writes_nothing_new(table, ava):
    facts = [{"player": f"s{ava.pk}", "skill": "vocabulary", "correct": True}]
    facts_record(table=table, entry=SimpleNamespace(seq=4), facts=facts)
    facts_record(table=table, entry=SimpleNamespace(seq=4), facts=[{**facts[0], "correct": False}])
    assert list(LearningFact.objects.values_list("key", "correct")) == [(f"{table.pk}:4:0", True)]


def test_facts_from_before_a_students_erasure_are_left_out_and_later_ones_kept(table, ava, ben, dr_patel):
    from django.utils import timezone

    from reports.services import facts_erased_since, student_data_erase

    student_data_erase(student=ava, by=dr_patel)
    erased_at = timezone.now().timestamp()
    facts = [
        {"player": f"s{ava.pk}", "category": "spelling"},
        {"player": f"s{ben.pk}", "category": "spelling"},
    ]
    before = SimpleNamespace(seq=5, at=erased_at - 60)
    facts_record(table=table, entry=before, facts=facts, erased=facts_erased_since(before.at))
    assert set(LearningFact.objects.values_list("student", flat=True)) == {ben.pk}
    after = SimpleNamespace(seq=6, at=erased_at + 60)
    facts_record(table=table, entry=after, facts=facts, erased=facts_erased_since(before.at))
    assert set(LearningFact.objects.filter(key__contains=":6:").values_list("student", flat=True)) == {
        ava.pk,
        ben.pk,
    }
