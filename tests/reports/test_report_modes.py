"""Live games, homework or both on every report page and export: the built rows hold each mode's figures
(no page recomputes them from the facts), the filter is a plain GET parameter kept in the links between the
pages, the exports follow it and say so, homework is marked where it shows, "not taking part" means what
the mode counts, and a report built before the split says it needs a rebuild."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from classrooms.models import Enrolment
from games.models import Assignment
from reports.build import classrooms_build
from reports.models import ClassItemStat, ClassReport, ClassWrongAnswer, StudentReport
from reports.selectors import class_participation
from tests.factories import enrolled_student

from .conftest import at, fact, finished_session

pytestmark = pytest.mark.django_db


def attempt_of(student, classroom, teacher, *, day=4):
    """A finished homework attempt of ``student`` (a session with an assignment)."""
    assignment = Assignment.objects.create(
        classroom=classroom, created_by=teacher, game="wordup", opens_at=at(day), due_at=at(day + 3)
    )
    attempt = finished_session(classroom, day=day, by=teacher, students=[student])
    attempt.assignment = assignment
    attempt.save()
    return attempt


@pytest.fixture
def week_and_homework(word_up_week, class_7b, ms_rivera, ava):
    """Two live Word Up sessions (Ava 4 of 6 right, Ben 0 of 3) and Ava's homework (1 of 2 right)."""
    attempt = attempt_of(ava, class_7b, ms_rivera)
    fact(ava, attempt, category="spelling", correct=True, time=4, item="q7", response="school")
    fact(ava, attempt, category="spelling", correct=False, time=6, item="q1", response="hause")
    classrooms_build([class_7b.pk])
    return attempt


def page(client, name, *args, mode=None):
    url = reverse(name, args=args)
    return client.get(url, {"mode": mode} if mode else {})


def _csv(response):
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


def _filename(response) -> str:
    return response["Content-Disposition"].split('filename="')[1].rstrip('"')


# --- the build -----------------------------------------------------------------------------------------


def test_each_student_report_is_built_in_every_mode(week_and_homework, class_7b, ava, ben):
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    live, homework = report.data["modes"]["live"], report.data["modes"]["homework"]
    assert (report.answered, report.correct, report.sessions_played) == (8, 5, 3)
    assert (live["row"]["answered"], live["row"]["correct"], live["row"]["sessions_played"]) == (6, 4, 2)
    assert (homework["row"]["answered"], homework["row"]["correct"]) == (2, 1)
    assert (homework["row"]["sessions_played"], homework["row"]["sessions_held"]) == (1, 0)
    assert report.data["totals"]["homework_sessions"] == 1
    assert [point.get("homework", False) for point in report.data["trend"]] == [False, False, True]
    # The class's share in a category is the mode's: spelling in live games 1 of 3, in homework 1 of 2.
    spelling = {row["category"]: row for row in homework["categories"]}["spelling"]
    assert spelling["class_accuracy"] == 0.5
    ben_homework = StudentReport.objects.get(student=ben, classroom=class_7b).data["modes"]["homework"]
    assert ben_homework["row"]["answered"] == 0


def test_a_questions_answers_are_split_into_live_and_homework_rows(week_and_homework, class_7b):
    q1 = {row.homework: (row.answered, row.correct) for row in ClassItemStat.objects.filter(item_id="q1")}
    assert q1 == {False: (2, 1), True: (1, 0)}
    wrong = ClassWrongAnswer.objects.get(item_id="q1", homework=True)
    assert (wrong.answer, wrong.count) == ("hause", 1)
    data = ClassReport.objects.get(classroom=class_7b).data
    assert data["totals"]["sessions"] == 3
    assert data["modes"]["live"]["totals"]["sessions"] == 2
    assert data["modes"]["homework"]["totals"] == {
        "sessions": 1,
        "answered": 2,
        "correct": 1,
        "skills": {"english_vocabulary": {"answered": 2, "correct": 1, "accuracy": 0.5}},
    }
    assert [row["homework"] for row in data["modes"]["homework"]["sessions"]] == [True]
    assert [row["answer"] for row in data["modes"]["homework"]["wrong"]] == ["hause"]


# --- the pages ------------------------------------------------------------------------------------------


