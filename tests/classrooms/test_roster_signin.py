"""Clever and ClassLink sign-in: turned on by settings alone; a rostered student gets the student
session a login card gives, an unknown student a clear refusal (and no account); teachers go on through
allauth and are matched by email. The providers' user data is shaped as Clever's v3.0 users endpoint and
ClassLink's OpenID Connect userinfo return it."""

import io

import pytest
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.models import SocialApp
from allauth.socialaccount.providers.clever.provider import CleverProvider
from allauth.socialaccount.providers.openid_connect.provider import OpenIDConnectProvider
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.test import RequestFactory
from django.utils import timezone

from classrooms.adapters import SocialAccountAdapter
from classrooms.middleware import STUDENT_SESSION_KEY, STUDENT_VERSION_KEY
from tests.test_settings import manage

pytestmark = pytest.mark.django_db


def clever_user(role="student", **role_fields):
    return {
        "data": {
            "id": "5f1a0c6e3c2b1a0012345678",
            "district": "d-river",
            "email": "ava.moreno@students.example" if role == "student" else "rivera@riverside.example",
            "name": {"first": "Ava", "last": "Moreno"},
            "roles": {role: {"sis_id": "s-1001", "student_number": "1001", **role_fields}},
        }
    }


def classlink_userinfo(role="Student", **claims):
    return {
        "userinfo": {
            "sub": "cl-88231",
            "email": "ava.moreno@students.example",
            "given_name": "Ava",
            "family_name": "Moreno",
            "Role": role,
            "SourcedId": "s-1001",
            "TenantId": "2000",
            **claims,
        }
    }


def request_with_session():
    request = RequestFactory().get("/accounts/clever/login/callback/")
    request.session = SessionStore()
    request.user = AnonymousUser()
    return request


def sociallogin(kind: str, data: dict, request):
    if kind == "clever":
        provider = CleverProvider(request, app=SocialApp(provider="clever", client_id="c", secret="s"))
    else:
        app = SocialApp(
            provider="openid_connect",
            provider_id="classlink",
            name="ClassLink",
            client_id="c",
            secret="s",
            settings={"server_url": "https://launchpad.classlink.com"},
        )
        provider = OpenIDConnectProvider(request, app=app)
    return provider.sociallogin_from_response(request, data)


def sign_in(kind: str, data: dict):
    request = request_with_session()
    with pytest.raises(ImmediateHttpResponse) as raised:
        SocialAccountAdapter().pre_social_login(request, sociallogin(kind, data, request))
    return request, raised.value.response


@pytest.fixture(autouse=True)
def connected_riverside(riverside):
    """Riverside's admin entered its Clever district and ClassLink tenant in the school settings."""
    riverside.clever_district_id = "d-river"
    riverside.classlink_tenant_id = "2000"
    riverside.save()
    return riverside


@pytest.fixture
def rostered_ava(ava):
    ava.external_id = "s-1001"
    ava.save()
    return ava


@pytest.mark.parametrize(("kind", "data"), [("clever", clever_user()), ("classlink", classlink_userinfo())])
def test_a_rostered_student_gets_the_student_session(kind, data, rostered_ava):
    request, response = sign_in(kind, data)
    assert response.status_code == 302 and response["Location"] == "/me/"
    assert request.session[STUDENT_SESSION_KEY] == rostered_ava.pk
    assert request.session[STUDENT_VERSION_KEY] == rostered_ava.signin_version
    assert not get_user_model().objects.filter(email="ava.moreno@students.example").exists()


def test_a_clever_student_is_found_by_their_clever_id_too(ava):
    ava.external_id = "5f1a0c6e3c2b1a0012345678"
    ava.save()
    request, _response = sign_in("clever", clever_user(sis_id=""))
    assert request.session[STUDENT_SESSION_KEY] == ava.pk


@pytest.mark.parametrize(("kind", "data"), [("clever", clever_user()), ("classlink", classlink_userinfo())])
def test_an_unknown_student_is_refused_with_a_clear_page(kind, data, ava):
    request, response = sign_in(kind, data)
    assert response.status_code == 403
    page = response.content.decode()
    assert "your school has not added you to Classplay yet" in page and "/join/" in page
    assert STUDENT_SESSION_KEY not in request.session


def test_an_archived_student_is_refused(rostered_ava):
    rostered_ava.archived_at = timezone.now()
    rostered_ava.save()
    _request, response = sign_in("clever", clever_user())
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("kind", "data"),
    [("clever", clever_user(role="teacher")), ("classlink", classlink_userinfo(role="Teacher"))],
)
def test_a_teacher_goes_on_through_allauth(kind, data, rostered_ava):
    request = request_with_session()
    login = sociallogin(kind, data, request)
    SocialAccountAdapter().pre_social_login(request, login)  # no student session, nothing raised
    assert STUDENT_SESSION_KEY not in request.session


