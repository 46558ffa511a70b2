"""What the charts tell: one per skill, sessions told apart on the x-axis, who took part and who was
absent, the class's weak spots, the child's own page, and the admin's participation and classes."""

import pytest
from django.urls import reverse

from classrooms.models import Enrolment
from reports import charts, present
from reports.build import classrooms_build
from reports.selectors import class_participation, class_weak_spots
from tests.factories import enrolled_student

from .conftest import at, fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed_term(class_7b, ms_rivera, ava, ben):
    """Word Up twice on day 1 (Ben only in the first), Line-it on day 2 with Ava alone, and a Line-Up
    game of questions only (quality scores, no marks) on day 3."""
    Enrolment.objects.filter(classroom=class_7b).update(created_at=at(1, 8))  # enrolled before day 1
    morning = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    afternoon = finished_session(class_7b, day=1, by=ms_rivera, students=[ava])
    lineit = finished_session(class_7b, "lineit", day=2, by=ms_rivera, students=[ava])
    faces = finished_session(class_7b, "faces", day=3, by=ms_rivera, students=[ava, ben])
    for index in range(6):
        fact(ava, morning, category="spelling", correct=index < 2, item=f"s{index}", response="frend")
        fact(ben, morning, category="spelling", correct=index < 1, item=f"s{index}", response="freind")
        fact(ava, afternoon, category="crossword", correct=True, item=f"c{index}", response="river")
        fact(ava, lineit, category="comparison", correct=index < 5, item=f"compare:{index}|9")
    fact(ava, faces, category="question", correct=None, score=0.5, item="hat", level=None)
    classrooms_build([class_7b.pk])
    return morning, afternoon, lineit, faces


def test_one_chart_per_skill_and_no_quality_point(mixed_term, class_7b, ava):
    from reports.models import StudentReport

    data = StudentReport.objects.get(student=ava, classroom=class_7b).data
    found = present.trend_charts(data["trend"], name="Ava")
    assert [item["skill"] for item in found] == ["english_vocabulary", "numeracy"]
    assert found[0]["chart"].title == "English vocabulary: right answers per session"
    # Line-Up's questions are no point at all: no 0% under "Reasoning".
    assert all(point["game"] != "faces" for point in data["trend"])
    # Two sessions on one day are told apart on the axis.
    labels = [item[3] for item in found[0]["chart"].items if item[0] == "text" and "Mar" in str(item[3])]
    assert labels == ["1 Mar (1)", "1 Mar (2)"]


def test_the_last_label_is_never_cut_off_and_labels_are_spread():
    points = [(f"{day} Mar", 0.5) for day in range(1, 31)]
    chart = charts.line_chart(points, title="t", summary="s", width=640)
    labels = [item for item in chart.items if item[0] == "text" and "Mar" in item[3]]
    assert len(labels) <= 7
    assert labels[0][3] == "1 Mar" and labels[0][4] == "start"
    assert labels[-1][3] == "30 Mar" and labels[-1][4] == "end"


def test_who_took_part_and_who_was_absent(mixed_term, class_7b, ava, ben, client_of, ms_rivera):
    sessions = class_participation(class_7b)
    assert [([s.pk for s in row["present"]], [s.pk for s in row["absent"]]) for row in sessions] == [
        ([ava.pk, ben.pk], []),
        ([ava.pk], [ben.pk]),
        ([ava.pk], [ben.pk]),
        ([ava.pk, ben.pk], []),
    ]
    assert [row["share"] for row in sessions] == [1.0, 0.5, 0.5, 1.0]
    page = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert "Students who took part in each session" in page and "1 of 2" in page


def test_a_student_who_joined_later_is_not_absent_before(mixed_term, class_7b):
    late = enrolled_student(class_7b, given_name="Late")
    assert all(late not in row["absent"] for row in class_participation(class_7b)[:3])


def test_the_class_weakest_categories_and_levels(mixed_term, class_7b, client_of, ms_rivera):
    spots = class_weak_spots(class_7b)
    assert [(row["category"], row["correct"], row["answered"]) for row in spots["categories"]] == [
        ("spelling", 3, 12),
        ("comparison", 5, 6),
        ("crossword", 6, 6),
    ]
    assert [(row["skill"], row["level"], row["correct"], row["answered"]) for row in spots["levels"]] == [
        ("english_vocabulary", 3, 9, 18),
        ("numeracy", 3, 5, 6),
    ]
    page = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert "Weakest categories" in page and "Weakest question levels" in page


def test_the_childs_own_page(mixed_term, student_client, ava):
    page = student_client(ava).get(reverse("reports:me")).content.decode()
    assert "My English vocabulary: right answers in each game" in page
    assert "My Numeracy: right answers in each game" in page
    assert "What went well" in page
    assert "One thing to practise next" in page and "Spelling in Word Up" in page
    # Line-Up's questions (a quality score) are no chart and no "0% right".
    assert "Reasoning" not in page and "0% right" not in page


def test_the_admin_sees_participation_and_the_classes_needing_attention(
    class_7b, class_7c, ms_rivera, ava, ben, cleo, client_of, dr_patel
):
    from reports.selectors import ReviewFilters, school_review

    Enrolment.objects.update(created_at=at(1, 8))
    for day in (1, 8, 15):
        session = finished_session(class_7b, day=day, by=ms_rivera, students=[ava])
        fact(ava, session, category="spelling", correct=True, item="s1")
    classrooms_build([class_7b.pk, class_7c.pk])
    import datetime as dt

    review = school_review(
        class_7b.school, ReviewFilters(start=dt.date(2026, 2, 20), end=dt.date(2026, 3, 20))
    )
    # One of two students each week.
    assert [value for _week, value in review["participation"]] == [0.5, 0.5, 0.5]
    assert list(review["progress_by_skill"]) == ["english_vocabulary"]
    [row] = review["classes_attention"]
    assert (row["classroom"], row["flagged"], row["students"]) == (class_7b, 1, 2)  # Ben never played
    page = client_of(dr_patel).get(reverse("reports:school")).content.decode()
    assert "Participation over the term" in page and "Classes whose students need attention most" in page


def test_the_class_table_gives_a_share_right_per_skill(mixed_term, class_7b, client_of, ms_rivera):
    page = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert "Right in English vocabulary" in page and "Right in Numeracy" in page
    assert "Right in Reasoning" not in page  # Line-Up's questions have a quality score, no share right
    assert "83% (5/6)" in page  # Ava's comparisons, apart from her Word Up answers (8 of 12)
    assert "67% (8/12)" in page
    assert "right in English vocabulary" in page  # the class's tile, per skill


def test_the_student_page_gives_a_share_right_per_skill(mixed_term, class_7b, ava, client_of, ms_rivera):
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "right in English vocabulary (8 of 12)" in page and "right in Numeracy (5 of 6)" in page
    assert "quality 50%" in page  # Line-Up's question, as its own measure
