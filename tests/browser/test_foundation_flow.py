"""A teacher signs in, creates a class, imports a roster and prints login cards; a student signs in with a
card on a second device (its own browser context)."""

import re

import pytest

from tests.factories import PASSWORD, MembershipFactory, SchoolFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = "sourcedId,givenName,familyName,englishLevel\nr-1,Ava,Moreno,2\nr-2,Ben,Kim,4\nr-3,Chloe,Lee,3\n"


def test_teacher_sets_up_a_class_and_a_student_signs_in(live_server, new_page, tmp_path):
    teacher = UserFactory(email="rivera@riverside.example", display_name="Ms Rivera")
    MembershipFactory(user=teacher, school=SchoolFactory(name="Riverside Academy"))

    page = new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Email").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.get_by_role("heading", name="Hello, Ms Rivera").wait_for()

    page.get_by_role("link", name="New class").click()
    page.get_by_label("Class name").fill("7B English")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("heading", name="7B English").wait_for()
    join_code = page.locator(".join-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{6}", join_code)

    page.get_by_role("link", name="Import CSV").click()
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    page.get_by_label("Roster CSV file").set_input_files(str(roster))
    page.get_by_role("button", name="Preview").click()
    page.get_by_text("3 students are ready to import.").wait_for()
    page.get_by_role("button", name="Import all").click()
    page.get_by_text("Import finished: 3 new").wait_for()
    page.screenshot(path=str(tmp_path / "class.png"), full_page=True)

    page.get_by_role("link", name="Print login cards").click()
    card = page.get_by_role("article", name="Login card for Ben K.")
    signin_code = card.locator(".code").nth(1).inner_text().strip()
    assert re.fullmatch(r"\d{4}", signin_code)

    tablet = new_page(width=1024, height=768)
    tablet.goto(live_server.url + "/join/")
    tablet.get_by_label("Class code").fill(join_code.lower())
    tablet.get_by_role("button", name="Next").click()
    tablet.get_by_role("link", name="Ben K.").click()
    tablet.get_by_label("Your sign-in code").fill("0000")
    tablet.get_by_role("button", name="Sign in").click()
    tablet.get_by_text("That code is not right").wait_for()
    tablet.get_by_label("Your sign-in code").fill(signin_code)
    tablet.get_by_role("button", name="Sign in").click()
    tablet.get_by_role("heading", name="Welcome, Ben K.!").wait_for()

    tablet.get_by_role("button", name="Not you? Sign out").click()
    tablet.get_by_role("heading", name="Join your class").wait_for()