def test_the_class_report_shows_the_chosen_mode_from_built_rows(week_and_homework, client_of, ms_rivera):
    client = client_of(ms_rivera)
    classroom = week_and_homework.classroom
    live = page(client, "reports:class", classroom.pk, mode="live")
    rows = {item["row"].student.display_name: item["row"].report for item in live.context["rows"]}
    assert (rows["Ava M."].answered, rows["Ben K."].answered) == (6, 3)
    assert live.context["data"]["totals"]["sessions"] == 2
    homework = page(client, "reports:class", classroom.pk, mode="homework")
    rows = {item["row"].student.display_name: item["row"].report for item in homework.context["rows"]}
    assert (rows["Ava M."].answered, rows["Ben K."].answered) == (2, 0)
    assert "Taking part is counted in the class's live games" in homework.content.decode()


def test_the_filter_is_a_labelled_select_in_a_get_form_and_the_links_keep_it(
    week_and_homework, client_of, ms_rivera, ava
):
    client = client_of(ms_rivera)
    classroom = week_and_homework.classroom
    html = page(client, "reports:class", classroom.pk, mode="homework").content.decode()
    assert '<form method="get" class="mode-filter' in html
    assert '<label for="id_mode">Live games or homework</label>' in html
    assert '<option value="homework" selected>Homework</option>' in html
    assert '<option value="both">Live games and homework</option>' in html
    assert "Shows: Homework" in html
    query = "?mode=homework"
    for name, args in (
        ("reports:student", [classroom.pk, ava.pk]),
        ("reports:class_items", [classroom.pk]),
        ("reports:class_pdf", [classroom.pk]),
        ("reports:class_answers_csv", [classroom.pk]),
        ("reports:class_xlsx", [classroom.pk]),
    ):
        assert f'href="{reverse(name, args=args)}{query}"' in html, name
    student = page(client, "reports:student", classroom.pk, ava.pk, mode="homework").content.decode()
    assert f'href="{reverse("reports:class", args=[classroom.pk])}{query}"' in student
    assert f'href="{reverse("reports:student_pdf", args=[classroom.pk, ava.pk])}{query}"' in student
    items = page(client, "reports:class_items", classroom.pk, mode="homework").content.decode()
    assert f'href="{reverse("reports:class", args=[classroom.pk])}{query}"' in items
    # Live games and homework is the default: its links carry nothing.
    both = page(client, "reports:class", classroom.pk).content.decode()
    assert f'href="{reverse("reports:student", args=[classroom.pk, ava.pk])}"' in both
    assert '<option value="both" selected>Live games and homework</option>' in both


def test_an_unknown_mode_shows_live_games_and_homework(week_and_homework, client_of, ms_rivera):
    response = page(client_of(ms_rivera), "reports:class", week_and_homework.classroom.pk, mode="sometimes")
    assert response.status_code == 200 and response.context["mode"] == "both"


def test_the_school_reviews_filter_says_it_the_same_way(week_and_homework, client_of, dr_patel):
    html = client_of(dr_patel).get(reverse("reports:school"), {"mode": "live"}).content.decode()
    assert '<option value="live" selected>Live games</option>' in html
    assert "Live games and homework</option>" in html and ">Both<" not in html
    classroom = week_and_homework.classroom
    assert f'href="{reverse("reports:class", args=[classroom.pk])}?mode=live"' in html


def test_the_question_analysis_follows_the_mode(week_and_homework, client_of, ms_rivera):
    client = client_of(ms_rivera)
    classroom = week_and_homework.classroom
    both = {row["item_id"]: row for row in page(client, "reports:class_items", classroom.pk).context["rows"]}
    homework = {
        row["item_id"]: row
        for row in page(client, "reports:class_items", classroom.pk, mode="homework").context["rows"]
    }
    assert (both["q1"]["answered"], set(homework)) == (3, {"q1", "q7"})
    assert homework["q1"]["answered"] == 1


def test_homework_is_badged_where_it_shows(week_and_homework, client_of, ms_rivera, ava):
    client = client_of(ms_rivera)
    classroom = week_and_homework.classroom
    class_page = page(client, "reports:class", classroom.pk).content.decode()
    assert '<span class="badge homework">Homework</span>' in class_page  # the attempt's session row
    assert '<span class="badge homework">+ 1 homework</span>' in class_page  # Ava's games played
    student = page(client, "reports:student", classroom.pk, ava.pk).content.decode()
    assert student.count('<span class="badge homework">Homework</span>') == 1  # the session's row
    assert "homework games played" in student  # its own tile, worded without the badge's echo
    live = page(client, "reports:student", classroom.pk, ava.pk, mode="live").content.decode()
    assert 'class="badge homework"' not in live


def test_my_progress_follows_the_mode(week_and_homework, student_client, ava):
    client = student_client(ava)
    both = client.get(reverse("reports:me")).context["cards"][0]
    homework = client.get(reverse("reports:me"), {"mode": "homework"})
    assert (both["report"].correct, both["homework_games"]) == (5, 1)
    assert homework.context["cards"][0]["report"].correct == 1
    assert '<label for="id_mode">Live games or homework</label>' in homework.content.decode()


