"""On an Arabic page a name, a game's or session's title and an address keep their own order: each is
isolated (`<bdi>`, or FSI … PDI where no markup can go), so "Ava I." and "Line Up!" never show as
".Ava I" and "!Line Up"; direction arrows are marked to mirror (docs/i18n.md, "Right to left")."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from classrooms.models import Student
from classrooms.templatetags.languages import isolated
from games import services as game_services
from questions import services as question_services
from reports.build import classrooms_build
from tests.factories import ClassroomFactory, enrolled_student, imported_word_list, started_session
from tests.reports.conftest import fact, finished_session

pytestmark = pytest.mark.django_db
FSI, PDI = "\u2068", "\u2069"


def test_a_students_pages_isolate_their_name_and_the_games_title(
    student_client, class_7b, ms_rivera, ava, ben
):
    Student.objects.filter(pk=ava.pk).update(language="ar")
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    client = student_client(ava)
    home = client.get(reverse("student_home")).content.decode()
    assert "<bdi>Ava M.</bdi>" in home  # "Welcome, Ava M.!" and "Signed in as Ava M."
    play = client.get(reverse("games:play", args=[session.pk])).content.decode()
    assert '<h1 class="play-bar-title"><bdi>Line Up!</bdi></h1>' in play
    assert f"<title>{FSI}Line Up!{PDI}" in play
    assert '<p class="play-bar-who"><bdi>Ava M.</bdi></p>' in play


def test_the_teachers_screens_isolate_titles_names_and_mark_arrows(client_of, class_7b, ms_rivera, ava, ben):
    ms_rivera.language = "ar"
    ms_rivera.save()
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    client = client_of(ms_rivera)
    projector = client.get(reverse("games:projector", args=[session.pk])).content.decode()
    assert f"<h1><bdi>{session}</bdi></h1>" in projector
    assert f"<title>{FSI}{session}{PDI}" in projector  # no markup in a <title>
    console = client.get(reverse("games:console", args=[session.pk])).content.decode()
    assert f"<bdi>{session.game_full_name}</bdi> · <bdi>{class_7b}</bdi>" in console
    roster = client.get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert '<th scope="row"><bdi>Ava M.</bdi><br>' in roster
    student = client.get(reverse("student_detail", args=[ava.pk]) + f"?class={class_7b.pk}").content.decode()
    assert "<h1><bdi>Ava M.</bdi></h1>" in student
    assert '<span class="flip-rtl" aria-hidden="true">←</span>' in student


def test_the_join_page_arrow_mirrors_and_the_projector_address_reads_left_to_right(client):
    page = client.get(reverse("join"), headers={"accept-language": "ar"}).content.decode()
    assert '<span class="flip-rtl" aria-hidden="true">→</span>' in page
    css = Path(__file__).resolve().parents[2] / "static" / "css"
    assert ".flip-rtl:dir(rtl) { display: inline-block; transform: scaleX(-1); }" in (
        css / "classplay.css"
    ).read_text("utf-8")
    assert ".projector-join-text strong { direction: ltr; unicode-bidi: isolate; }" in (
        css / "live.css"
    ).read_text("utf-8")


def test_an_attribute_isolates_a_name_on_a_right_to_left_page_or_around_arabic_only():
    """Attributes have no <bdi>: the isolates go where the direction can change (an Arabic page, an
    Arabic name), and a Latin name on an English page stays as written, so its accessible name
    ("Login card for Ben K.") is found as a person or a tool reads it."""
    with translation.override("en"):
        assert isolated("Ben K.") == "Ben K."
        assert isolated("ليلى ح.") == "\u2068ليلى ح.\u2069"
    with translation.override("ar"):
        assert isolated("Ben K.") == "\u2068Ben K.\u2069"


def _built_week(classroom, teacher, students):
    """Two Word Up sessions of the class, its reports built."""
    for day in (1, 2):
        session = finished_session(classroom, day=day, by=teacher, students=students)
        for student in students:
            for index in range(4):
                fact(
                    student,
                    session,
                    category="spelling",
                    correct=index < 2,
                    item=f"q{index}",
                    response="frend",
                )
    classrooms_build([classroom.pk])


def test_the_report_pages_isolate_the_names_of_students_classes_and_questions(
    client_of, class_7b, ms_rivera, dr_patel, ava, ben
):
    _built_week(class_7b, ms_rivera, [ava, ben])
    for teacher in (ms_rivera, dr_patel):
        teacher.language = "ar"
        teacher.save()
    client = client_of(ms_rivera)
    report = client.get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert f"{FSI}7B English{PDI}" in report.split("</title>")[0]
    assert "<bdi>7B English</bdi></h1>" in report
    assert '"><bdi>Ava M.</bdi></a></th>' in report and '"><bdi>Ben K.</bdi></a></th>' in report
    assert "<td><bdi>frend</bdi></td>" in report  # the wrong answer, as given
    items = client.get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert '<tr><th scope="row"><bdi>q0</bdi>' in items
    student = client.get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert f"{FSI}Ava M.{PDI}" in student.split("</title>")[0]
    assert "<bdi>Ava M.</bdi></h1>" in student
    summary = client.get(reverse("reports:student_summary", args=[class_7b.pk, ava.pk])).content.decode()
    assert '<p class="muted"><bdi>7B English</bdi> · <bdi>Riverside Academy</bdi> ·' in summary
    index = client.get(reverse("reports:index")).content.decode()
    assert "<bdi>7B English</bdi></a></th>" in index
    review = client_of(dr_patel).get(reverse("reports:school")).content.decode()
    assert f"{FSI}Riverside Academy{PDI}" in review.split("</title>")[0]
    assert "<bdi>Riverside Academy</bdi></h1>" in review
    assert "<td><bdi>Ms Rivera</bdi></td>" in review


def test_an_arabic_name_is_isolated_on_a_latin_page(client_of, class_7b, ms_rivera, ava):
    layla = enrolled_student(class_7b, given_name="ليلى", family_name="حداد", display_name="ليلى ح.")
    _built_week(class_7b, ms_rivera, [ava, layla])
    client = client_of(ms_rivera)
    report = client.get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert '"><bdi>ليلى ح.</bdi></a></th>' in report
    student = client.get(reverse("reports:student", args=[class_7b.pk, layla.pk])).content.decode()
    assert f"Report: {FSI}ليلى ح.{PDI}" in student  # its <title>: an Arabic name is isolated anywhere
    assert "Progress report: <bdi>ليلى ح.</bdi></h1>" in student
    # A Latin name on a Latin page is left as written where no markup can go (see isolated()).
    ava_page = client.get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "<title>Report: Ava M." in ava_page


def test_the_question_bank_pages_isolate_the_lists_and_their_words(client_of, riverside, ms_rivera):
    ms_rivera.language = "ar"
    ms_rivera.save()
    csv_text = b"id,text,difficulty,theme\nv-1,volcano,easy,nature\nv-2,hedgehog,easy,my pets\n"
    week = imported_word_list(riverside, ms_rivera, csv_text)
    client = client_of(ms_rivera)
    page = client.get(reverse("questions:word_list_detail", args=[week.pk])).content.decode()
    assert f"<title>{FSI}Week 12{PDI}" in page and "<h1><bdi>Week 12</bdi></h1>" in page
    assert '<th scope="row"><bdi>volcano</bdi></th>' in page
    assert "<td><bdi>my pets</bdi></td>" in page  # a school's own theme, as written
    assert page.count("<bdi>Ms Rivera</bdi>") == 2  # the header, and who made the list
    bank = client.get(reverse("questions:bank", args=["concepts"])).content.decode()
    assert "<bdi>hedgehog</bdi></a>" in bank and '<td class="mono"><bdi>v-2</bdi></td>' in bank
    lists = client.get(reverse("questions:word_lists")).content.decode()
    assert "<bdi>Week 12</bdi></a></th>" in lists


ARROWS = re.compile(r"[→←▶◀]")
MARKED = re.compile(r'<span class="flip-rtl"(?: aria-hidden="true")?>[→←▶◀]</span>')


@pytest.mark.parametrize("folder", ["reports", "questions"])
def test_every_direction_arrow_of_the_report_and_bank_pages_mirrors(folder):
    templates = Path(__file__).resolve().parents[2] / "templates" / folder
    for template in templates.glob("*.html"):
        text = MARKED.sub("", template.read_text("utf-8"))
        assert not ARROWS.search(text), template.name


def test_the_dashboards_homework_list_isolates_each_class(client_of, class_7b, ms_rivera):
    ms_rivera.language = "ar"
    ms_rivera.save()
    now = timezone.now()
    game_services.assignment_create(
        classroom=class_7b,
        by=ms_rivera,
        game="wordup",
        opens_at=now - timedelta(hours=1),
        due_at=now + timedelta(days=7),
    )
    dashboard = client_of(ms_rivera).get(reverse("dashboard")).content.decode()
    assert '<span class="muted"><bdi>7B English</bdi></span>' in dashboard


def _arabic(user):
    user.language = "ar"
    user.save()
    return user


def test_the_school_pages_isolate_every_class_teacher_and_school_name(
    client_of, riverside, class_7b, ms_rivera, dr_patel, ava
):
    dashboard = client_of(_arabic(ms_rivera)).get(reverse("dashboard")).content.decode()
    assert (
        "<bdi>Ms Rivera</bdi>" in dashboard
        and '<p class="muted"><bdi>Riverside Academy</bdi></p>' in dashboard
    )
    assert (
        f'<h3><a href="{reverse("classroom_detail", args=[class_7b.pk])}"><bdi>7B English</bdi></a></h3>'
        in (dashboard)
    )
    roster = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert f"<title>{FSI}7B English{PDI}" in roster and "<h1><bdi>7B English</bdi></h1>" in roster
    assert "· <bdi>Riverside Academy</bdi></p>" in roster
    overview = client_of(_arabic(dr_patel)).get(reverse("school_overview")).content.decode()
    assert (
        f"<title>{FSI}Riverside Academy{PDI}" in overview
        and "<h1><bdi>Riverside Academy</bdi></h1>" in overview
    )
    assert "<bdi>7B English</bdi></a>" in overview and "<bdi>Ms Rivera</bdi>" in overview
    assert "<li><bdi>Dr Patel</bdi> (<bdi>patel@riverside.example</bdi>)" in overview


def test_the_join_and_homework_pages_isolate_the_class_and_its_students(
    client, client_of, student_client, class_7b, ms_rivera, ava
):
    ClassroomFactory(school=class_7b.school, name="8A Science", teachers=[ms_rivera])  # the class menu shows
    pick = client.get(
        reverse("join_pick", args=[class_7b.join_code]), headers={"accept-language": "ar"}
    ).content.decode()
    assert "<h1><bdi>7B English</bdi>" in pick and "><bdi>Ava M.</bdi></a></li>" in pick
    homework = client_of(_arabic(ms_rivera)).get(reverse("games:homework_new")).content.decode()
    assert f">{FSI}7B English{PDI}</option>" in homework and "<bdi>7B English</bdi>" in homework
    Student.objects.filter(pk=ava.pk).update(language="ar")
    home = student_client(ava).get(reverse("student_home")).content.decode()
    assert "<li><bdi>7B English</bdi></li>" in home


def test_the_locked_cards_and_the_consoles_players_are_isolated(
    client_of, class_7b, ms_rivera, ava, ben, settings
):
    from tests.security.test_locked_cards import lock

    lock(class_7b, ava, settings)
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    client = client_of(_arabic(ms_rivera))
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert '<th scope="row"><bdi>Ava M.</bdi></th>' in dashboard
    console = client.get(reverse("games:console", args=[session.pk])).content.decode()
    assert "<li><bdi>Ava M.</bdi> · " in console


def test_the_word_lists_page_isolates_each_lists_name(client_of, riverside, ms_rivera):
    question_services.word_list_create(school=riverside, author=ms_rivera, name="Week 12")
    page = client_of(_arabic(ms_rivera)).get("/games/mindlines/lists/").content.decode()
    assert "><bdi>Week 12</bdi></a></h3>" in page
