"""LTI 1.3 pages: a school admin's platform registrations, the tool's key set, the OIDC login and launch
the LMS sends people through, the deep-linking picker, and the roster sync button.

Launches need a new window: Classplay refuses to be framed (CSP frame-ancestors 'none') and its session
cookie is SameSite=Lax. The LMS's cross-site POSTs reach only ``oidc_login`` and ``launch`` (csrf_exempt:
the signed id_token, the single-use nonce and the state cookie are their protection)."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from pylti1p3.contrib.django import DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException

from classrooms import selectors as classroom_selectors
from classrooms.middleware import sign_in_student
from classrooms.models import User
from classrooms.once import once
from games import homework_selectors
from games import services as game_services
from games.forms import SessionForm
from games.models import GameSession
from questions.selectors import visible_vocabulary_lists, visible_word_lists

from . import deep_linking, keys, lti, services, tasks
from .forms import LinkSignInForm, PlatformForm
from .models import CourseLink, DeepLinkRequest, Platform

#: How long a teacher has to pick a game after "add activity" in the LMS.
DEEP_LINK_TIME = timedelta(hours=2)


def _admin_school(request):
    school = classroom_selectors.primary_school(request.user)
    if school is None or not classroom_selectors.is_school_admin(request.user, school):
        raise PermissionDenied
    return school


def tool_urls(request) -> dict[str, str]:
    """What a school admin pastes into the LMS."""
    return {
        "jwks": request.build_absolute_uri(reverse("integrations:jwks")),
        "login": request.build_absolute_uri(reverse("integrations:login")),
        "launch": request.build_absolute_uri(reverse("integrations:launch")),
        "deep_link": request.build_absolute_uri(reverse("integrations:launch")),
        "domain": request.get_host(),
    }


# --- School admin: registrations ------------------------------------------------------------------


@login_required
def platforms(request):
    school = _admin_school(request)
    context = {
        "school": school,
        "platforms": Platform.objects.filter(school=school).order_by("name"),
        "tool": tool_urls(request),
    }
    return render(request, "integrations/platforms.html", context)


@login_required
@once
def platform_edit(request, pk: int | None = None):
    school = _admin_school(request)
    platform = get_object_or_404(Platform, pk=pk, school=school) if pk else Platform(school=school)
    form = PlatformForm(request.POST or None, instance=platform)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request, _("Saved. Teachers can now open Classplay from %(name)s.") % {"name": platform.name}
        )
        return redirect("integrations:platforms")
    context = {"form": form, "platform": platform, "tool": tool_urls(request)}
    return render(request, "integrations/platform_form.html", context, status=400 if form.errors else 200)


def jwks(request):
    return JsonResponse(keys.public_key_set())


# --- OIDC login and launch ------------------------------------------------------------------------


def _refused(request, message: str):
    return render(request, "integrations/refused.html", {"message": message}, status=403)


@csrf_exempt
def oidc_login(request):
    """Step 1 of a launch: the LMS names itself and the user; we answer with a redirect to its
    authorisation endpoint carrying a fresh state (cookie) and nonce (database)."""
    storage = lti.DatabaseLaunchData()
    oidc = DjangoOIDCLogin(request, lti.PlatformToolConf(), launch_data_storage=storage)
    try:
        return oidc.redirect(request.build_absolute_uri(reverse("integrations:launch")))
    except (LtiException, OIDCException) as error:
        return _refused(request, lti.refusal_text(error))


@csrf_exempt
@require_POST
def launch(request):
    """Step 2: the LMS posts the signed id_token. Nothing is written until every check has passed."""
    storage = lti.DatabaseLaunchData()
    try:
        message = lti.Launch(request, storage)
        data = message.get_launch_data()
    except (LtiException, OIDCException) as error:
        return _refused(request, lti.refusal_text(error))
    if not storage.consume_nonce(data["nonce"]):
        return _refused(request, _("This launch was already used. Open the link in your course again."))
    platform = lti.find_platform(data["iss"], message.get_client_id())
    return _let_in(request, platform, data)


def _let_in(request, platform, data: dict):
    """Sign the launch's person in and take them where the launch points (or, for an LMS id whose email
    is an existing account's, ask that account's holder to link them first)."""
    try:
        course, teacher, student = services.launch_sign_in(platform=platform, launch=data)
    except services.LinkNeeded as needed:
        return _ask_to_link(request, platform, data, needed.user)
    except services.LaunchRefused as refused:
        return _refused(request, refused.message)
    if data.get(lti.CLAIM + "message_type") == lti.DEEP_LINKING_MESSAGE:
        if teacher is None:
            return _refused(request, _("Only a course's teachers can add Classplay games to it."))
        _sign_in_teacher(request, teacher)
        picking = services.deep_link_request_create(
            course=course,
            user=teacher,
            deployment_id=data[lti.CLAIM + "deployment_id"],
            settings=data[lti.DEEP_LINKING_CLAIM],
        )
        return redirect("integrations:deep_link", pk=picking.pk)
    link = services.resource_link_record(course=course, launch=data)
    if student is not None:
        sign_in_student(request, student)
        if link is not None and link.assignment_id is not None:
            _tell_about_homework(request, student, link.assignment)
        return redirect(services.learner_landing(link=link, student=student))
    _sign_in_teacher(request, teacher)
    if link is not None and link.assignment_id:
        return redirect("games:homework", pk=link.assignment_id)
    if link is not None and link.session_id:
        return redirect("games:console", pk=link.session_id)
    return redirect("classroom_detail", pk=course.classroom_id)


def _tell_about_homework(request, student, assignment) -> None:
    """A learner launched into homework that is not theirs, or not open yet, lands on their page: say why
    the homework is not there instead of leaving them looking for it."""
    if not homework_selectors.is_set_for(student, assignment.pk):
        messages.info(request, _("This homework is not set for you. Your page shows the homework you have."))
    elif assignment.opens_at > timezone.now():
        when = date_format(
            timezone.localtime(assignment.opens_at, assignment.classroom.school.zone), "DATETIME_FORMAT"
        )
        messages.info(request, _("This homework opens on %(when)s.") % {"when": when})


def _sign_in_teacher(request, teacher) -> None:
    """A fresh session for this teacher only: a student signed in on this device is signed out."""
    logout(request)
    login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")


# --- Linking an LMS account to an existing Classplay account --------------------------------------

#: Where a launch waits for its account's holder to sign in, and for how long (seconds since the epoch).
PENDING_LINK_KEY = "lti_pending_link"


def _ask_to_link(request, platform, data: dict, account):
    """Keep the checked launch in a fresh session for a few minutes and ask the account's holder to sign
    in to it: the device's previous person, teacher or student, is signed out first."""
    logout(request)
    request.session.set_expiry(lti.LAUNCH_VALUE_LIFETIME)  # the launch's names and email go with it
    request.session[PENDING_LINK_KEY] = {
        "platform": platform.pk,
        "account": account.pk,
        "launch": data,
        "until": timezone.now().timestamp() + lti.LAUNCH_VALUE_LIFETIME,
    }
    return redirect("integrations:link")


