"""The school admin's roster sync in a browser: upload a OneRoster zip, read the preview, apply it, read
the history; then a broken export's problems. Accessible, and it fits the staff screens."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classrooms.models import Student
from tests.browser.fit import CONSOLES, assert_accessible, assert_fits
from tests.classrooms.oneroster_files import school_tables, user, zip_bytes
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_admin_previews_applies_and_reads_the_history(live_site, new_page, dr_patel, class_7b, tmp_path):
    good = tmp_path / "oneroster.zip"
    good.write_bytes(zip_bytes())
    tables = school_tables()
    tables["users.csv"].append(user("s-9", "student", "", "Nobody"))
    broken = tmp_path / "broken.zip"
    broken.write_bytes(zip_bytes(tables))

    page = new_page()
    page.goto(f"{live_site}/accounts/login/")
    page.get_by_label("Email").fill(dr_patel.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.get_by_role("heading", name=f"Hello, {dr_patel.name}").wait_for()
    page.goto(live_site + reverse("school_overview"))
    page.get_by_role("link", name="Sync the school roster").click()
    assert_accessible(page, label="roster sync")
    assert_fits(page, "input, button[type=submit]", label="roster sync", viewports=CONSOLES)

    page.get_by_label("OneRoster 1.1 CSV zip").set_input_files(str(broken))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="Problems").wait_for()
    assert "givenName is empty" in page.content()
    assert_accessible(page, label="roster sync problems")

    page.goto(live_site + reverse("roster_sync"))
    page.get_by_label("OneRoster 1.1 CSV zip").set_input_files(str(good))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="What will change").wait_for()
    assert_accessible(page, label="roster sync preview")
    assert_fits(page, "button[type=submit]", label="roster sync preview", viewports=CONSOLES)
    page.get_by_role("button", name="Apply the sync").click()
    page.get_by_role("heading", name="Roster sync applied").wait_for()
    assert Student.objects.filter(external_id__startswith="s-").count() == 3
    page.get_by_role("link", name="Back to roster sync").click()
    assert page.get_by_role("cell", name="Applied", exact=False).count() == 1
    assert_accessible(page, label="roster sync history")
