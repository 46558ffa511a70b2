"""Roster integrations: the school admin's whole-school sync (OneRoster 1.1 CSV zip: upload, preview,
apply) and a teacher's Google Classroom course import."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from . import google_classroom, roster_sync, selectors
from .forms import GoogleCourseImportForm, RosterOrgForm, RosterSyncUploadForm
from .models import RosterSync
from .oneroster import OneRosterFileError
from .views import _admin_school, _managed_classroom

#: Problems the preview lists; past that it says how many more there are (a broken 10,000-row export
#: should not become a 10,000-line page).
PROBLEMS_SHOWN = 300
HISTORY_SHOWN = 20
COUNT_LABELS = {
    "classes_created": gettext_lazy("Classes created"),
    "classes_updated": gettext_lazy("Classes updated"),
    "classes_archived": gettext_lazy("Classes archived"),
    "students_created": gettext_lazy("Students created"),
    "students_updated": gettext_lazy("Students updated"),
    "students_archived": gettext_lazy("Students archived (left every class; their history is kept)"),
    "enrolled": gettext_lazy("Students added to a class"),
    "unenrolled": gettext_lazy("Students taken off a class"),
    "teachers_linked": gettext_lazy("Teachers given a class"),
    "teachers_invited": gettext_lazy("Teachers invited by email"),
    "teachers_unlinked": gettext_lazy("Teachers taken off a class"),
}


def _limits() -> dict:
    return {"max_bytes": settings.ROSTER_SYNC_MAX_BYTES, "max_rows": settings.ROSTER_SYNC_MAX_ROWS}


@login_required
def roster_sync_upload(request):
    school = _admin_school(request)
    form = RosterSyncUploadForm(request.POST or None, request.FILES or None)
    file_error = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        sync = RosterSync(
            school=school, uploaded_by=request.user, file_name=upload.name[:200], data=upload.read()
        )
        try:
            export = roster_sync.read(sync, **_limits())  # an unusable zip is refused before it is kept
        except OneRosterFileError as error:
            file_error = str(error)
        else:
            roster_sync.sync_start(sync=sync, export=export, **_limits())
            return redirect("roster_sync_preview", pk=sync.pk)
    history = RosterSync.objects.filter(school=school).select_related("uploaded_by")[:HISTORY_SHOWN]
    context = {"school": school, "form": form, "file_error": file_error, "history": history}
    status = 400 if (form.errors or file_error) else 200
    return render(request, "classrooms/roster_sync.html", context, status=status)


@login_required
def roster_sync_preview(request, pk: int):
    school = _admin_school(request)
    sync = get_object_or_404(RosterSync, pk=pk, school=school)
    export = None
    # The export is read again only to act on it, or to offer its schools when it names several.
    if sync.status == RosterSync.Status.PREVIEWED and (request.method == "POST" or sync.problems):
        try:
            export = roster_sync.read(sync, **_limits())
        except OneRosterFileError as error:
            messages.error(request, str(error))
            return redirect("roster_sync")
    orgs = export.school_orgs() if export is not None else []
    org_form = RosterOrgForm(request.POST if "org" in request.POST else None, orgs=orgs)
    if request.method == "POST" and export is not None:
        if "org" in request.POST and org_form.is_valid():
            sync.org_id = org_form.cleaned_data["org"]
            roster_sync.sync_preview(sync=sync, **_limits())
            return redirect("roster_sync_preview", pk=sync.pk)
        if "confirm" in request.POST:
            return _confirm(request, sync)
    context = {
        "school": school,
        "sync": sync,
        "counts": [(COUNT_LABELS[key], sync.counts.get(key, 0)) for key in roster_sync.COUNT_KEYS],
        "problems": sync.problems[:PROBLEMS_SHOWN],
        "more_problems": max(0, len(sync.problems) - PROBLEMS_SHOWN),
        "org_form": org_form if (sync.problems and not sync.org_id and len(orgs) > 1) else None,
    }
    return render(request, "classrooms/roster_sync_preview.html", context)


def _confirm(request, sync: RosterSync):
    try:
        roster_sync.sync_apply(
            sync=sync, by=request.user, base_url=request.build_absolute_uri("/"), **_limits()
        )
    except roster_sync.RosterSyncRefused:
        roster_sync.sync_preview(sync=sync, **_limits())  # the school changed since the preview: show why
        messages.error(
            request, _("Nothing was changed: fix the problems listed and upload the export again.")
        )
        return redirect("roster_sync_preview", pk=sync.pk)
    except (ValidationError, OneRosterFileError) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        return redirect("roster_sync")
    messages.success(request, _("The roster is synced."))
    return redirect("roster_sync_preview", pk=sync.pk)


# --- Google Classroom ------------------------------------------------------------------------------


def _google_client(request) -> google_classroom.ClassroomClient | None:
    if not google_classroom.is_enabled():
        raise Http404
    token = google_classroom.google_token(request.user)
    return google_classroom.ClassroomClient(token) if token is not None else None


@login_required
def google_import(request):
    """Pick one of your Google Classroom courses and import its students into a new or existing class."""
    client = _google_client(request)
    if selectors.primary_school(request.user) is None:
        raise PermissionDenied
    context: dict = {"signed_in_with_google": client is not None, "error": None, "form": None}
    if client is None:
        try:
            context["google_login_url"] = reverse("google_login")
        except NoReverseMatch:  # Google sign-in is off on this site
            raise Http404 from None
        return render(request, "classrooms/google_import.html", context)
    try:
        courses = {course.id: course for course in client.courses()}
    except google_classroom.ClassroomUnavailable as error:
        context["error"] = error.message
        return render(request, "classrooms/google_import.html", context, status=502)
    classrooms = selectors.teacher_classrooms(request.user)
    form = GoogleCourseImportForm(request.POST or None, courses=courses.values(), classrooms=classrooms)
    if request.method == "POST" and form.is_valid():
        target = form.cleaned_data["target"]
        classroom = None if target == form.NEW_CLASS else get_object_or_404(classrooms, pk=int(target))
        response = _import(request, client, courses[form.cleaned_data["course"]], classroom)
        if response is not None:
            return response
    context.update(form=form, has_courses=bool(courses))
    return render(request, "classrooms/google_import.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def google_resync(request, pk: int):
    """Follow the class's Google Classroom course again: new students in, renames, leavers off the class."""
    classroom = _managed_classroom(request, pk)
    client = _google_client(request)
    if client is None or not classroom.google_course_id:
        messages.error(request, _("Sign in with Google to sync this class with Google Classroom."))
        return redirect("classroom_detail", pk=classroom.pk)
    course = google_classroom.Course(classroom.google_course_id, classroom.name)
    return _import(request, client, course, classroom) or redirect("classroom_detail", pk=classroom.pk)


def _import(request, client, course, classroom):
    try:
        students = client.students(course.id)
        classroom, result = google_classroom.import_course(
            course=course, students=students, classroom=classroom, by=request.user
        )
    except google_classroom.ClassroomUnavailable as error:
        messages.error(request, error.message)
        return None
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return None
    messages.success(
        request,
        _(
            "Google Classroom import finished: %(created)d new students, %(linked)d added to the class, "
            "%(renamed)d renamed, %(unenrolled)d taken off the class (no longer in the course)."
        )
        % {
            "created": result.created,
            "linked": result.linked,
            "renamed": result.renamed,
            "unenrolled": result.unenrolled,
        },
    )
    return redirect("classroom_detail", pk=classroom.pk)
