"""Staff pages (dashboard, classes, rosters, school overview) and the student sign-in flow."""

from __future__ import annotations

import io
import time

import segno
from allauth.account.adapter import get_adapter
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from . import selectors, services
from .adapters import INVITATION_SESSION_KEY
from .forms import (
    AccommodationsForm,
    ClassroomForm,
    InvitationForm,
    JoinCodeForm,
    LanguageForm,
    LevelForm,
    RosterUploadForm,
    SchoolForm,
    SchoolSettingsForm,
    SignInCodeForm,
    StudentAddForm,
    StudentForm,
    StudentMoveForm,
)
from .middleware import sign_in_student
from .models import Classroom, Invitation, LevelChange, Membership, School, Skill, Student, User
from .once import once
from .roster import RosterFileError, RosterRow, parse_roster, roster_csv
from .text import tidy_sentence

ROSTER_PREVIEW_SESSION_KEY = "classplay_roster_preview"


# --- helpers ---------------------------------------------------------------------------------------


def _managed_classroom(request, pk: int) -> Classroom:
    """The class if this person may manage it; otherwise 404, so other schools' classes stay invisible."""
    classroom = get_object_or_404(Classroom.objects.select_related("school"), pk=pk)
    if not selectors.can_manage_classroom(request.user, classroom):
        raise Http404
    return classroom


def _managed_student(request, pk: int) -> Student:
    student = get_object_or_404(Student, pk=pk)
    if not selectors.can_manage_student(request.user, student):
        raise Http404
    return student


def _admin_school(request) -> School:
    school = selectors.primary_school(request.user)
    if school is None or not selectors.is_school_admin(request.user, school):
        raise PermissionDenied
    return school


def _apply_validation_error(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def join_url(request, classroom: Classroom) -> str:
    return request.build_absolute_uri(reverse("join")) + f"?code={classroom.join_code}"


# --- landing (the dashboard and a student's own page are in games.home) ---------------------------


def home(request):
    if request.student:
        return redirect("student_home")
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "classrooms/home.html")


@login_required
def school_setup(request):
    if selectors.primary_school(request.user) is not None:
        return redirect("dashboard")
    form = SchoolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        school = services.school_create(name=form.cleaned_data["name"], creator=request.user)
        messages.success(
            request, _("Welcome to %(school)s. Now create your first class.") % {"school": school}
        )
        return redirect("classroom_create")
    return render(request, "classrooms/school_setup.html", {"form": form})


# --- classes -------------------------------------------------------------------------------------


