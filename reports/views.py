"""Report pages, exports and the privacy tools. Pages read the built aggregates only; building happens in
Celery (a button queues it, the page polls ``build_status`` for a progress bar)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classrooms.models import Classroom, School, Student

from . import catalog, charts, exports, pdf, present, selectors, services
from .forms import ApplyLevelForm, EraseForm, ReviewFilterForm
from .models import LearningFact, ReportBuild, SkillSummary

# --- helpers ---------------------------------------------------------------------------------------


def _classroom(request, pk: int) -> Classroom:
    """The class if this person may see its reports; 404 otherwise (other schools stay invisible).
    ``classroom.viewer_is_admin``: whether they see it as the school's admin."""
    classroom = get_object_or_404(Classroom.objects.select_related("school"), pk=pk)
    access = selectors.class_report_access(request.user, classroom)
    if access is None:
        raise Http404
    classroom.viewer_is_admin = access == "admin"
    return classroom


def _student(classroom: Classroom, student_id: int) -> Student:
    student = selectors.student_in_class(classroom, student_id)
    if student is None:
        raise Http404
    return student


def _admin_school(request) -> School:
    school = selectors.school_for_admin(request.user)
    if school is None:
        raise Http404
    return school


def _school_student(request, student_id: int) -> tuple[School, Student]:
    _admin_school(request)
    student = get_object_or_404(Student.objects.select_related("school"), pk=student_id)
    if not selectors.can_review_school(request.user, student.school_id):
        raise Http404
    return student.school, student


def _filename(*parts: str) -> str:
    return "-".join(slugify(part) or "report" for part in parts)


