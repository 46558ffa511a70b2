"""Homework pages. The teacher's: assign, edit, close early, extend one student's due date, follow who has
started and finished, and a reminder list to print. The student's: Start (or carry on), which opens the
attempt on the same play screen as a live game. Writes go through ``games.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classrooms.models import Student
from classrooms.once import once
from classrooms.selectors import classrooms_for_user
from questions.selectors import visible_word_lists

from . import homework_selectors, services
from .definitions import DEFINITIONS
from .forms import AssignmentForm, ExtensionForm
from .models import Assignment


def _staff_assignment(request, pk: int) -> Assignment:
    assignment = homework_selectors.assignment_for_staff(request.user, pk)
    if assignment is None:
        raise Http404
    return assignment


def _class_students(classroom):
    return Student.objects.filter(enrolments__classroom=classroom).order_by("display_name")


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def _form_fields(data: dict) -> dict:
    return {
        "game": data["game"],
        "title": data["title"],
        "opens_at": data["opens_at"],
        "due_at": data["due_at"],
        "timers": data["timers"],
        "attempts_allowed": data["attempts_allowed"],
        "computer_players": data["computer_players"],
        "settings": data["settings"],
        "students": list(data["students"]),
    }


def _fit_computer_players(fields: dict) -> dict:
    """Games with one opponent take one, whatever the box says (it is shown for every game)."""
    low, high = DEFINITIONS[fields["game"]].homework.computer_players
    fields["computer_players"] = min(max(fields["computer_players"], low), high)
    return fields


def _unavailable() -> list[tuple[str, str]]:
    return [
        (game.full_name, str(game.homework.unavailable))
        for game in DEFINITIONS.values()
        if game.homework.unavailable
    ]


@login_required
@once
def assignment_new(request):
    classrooms = classrooms_for_user(request.user).select_related("school")
    if not classrooms.exists():
        messages.info(request, _("Create a class first, then set it homework."))
        return redirect("dashboard")
    classroom = classrooms.filter(pk=request.GET.get("classroom") or 0).first() or classrooms.first()
    form = AssignmentForm(
        request.POST or None,
        students=_class_students(classroom),
        word_lists=visible_word_lists(request.user),
        initial=AssignmentForm.initial_for(),
    )
    if request.method == "POST" and form.is_valid():
        try:
            assignment = services.assignment_create(
                classroom=classroom, by=request.user, **_fit_computer_players(_form_fields(form.cleaned_data))
            )
        except ValidationError as error:
            form.add_error(None, _error_text(error))
        else:
            messages.success(request, _("Homework set. Your students see it on their page when it opens."))
            return redirect("games:homework", pk=assignment.pk)
    context = {
        "form": form,
        "classroom": classroom,
        "classrooms": classrooms,
        "heading": _("Set homework"),
        "unavailable": _unavailable(),
    }
    return render(request, "games/homework_form.html", context, status=400 if form.errors else 200)


@login_required
@once
def assignment_edit(request, pk: int):
    assignment = _staff_assignment(request, pk)
    form = AssignmentForm(
        request.POST or None,
        students=_class_students(assignment.classroom),
        word_lists=visible_word_lists(request.user),
        initial=AssignmentForm.initial_for(assignment),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.assignment_update(
                assignment=assignment,
                by=request.user,
                **_fit_computer_players(_form_fields(form.cleaned_data)),
            )
        except ValidationError as error:
            form.add_error(None, _error_text(error))
        else:
            messages.success(request, _("Saved."))
            return redirect("games:homework", pk=assignment.pk)
    context = {
        "form": form,
        "assignment": assignment,
        "classroom": assignment.classroom,
        "heading": _("Change homework"),
    }
    return render(request, "games/homework_form.html", context, status=400 if form.errors else 200)


def _progress_context(assignment: Assignment) -> dict:
    rows = homework_selectors.assignment_progress(assignment)
    return {"assignment": assignment, "rows": rows, "counts": homework_selectors.progress_counts(rows)}


@login_required
def assignment_detail(request, pk: int):
    assignment = _staff_assignment(request, pk)
    context = _progress_context(assignment)
    if request.GET.get("part") == "progress":  # the page fetches this every few seconds while it is open
        response = render(request, "games/_homework_progress.html", context)
        response["Cache-Control"] = "no-store"
        return response
    context["extension_form"] = ExtensionForm(students=_class_students(assignment.classroom))
    return render(request, "games/homework_detail.html", context)


@login_required
def assignment_reminders(request, pk: int):
    assignment = _staff_assignment(request, pk)
    rows = homework_selectors.reminder_list(assignment)
    return render(request, "games/homework_reminders.html", {"assignment": assignment, "rows": rows})


@login_required
@require_POST
def assignment_close(request, pk: int):
    assignment = _staff_assignment(request, pk)
    try:
        services.assignment_close(assignment=assignment, by=request.user)
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("Closed. Games under way have ended where they stood."))
    return redirect("games:homework", pk=pk)


@login_required
@require_POST
def assignment_extend(request, pk: int):
    assignment = _staff_assignment(request, pk)
    form = ExtensionForm(request.POST, students=_class_students(assignment.classroom))
    if not form.is_valid():
        messages.error(request, _("Choose a student and a new due date."))
        return redirect("games:homework", pk=pk)
    student = form.cleaned_data["student"]
    try:
        services.assignment_extend(
            assignment=assignment, student=student, due_at=form.cleaned_data["due_at"], by=request.user
        )
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("%(name)s now has until the new date.") % {"name": student.display_name})
    return redirect("games:homework", pk=pk)


@require_POST
def attempt_start(request, pk: int):
    """The student taps Start (or Carry on): their attempt opens on the play screen."""
    student = request.student
    if not student:
        return redirect("join")
    assignment = get_object_or_404(Assignment, pk=pk)
    try:
        session = services.attempt_start(assignment=assignment, student=student)
    except PermissionDenied:
        raise Http404 from None
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect("student_home")
    return redirect("games:play", pk=session.pk)
