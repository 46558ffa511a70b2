"""A school build on PostgreSQL reads, computes and writes consecutive chunks of classes at the same time,
on threads with their own connections (reports.build.school_build). It must write exactly what building
the chunks one after the other writes, and a failure on a thread must stop the build, not hang it.
Those threads cannot see a test's transaction, so these tests commit (``transaction=True``)."""

import pytest
from django.db import connection

from reports import build
from reports.models import (
    ClassItemStat,
    ClassReport,
    ClassSessionStat,
    ClassWrongAnswer,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

from .conftest import fact, finished_session

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_classes(class_7b, class_7c, ms_rivera, mr_moss, ava, ben, cleo):
    if connection.vendor != "postgresql":
        pytest.skip("the overlapped school build is PostgreSQL's (elsewhere the chunks run one by one)")
    for day in (1, 2, 3):
        first = finished_session(class_7b, day=day, by=ms_rivera, students=[ava, ben])
        fact(ava, first, category="spelling", correct=day != 2, item=f"q{day}", response="friend", time=3)
        fact(ben, first, category="crossword", correct=False, item=f"q{day}", response="Lake", time=7)
        second = finished_session(class_7c, "lineit", day=day, by=mr_moss, students=[cleo])
        fact(cleo, second, category="comparison", correct=day == 3, item="compare:1/2|3/5", time=4.5)
    return [class_7b.pk, class_7c.pk]


def _snapshot():
    def rows(model, *fields):
        return sorted(model.objects.values_list(*fields))

    return {
        "sessions": rows(StudentSessionStat, "student", "session", "answered", "correct", "time_total"),
        "class": rows(ClassSessionStat, "session", "participants", "answered", "correct"),
        "items": rows(ClassItemStat, "classroom", "item_id", "answered", "correct", "archived"),
        "wrong": rows(ClassWrongAnswer, "classroom", "item_id", "answer", "count", "archived"),
        "reports": sorted((r.student_id, r.classroom_id, r.data) for r in StudentReport.objects.all()),
        "skills": rows(SkillSummary, "student", "skill", "answered", "mean_time", "recommended_level"),
        "class_reports": sorted(ClassReport.objects.values_list("classroom", "data")),
    }


def test_the_overlapped_school_build_writes_what_one_chunk_after_another_writes(two_classes, monkeypatch):
    for classroom_id in two_classes:
        build.classrooms_build([classroom_id])
    one_by_one = _snapshot()
    for model in (StudentSessionStat, ClassSessionStat, ClassItemStat, ClassWrongAnswer, StudentReport):
        model.objects.all().delete()
    reads = []
    real_read = build._read_in_thread
    monkeypatch.setattr(build, "_read_in_thread", lambda ids: reads.append(ids) or real_read(ids))

    result = build.school_build(two_classes, chunk=1)

    assert reads == [[two_classes[0]], [two_classes[1]]]  # read on the reading thread, chunk by chunk
    assert result.students == 3
    assert _snapshot() == one_by_one
    build.school_build(two_classes, chunk=1)  # and a rerun writes the same rows
    assert _snapshot() == one_by_one


def test_a_failed_write_stops_the_school_build(two_classes, monkeypatch):
    writes = []
    real_write = build.Plan.write

    def write(plan):
        writes.append(plan)
        if len(writes) == 2:
            raise RuntimeError("the disk is full")
        real_write(plan)

    monkeypatch.setattr(build.Plan, "write", write)
    with pytest.raises(RuntimeError, match="the disk is full"):
        build.school_build(two_classes, chunk=1)
    # The first chunk was written in its own transaction; the second rolled back.
    assert set(StudentReport.objects.values_list("classroom", flat=True)) == {two_classes[0]}
