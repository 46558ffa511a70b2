"""A student whose login card is locked on a new device shows a code that fits a Chromebook or iPad
screen; the teacher types it on the dashboard's notice and the device signs in. Both pages pass axe."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.browser.fit import STUDENT_DEVICES, assert_accessible, assert_fits
from tests.classrooms.test_student_signin import signin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_locked_card_waits_on_a_new_device_until_the_teacher_lets_it_in(
    live_site, new_page, signed_in, class_7b, ms_rivera, ava
):
    for _attempt in range(settings.STUDENT_SIGNIN_MAX_FAILURES):
        signin(Client(), class_7b, ava, "0000")
    device = new_page(width=1024, height=690)
    device.goto(f"{live_site}{reverse('join_signin', args=[class_7b.join_code, ava.pk])}")
    device.locator("input[name=code]").fill("4821")
    device.locator("button[type=submit]").first.click()
    device.get_by_text("Ask your teacher to let you in on this device").wait_for()
    assert_accessible(device, label="waiting to be let in")
    assert_fits(device, ".join-code, button[type=submit]", label="waiting", viewports=STUDENT_DEVICES)
    code = device.locator(".join-code").inner_text().replace(" ", "")

    teacher = signed_in(live_site, user=ms_rivera)
    teacher.goto(f"{live_site}{reverse('dashboard')}")
    teacher.get_by_role("heading", name="Locked login cards").wait_for()
    assert_accessible(teacher, label="dashboard with a locked card")
    teacher.get_by_label("Code on Ava M.’s screen").fill(code)
    teacher.get_by_role("button", name="Let in").click()
    teacher.get_by_text("Ava M.’s device is let in").wait_for()

    device.get_by_role("button", name="Continue").click()
    device.wait_for_url(f"{live_site}/me/")
