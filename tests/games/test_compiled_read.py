"""``rows.CompiledRead``: a read the ORM builds once, run with each call's values, gives what the ORM's
own query gives; and a Start's checks read through it agree with the ORM in every case."""

import pytest
from django.db.models import Count, Exists, OuterRef

from classrooms.models import Classroom, Enrolment, Student, StudentLevel
from games import services
from games.definitions import definition
from games.services.homework import _standing, _standing_query
from games.services.rows import CompiledRead
from tests.factories import enrolled_student, open_assignment

pytestmark = pytest.mark.django_db


def _class_size(classroom: int, name: str):
    return (
        Classroom.objects.filter(pk=classroom)
        .annotate(
            size=Count("enrolments"),
            named=Exists(Student.objects.filter(given_name=name, enrolments__classroom=OuterRef("pk"))),
        )
        .values("size", "named")
    )


def test_a_compiled_read_gives_what_the_orm_gives_for_each_calls_values(class_7b, class_7c, ava, ben):
    read = CompiledRead(_class_size, classroom=-1, name="(a stand-in name)")
    for classroom in (class_7b, class_7c):
        for name in ("Ava", "Ben", "Nobody"):
            expected = _class_size(classroom.pk, name).get()
            got = read.one(Classroom, classroom=classroom.pk, name=name)
            assert (got["size"], bool(got["named"])) == (expected["size"], expected["named"])
    assert read.one(Classroom, classroom=-5, name="Ava") is None


def test_a_stand_in_the_statement_does_not_use_is_refused(class_7b):
    read = CompiledRead(
        lambda classroom, unused: Classroom.objects.filter(pk=classroom).values("pk"), classroom=-1, unused=-2
    )
    with pytest.raises(ValueError, match="unused"):
        read.one(Classroom, classroom=class_7b.pk, unused=3)


def _orm_standing(assignment, student, skill):
    row = _standing_query(assignment.pk, assignment.classroom_id, student.pk, skill).get()
    return {
        key: (bool(value) if key in ("enrolled", "some_chosen", "chosen") else value)
        for key, value in row.items()
    }


def _compiled_standing(assignment, student):
    row = _standing(assignment, student)
    return {
        key: (bool(value) if key in ("enrolled", "some_chosen", "chosen") else value)
        for key, value in row.items()
    }


def test_a_starts_checks_agree_with_the_orm(class_7b, class_7c, ms_rivera, ava, ben):
    cleo = enrolled_student(class_7c, given_name="Cleo")
    StudentLevel.objects.create(student=ava, skill="english_vocabulary", level=4)
    everyone = open_assignment(class_7b, ms_rivera, "wordup", attempts_allowed=3)
    only_ava = open_assignment(class_7b, ms_rivera, "wordup", students=[ava])
    faces = open_assignment(class_7b, ms_rivera, "faces")
    first = services.attempt_start(assignment=everyone, student=ava)
    services.table_end(table=first.tables.get(), by=None)
    services.session_finish_if_done(session_id=first.pk)
    services.attempt_start(assignment=everyone, student=ava)
    for assignment in (everyone, only_ava, faces):
        skill = definition(assignment.game).spec.skill or ""
        for student in (ava, ben, cleo):
            assert _compiled_standing(assignment, student) == _orm_standing(assignment, student, skill)
    standing = _compiled_standing(everyone, ava)
    assert standing["attempts"] == 2 and standing["unfinished"] is not None and standing["level"] == 4
    assert (
        not _compiled_standing(only_ava, ben)["chosen"] and _compiled_standing(only_ava, ben)["some_chosen"]
    )
    assert not _compiled_standing(everyone, cleo)["enrolled"]
    assert Enrolment.objects.filter(student=cleo, classroom=class_7b).count() == 0
