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
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classrooms import languages
from classrooms.models import Classroom, School, Student, User
from classrooms.selectors import accommodations_of
from games.definitions import definition, is_game
from questions import selectors as question_selectors
from questions import services as question_services
from questions.models import ItemReview

from . import catalog, charts, exports, items, pdf, present, selectors, services
from .forms import ApplyLevelForm, EraseForm, ModeForm, ReviewFilterForm
from .models import LearningFact, ReportBuild, SkillSummary

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

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


def _filename(*parts: str, mode: str | None = None) -> str:
    """An export's file name; with ``mode``, ending with what it counts (``-live-games``)."""
    name = "-".join(slugify(part) or "report" for part in parts)
    return f"{name}-{present.MODE_SUFFIXES[mode]}" if mode else name


def _mode(request) -> str:
    """Which games the page counts: ``?mode=live|homework|both`` (both when absent or unknown)."""
    form = ModeForm(request.GET)
    return (form.cleaned_data["mode"] or selectors.BOTH) if form.is_valid() else selectors.BOTH


def _mode_context(mode: str) -> dict:
    """The filter's form and what links between the report pages add to keep it (``mode_query``)."""
    return {
        "mode": mode,
        "mode_form": ModeForm(initial={"mode": mode}),
        "mode_query": "" if mode == selectors.BOTH else f"?mode={mode}",
        "mode_label": present.mode_label(mode),
        "homework_mode": mode == selectors.HOMEWORK,
    }


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


def _share_cell(found: tuple[int, int] | None) -> str:
    if not found or not found[1]:
        return "—"
    right, answered = found
    return f"{present.pct(right / answered)} ({right}/{answered})"


@login_required
@require_GET
def content_left(request):
    """What each of the viewer's classes has not been shown yet, per game and subject."""
    classrooms = [row["classroom"] for row in selectors.report_index(request.user)]
    reports = selectors.content_left(classrooms)
    return render(request, "reports/content.html", {"reports": reports, "has_classes": bool(classrooms)})