def _csv_response(lines, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


# --- pages -----------------------------------------------------------------------------------------


@login_required
def index(request):
    rows = selectors.report_index(request.user)
    school = selectors.school_for_admin(request.user)
    return render(request, "reports/index.html", {"rows": rows, "admin_school": school})


@login_required
@require_GET
def class_report(request, pk: int):
    classroom = _classroom(request, pk)
    context = selectors.class_report(classroom)
    data = context["report"].data if context["report"] else None
    trend = None
    if data and data["sessions"]:
        trend = pdf.class_trend_chart(data["sessions"], classroom.name)
    rows = [
        {
            "row": row,
            "spark": charts.sparkline(
                row.report.data.get("spark", []) if row.report else [],
                title=_("Recent sessions of %(name)s") % {"name": row.student.display_name},
            ),
            "attention": present.attention_labels(row.report.data.get("attention", [])) if row.report else [],
        }
        for row in context["rows"]
    ]
    level_table = []
    if data:
        for skill in catalog.LEVELLED_SKILLS:
            now, recommended = data["levels"].get(skill, {}), data["recommended"].get(skill, {})
            level_table.append(
                {
                    "label": catalog.skill_label(skill),
                    "levels": [
                        (level, now.get(str(level), 0), recommended.get(str(level), 0))
                        for level in range(1, 6)
                    ],
                }
            )
    return render(
        request,
        "reports/class_report.html",
        {
            "classroom": classroom,
            "report": context["report"],
            "data": data,
            "rows": rows,
            "trend": trend,
            "level_table": level_table,
            "build": context["build"],
            "skills": [(skill, catalog.skill_label(skill)) for skill in catalog.LEVELLED_SKILLS],
            "game_labels": catalog.GAME_LABELS,
        },
    )


@login_required
@require_GET
def student_report(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    context = selectors.student_report(student, classroom)
    view = (
        present.student_view(context["report"], context["summaries"], name=student.display_name)
        if context["report"]
        else None
    )
    build = selectors.active_build(classroom=classroom, student=student)
    return render(
        request,
        "reports/student_report.html",
        {
            "classroom": classroom,
            "student": student,
            "report": context["report"],
            "view": view,
            "skills": view["skills"] if view else [present.skill_view(s) for s in context["summaries"]],
            "build": build,
            "is_admin": classroom.viewer_is_admin,
            "game_labels": catalog.GAME_LABELS,
        },
    )


@login_required
@require_POST
def class_build(request, pk: int):
    classroom = _classroom(request, pk)
    services.build_request(
        scope=ReportBuild.Scope.CLASSROOM,
        school=classroom.school_id,
        classroom=classroom,
        by=request.user,
        dedupe=True,
    )
    messages.info(request, _("The class report is being rebuilt. This page updates when it is ready."))
    return redirect("reports:class", pk=classroom.pk)


@login_required
@require_POST
def student_build(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    services.build_request(
        scope=ReportBuild.Scope.STUDENT,
        school=classroom.school_id,
        classroom=classroom,
        student=student,
        by=request.user,
        dedupe=True,
    )
    messages.info(request, _("The report is being rebuilt. This page updates when it is ready."))
    return redirect("reports:student", pk=classroom.pk, student_id=student.pk)


@login_required
@require_POST
def apply_level(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    form = ApplyLevelForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That level could not be applied."))
    else:
        try:
            services.recommendation_apply(student=student, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                _("%(name)s's %(skill)s level is now %(level)d (recorded in the level history).")
                % {
                    "name": student.display_name,
                    "skill": catalog.skill_label(form.cleaned_data["skill"]),
                    "level": form.cleaned_data["level"],
                },
            )
    return redirect(reverse("reports:student", args=[classroom.pk, student.pk]) + "#levels-heading")


@login_required
@require_GET
def build_status(request, build_id):
    build = ReportBuild.objects.select_related("classroom").filter(pk=build_id).first()
    if build is None or not selectors.can_see_build(request.user, build):
        raise Http404
    return JsonResponse(
        {
            "status": build.status,
            "label": build.get_status_display(),
            "percent": build.percent,
            "done": build.done,
            "total": build.total,
            "error": build.error if build.status == ReportBuild.Status.FAILED else "",
        }
    )


# --- exports ---------------------------------------------------------------------------------------


@login_required
def class_skills_csv(request, pk: int):
    classroom = _classroom(request, pk)
    students = Student.objects.filter(enrolments__classroom=classroom).order_by("display_name", "id")
    names = {student.pk: classroom.name for student in students}
    lines = exports.csv_lines(exports.SKILL_HEADER, exports.skill_rows(students, names))
    return _csv_response(lines, _filename(classroom.name, "skills"))


@login_required
def class_answers_csv(request, pk: int):
    classroom = _classroom(request, pk)
    facts = LearningFact.objects.filter(classroom=classroom, student__isnull=False)
    lines = exports.csv_lines(exports.ANSWER_HEADER, exports.answer_rows(facts))
    return _csv_response(lines, _filename(classroom.name, "answers"))


@login_required
def student_answers_csv(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    facts = LearningFact.objects.filter(classroom=classroom, student=student)
    lines = exports.csv_lines(exports.ANSWER_HEADER, exports.answer_rows(facts))
    return _csv_response(lines, _filename(student.display_name, classroom.name, "answers"))


@login_required
def class_pdf(request, pk: int):
    classroom = _classroom(request, pk)
    content = pdf.class_card(classroom=classroom, context=selectors.class_report(classroom))
    return _pdf_response(content, _filename(classroom.name, "report"))


@login_required
def student_pdf(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    context = selectors.student_report(student, classroom)
    if context["report"] is None:
        raise Http404
    content = pdf.student_card(
        student=student, classroom=classroom, report=context["report"], summaries=context["summaries"]
    )
    return _pdf_response(content, _filename(student.display_name, classroom.name))


# --- the school admin --------------------------------------------------------------------------------


@login_required
@require_GET
def school_review(request):
    school = _admin_school(request)
    classes = list(Classroom.objects.filter(school=school).order_by("name").values_list("pk", "name"))
    from classrooms.models import User

    teachers = list(
        User.objects.filter(memberships__school=school).order_by("display_name", "email").distinct()
    )
    form = ReviewFilterForm(request.GET or None, classes=classes, teachers=teachers)
    filters = selectors.ReviewFilters()
    if form.is_valid():
        filters = selectors.ReviewFilters(
            classroom=form.cleaned_data["classroom"],
            teacher=form.cleaned_data["teacher"],
            game=form.cleaned_data["game"] or None,
            start=form.cleaned_data["start"],
            end=form.cleaned_data["end"],
        )
    review = selectors.school_review(school, filters)
    points = [(week.strftime("%d %b"), value) for week, value in review["progress"]]
    known = [value for _label, value in points if value is not None]
    summary = (
        _("Weekly share of right answers from %(first)s to %(last)s, %(n)d weeks.")
        % {"first": present.pct(known[0]), "last": present.pct(known[-1]), "n": len(points)}
        if known
        else _("No sessions in this period.")
    )
    progress_chart = charts.line_chart(points, title=_("Right answers per week"), summary=summary)
    for row in review["classes"]:
        row["spark_chart"] = charts.sparkline(
            row["spark"], title=_("Weekly accuracy of %(class)s") % {"class": row["classroom"].name}
        )
    for item in review["attention"]:
        item["labels"] = present.attention_labels(item["reasons"])
    return render(
        request,
        "reports/school_review.html",
        {
            "school": school,
            "form": form,
            "review": review,
            "progress_chart": progress_chart,
            "query": request.GET.urlencode(),
        },
    )


@login_required
@require_POST
def school_build(request):
    school = _admin_school(request)
    services.build_request(scope=ReportBuild.Scope.SCHOOL, school=school, by=request.user, dedupe=True)
    messages.info(
        request, _("Every report of the school is being rebuilt. This page updates when it is ready.")
    )
    return redirect("reports:school")


@login_required
def school_skills_csv(request):
    school = _admin_school(request)
    students = Student.objects.filter(school=school).order_by("display_name", "id")
    names: dict[int, str] = {}
    for student_id, name in (
        Student.objects.filter(school=school)
        .order_by("enrolments__classroom__name")
        .values_list("pk", "enrolments__classroom__name")
    ):
        if name:
            names[student_id] = f"{names[student_id]}; {name}" if student_id in names else name
    lines = exports.csv_lines(exports.SKILL_HEADER, exports.skill_rows(students, names))
    return _csv_response(lines, _filename(school.name, "skills"))


@login_required
def student_data(request, student_id: int):
    """The admin's privacy page for one student: download everything, or erase the learning data."""
    school, student = _school_student(request, student_id)
    form = EraseForm(request.POST or None, student=student)
    if request.method == "POST" and form.is_valid():
        erasure = services.student_data_erase(student=student, by=request.user)
        messages.success(
            request,
            _("%(name)s's learning data is erased (%(n)d answers). Class totals keep their anonymous counts.")
            % {"name": student.display_name, "n": erasure.facts_removed},
        )
        return redirect("reports:student_data", student_id=student.pk)
    context = {
        "school": school,
        "student": student,
        "form": form,
        "facts": LearningFact.objects.filter(student=student).count(),
        "classes": list(Classroom.objects.filter(enrolments__student=student).order_by("name")),
        "erasures": list(student.data_erasures.select_related("erased_by")[:5]),
        "skills": SkillSummary.objects.filter(student=student).count(),
    }
    return render(
        request, "reports/student_data.html", context, status=400 if request.method == "POST" else 200
    )


@login_required
@require_GET
def student_data_export(request, student_id: int):
    _school, student = _school_student(request, student_id)
    document = services.student_data_export(student=student)
    content = json.dumps(document, ensure_ascii=False, indent=1).encode()
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    name = _filename(student.display_name, "data", timezone.localdate().isoformat())
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


# --- the student's own page ----------------------------------------------------------------------------


def _where(note: dict) -> str:
    return _("%(category)s in %(game)s") % {
        "category": catalog.category_label(note["category"]),
        "game": catalog.game_label(note["game"]),
    }


@require_GET
def my_progress(request):
    student = request.student
    if not student:
        return redirect("join")
    context = selectors.own_progress(student)
    cards = []
    for report in context["reports"]:
        data = report.data
        trend = data.get("trend", [])
        chart = present.trend_chart(trend, name=student.display_name) if trend else None
        notes = data.get("notes", [])
        cards.append(
            {
                "report": report,
                "chart": chart,
                "best": [_where(note) for note in notes if note["kind"] == "strength"][:3],
                "rising": any(note["kind"] == "rising" for note in notes),
                "practise": [_where(note) for note in notes if note["kind"] == "weakness"][:2],
                "games": [catalog.game_label(row["game"]) for row in data.get("games", [])],
            }
        )
    return render(request, "reports/my_progress.html", {"student": student, "cards": cards})