def test_the_pages_read_built_rows_in_a_fixed_number_of_queries(
    week_and_homework, client_of, dr_patel, ava, ms_rivera
):
    client = client_of(dr_patel)
    classroom = week_and_homework.classroom
    counts = {}
    for mode in ("both", "live", "homework"):
        with CaptureQueriesContext(connection) as queries:
            page(client, "reports:class", classroom.pk, mode=mode)
        counts[mode] = len(queries.captured_queries)
        assert not any("reports_learningfact" in query["sql"] for query in queries.captured_queries), mode
    assert counts["live"] == counts["both"]


# --- taking part --------------------------------------------------------------------------------------


@pytest.fixture
def dev_only_did_homework(word_up_week, class_7b, ms_rivera):
    """Dev, in 7B since before its two live games, played neither but did his homework; Eve did nothing."""
    dev = enrolled_student(class_7b, given_name="Dev", display_name="Dev P.")
    eve = enrolled_student(class_7b, given_name="Eve", display_name="Eve L.")
    Enrolment.objects.filter(student__in=[dev, eve]).update(created_at=at(1) - timedelta(days=1))
    attempt = attempt_of(dev, class_7b, ms_rivera)
    fact(dev, attempt, category="spelling", correct=True, item="q7", response="school")
    classrooms_build([class_7b.pk])
    return dev, eve


def _attention(client, classroom, mode):
    rows = page(client, "reports:class", classroom.pk, mode=mode).context["rows"]
    return {item["row"].student.given_name: item["attention"] for item in rows}


def test_a_student_who_only_did_homework_is_not_taking_part_only_in_live_games(
    dev_only_did_homework, class_7b, client_of, ms_rivera
):
    client = client_of(ms_rivera)
    both = _attention(client, class_7b, "both")
    assert both["Dev"] == []
    assert both["Eve"] == ["Not taking part: no live games or homework"]
    live = _attention(client, class_7b, "live")
    assert live["Dev"] == live["Eve"] == ["Not taking part in live games"]
    homework = _attention(client, class_7b, "homework")
    assert homework["Dev"] == homework["Eve"] == []


def test_the_school_review_counts_taking_part_in_live_games(
    dev_only_did_homework, class_7b, client_of, dr_patel
):
    window = {"start": "2026-03-01", "end": "2026-03-31"}
    review = client_of(dr_patel).get(reverse("reports:school"), window).context["review"]
    flagged = {item["student"].given_name: item["labels"] for item in review["attention"]}
    assert "Dev" not in flagged
    assert flagged["Eve"] == ["Not taking part: no live games or homework"]
    # Ava and Ben played both live games, Dev and Eve neither: Dev's homework is not a third game.
    assert review["classes"][0]["participation"] == 0.5


def test_the_participation_chart_lists_live_games_only(dev_only_did_homework, class_7b, word_up_week):
    assert [row["session"] for row in class_participation(class_7b)] == list(word_up_week)


# --- exports -------------------------------------------------------------------------------------------


def test_every_export_follows_the_mode_and_says_so(week_and_homework, client_of, ms_rivera, ava):
    client = client_of(ms_rivera)
    pk = week_and_homework.classroom.pk
    answers = page(client, "reports:class_answers_csv", pk, mode="homework")
    assert _filename(answers) == "7b-english-answers-homework.csv"
    rows = _csv(answers)
    assert [(row["item_id"], row["homework"]) for row in rows] == [("q7", "yes"), ("q1", "yes")]
    assert len(_csv(page(client, "reports:class_answers_csv", pk, mode="live"))) == 9
    both = page(client, "reports:class_answers_csv", pk)
    assert _filename(both) == "7b-english-answers-live-games-and-homework.csv" and len(_csv(both)) == 11
    sessions = page(client, "reports:class_sessions_csv", pk, mode="live")
    assert _filename(sessions) == "7b-english-sessions-live-games.csv"
    assert [row["homework"] for row in _csv(sessions)] == ["no", "no"]
    skills = _csv(page(client, "reports:class_skills_csv", pk, mode="homework"))
    assert [(row["answered"], row["correct"], row["sessions"]) for row in skills[:1]] == [("2", "1", "1")]
    assert _csv(page(client, "reports:class_skills_csv", pk))[0]["answered"] == "8"
    questions = page(client, "reports:class_items_csv", pk, mode="homework")
    assert {row["item_id"] for row in _csv(questions)} == {"q1", "q7"}
    mine = page(client, "reports:student_answers_csv", pk, ava.pk, mode="live")
    assert _filename(mine) == "ava-m-7b-english-answers-live-games.csv" and len(_csv(mine)) == 6
    book = page(client, "reports:class_xlsx", pk, mode="live")
    assert _filename(book) == "7b-english-report-live-games.xlsx"
    sheet = load_workbook(io.BytesIO(book.content), read_only=True)["About"]
    assert ["Shows", "Live games"] in [list(row) for row in sheet.iter_rows(values_only=True)]