@login_required
@once
def classroom_create(request):
    school = selectors.primary_school(request.user)
    if school is None:
        return redirect("school_setup")
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.classroom_create(school=school, teacher=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Class “%(name)s” created.") % {"name": classroom.name})
            return redirect("classroom_detail", pk=classroom.pk)
    return render(request, "classrooms/classroom_form.html", {"form": form, "creating": True})


@login_required
def classroom_detail(request, pk: int):
    classroom = _managed_classroom(request, pk)
    roster = list(selectors.classroom_roster(classroom))
    rows = [{"student": student, "levels": selectors.levels_by_skill(student)} for student in roster]
    locked = selectors.locked_cards([classroom])
    context = {
        "classroom": classroom,
        "rows": rows,
        "skills": Skill.choices,
        "join_url": join_url(request, classroom),
        "add_form": StudentAddForm(),
        "locked_rows": locked,
        "locked": [row["student"] for row in locked],
    }
    return render(request, "classrooms/classroom_detail.html", context)


@login_required
def classroom_edit(request, pk: int):
    classroom = _managed_classroom(request, pk)
    initial = {
        "name": classroom.name,
        "subject": classroom.subject,
        "grade": classroom.grade,
        "name_list": classroom.name_list,
    }
    form = ClassroomForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.classroom_update(classroom=classroom, **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Class saved."))
            return redirect("classroom_detail", pk=classroom.pk)
    return render(request, "classrooms/classroom_form.html", {"form": form, "classroom": classroom})


@login_required
def classroom_new_code(request, pk: int):
    """A new class code, after the teacher has read what it stops: every printed login card and QR code."""
    classroom = _managed_classroom(request, pk)
    if request.method != "POST" or request.POST.get("confirm") != "yes":
        return render(request, "classrooms/new_code_confirm.html", {"classroom": classroom})
    code = services.classroom_new_join_code(classroom=classroom)
    messages.success(
        request,
        _("New class code: %(code)s. The old code no longer works: print new login cards for the class.")
        % {"code": code},
    )
    return redirect("classroom_detail", pk=classroom.pk)


@login_required
def classroom_qr(request, pk: int):
    """The QR code of the join page with this class's code filled in (SVG, made on the server)."""
    classroom = _managed_classroom(request, pk)
    buffer = io.BytesIO()
    # A standalone file (with its namespace) so browsers can show it in an <img>.
    segno.make(join_url(request, classroom), error="m").save(
        buffer, kind="svg", scale=6, xmldecl=False, svgns=True, title=_("Join page QR code")
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@login_required
def classroom_cards(request, pk: int):
    """Printable login cards: one per student with the class code, their sign-in code and a QR code."""
    classroom = _managed_classroom(request, pk)
    url = join_url(request, classroom)
    qr_svg = segno.make(url, error="m").svg_inline(scale=3, title=_("Join page QR code"))
    context = {
        "classroom": classroom,
        "students": selectors.classroom_roster(classroom),
        "join_url": url,
        "qr": qr_svg,
    }
    return render(request, "classrooms/login_cards.html", context)


@login_required
def classroom_export(request, pk: int):
    classroom = _managed_classroom(request, pk)
    rows = []
    for student in selectors.classroom_roster(classroom):
        levels = selectors.levels_by_skill(student)
        rows.append(
            {
                "sourcedId": student.external_id,
                "givenName": student.given_name,
                "familyName": student.family_name,
                "grades": student.grade,
                "class": classroom.name,
                "englishLevel": levels["english_vocabulary"] or "",
                "numeracyLevel": levels["numeracy"] or "",
            }
        )
    response = HttpResponse(roster_csv(rows), content_type="text/csv; charset=utf-8")
    filename = "".join(ch if ch.isalnum() else "-" for ch in classroom.name) or "class"
    response["Content-Disposition"] = f'attachment; filename="{filename}-roster.csv"'
    return response


@login_required
def roster_import(request, pk: int):
    """Step 1: upload and preview (errors per row). Step 2: confirm, and everything is imported or nothing."""
    classroom = _managed_classroom(request, pk)
    session_key = f"{ROSTER_PREVIEW_SESSION_KEY}:{classroom.pk}"
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(session_key)
        if not stored:
            messages.error(request, _("The preview has expired. Upload the file again."))
            return redirect("roster_import", pk=classroom.pk)
        rows = [RosterRow.from_dict(row) for row in stored]
        try:
            result = services.roster_import(classroom=classroom, rows=rows, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("roster_import", pk=classroom.pk)
        except IntegrityError:  # the same confirmation sent twice at once: the first one imported it
            messages.info(request, _("This import has already been applied."))
            return redirect("classroom_detail", pk=classroom.pk)
        request.session.pop(session_key, None)
        messages.success(
            request,
            _(
                "Import finished: %(created)d new, %(updated)d updated, %(enrolled)d added to the class, "
                "%(unchanged)d unchanged."
            )
            % vars(result),
        )
        return redirect("classroom_detail", pk=classroom.pk)

    form = RosterUploadForm(request.POST or None, request.FILES or None)
    rows, file_error = None, None
    if request.method == "POST" and form.is_valid():
        try:
            rows = parse_roster(
                form.cleaned_data["file"].read(),
                classroom_name=classroom.name,
                max_bytes=settings.ROSTER_IMPORT_MAX_BYTES,
                max_rows=settings.ROSTER_IMPORT_MAX_ROWS,
            )
        except RosterFileError as error:
            file_error = str(error)
        else:
            rows = services.roster_conflicts(classroom=classroom, rows=rows, by=request.user)
            request.session[session_key] = [row.as_dict() for row in rows]
    context = {
        "classroom": classroom,
        "form": form,
        "rows": rows,
        "file_error": file_error,
        "error_count": sum(1 for row in rows or [] if row.errors),
    }
    return render(request, "classrooms/roster_import.html", context)


# --- students ------------------------------------------------------------------------------------


@login_required
@require_POST
@once
def student_add(request, pk: int):
    classroom = _managed_classroom(request, pk)
    form = StudentAddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            student = services.student_create(
                classroom=classroom,
                given_name=data["given_name"],
                family_name=data["family_name"],
                levels={"english_vocabulary": data["english_vocabulary"], "numeracy": data["numeracy"]},
                by=request.user,
                source=LevelChange.Source.TEACHER,
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            if data["display_name"]:
                services.student_rename(
                    student=student,
                    given_name=student.given_name,
                    family_name=student.family_name,
                    display_name=data["display_name"],
                )
            messages.success(request, _("%(name)s added.") % {"name": student.display_name})
            return redirect("classroom_detail", pk=classroom.pk)
    roster = list(selectors.classroom_roster(classroom))
    context = {
        "classroom": classroom,
        "rows": [{"student": s, "levels": selectors.levels_by_skill(s)} for s in roster],
        "skills": Skill.choices,
        "join_url": join_url(request, classroom),
        "add_form": form,
    }
    return render(request, "classrooms/classroom_detail.html", context, status=400)


@login_required
def student_detail(request, pk: int):
    student = _managed_student(request, pk)
    classroom_id = request.GET.get("class") or request.POST.get("class")
    classrooms = selectors.classrooms_for_user(request.user).filter(school=student.school_id)
    current = classrooms.filter(enrolments__student=student)
    classroom = current.filter(pk=classroom_id).first() if classroom_id else None
    classroom = classroom or current.first()
    rename_form = StudentForm(
        initial={
            "given_name": student.given_name,
            "family_name": student.family_name,
            "display_name": student.display_name,
        }
    )
    move_form = StudentMoveForm(classrooms=classrooms.exclude(pk=getattr(classroom, "pk", None)))
    level_form = LevelForm()
    language_form = _student_language_form(student)
    accommodations = selectors.accommodations_of(student)
    accommodations_form = AccommodationsForm(initial=accommodations.as_dict() if accommodations else None)
    forms = {
        "rename": rename_form,
        "move": move_form,
        "level": level_form,
        "language": language_form,
        "accommodations": accommodations_form,
    }
    action = request.POST.get("action")
    if request.method == "POST":
        response = _student_action(request, student, classroom, classrooms, action, forms)
        if response is not None:
            return response
    context = {
        "student": student,
        "classroom": classroom,
        "levels": selectors.levels_by_skill(student),
        "history": student.level_changes.select_related("changed_by")[:30],
        "accommodations": accommodations.labels() if accommodations else [],
        "accommodation_history": student.accommodation_changes.select_related("changed_by")[:30],
        "skills": dict(Skill.choices),
        **{f"{name}_form": form for name, form in forms.items()},
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "classrooms/student_detail.html", context, status=status)


def _student_language_form(student: Student, data=None) -> LanguageForm:
    return LanguageForm(
        data,
        initial={"language": student.language},
        blank_label=_("The school's default"),
        help_text=_(
            "Every device this student signs in on shows pages and games in this language. Word Up's "
            "words stay English: they are what it teaches."
        ),
    )


def _student_language_action(request, student, forms, back):
    form = forms["language"] = _student_language_form(student, request.POST)
    if form.is_valid():
        try:
            services.student_language_set(student=student, language=form.cleaned_data["language"])
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Language saved."))
            return redirect(back)
    return None


def _student_action(request, student, classroom, classrooms, action, forms):
    """Handle one of the student page's forms; a redirect on success, None to re-render with errors."""
    back = reverse("student_detail", args=[student.pk]) + (f"?class={classroom.pk}" if classroom else "")
    handlers = {"language": _student_language_action, "accommodations": _accommodations_save}
    if action in handlers:
        return handlers[action](request, student, forms, back)
    if action == "rename":
        form = forms["rename"] = StudentForm(request.POST)
        if form.is_valid():
            try:
                services.student_rename(student=student, **form.cleaned_data)
            except ValidationError as error:
                _apply_validation_error(form, error)
            else:
                messages.success(request, _("Name saved."))
                return redirect(back)
    elif action == "level":
        form = forms["level"] = LevelForm(request.POST)
        if form.is_valid():
            services.student_level_set(student=student, by=request.user, **form.cleaned_data)
            messages.success(request, _("Level saved."))
            return redirect(back)
    elif action == "move" and classroom is not None:
        form = forms["move"] = StudentMoveForm(request.POST, classrooms=classrooms.exclude(pk=classroom.pk))
        if form.is_valid():
            target = form.cleaned_data["to_classroom"]
            services.student_move(student=student, from_classroom=classroom, to_classroom=target)
            messages.success(request, _("%(name)s moved to %(class)s.") % {"name": student, "class": target})
            return redirect("classroom_detail", pk=classroom.pk)
    elif action == "remove" and classroom is not None:
        services.student_remove(student=student, classroom=classroom)
        messages.success(
            request, _("%(name)s removed from %(class)s.") % {"name": student, "class": classroom}
        )
        return redirect("classroom_detail", pk=classroom.pk)
    elif action == "reset_code":
        services.student_new_signin_code(student=student)
        messages.success(
            request,
            tidy_sentence(_("New sign-in code for %(name)s. Print a new login card.") % {"name": student}),
        )
        return redirect(back)
    else:
        messages.error(request, _("Unknown action."))
    return None


def _accommodations_save(request, student, forms, back):
    form = forms["accommodations"] = AccommodationsForm(request.POST)
    if not form.is_valid():
        return None
    services.student_accommodations_set(student=student, by=request.user, **form.cleaned_data)
    messages.success(request, _("Accommodations saved."))
    return redirect(back)


# --- school admin ----------------------------------------------------------------------------------


@login_required
@once
def school_overview(request):
    school = _admin_school(request)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.invitation_create(
                school=school,
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                invited_by=request.user,
                base_url=request.build_absolute_uri("/"),
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(
                request, _("Invitation sent to %(email)s.") % {"email": form.cleaned_data["email"]}
            )
            return redirect("school_overview")
    context = {"school": school, "form": form, **selectors.school_overview(school)}
    return render(request, "classrooms/school_overview.html", context, status=400 if form.errors else 200)


@login_required
def school_settings(request):
    school = _admin_school(request)
    initial = {
        "name": school.name,
        "time_zone": school.time_zone or settings.TIME_ZONE,
        "default_language": school.default_language,
        "clever_district_id": school.clever_district_id,
        "classlink_tenant_id": school.classlink_tenant_id,
    }
    form = SchoolSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.school_update(school=school, **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("School settings saved."))
            return redirect("school_overview")
    context = {"school": school, "form": form}
    return render(request, "classrooms/school_settings.html", context, status=400 if form.errors else 200)


def invitation_accept(request, token: str):
    invitation = Invitation.objects.select_related("school").filter(token=token).first()
    if invitation is None or not invitation.is_usable:
        request.session.pop(INVITATION_SESSION_KEY, None)
        return render(request, "classrooms/invitation_invalid.html", status=410)
    if not request.user.is_authenticated:
        request.session[INVITATION_SESSION_KEY] = token
        if User.objects.filter(email__iexact=invitation.email).exists():
            messages.info(
                request,
                _("Sign in as %(email)s to join %(school)s.")
                % {"email": invitation.email, "school": invitation.school},
            )
            return redirect("account_login")
        # The link reached this address, so the new account's email counts as verified.
        get_adapter(request).stash_verified_email(request, invitation.email)
        messages.info(request, _("Create your account to join %(school)s.") % {"school": invitation.school})
        return redirect(reverse("account_signup") + f"?email={invitation.email}")
    try:
        membership = services.invitation_accept(invitation=invitation, user=request.user)
    except ValidationError as error:
        return render(
            request, "classrooms/invitation_invalid.html", {"error": " ".join(error.messages)}, status=403
        )
    request.session.pop(INVITATION_SESSION_KEY, None)
    messages.success(
        request,
        _("You joined %(school)s as %(role)s.")
        % {"school": membership.school, "role": membership.get_role_display()},
    )
    return redirect("school_overview" if membership.role == Membership.Role.ADMIN else "dashboard")


# --- students signing in on a shared device ----------------------------------------------------------


# Per address: a whole school may come through one public address at the bell (2000 students in a few
# minutes), so these only stop a flood; guessing is slowed per device and per card (join_signin).
@ratelimit(key="ip", rate="1200/m", method="POST", block=False)
def join(request):
    """Step 1: the class code (typed, or filled in from the QR code's link)."""
    form = JoinCodeForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        if getattr(request, "limited", False):
            form.add_error(None, _("Too many tries from this network. Wait a minute and try again."))
        else:
            classroom = selectors.classroom_for_join_code(form.cleaned_data["code"])
            if classroom is None:
                form.add_error("code", _("No class has that code. Check the code on the board."))
            else:
                return redirect("join_pick", code=classroom.join_code)
    status = 400 if form.errors else 200
    return render(request, "classrooms/join.html", {"form": form}, status=status)


@ratelimit(key="ip", rate="1200/m", method="GET", block=False)
def join_pick(request, code: str):
    """Step 2: pick your name from the class list (as much of it as this device may see)."""
    classroom = selectors.classroom_for_join_code(code)
    if classroom is None or getattr(request, "limited", False):
        messages.error(request, _("That class code no longer works. Ask your teacher for the new one."))
        return redirect("join")
    names = _names_shown(request, classroom)  # in the roster's order
    context = {
        "classroom": classroom,
        "students": [{"pk": pk, "name": name} for pk, name in names.items()],
        "closed": classroom.name_list == Classroom.NameList.OPENED and not _opened_here(request, classroom),
    }
    return render(request, "classrooms/join_pick.html", context)


#: Devices a teacher opened for a class's sign-in list (a signed cookie of "class id:class code" pairs,
#: so a new class code closes them all).
OPENED_COOKIE = "classplay_opened"
OPENED_SALT = "classplay.opened-device"
OPENED_KEPT = 10


def _opened(request) -> list[str]:
    raw = request.get_signed_cookie(OPENED_COOKIE, default="", salt=OPENED_SALT)
    return [part for part in raw.split("|") if part]


def _opened_here(request, classroom: Classroom) -> bool:
    return f"{classroom.pk}:{classroom.join_code}" in _opened(request)


def _names_shown(request, classroom: Classroom) -> dict[int, str]:
    """The names this device may see, by student id: first names and initials (the default), or the
    names as the teacher wrote them on a device the teacher opened; elsewhere, only the students who
    signed in on this device before."""
    roster = list(selectors.classroom_roster(classroom).only("id", "display_name"))
    if classroom.name_list == Classroom.NameList.INITIALS:
        return selectors.signin_names(roster)
    if not _opened_here(request, classroom):
        known = set(_known_students(request))
        roster = [student for student in roster if student.pk in known]
    return {student.pk: student.display_name for student in roster}


@login_required
@require_POST
def classroom_open_device(request, pk: int):
    """A teacher opens this device for the class's sign-in list, and is signed out of it (a shared
    device must not stay signed in as staff)."""
    classroom = _managed_classroom(request, pk)
    logout(request)
    messages.info(
        request,
        _("This device now shows the names of %(class)s for signing in. You have been signed out here.")
        % {"class": classroom.name},
    )
    response = redirect("join_pick", code=classroom.join_code)
    opened = [entry for entry in _opened(request) if not entry.startswith(f"{classroom.pk}:")]
    response.set_signed_cookie(
        OPENED_COOKIE,
        "|".join([*opened, f"{classroom.pk}:{classroom.join_code}"][-OPENED_KEPT:]),
        salt=OPENED_SALT,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


#: A device's wrong sign-in codes: how many, and when it may try again (kept in its session).
DEVICE_FAILURES_KEY = "classplay_signin_failures"
DEVICE_WAIT_KEY = "classplay_signin_wait_until"
#: The students who signed in on this device before (a signed cookie: it cannot be forged), whose cards
#: stay usable here while they are locked for new devices.
KNOWN_COOKIE = "classplay_known"
KNOWN_SALT = "classplay.known-device"
KNOWN_KEPT = 30
DEVICE_WAIT_MAX = 300


def _known_students(request) -> list[int]:
    raw = request.get_signed_cookie(KNOWN_COOKIE, default="", salt=KNOWN_SALT)
    return [int(part) for part in raw.split(".") if part.isdigit()]


def _remember_device(response, request, student: Student) -> None:
    known = [pk for pk in _known_students(request) if pk != student.pk] + [student.pk]
    response.set_signed_cookie(
        KNOWN_COOKIE,
        ".".join(map(str, known[-KNOWN_KEPT:])),
        salt=KNOWN_SALT,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _device_wait(request) -> int:
    """Seconds this device must still wait before its next try (0: it may try now)."""
    until = request.session.get(DEVICE_WAIT_KEY)
    return max(0, int(until - time.time()) + 1) if until else 0


def _device_failed(request) -> None:
    failures = request.session.get(DEVICE_FAILURES_KEY, 0) + 1
    request.session[DEVICE_FAILURES_KEY] = failures
    over = failures - settings.STUDENT_SIGNIN_FREE_TRIES
    if over >= 0:
        request.session[DEVICE_WAIT_KEY] = time.time() + min(DEVICE_WAIT_MAX, 2 ** (over + 1))


@ratelimit(key="ip", rate="2400/m", method="POST", block=False)
def join_signin(request, code: str, student_id: int):
    """Step 3: confirm with the sign-in code from your login card."""
    classroom = selectors.classroom_for_join_code(code)
    if classroom is None:
        return redirect("join")
    student = get_object_or_404(Student, pk=student_id, enrolments__classroom=classroom)
    names = _names_shown(request, classroom)
    if student.pk not in names:  # a name this device may not see is not signed into here either
        return redirect("join_pick", code=classroom.join_code)
    form = SignInCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = _device_wait(request)
        if getattr(request, "limited", False):
            form.add_error(None, _("Too many tries from this network. Wait a minute and try again."))
        elif wait:
            message = ngettext(
                "Too many wrong codes from this device. Wait %(seconds)d second and try again.",
                "Too many wrong codes from this device. Wait %(seconds)d seconds and try again.",
                wait,
            )
            form.add_error("code", message % {"seconds": wait})
        else:
            known = student.pk in _known_students(request)
            try:
                services.student_check_signin(
                    student=student, code=form.cleaned_data["code"], known_device=known
                )
            except services.CardLocked as locked:
                _device_failed(request)
                return _wait_to_be_let_in(request, classroom, student, locked.message)
            except services.SignInRefused as refused:
                _device_failed(request)
                form.add_error("code", refused.message)
            else:
                return _signed_in(request, student)
    status = 400 if form.errors else 200
    context = {"classroom": classroom, "student": student, "name": names[student.pk], "form": form}
    return render(request, "classrooms/join_signin.html", context, status=status)


def _signed_in(request, student: Student):
    sign_in_student(request, student)
    response = redirect("student_home")
    _remember_device(response, request, student)
    return response


#: The device's wait to be let in with a locked card (in its session): the wait's id, the class code
#: and the student, to go back to the sign-in page once the wait is over.
WAITING_KEY = "classplay_waiting_device"


def _device_kind(request) -> str:
    """What kind of device this is, from its browser's description (for the teacher's list)."""
    agent = request.headers.get("User-Agent", "")
    kinds = [
        ("CrOS", "chromebook"),
        ("iPad", "ipad"),
        ("iPhone", "iphone"),
        ("Android", "android"),
        ("Windows", "windows"),
        ("Macintosh", "mac"),
        ("Linux", "linux"),
    ]
    return next((kind for marker, kind in kinds if marker in agent), "other")


def _wait_to_be_let_in(request, classroom: Classroom, student: Student, message: str):
    """The card is locked for this device: it shows a code for the teacher to let it in with."""
    mine = request.session.get(WAITING_KEY) or {}
    try:
        waiting = services.device_wait(
            student=student, classroom=classroom, kind=_device_kind(request), waiting_id=mine.get("id")
        )
    except services.LetInRefused as refused:
        messages.error(request, refused.message)
        return redirect("join_pick", code=classroom.join_code)
    request.session[WAITING_KEY] = {"id": waiting.pk, "code": classroom.join_code, "student": student.pk}
    context = {"waiting": waiting, "message": message, "name": student.display_name}
    return render(request, "classrooms/join_waiting.html", context, status=400)


def join_waiting(request):
    """A device waiting to be let in: it shows its code; "Continue" signs it in once the teacher let it in."""
    mine = request.session.get(WAITING_KEY)
    if not mine:
        return redirect("join")
    if request.method == "POST":
        student = services.device_collect_let_in(waiting_id=mine["id"])
        if student is not None:
            return _signed_in(request, student)
    waiting = selectors.waiting_device(mine["id"])
    if waiting is None or not (waiting.let_in_at or _locked(waiting.student)):
        # Unlocked, or the wait is over: the card's own code works here again, or the device asks anew.
        del request.session[WAITING_KEY]
        messages.info(request, _("Type the code from your login card."))
        return redirect("join_signin", code=mine["code"], student_id=mine["student"])
    if request.method == "POST":
        messages.info(request, _("Your teacher has not let this device in yet."))
    context = {"waiting": waiting, "name": waiting.student.display_name}
    return render(request, "classrooms/join_waiting.html", context)


def _locked(student: Student) -> bool:
    return bool(student.locked_until and student.locked_until > timezone.now())


def _back_to(request, classroom: Classroom):
    """Where a teacher's action on a class returns: the page it was pressed on (the dashboard, the
    class page or a game's console), else the class page."""
    back = request.POST.get("next", "")
    here = {request.get_host()}
    if url_has_allowed_host_and_scheme(back, allowed_hosts=here, require_https=request.is_secure()):
        return redirect(back)
    return redirect("classroom_detail", pk=classroom.pk)


@login_required
@require_POST
def classroom_let_in(request, pk: int, student_id: int):
    """The teacher lets in the device showing the code they typed, for this student of their class."""
    classroom = _managed_classroom(request, pk)
    student = get_object_or_404(Student, pk=student_id, enrolments__classroom=classroom)
    try:
        services.device_let_in(
            classroom=classroom, student=student, code=request.POST.get("code", ""), by=request.user
        )
    except services.LetInRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(name)s’s device is let in: they press “Continue” on it.") % {"name": student.display_name},
        )
    return _back_to(request, classroom)


@login_required
@require_POST
def classroom_unlock_cards(request, pk: int):
    classroom = _managed_classroom(request, pk)
    locked = services.classroom_unlock_cards(classroom=classroom, by=request.user)
    messages.success(
        request,
        ngettext(
            "Every login card of the class works again (%(n)d was locked).",
            "Every login card of the class works again (%(n)d were locked).",
            locked,
        )
        % {"n": locked},
    )
    return _back_to(request, classroom)


@require_POST
def student_signout(request):
    logout(request)  # flushes the whole session, student id included
    messages.info(request, _("Signed out. See you next time!"))
    return redirect("join")
