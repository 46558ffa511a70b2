"""allauth hooks: invited staff sign up with the address their invitation went to, already verified;
students signing in through the school's rostering sign-in (Clever, ClassLink) get a student session.

Students have no user account: a Clever or ClassLink sign-in whose role is student is matched to the
student the school's roster stored (by the roster id), and the device gets the same student session as
a login card gives. An unknown student is refused with a page that says what to do; no account is made.
A ClassLink student is matched by the OneRoster sourcedId ClassLink sends and by nothing else (not its
own user id, not a name or an email). Either way the student is looked for only in the schools whose
admin entered the sign-in's Clever district or ClassLink tenant in the school settings. Teachers go on
through allauth as usual, matched to their account by email.
"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib.sites.requests import RequestSite
from django.shortcuts import redirect, render
from django.urls import reverse

from .middleware import sign_in_student
from .models import School, Student

INVITATION_SESSION_KEY = "classplay_invitation_token"
#: The providers whose students are the school's rostered students (ClassLink is the OpenID Connect
#: app whose provider id is "classlink").
ROSTER_PROVIDERS = ("clever", "classlink")
#: The ClassLink claim with the user's OneRoster sourcedId. ClassLink documents it as ``SourcedId`` in its
#: user-info API (``/v2/my/info``); its casing in the OpenID Connect claims is not verified against a real
#: tenant, so it is looked up whatever its case.
CLASSLINK_SOURCED_ID_CLAIM = "SourcedId"
CLASSLINK_ROLE_CLAIM = "Role"
#: The ClassLink claim with the user's tenant (their district's ClassLink account): ``TenantId`` in its
#: user-info API, read whatever its case as the sourcedId is.
CLASSLINK_TENANT_CLAIM = "TenantId"


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's emails greet from Classplay ("Hello from Classplay!"), not from the request's host; the
        links and "register an account on <domain>" keep the host. In the sending page's language."""
        site = RequestSite(allauth_context.request)
        site.name = settings.SITE_NAME
        super().send_mail(template_prefix, email, {"current_site": site, **context})

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
        data = sociallogin.account.extra_data or {}
        schools = district_schools(provider, data)
        student = rostered_student(ids, schools) if schools else None
        if student is None:
            context = {"provider": sociallogin.provider.name, "school_not_connected": not schools}
            response = render(request, "classrooms/student_unknown.html", context, status=403)
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


def district_schools(provider: str, data: dict) -> list[School]:
    """The schools of the sign-in's district (Clever) or tenant (ClassLink), as their admins entered it:
    one school, unless the operator shared the id between the schools of one district (``share_sso_id``).

    Roster ids are unique within a district, not across districts (Clever says so of ``sis_id``), so a
    student is looked for only in their own district's schools; a district no school entered has none."""
    if provider == "clever":
        district = str((data.get("data") or {}).get("district") or "").strip()
        field = "clever_district_id"
    else:
        district = str(classlink_claims(data).get(CLASSLINK_TENANT_CLAIM.lower()) or "").strip()
        field = "classlink_tenant_id"
    if not district:
        return []
    return list(School.objects.filter(**{field: district}))


def rostered_student(ids: list[str], schools: list[School]) -> Student | None:
    """The one active student of these schools with one of these roster ids. Several students with the
    same id match none (a district of several schools may reuse one): refused, never guessed."""
    for roster_id in ids:
        found = Student.objects.filter(external_id=roster_id, school__in=schools, archived_at__isnull=True)
        students = list(found[:2])
        if len(students) > 1:
            return None  # ambiguous: trying a weaker id next could find someone in another school
        if students:
            return students[0]
    return None