def _pending_link(request):
    """The platform, the account and the launch waiting on this device, or None (none, or too old)."""
    pending = request.session.get(PENDING_LINK_KEY)
    if not pending or pending.get("until", 0) < timezone.now().timestamp():
        return None
    platform = Platform.objects.filter(pk=pending["platform"]).select_related("school").first()
    account = User.objects.filter(pk=pending["account"], is_active=True).first()
    if platform is None or account is None:
        return None
    return platform, account, pending["launch"]


@once
def link_account(request):
    """The page "Link your <LMS> account to Classplay": the account's holder signs in to it here (their
    password, counted by allauth's limits on failed sign-ins) or on the sign-in page (their own
    provider), then the link is made and the launch goes on. A wrong password links nothing."""
    pending = _pending_link(request)
    if pending is None:
        request.session.pop(PENDING_LINK_KEY, None)
        return _refused(request, _("This launch has expired. Open the link in your course again."))
    platform, account, data = pending
    signed_in_as_account = request.user.is_authenticated and request.user.pk == account.pk
    form = LinkSignInForm(email=account.email, request=request)
    if request.method == "POST" and not signed_in_as_account:
        form = LinkSignInForm(request.POST, email=account.email, request=request)
        if not form.is_valid():
            return _link_page(request, platform, account, form, status=400)
        response = form.login(request, redirect_url=reverse("integrations:link"))
        if request.user.pk != account.pk:
            return response  # a step of allauth's sign-in is left (an email to verify first)
        signed_in_as_account = True
    if request.method == "POST" and signed_in_as_account:
        request.session.pop(PENDING_LINK_KEY, None)
        try:
            services.person_link_confirm(platform=platform, lti_user_id=data["sub"], user=account)
        except services.LaunchRefused as refused:
            return _refused(request, refused.message)
        return _let_in(request, platform, data)
    return _link_page(request, platform, account, None if signed_in_as_account else form)