@login_required
@require_GET
def class_report(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    context = selectors.class_report(classroom, mode)
    data = present.named_questions(context["data"])
    trends = present.trend_charts(data["sessions"], name=classroom.name) if data else []
    # Participation is in the class's live games: a homework-only report has none.
    participation = selectors.class_participation(classroom) if mode != selectors.HOMEWORK else []
    weak_spots = selectors.class_weak_spots(classroom, mode)
    shares = {
        row.student.pk: present.skill_shares(row.report.data if row.report else None)
        for row in context["rows"]
    }
    answered_skills = present.skills_in_order(skill for found in shares.values() for skill in found)
    class_shares = []
    for skill in answered_skills:
        right = sum(found.get(skill, (0, 0))[0] for found in shares.values())
        answered = sum(found.get(skill, (0, 0))[1] for found in shares.values())
        class_shares.append(
            {"label": catalog.skill_label(skill), "share": right / answered if answered else None}
        )
    rows = [
        {
            "row": row,
            # The share right per skill, never one share across skills.
            "shares": [_share_cell(shares[row.student.pk].get(skill)) for skill in answered_skills],
            "attention": present.attention_labels(row.report.data.get("attention", []), mode)
            if row.report
            else [],
            **_sessions_cell(row.report, mode),
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
            # Each named as the charts name it ("4 Dec (2)").
            "sessions": [
                present.session_figures(session, label)
                for label, session in reversed(
                    list(zip(present.session_labels(data["sessions"]), data["sessions"], strict=True))
                )
            ]
            if data
            else [],
            "rows": rows,
            "trends": trends,
            "participation": participation,
            "participation_chart": present.participation_chart(participation) if participation else None,
            "weak_charts": [
                {"chart": chart, "dom_id": f"class-weak-{index}"}
                for index, chart in enumerate(present.weak_spot_charts(weak_spots))
            ],
            "level_table": level_table,
            "build": context["build"],
            "skills": [(skill, catalog.skill_label(skill)) for skill in catalog.LEVELLED_SKILLS],
            "answered_skills": [catalog.skill_label(skill) for skill in answered_skills],
            "class_shares": class_shares,
            "game_labels": catalog.GAME_LABELS,
            "rebuild_needed": context["rebuild_needed"],
            **_mode_context(mode),
        },
    )


def _sessions_cell(report, mode: str) -> dict:
    """A student's games in the class list: live games played of those held (homework apart, as a
    badge), or with homework only, the attempts."""
    if report is None:
        return {"sessions": "—", "homework_sessions": 0}
    homework = report.data.get("totals", {}).get("homework_sessions", 0)
    if mode == selectors.HOMEWORK:
        return {"sessions": str(report.sessions_played), "homework_sessions": homework}
    return {
        "sessions": f"{report.sessions_played - homework} / {report.sessions_held}",
        "homework_sessions": homework,
    }


@login_required
@require_GET
def student_report(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    mode = _mode(request)
    context = selectors.student_report(student, classroom, mode)
    view = (
        present.student_view(context["report"], context["summaries"], name=student.display_name, mode=mode)
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
            "accommodations": _accommodation_labels(student),
            "rebuild_needed": context["rebuild_needed"],
            **_mode_context(mode),
        },
    )


@login_required
@require_GET
def student_summary(request, pk: int, student_id: int):
    """A one-page summary for the student and their family, in the student's language, to print: what
    they played, their skills, their recommended levels and a sentence of advice."""
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    context = selectors.student_report(student, classroom)
    if context["report"] is None:
        raise Http404
    with translation.override(_student_language(student)):
        return render(
            request,
            "reports/student_summary.html",
            {
                "classroom": classroom,
                "student": student,
                "report": context["report"],
                "summary": present.family_summary(
                    context["report"], context["summaries"], name=student.display_name
                ),
            },
        )


def _student_language(student: Student) -> str:
    """The student's language (their teacher set it), else their school's, else the page's."""
    return (
        languages.supported(student.language)
        or languages.supported(student.school.default_language)
        or translation.get_language()
    )


def _accommodation_labels(student: Student) -> list[str]:
    record = accommodations_of(student)
    return record.labels() if record else []


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
    stale = build.stale_reason()  # said at once; the beat task records it within minutes
    failed = stale or build.status == ReportBuild.Status.FAILED
    return JsonResponse(
        {
            "status": ReportBuild.Status.FAILED if stale else build.status,
            "label": ReportBuild.Status.FAILED.label if stale else build.get_status_display(),
            "percent": build.percent,
            "done": build.done,
            "total": build.total,
            "error": (stale or build.error) if failed else "",
        }
    )


# --- exports ---------------------------------------------------------------------------------------


@login_required
def class_skills_csv(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    students = Student.objects.filter(enrolments__classroom=classroom).order_by("display_name", "id")
    names = {student.pk: classroom.name for student in students}
    lines = exports.csv_lines(exports.SKILL_COLUMNS, exports.skill_rows(students, names, mode))
    return _csv_response(lines, _filename(classroom.name, "skills", mode=mode))


def _class_facts(classroom: Classroom, mode: str):
    return selectors.in_mode(LearningFact.objects.filter(classroom=classroom, student__isnull=False), mode)


@login_required
def class_answers_csv(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    rows = exports.answer_rows(_class_facts(classroom, mode), classroom.school.zone)
    lines = exports.csv_lines(exports.ANSWER_COLUMNS, rows)
    return _csv_response(lines, _filename(classroom.name, "answers", mode=mode))


@login_required
def class_sessions_csv(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    rows = exports.session_rows(selectors.class_sessions(classroom, mode), classroom.school.zone)
    return _csv_response(
        exports.csv_lines(exports.SESSION_COLUMNS, rows), _filename(classroom.name, "sessions", mode=mode)
    )


@login_required
def class_items_csv(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    rows = exports.item_rows(selectors.item_analysis(classroom, mode))
    return _csv_response(
        exports.csv_lines(exports.ITEM_COLUMNS, rows), _filename(classroom.name, "questions", mode=mode)
    )


@login_required
def class_xlsx(request, pk: int):
    """The class's exports as one spreadsheet: a sheet per view, the same figures as the CSV files (typed,
    with headers in the reader's language), and a last sheet saying what it counts."""
    classroom = _classroom(request, pk)
    mode = _mode(request)
    zone = classroom.school.zone
    students = Student.objects.filter(enrolments__classroom=classroom).order_by("display_name", "id")
    content = exports.workbook(
        [
            exports.Sheet(
                _("Students × skills"),
                exports.SKILL_COLUMNS,
                exports.skill_rows(students, {student.pk: classroom.name for student in students}, mode),
            ),
            exports.Sheet(
                _("Every answer"),
                exports.ANSWER_COLUMNS,
                exports.answer_rows(_class_facts(classroom, mode), zone),
            ),
            exports.Sheet(
                _("Sessions"),
                exports.SESSION_COLUMNS,
                exports.session_rows(selectors.class_sessions(classroom, mode), zone),
            ),
            exports.Sheet(
                _("Questions"),
                exports.ITEM_COLUMNS,
                exports.item_rows(selectors.item_analysis(classroom, mode)),
            ),
        ],
        exports.about_rows(classroom, present.mode_label(mode), zone),
        right_to_left=get_language_bidi(),
    )
    response = HttpResponse(content, content_type=XLSX)
    name = _filename(classroom.name, "report", mode=mode)
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response


@login_required
@require_GET
def class_items(request, pk: int):
    """Item analysis: every question the class answered (in live games, homework or both), hardest
    first."""
    classroom = _classroom(request, pk)
    mode = _mode(request)
    rows = selectors.item_analysis(classroom, mode)
    reviews = question_selectors.item_reviews(classroom.school_id)
    # Worded here, once per game and skill: a template spends far longer resolving each row's variables.
    games = {
        game: (catalog.game_label(game), definition(game).bank) for game in {row["game"] for row in rows}
    }
    skills = {skill: catalog.skill_label(skill) for skill in {row["skill"] for row in rows}}
    for row in rows:
        row["game_label"], bank = games[row["game"]]
        row["skill_label"] = skills[row["skill"]]
        row["right"] = f"{row['correct']}/{row['answered']} ({present.pct(row['share'])})"
        row["index"] = "" if row["discrimination"] is None else f"{row['discrimination']:.2f}"
        row["reviewable"] = bank is not None and bank.reviewable
        row["review"] = reviews.get((bank.kind, row["item_id"])) if row["reviewable"] else None
    context = _mode_context(mode)
    return render(
        request,
        "reports/class_items.html",
        {
            "classroom": classroom,
            "rows": rows,
            "review_url": reverse("reports:class_item_review", args=[classroom.pk]) + context["mode_query"],
            "min_students": items.MIN_STUDENTS,
            **context,
        },
    )


@login_required
@require_POST
def class_item_review(request, pk: int):
    """Flag a question for a look, retire it from the school's games, or put it back."""
    classroom = _classroom(request, pk)
    action = request.POST.get("action")
    status = {"flag": ItemReview.Status.FLAGGED, "retire": ItemReview.Status.RETIRED, "restore": None}
    if action not in status:
        messages.error(request, _("Unknown action."))
    else:
        try:
            game = definition(request.POST.get("game", "")) if is_game(request.POST.get("game", "")) else None
            question_services.item_review_set(
                school=classroom.school,
                kind=game.bank.kind if game and game.bank and game.bank.reviewable else "",
                key=request.POST.get("item_id", ""),
                status=status[action],
                by=request.user,
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            done = {
                "flag": _("Question flagged for a look."),
                "retire": _("Question retired: your school's games no longer ask it."),
                "restore": _("Question back in play."),
            }
            messages.success(request, done[action])
    mode = _mode(request)  # the form posts to a URL that keeps the page's filter
    return redirect(reverse("reports:class_items", args=[classroom.pk]) + _mode_context(mode)["mode_query"])


@login_required
def student_answers_csv(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    mode = _mode(request)
    facts = selectors.in_mode(LearningFact.objects.filter(classroom=classroom, student=student), mode)
    lines = exports.csv_lines(exports.ANSWER_COLUMNS, exports.answer_rows(facts, classroom.school.zone))
    return _csv_response(lines, _filename(student.display_name, classroom.name, "answers", mode=mode))


@login_required
def class_pdf(request, pk: int):
    classroom = _classroom(request, pk)
    mode = _mode(request)
    report = selectors.class_report(classroom, mode)
    context = {
        **report,
        "data": present.named_questions(report["data"]),
        "participation": selectors.class_participation(classroom) if mode != selectors.HOMEWORK else [],
        "weak_spots": selectors.class_weak_spots(classroom, mode),
        "mode": mode,
    }
    content = pdf.class_card(classroom=classroom, context=context)
    return _pdf_response(content, _filename(classroom.name, "report", mode=mode))


@login_required
def student_pdf(request, pk: int, student_id: int):
    classroom = _classroom(request, pk)
    student = _student(classroom, student_id)
    mode = _mode(request)
    context = selectors.student_report(student, classroom, mode)
    if context["report"] is None:
        raise Http404
    content = pdf.student_card(
        student=student,
        classroom=classroom,
        report=context["report"],
        summaries=context["summaries"],
        mode=mode,
    )
    return _pdf_response(content, _filename(student.display_name, classroom.name, mode=mode))


# --- the school admin --------------------------------------------------------------------------------


def _weekly_chart(weeks: list, *, title: str, described: str, **words) -> charts.Chart:
    """A line of weekly shares (0-1), its summary ``described`` with the first and last weeks' figures."""
    points = [(date_format(week, "j M"), value) for week, value in weeks]
    known = [value for _label, value in points if value is not None]
    summary = (
        described
        % {**words, "first": present.pct(known[0]), "last": present.pct(known[-1]), "n": len(points)}
        if known
        else _("No sessions in this period.")
    )
    return charts.line_chart(points, title=title, summary=summary)


@login_required
@require_GET
def school_review(request):
    school = _admin_school(request)
    classes = list(Classroom.objects.filter(school=school).order_by("name").values_list("pk", "name"))
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
            mode=form.cleaned_data["mode"] or selectors.BOTH,
            start=form.cleaned_data["start"],
            end=form.cleaned_data["end"],
        )
    review = selectors.school_review(school, filters)
    skill_charts = [
        _weekly_chart(
            weeks,
            title=_("%(skill)s: right answers per week") % {"skill": catalog.skill_label(skill)},
            described=_(
                "Weekly share of right answers in %(skill)s from %(first)s to %(last)s, %(n)d weeks."
            ),
            skill=catalog.skill_label(skill),
        )
        for skill, weeks in review["progress_by_skill"].items()
    ]
    skill_tables = [
        {"label": catalog.skill_label(skill), "weeks": weeks}
        for skill, weeks in review["progress_by_skill"].items()
    ]
    participation_chart = _weekly_chart(
        review["participation"],
        title=_("Students who took part, per week"),
        described=_(
            "Weekly share of the students who took part in their class's sessions, from %(first)s "
            "to %(last)s, %(n)d weeks."
        ),
    )
    attention_rows = [
        (
            catalog.shorten(row["classroom"].name, present.LABEL_SHOWN),
            row["share"],
            _("%(flagged)d of %(students)d students")
            % {"flagged": row["flagged"], "students": row["students"]},
        )
        for row in review["classes_attention"]
    ]
    attention_chart = (
        charts.bar_chart(
            attention_rows,
            title=_("Classes whose students need attention most"),
            summary="; ".join(f"{label}: {figure}" for label, _value, figure in attention_rows),
            good_high=False,
        )
        if attention_rows
        else None
    )
    for row in review["classes"]:
        row["spark_chart"] = charts.sparkline(
            row["spark"], title=_("Weekly participation of %(class)s") % {"class": row["classroom"].name}
        )
        # The share right in each skill (never one share across skills).
        row["shares"] = [_share_cell(row["skills"].get(skill)) for skill in review["skills"]]
    for item in review["attention"]:
        item["labels"] = present.attention_labels(item["reasons"], filters.mode)
    return render(
        request,
        "reports/school_review.html",
        {
            "school": school,
            "form": form,
            "review": review,
            "skill_charts": skill_charts,
            "skill_tables": skill_tables,
            "participation_chart": participation_chart,
            "attention_chart": attention_chart,
            "answered_skills": [catalog.skill_label(skill) for skill in review["skills"]],
            "query": request.GET.urlencode(),
            **_mode_context(filters.mode),
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
    mode = _mode(request)
    students = Student.objects.filter(school=school).order_by("display_name", "id")
    names: dict[int, str] = {}
    for student_id, name in (
        Student.objects.filter(school=school)
        .order_by("enrolments__classroom__name")
        .values_list("pk", "enrolments__classroom__name")
    ):
        if name:
            names[student_id] = f"{names[student_id]}; {name}" if student_id in names else name
    lines = exports.csv_lines(exports.SKILL_COLUMNS, exports.skill_rows(students, names, mode))
    return _csv_response(lines, _filename(school.name, "skills", mode=mode))


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


def _titled(chart: charts.Chart, title: str) -> charts.Chart:
    """The chart under the title a child reads (shown above it, and naming it for screen readers)."""
    chart.title = title
    return chart


@require_GET
def my_progress(request):
    student = request.student
    if not student:
        return redirect("join")
    mode = _mode(request)
    context = selectors.own_progress(student, mode)
    cards = []
    for report in context["reports"]:
        data = report.data
        notes = data.get("notes", [])
        practise = [_where(note) for note in notes if note["kind"] == "weakness"]
        cards.append(
            {
                "report": report,
                # One chart per skill, titled for a child; right answers only (a quality score is
                # never drawn as a share right).
                "charts": [
                    {
                        "chart": _titled(
                            item["chart"],
                            _("My %(skill)s: right answers in each game") % {"skill": item["label"]},
                        ),
                        "dom_id": f"my-trend-{report.classroom_id}-{item['skill']}",
                    }
                    for item in present.trend_charts(data.get("trend", []), name=student.display_name)
                ],
                "best": [_where(note) for note in notes if note["kind"] == "strength"][:3],
                "rising": any(note["kind"] == "rising" for note in notes),
                "practise": practise[0] if practise else "",
                "games": [catalog.game_label(row["game"]) for row in data.get("games", [])],
                "homework_games": data.get("totals", {}).get("homework_sessions", 0),
            }
        )
    return render(
        request,
        "reports/my_progress.html",
        {"student": student, "cards": cards, "waiting": context["waiting"], **_mode_context(mode)},
    )
