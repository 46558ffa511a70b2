"""axe-core finds no critical or serious violation on the pages a class uses every day: joining and
signing in, the student's home and progress, the staff sign-in, dashboard, scheduling and the reports
(the game screens, console, projector and results are checked by each game's browser tests and the class
flow). A report table that scrolls sideways is reachable by keyboard and named."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reports.build import classrooms_build
from tests.browser.fit import STUDENT_DEVICES, assert_accessible, assert_fits
from tests.factories import PASSWORD
from tests.reports.conftest import fact, finished_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def reported_class(class_7b, ms_rivera, ava, ben):
    first = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    second = finished_session(class_7b, day=3, by=ms_rivera, students=[ava, ben])
    fact(ava, first, category="missing_word", correct=True, time=4, item="q1", response="house")
    fact(ava, first, category="spelling", correct=False, time=12, item="q4", response="freind")
    fact(ava, second, category="crossword", correct=True, time=3, item="q5", response="river")
    fact(ben, first, category="missing_word", correct=False, time=8, item="q1", response="home")
    fact(ben, second, category="spelling", correct=True, time=9, item="q4", response="friend")
    classrooms_build([class_7b.pk])
    return class_7b


def test_a_student_joins_signs_in_and_reads_their_progress(
    live_site, new_page, class_7b, ava, reported_class
):
    page = new_page(width=1024, height=690)
    page.goto(f"{live_site}/join/")
    assert_accessible(page, label="join")
    assert_fits(page, "input, button[type=submit]", label="join", viewports=STUDENT_DEVICES)
    page.get_by_label("Class code").fill(class_7b.join_code)
    page.locator("button[type=submit]").first.click()
    page.get_by_role("link", name=ava.display_name).wait_for()
    assert_accessible(page, label="pick your name")
    page.get_by_role("link", name=ava.display_name).click()
    assert_accessible(page, label="type your code")
    page.locator("input").last.fill("4821")
    page.locator("button[type=submit]").first.click()
    page.wait_for_url(f"{live_site}/me/")
    assert_accessible(page, label="student home")
    page.goto(f"{live_site}/reports/me/")
    assert_accessible(page, label="my progress")


def test_staff_pages_and_reports(live_site, new_page, ms_rivera, dr_patel, reported_class, ava):
    page = new_page()
    page.goto(f"{live_site}/accounts/login/")
    assert_accessible(page, label="staff sign-in")
    page.get_by_label("Email").fill(ms_rivera.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.get_by_role("heading", name=f"Hello, {ms_rivera.name}").wait_for()
    assert_accessible(page, label="dashboard")
    for label, url in [
        ("schedule a game", reverse("games:new")),
        ("class", reverse("classroom_detail", args=[reported_class.pk])),
        ("reports", reverse("reports:index")),
        ("class report", reverse("reports:class", args=[reported_class.pk])),
        ("every question", reverse("reports:class_items", args=[reported_class.pk])),
        ("student report", reverse("reports:student", args=[reported_class.pk, ava.pk])),
    ]:
        page.goto(live_site + url)
        assert_accessible(page, label=label)

    admin = new_page()
    admin.goto(f"{live_site}/accounts/login/")
    admin.get_by_label("Email").fill(dr_patel.email)
    admin.get_by_label("Password").fill(PASSWORD)
    admin.get_by_role("button", name="Sign In").click()
    admin.get_by_role("heading", name=f"Hello, {dr_patel.name}").wait_for()
    assert_accessible(admin, label="admin dashboard")
    admin.goto(live_site + reverse("reports:school"))
    assert_accessible(admin, label="school review")


def test_a_report_table_that_scrolls_is_reached_by_keyboard(live_site, signed_in, ms_rivera, reported_class):
    page = signed_in(live_site, user=ms_rivera, width=768, height=950)
    page.goto(live_site + reverse("reports:class", args=[reported_class.pk]))
    scrolling = page.locator(".table-wrap[data-scroll-marked]")
    assert scrolling.count() >= 1
    first = scrolling.first
    assert first.get_attribute("tabindex") == "0" and first.get_attribute("aria-label")
    assert_accessible(page, label="class report on a portrait tablet")
    first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.scrollLeft > 0", arg=first.element_handle())


@pytest.mark.parametrize("size", [(1366, 650), (768, 950)])
def test_report_charts_use_the_cards_full_width(live_site, signed_in, ms_rivera, reported_class, size):
    width, height = size
    page = signed_in(live_site, user=ms_rivera, width=width, height=height)
    page.goto(live_site + reverse("reports:class", args=[reported_class.pk]))
    charts = page.locator(".chart-panel svg.chart")
    assert charts.count() >= 2
    for index in range(charts.count()):
        chart = charts.nth(index)
        gap = chart.evaluate(
            "svg => { const panel = svg.parentElement, style = getComputedStyle(panel);"
            " const inner = panel.clientWidth - parseFloat(style.paddingLeft)"
            " - parseFloat(style.paddingRight);"
            " return Math.abs(inner - svg.getBoundingClientRect().width); }"
        )
        assert gap < 2, f"chart {index} is {gap}px narrower than its card"


def test_the_live_games_or_homework_filter_works_by_keyboard(
    live_site, signed_in, ms_rivera, reported_class, ava
):
    page = signed_in(live_site, user=ms_rivera)
    page.goto(live_site + reverse("reports:class", args=[reported_class.pk]))
    page.get_by_label("Live games or homework").focus()
    page.keyboard.type("Homework")  # a closed select's type-ahead picks the option
    page.keyboard.press("Tab")  # to the form's button
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/reports/classes/{reported_class.pk}/?mode=homework")
    assert page.get_by_text("Shows: Homework").is_visible()
    assert_accessible(page, label="class report, homework")
    page.get_by_role("link", name=ava.display_name).click()
    page.wait_for_url(f"**/students/{ava.pk}/?mode=homework")
    assert page.get_by_label("Live games or homework").input_value() == "homework"
    assert_accessible(page, label="student report, homework")
