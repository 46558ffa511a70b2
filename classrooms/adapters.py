"""allauth hooks: invited staff sign up with the address their invitation went to, already verified;
students signing in through the school's rostering sign-in (Clever, ClassLink) get a student session.

Students have no user account: a Clever or ClassLink sign-in whose role is student is matched to the
student the school's roster stored (by the roster id), and the device gets the same student session as
a login card gives. An unknown student is refused with a page that says what to do; no account is made.
A ClassLink student is matched by the OneRoster sourcedId ClassLink sends and by nothing else (not its
own user id, not a name or an email). Teachers go on through allauth as usual, matched to their account
by email.
"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.shortcuts import redirect, render
from django.urls import reverse

from .middleware import sign_in_student
from .models import Student

INVITATION_SESSION_KEY = "classplay_invitation_token"
#: The providers whose students are the school's rostered students (ClassLink is the OpenID Connect
#: app whose provider id is "classlink").
ROSTER_PROVIDERS = ("clever", "classlink")
#: The ClassLink claim with the user's OneRoster sourcedId. ClassLink documents it as ``SourcedId`` in its
#: user-info API (``/v2/my/info``); its casing in the OpenID Connect claims is not verified against a real
#: tenant, so it is looked up whatever its case.
CLASSLINK_SOURCED_ID_CLAIM = "SourcedId"
CLASSLINK_ROLE_CLAIM = "Role"


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request):
        if request.session.get(INVITATION_SESSION_KEY):
            return reverse("invitation_accept", args=[request.session[INVITATION_SESSION_KEY]])
        return super().get_login_redirect_url(request)


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def pre_social_login(self, request, sociallogin):
        provider = sociallogin.account.provider
        if provider not in ROSTER_PROVIDERS:
            return super().pre_social_login(request, sociallogin)
        ids = roster_student_ids(provider, sociallogin.account.extra_data or {})
        if ids is None:  # a teacher or admin: on through allauth (matched by email)
            return super().pre_social_login(request, sociallogin)
        student = rostered_student(ids)
        if student is None:
            response = render(
                request,
                "classrooms/student_unknown.html",
                {"provider": sociallogin.provider.name},
                status=403,
            )
            raise ImmediateHttpResponse(response)
        sign_in_student(request, student)
        raise ImmediateHttpResponse(redirect("student_home"))


def roster_student_ids(provider: str, data: dict) -> list[str] | None:
    """The ids a student may be on the roster by, or None when the sign-in is not a student's."""
    if provider == "clever":
        user = data.get("data") or {}
        role = (user.get("roles") or {}).get("student")
        if role is None:
            return None
        candidates = [role.get("sis_id"), role.get("student_number"), user.get("id")]
    else:
        claims = classlink_claims(data)
        if str(claims.get(CLASSLINK_ROLE_CLAIM.lower()) or "").lower() != "student":
            return None
        # The sourcedId only: ClassLink's own user id ("sub") is no roster id, and a guess by name or
        # email could sign a student in as someone else.
        candidates = [claims.get(CLASSLINK_SOURCED_ID_CLAIM.lower())]
    return [str(value).strip() for value in candidates if value and str(value).strip()]


def classlink_claims(data: dict) -> dict:
    """The sign-in's claims, their names lower-cased: the ID token's, then the user info's over them."""
    claims: dict = {}
    for source in (data.get("id_token"), data.get("userinfo")):
        if isinstance(source, dict):
            claims.update({str(name).lower(): value for name, value in source.items()})
    if not claims:
        claims = {str(name).lower(): value for name, value in data.items()}
    return claims


def rostered_student(ids: list[str]) -> Student | None:
    """The one active student with one of these roster ids. Several schools' students with the same id
    match none (the sign-in does not say which school): the student is refused, never guessed."""
    for roster_id in ids:
        students = list(Student.objects.filter(external_id=roster_id, archived_at__isnull=True)[:2])
        if len(students) > 1:
            return None  # ambiguous: trying a weaker id next could find someone in another school
        if students:
            return students[0]
    return None
