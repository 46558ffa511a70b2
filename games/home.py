"""The pages each person lands on: a teacher's (or school admin's) dashboard of classes and games, and a
student's own page of their classes and open games. They gather several apps' reads, so they live above
the classrooms app, which knows nothing of games."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from classrooms import selectors as classroom_selectors

from . import homework_selectors, selectors


@login_required
def dashboard(request):
    school = classroom_selectors.primary_school(request.user)
    if school is None:
        return redirect("school_setup")
    classrooms = list(classroom_selectors.teacher_classrooms(request.user))
    context = {
        "school": school,
        "classrooms": classrooms,
        "locked_cards": classroom_selectors.locked_cards(classrooms),
        "sessions": selectors.sessions_for_staff(request.user),
        "homework": homework_selectors.assignments_for_staff(request.user),
    }
    if classroom_selectors.is_school_admin(request.user, school):
        # A school admin's dashboard is the school's: every class with its teachers, and its games.
        context["overview"] = classroom_selectors.school_overview(school)
    return render(request, "classrooms/dashboard.html", context)


def student_home(request):
    student = request.student
    if not student:
        return redirect("join")
    context = {
        "student": student,
        "classrooms": classroom_selectors.student_classrooms(student),
        "open_games": selectors.open_game_cards(student),
        "homework": homework_selectors.homework_for_student(student),
    }
    return render(request, "classrooms/student_home.html", context)
