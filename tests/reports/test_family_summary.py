"""A printable summary of a student's progress for them and their family, linked from their report, in
the student's language: what they played, their skills, their recommended levels and one sentence of
advice."""

import pytest
from django.urls import reverse

from reports.build import classrooms_build

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def summarised(class_7b, ms_rivera, ava, ben):
    words = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    numbers = finished_session(class_7b, "lineit", day=2, by=ms_rivera, students=[ava])
    for index in range(6):
        fact(ava, words, category="spelling", correct=index < 2, item=f"s{index}", response="w")
        fact(ava, numbers, category="comparison", correct=index < 5, item=f"compare:{index}|9")
    classrooms_build([class_7b.pk])
    return class_7b


def _url(classroom, student):
    return reverse("reports:student_summary", args=[classroom.pk, student.pk])


def test_the_summary_for_the_family(summarised, ava, client_of, ms_rivera):
    report = client_of(ms_rivera).get(reverse("reports:student", args=[summarised.pk, ava.pk]))
    assert _url(summarised, ava) in report.content.decode()  # linked from the student's report
    page = client_of(ms_rivera).get(_url(summarised, ava)).content.decode()
    assert "Progress summary: Ava M." in page
    assert "Word Up — English board game" in page and "Line-it" in page
    assert "<strong>English vocabulary</strong>: 33% right (2 of 6 answers)" in page
    assert "<strong>Numeracy</strong>: 83% right (5 of 6 answers)" in page
    assert "Recommended level" in page
    assert "Next, practise Spelling in Word Up — English board game: Ava M. got 2 of 6 right there." in page
    assert 'class="crumbs no-print"' in page  # the page prints without the site's links


def test_the_summary_is_in_the_students_language(summarised, ava, client_of, ms_rivera):
    ava.language = "es"
    ava.save()
    response = client_of(ms_rivera).get(_url(summarised, ava))
    page = response.content.decode()
    assert '<html lang="es"' in page
    assert "Resumen del progreso: Ava M." in page
    assert "Vocabulario en inglés" in page
    # The teacher's own pages stay in the teacher's language.
    report = (
        client_of(ms_rivera).get(reverse("reports:student", args=[summarised.pk, ava.pk])).content.decode()
    )
    assert "Resumen" not in report


def test_only_the_class_staff_see_it(summarised, ava, client_of, mr_moss):
    assert client_of(mr_moss).get(_url(summarised, ava)).status_code == 404