def _pdf(response) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


def test_the_pdfs_follow_the_mode_and_say_so(week_and_homework, client_of, ms_rivera, ava):
    client = client_of(ms_rivera)
    pk = week_and_homework.classroom.pk
    card = page(client, "reports:student_pdf", pk, ava.pk, mode="homework")
    assert _filename(card) == "ava-m-7b-english-homework.pdf"
    assert "Shows: Homework" in _pdf(card)
    assert "50% (1/2)" in _pdf(card)
    class_card = page(client, "reports:class_pdf", pk, mode="live")
    assert _filename(class_card) == "7b-english-report-live-games.pdf"
    assert "Shows: Live games" in _pdf(class_card)
    # Under both, a student's homework is counted apart from the class's live games.
    both = _pdf(page(client, "reports:class_pdf", pk)).replace("\n", " ")  # cells wrap
    assert "Live games played" in both and "2 / 2 + 1 homework" in both


def test_the_school_skills_export_follows_the_mode(week_and_homework, client_of, dr_patel):
    response = client_of(dr_patel).get(reverse("reports:school_skills_csv"), {"mode": "live"})
    assert _filename(response) == "riverside-academy-skills-live-games.csv"
    ava = _csv(response)[0]
    assert (ava["student"], ava["answered"]) == ("Ava M.", "6")


# --- reports built before the split ----------------------------------------------------------------------


@pytest.fixture
def built_before_the_split(week_and_homework, class_7b):
    """The class's reports as a build before this change wrote them: no ``modes``."""
    for model in (StudentReport, ClassReport):
        for report in model.objects.filter(classroom=class_7b):
            report.data.pop("modes")
            report.save(update_fields=["data"])
    return class_7b


def test_a_report_built_before_the_split_asks_for_a_rebuild(
    built_before_the_split, client_of, ms_rivera, ava, student_client
):
    client = client_of(ms_rivera)
    pk = built_before_the_split.pk
    rebuild = "built before live games and homework could be shown apart"
    both = page(client, "reports:class", pk)
    assert rebuild not in both.content.decode() and both.context["data"]["totals"]["sessions"] == 3
    live = page(client, "reports:class", pk, mode="live")
    assert rebuild in live.content.decode()
    assert live.context["data"] is None
    assert all(item["row"].report is None for item in live.context["rows"])
    student = page(client, "reports:student", pk, ava.pk, mode="homework")
    assert rebuild in student.content.decode() and student.context["view"] is None
    assert page(client, "reports:student_pdf", pk, ava.pk, mode="live").status_code == 404
    assert rebuild in _pdf(page(client, "reports:class_pdf", pk, mode="live"))
    mine = student_client(ava).get(reverse("reports:me"), {"mode": "live"})
    assert mine.context["cards"] == [] and "this will show after tonight" in mine.content.decode()
    # The next build splits them.
    classrooms_build([pk])
    assert rebuild not in page(client, "reports:class", pk, mode="live").content.decode()


def test_without_homework_the_live_games_report_is_the_whole_one(word_up_week, class_7b, ava):
    classrooms_build([class_7b.pk])
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    live = dict(report.data["modes"]["live"])
    assert live.pop("row")["answered"] == report.answered == 6
    assert live == {key: value for key, value in report.data.items() if key != "modes"}
    assert report.data["modes"]["homework"]["row"]["answered"] == 0
    data = ClassReport.objects.get(classroom=class_7b).data
    assert data["modes"]["live"]["hardest"] == data["hardest"]
    assert data["modes"]["homework"]["totals"]["sessions"] == 0


def test_reviewing_a_question_comes_back_to_the_same_mode(week_and_homework, client_of, ms_rivera):
    classroom = week_and_homework.classroom
    url = reverse("reports:class_item_review", args=[classroom.pk]) + "?mode=homework"
    response = client_of(ms_rivera).post(url, {"action": "flag", "game": "wordup", "item_id": "q7"})
    assert response["Location"] == reverse("reports:class_items", args=[classroom.pk]) + "?mode=homework"
