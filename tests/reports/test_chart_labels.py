"""Charts a teacher can read: each chart's title is shown above it (not only to screen readers), a
chart's sessions are named as the page's list of sessions names them, and a bar chart in a
right-to-left language has its labels on the right, clear of its bars."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from classrooms.models import Enrolment
from reports import charts, present
from reports.build import classrooms_build

from .conftest import at, fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_busy_day(class_7b, ms_rivera, ava, ben):
    """Word Up twice and Line-it once on day 1, Word Up again on day 2."""
    Enrolment.objects.filter(classroom=class_7b).update(created_at=at(1, 8))
    sessions = [
        finished_session(class_7b, "wordup", day=1, by=ms_rivera, students=[ava, ben]),
        finished_session(class_7b, "wordup", day=1, by=ms_rivera, students=[ava, ben]),
        finished_session(class_7b, "lineit", day=1, by=ms_rivera, students=[ava]),
        finished_session(class_7b, "wordup", day=2, by=ms_rivera, students=[ava, ben]),
    ]
    for session in sessions:
        for index in range(6):
            category = "comparison" if session.game == "lineit" else "spelling"
            fact(ava, session, category=category, correct=index < 4, item=f"{session.pk}-{index}")
            if session.game == "wordup":
                fact(ben, session, category="spelling", correct=index < 2, item=f"{session.pk}-{index}")
    classrooms_build([class_7b.pk])
    return class_7b


def _axis_labels(chart) -> list[str]:
    return [item[3] for item in chart.items if item[0] == "text" and "Mar" in str(item[3])]


def test_each_chart_shows_its_title(one_busy_day, ava, client_of, ms_rivera):
    page = client_of(ms_rivera).get(reverse("reports:class", args=[one_busy_day.pk])).content.decode()
    for title in ("English vocabulary: right answers per session", "Numeracy: right answers per session"):
        caption = re.search(rf'<figcaption class="chart-title" id="([^"]+)">{title}</figcaption>', page)
        assert caption, title
        # The caption names the chart for screen readers too (no second, hidden title).
        assert f'aria-labelledby="{caption.group(1)} ' in page
    student = client_of(ms_rivera).get(reverse("reports:student", args=[one_busy_day.pk, ava.pk]))
    assert '<figcaption class="chart-title"' in student.content.decode()


def test_the_childs_page_titles_each_chart_once(one_busy_day, ava, student_client):
    page = student_client(ava).get(reverse("reports:me")).content.decode()
    title = "My English vocabulary: right answers in each game"
    assert (
        f'<figcaption class="chart-title" id="my-trend-{one_busy_day.pk}-english_vocabulary-t">{title}'
        in page
    )
    assert page.count(title) == 1


def test_a_charts_sessions_are_named_as_the_list_names_them(one_busy_day, client_of, ms_rivera):
    response = client_of(ms_rivera).get(reverse("reports:class", args=[one_busy_day.pk]))
    listed = [session["label"] for session in response.context["sessions"]]
    assert listed == ["2 Mar", "1 Mar (3)", "1 Mar (2)", "1 Mar (1)"]
    words, numbers = (item["chart"] for item in response.context["trends"])
    assert _axis_labels(words) == ["1 Mar (1)", "1 Mar (2)", "2 Mar"]
    assert _axis_labels(numbers) == ["1 Mar (3)"]  # Line-it was the day's third session, as listed
    page = response.content.decode()
    assert ">1 Mar (3)</time>" in page


def test_a_bar_charts_labels_are_clear_of_its_bars_right_to_left():
    rows = [("القراءة", 0.5, "1/2"), ("الكتابة", 0.25, "1/4")]
    for language, label_side in (("en", "left"), ("ar", "right")):
        with translation.override(language):
            chart = charts.bar_chart(rows, title="t", summary="s")
        labels = [item for item in chart.items if item[0] == "text" and item[3] in ("القراءة", "الكتابة")]
        tracks = [item for item in chart.items if item[0] == "rect"][::2]  # each row's background
        for label, track in zip(labels, tracks, strict=True):
            _k, x, _y, _text, anchor, _size, _colour = label
            left, right = track[1], track[1] + track[3]
            if label_side == "left":
                assert (anchor, x <= left) == ("end", True)
            else:
                assert (anchor, x >= right) == ("start", True)
    # The page's direction never turns the chart's anchors round.
    assert 'direction="ltr"' in charts.to_svg(chart)


def test_an_arabic_pages_bars_start_from_the_right(one_busy_day, client_of, ms_rivera):
    with translation.override("ar"):
        chart = present.weak_spot_charts(
            {
                "categories": [],
                "levels": [
                    {"skill": "english_vocabulary", "level": 3, "answered": 10, "correct": 4, "share": 0.4}
                ],
            }
        )[0]
    bar = [item for item in chart.items if item[0] == "rect"][1]
    assert bar[1] + bar[3] == pytest.approx(chart.width - 190)  # it ends where the labels begin
