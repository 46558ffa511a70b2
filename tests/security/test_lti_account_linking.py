"""An LMS user id is linked to an existing Classplay account only by that account's holder: the launch's
email claim is the LMS's word, and an LMS user (or its admin) can set it to anyone's address."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from integrations.lti import CLAIM
from integrations.models import CourseLink, DeepLinkRequest, PersonLink
from integrations.views import PENDING_LINK_KEY
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()
ADMIN_PAGES = ("school_overview", "school_settings", "integrations:platforms")


def _link_page(client, response):
    assert response.status_code == 302 and response["Location"] == reverse("integrations:link")
    return client.get(response["Location"])


def test_a_new_lms_id_with_the_admins_email_in_capitals_is_not_signed_in(client, lms, moodle, dr_patel):
    response = lms.launch(client, sub="lms-intruder", email=dr_patel.email.upper())
    assert "_auth_user_id" not in client.session
    assert not PersonLink.objects.exists()
    for name in ADMIN_PAGES:
        page = client.get(reverse(name))
        assert page.status_code == 302 and page["Location"].startswith(reverse("account_login"))
    # What the launch shows instead: the account's holder is asked to sign in to link.
    page = _link_page(client, response).content.decode()
    assert "Link your Riverside Moodle account to Classplay" in page
    assert "_auth_user_id" not in client.session and not PersonLink.objects.exists()


def test_the_holder_links_with_their_password_and_later_launches_go_straight_in(
    client, lms, moodle, ms_rivera
):
    page = _link_page(client, lms.launch(client, sub="lms-rivera", email=ms_rivera.email))
    assert ms_rivera.email in page.content.decode()
    assert client.session.get_expiry_age() == 600  # the waiting launch's names and email go with it
    response = client.post(reverse("integrations:link"), {"password": PASSWORD})
    course = CourseLink.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom_detail", args=[course.classroom_id])
    assert PersonLink.objects.get(lti_user_id="lms-rivera").user == ms_rivera
    assert int(client.session["_auth_user_id"]) == ms_rivera.pk
    assert ms_rivera in course.classroom.teachers.all() and PENDING_LINK_KEY not in client.session
    assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE
    client.logout()
    response = lms.launch(client, sub="lms-rivera", email=ms_rivera.email)
    assert response["Location"] == reverse("classroom_detail", args=[course.classroom_id])
    assert int(client.session["_auth_user_id"]) == ms_rivera.pk


def test_a_wrong_password_makes_no_link(client, lms, moodle, dr_patel):
    lms.launch(client, sub="lms-intruder", email=dr_patel.email.upper())
    response = client.post(reverse("integrations:link"), {"password": "guessed"})
    assert response.status_code == 400
    assert not PersonLink.objects.exists() and not CourseLink.objects.exists()
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("school_overview")).status_code == 302


def test_a_posted_address_is_ignored_only_the_launchs_account_can_be_signed_in(
    client, lms, moodle, dr_patel, ms_rivera
):
    """The intruder knows Ms Rivera's password (their own account, say): it signs into nothing here."""
    dr_patel.set_password("only-dr-patel-knows")
    dr_patel.save()
    lms.launch(client, sub="lms-intruder", email=dr_patel.email)
    response = client.post(reverse("integrations:link"), {"login": ms_rivera.email, "password": PASSWORD})
    assert response.status_code == 400 and not PersonLink.objects.exists()
    assert "_auth_user_id" not in client.session


def test_the_holder_signed_in_another_way_confirms_the_link(client, lms, moodle, ms_rivera):
    lms.launch(client, sub="lms-rivera", email=ms_rivera.email, **lms.deep_link_claims())
    client.force_login(ms_rivera)  # their own provider, through the sign-in page
    page = client.get(reverse("integrations:link")).content.decode()
    assert "Link and continue" in page and 'name="password"' not in page
    response = client.post(reverse("integrations:link"))
    picking = DeepLinkRequest.objects.get()
    assert response["Location"] == reverse("integrations:deep_link", args=[picking.pk])
    assert PersonLink.objects.get(lti_user_id="lms-rivera").user == ms_rivera


def test_a_pending_launch_expires(client, lms, moodle, ms_rivera):
    lms.launch(client, sub="lms-rivera", email=ms_rivera.email)
    session = client.session
    session[PENDING_LINK_KEY] = {**session[PENDING_LINK_KEY], "until": 0}
    session.save()
    response = client.post(reverse("integrations:link"), {"password": PASSWORD})
    assert response.status_code == 403 and "has expired" in response.content.decode()
    assert not PersonLink.objects.exists() and "_auth_user_id" not in client.session


def test_no_pending_launch_links_nothing(client, ms_rivera):
    client.force_login(ms_rivera)
    assert client.post(reverse("integrations:link")).status_code == 403
    assert not PersonLink.objects.exists()


def test_a_new_email_still_makes_a_teacher_account(client, lms, moodle):
    lms.launch(client, sub="lms-new", email="new.teacher@riverside.example", **{CLAIM + "roles": []})
    assert not User.objects.filter(email="new.teacher@riverside.example").exists()  # no role: refused
    lms.launch(client, sub="lms-new", email="New.Teacher@riverside.example")
    teacher = User.objects.get(email="new.teacher@riverside.example")
    assert int(client.session["_auth_user_id"]) == teacher.pk
    assert PersonLink.objects.get(lti_user_id="lms-new").user == teacher


def test_guessing_the_password_here_meets_the_sign_in_pages_limits(client, lms, moodle, dr_patel):
    lms.launch(client, sub="lms-intruder", email=dr_patel.email)
    for _guess in range(5):
        client.post(reverse("integrations:link"), {"password": "guessed"})
    response = client.post(reverse("integrations:link"), {"password": PASSWORD})
    assert response.status_code == 400 and "Too many failed login attempts" in response.content.decode()
    assert not PersonLink.objects.exists() and "_auth_user_id" not in client.session
