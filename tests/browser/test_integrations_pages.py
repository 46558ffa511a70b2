"""The LTI pages a school admin and a teacher see: the platform registrations (with the values to paste
into the LMS), the registration form, the deep-linking picker, a refusal, and the class page's roster
button. Accessible, and their controls fit a Chromebook and an iPad."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from integrations.models import CourseLink, DeepLinkRequest, Platform
from tests.browser.fit import CHROMEBOOK, IPAD_LANDSCAPE, IPAD_PORTRAIT, assert_accessible, assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {**CHROMEBOOK, **IPAD_LANDSCAPE, **IPAD_PORTRAIT}


@pytest.fixture
def linked_course(riverside, class_7b):
    platform = Platform.objects.create(
        school=riverside,
        name="Riverside Moodle",
        issuer="https://lms.example.edu",
        client_id="client-1",
        deployment_ids=["deployment-1"],
        key_set_url="https://lms.example.edu/jwks",
        auth_login_url="https://lms.example.edu/auth",
        access_token_url="https://lms.example.edu/token",
    )
    return CourseLink.objects.create(
        platform=platform,
        context_id="course-101",
        title="Year 7 English",
        classroom=class_7b,
        memberships_url="https://lms.example.edu/courses/course-101/memberships",
    )


def test_the_admin_pages(live_site, signed_in, dr_patel, linked_course):
    page = signed_in(live_site, user=dr_patel)
    page.goto(live_site + reverse("integrations:platforms"))
    page.get_by_role("heading", name="Course platforms (LTI)").wait_for()
    assert "/lti/jwks/" in page.content()
    assert_accessible(page, label="LTI platforms")
    assert_fits(page, "a.button", label="LTI platforms", viewports=VIEWPORTS)
    page.get_by_role("link", name="Register a platform").click()
    page.get_by_label("Client ID").wait_for()
    assert_accessible(page, label="LTI registration form")
    # A form filled once, field by field: it scrolls, but never sideways.
    assert_fits(page, "h1", label="LTI registration form", viewports=VIEWPORTS)
    assert page.get_by_label("Deployment IDs").input_value() == ""


def test_the_teachers_pages(live_site, signed_in, ms_rivera, class_7b, linked_course):
    game_services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(days=1)
    )
    picking = DeepLinkRequest.objects.create(
        course=linked_course,
        user=ms_rivera,
        deployment_id="deployment-1",
        settings={"deep_link_return_url": "https://lms.example.edu/return", "data": "x"},
    )
    page = signed_in(live_site, user=ms_rivera)
    page.goto(live_site + reverse("integrations:deep_link", args=[picking.pk]))
    page.get_by_role("heading", name="Add a game to your course").wait_for()
    assert_accessible(page, label="LTI deep link picker")
    # The quick choice (a game already scheduled) shows at once; the long scheduling form scrolls.
    assert_fits(page, "button[value=pick]", label="LTI deep link picker", viewports=VIEWPORTS)
    assert page.errors == []

    page.goto(live_site + reverse("classroom_detail", args=[class_7b.pk]))
    button = page.get_by_role("button", name="Update from Year 7 English")
    button.wait_for()
    assert_accessible(page, label="class page with LMS roster")

    refused = signed_in(live_site)
    refused.goto(live_site + "/lti/login/?iss=https://unknown.example&login_hint=x")
    refused.get_by_role("heading", name="Classplay could not open").wait_for()
    assert_accessible(refused, label="LTI refusal")