def test_clever_and_classlink_turn_on_by_settings_alone():
    code = (
        "from django.conf import settings; p = settings.SOCIALACCOUNT_PROVIDERS; "
        "print(sorted(p), p.get('openid_connect', {}).get('APPS', [{}])[0].get('provider_id'))"
    )
    on = manage("shell", "-c", code, CLEVER_CLIENT_ID="c-id", CLASSLINK_CLIENT_ID="l-id")
    assert on.returncode == 0, on.stderr
    assert on.stdout.strip().splitlines()[-1] == "['clever', 'openid_connect'] classlink"
    off = manage("shell", "-c", code)
    assert off.stdout.strip().splitlines()[-1] == "[] None"


# --- ClassLink matches by the OneRoster sourcedId alone ---------------------------------------------


def test_classlink_never_matches_by_its_own_user_id(ava):
    ava.external_id = "cl-88231"  # ClassLink's own user id ("sub") happens to be a roster id here
    ava.save()
    data = classlink_userinfo(SourcedId="")
    _request, response = sign_in("classlink", data)
    assert response.status_code == 403


def test_classlink_never_matches_by_name_or_email(ava):
    data = classlink_userinfo(SourcedId="", given_name=ava.given_name, family_name=ava.family_name)
    _request, response = sign_in("classlink", data)
    assert response.status_code == 403


@pytest.mark.parametrize("claim", ["SourcedId", "sourcedId", "sourcedid"])
def test_classlink_sourced_id_is_read_whatever_its_casing(claim, rostered_ava):
    data = {"userinfo": {"sub": "cl-88231", "Role": "Student", "TenantId": "2000", claim: "s-1001"}}
    request, _response = sign_in("classlink", data)
    assert request.session[STUDENT_SESSION_KEY] == rostered_ava.pk


def test_classlink_sourced_id_in_the_id_token_only(rostered_ava):
    data = {
        "userinfo": {"sub": "cl-88231", "Role": "Student"},
        "id_token": {"SourcedId": "s-1001", "TenantId": "2000"},
    }
    request, _response = sign_in("classlink", data)
    assert request.session[STUDENT_SESSION_KEY] == rostered_ava.pk


def _one_district(*schools):
    """The operator shares Riverside's district and tenant with these schools (one district)."""
    for option, value in (("--clever-district", "d-river"), ("--classlink-tenant", "2000")):
        names = [argument for school in schools for argument in ("--school", str(school.pk))]
        call_command("share_sso_id", option, value, *names, stdout=io.StringIO())


def test_a_roster_id_two_schools_of_one_district_share_signs_no_one_in(
    rostered_ava, dan, hillside, connected_riverside
):
    _one_district(connected_riverside, hillside)
    dan.external_id = "s-1001"  # Hillside's roster uses the same id
    dan.save()
    for kind, data in (("classlink", classlink_userinfo()), ("clever", clever_user())):
        request, response = sign_in(kind, data)
        assert response.status_code == 403 and STUDENT_SESSION_KEY not in request.session


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("clever", clever_user()),
        ("classlink", classlink_userinfo()),
    ],
)
def test_a_student_is_looked_for_only_in_their_own_district(kind, data, ava, dan, hillside):
    """Roster ids are unique within a district only: the same id in another district is another child."""
    hillside.clever_district_id, hillside.classlink_tenant_id = "d-hill", "3000"
    hillside.save()
    dan.external_id = "s-1001"  # Hillside's own student, in another district, with the same id
    dan.save()
    _request, response = sign_in(kind, data)
    assert response.status_code == 403  # Riverside has no s-1001; Dan is never signed in from d-river
    ava.external_id = "s-1001"
    ava.save()
    request, _response = sign_in(kind, data)
    assert request.session[STUDENT_SESSION_KEY] == ava.pk


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("clever", {"data": {**clever_user()["data"], "district": "d-unknown"}}),
        ("classlink", classlink_userinfo(TenantId="")),
    ],
)
def test_a_district_no_school_connected_is_refused_with_what_to_do(kind, data, rostered_ava):
    request, response = sign_in(kind, data)
    page = response.content.decode()
    assert response.status_code == 403 and STUDENT_SESSION_KEY not in request.session
    assert "has not connected its" in page and "/join/" in page


def test_the_school_admin_enters_the_districts_in_the_school_settings(client, riverside, dr_patel):
    client.force_login(dr_patel)
    page = client.get("/school/settings/")
    assert "Clever district ID" in page.content.decode()
    form = {"name": riverside.name, "time_zone": "Europe/London", "default_language": ""}
    client.post("/school/settings/", {**form, "clever_district_id": " d-42 ", "classlink_tenant_id": "77"})
    riverside.refresh_from_db()
    assert (riverside.clever_district_id, riverside.classlink_tenant_id) == ("d-42", "77")


def test_an_ambiguous_clever_sis_id_does_not_fall_back_to_the_student_number(
    rostered_ava, dan, cleo, hillside, connected_riverside
):
    _one_district(connected_riverside, hillside)
    dan.external_id = "s-1001"
    dan.save()
    cleo.external_id = "1001"  # the student number: unique, but whose it is cannot be told
    cleo.save()
    request, response = sign_in("clever", clever_user())
    assert response.status_code == 403 and STUDENT_SESSION_KEY not in request.session
