"""The staff's system status page: accessible, and every figure on a Chromebook's screen without
scrolling (1366x650), in English and in Arabic (right to left)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.fit import CHROMEBOOK, assert_accessible, assert_fits
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_status_page_fits_and_reads(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    from tests.games.test_consumer import _running_table

    _running_table(class_7b, ms_rivera, [ava, ben])
    staff = UserFactory(is_staff=True)
    page = signed_in(live_site, user=staff)
    page.goto(live_site + reverse("system_status"))
    page.get_by_role("heading", name="System status", level=1).wait_for()
    assert_accessible(page, label="system status")
    assert_fits(page, "dd, h2, .status-note", label="system status", viewports=CHROMEBOOK)
    page.get_by_role("link", name="System status").first.focus()  # in the navigation, by keyboard
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="System status", level=1).wait_for()

    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_site}])
    page.reload()
    page.get_by_role("heading", name="حالة النظام", level=1).wait_for()
    assert_fits(page, "dd, h2, .status-note", label="system status (ar)", viewports=CHROMEBOOK)
    assert page.errors == []