def _link_page(request, platform, account, form, status: int = 200):
    context = {
        "platform": platform,
        "account": account,
        "form": form,
        "other_way": f"{reverse('account_login')}?{urlencode({'next': reverse('integrations:link')})}",
    }
    return render(request, "integrations/link_account.html", context, status=status)


# --- Deep linking ---------------------------------------------------------------------------------


def _deep_link_request(request, pk) -> DeepLinkRequest:
    picking = get_object_or_404(
        DeepLinkRequest.objects.select_related("course__classroom", "course__platform"), pk=pk
    )
    if picking.user_id != request.user.pk:
        raise Http404
    if picking.answered_at or picking.created_at < timezone.now() - DEEP_LINK_TIME:
        raise Http404
    return picking


@login_required
def deep_link(request, pk):
    """The teacher picks a scheduled game or a homework of the class, or schedules a new game, to add to
    the course."""
    picking = _deep_link_request(request, pk)
    classroom = picking.course.classroom
    scheduled = classroom.game_sessions.filter(
        status__in=[GameSession.Status.SCHEDULED, GameSession.Status.LOBBY]
    ).order_by("scheduled_for")
    homework = classroom.assignments.filter(closed_at__isnull=True, due_at__gt=timezone.now()).order_by(
        "due_at"
    )
    action = request.POST.get("action") if request.method == "POST" else None
    form = SessionForm(
        request.POST if action == "schedule" else None,
        classrooms=classroom_selectors.classrooms_for_user(request.user).filter(pk=classroom.pk),
        word_lists=visible_word_lists(request.user),
        vocabulary_lists=visible_vocabulary_lists(request.user),
        initial=SessionForm.initial_for(classroom=classroom),
        teacher=request.user,
    )
    activity = None
    if action == "pick":
        activity = scheduled.filter(pk=request.POST.get("session") or 0).first()
        if activity is None:
            messages.error(request, _("Choose one of the class's scheduled games."))
    elif action == "pick_homework":
        activity = homework.filter(pk=request.POST.get("assignment") or 0).first()
        if activity is None:
            messages.error(request, _("Choose one of the class's open homework assignments."))
    elif action == "schedule" and form.is_valid():
        activity = _schedule(request, form, classroom)
    if activity is not None:
        return _deep_link_answer(request, picking, activity)
    context = {
        "picking": picking,
        "classroom": classroom,
        "scheduled": scheduled,
        "homework": homework,
        "form": form,
    }
    return render(request, "integrations/deep_link.html", context, status=400 if form.errors else 200)


def _schedule(request, form, classroom):
    data = form.cleaned_data
    try:
        return game_services.session_schedule(
            classroom=classroom,
            by=request.user,
            game=data["game"],
            scheduled_for=data["scheduled_for"],
            planned_minutes=data["planned_minutes"],
            settings=data["settings"],
            title=data["title"],
            arrangement=data["arrangement"],
        )
    except ValidationError as error:
        form.add_error(None, error.messages)
        return None


def _deep_link_answer(request, picking, activity):
    """A page that posts the signed deep-linking response back to the LMS (a button, pressed for the
    teacher by a script where scripts run)."""
    jwt = deep_linking.response_jwt(
        picking=picking,
        activity=activity,
        launch_url=request.build_absolute_uri(reverse("integrations:launch")),
    )
    services.deep_link_request_answer(request=picking)
    return_url = picking.settings["deep_link_return_url"]
    context = {"return_url": return_url, "jwt": jwt, "activity": activity}
    response = render(request, "integrations/deep_link_return.html", context)
    # This one form posts to the LMS: the page's CSP lets forms go there too.
    parts = urlsplit(return_url)
    response._csp_update = {"form-action": [f"{parts.scheme}://{parts.netloc}"]}
    return response


# --- Roster ---------------------------------------------------------------------------------------


@login_required
@require_POST
def roster_sync(request, pk: int):
    course = get_object_or_404(CourseLink.objects.select_related("classroom"), pk=pk)
    if not classroom_selectors.can_manage_classroom(request.user, course.classroom):
        raise Http404
    if not course.memberships_url:
        messages.error(request, _("The course platform has not shared its class list with Classplay."))
    else:
        transaction.on_commit(lambda: tasks.sync_roster.delay(course.pk))
        messages.success(request, _("The class list is being updated from the course platform."))
    return redirect("classroom_detail", pk=course.classroom_id)
