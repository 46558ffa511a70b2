"""Session pages. Thin: permissions, forms and rendering here; every write goes through games.services.

Teacher controls are plain POST forms (they work without script); the console's script posts the same
forms with fetch and asks for JSON, and the websocket then brings every screen up to date."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.once import once
from classrooms.selectors import classrooms_for_user, device_accommodations, locked_cards
from questions.selectors import visible_vocabulary_lists, visible_word_lists

from . import results_panels, selectors, services, speech
from .definitions import definition, is_game
from .forms import SessionForm
from .models import GameSession, GameTable, Participant


def _staff_session(request, pk: int) -> GameSession:
    """The session if this person teaches the class or runs its school; otherwise 404."""
    session = selectors.session_for_staff(request.user, pk)
    if session is None:
        raise Http404
    return session


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _done(request, session: GameSession, message: str | None = None, error: str | None = None):
    if _wants_json(request):
        return JsonResponse(
            {"ok": error is None, "message": error or message or ""}, status=400 if error else 200
        )
    if error:
        messages.error(request, error)
    elif message:
        messages.success(request, message)
    return redirect("games:console", pk=session.pk)


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


# --- scheduling ---------------------------------------------------------------------------------------


def _managed_classrooms(request):
    return classrooms_for_user(request.user).select_related("school")


@login_required
@once
def session_new(request):
    classrooms = _managed_classrooms(request)
    if not classrooms.exists():
        messages.info(request, _("Create a class first, then schedule a game for it."))
        return redirect("dashboard")
    chosen = classrooms.filter(pk=request.GET.get("classroom") or 0).first()
    form = SessionForm(
        request.POST or None,
        classrooms=classrooms,
        word_lists=visible_word_lists(request.user),
        vocabulary_lists=visible_vocabulary_lists(request.user),
        initial=SessionForm.initial_for(classroom=chosen or classrooms.first()) | _game_initial(request),
        offers_play_now=True,
        teacher=request.user,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            "classroom": data["classroom"],
            "by": request.user,
            "game": data["game"],
            "planned_minutes": data["planned_minutes"],
            "settings": data["settings"],
            "title": data["title"],
            "arrangement": data["arrangement"],
        }
        try:
            if form.play_now:
                session = services.session_play_now(**fields)
            else:
                session = services.session_schedule(scheduled_for=data["scheduled_for"], **fields)
        except ValidationError as error:
            form.add_error(None, _error_text(error))
        else:
            if form.play_now:
                messages.success(
                    request, _("The lobby is open: your students see the game on their devices.")
                )
            else:
                messages.success(request, _("Scheduled. The lobby opens 10 minutes before the start."))
            return redirect("games:console", pk=session.pk)
    return render(
        request,
        "games/session_form.html",
        {"form": form, "heading": _("Schedule a game")},
        status=400 if form.errors else 200,
    )


def _game_initial(request) -> dict:
    game = request.GET.get("game")
    return {"game": game} if is_game(game) else {}


@login_required
def session_edit(request, pk: int):
    session = _staff_session(request, pk)
    if session.status != GameSession.Status.SCHEDULED:
        messages.error(request, _("Only a session that has not opened yet can be changed."))
        return redirect("games:console", pk=pk)
    form = SessionForm(
        request.POST or None,
        classrooms=_managed_classrooms(request),
        initial=SessionForm.initial_for(session),
        teacher=request.user,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.session_update(
                session=session,
                by=request.user,
                classroom=data["classroom"],
                game=data["game"],
                scheduled_for=data["scheduled_for"],
                planned_minutes=data["planned_minutes"],
                settings=data["settings"],
                title=data["title"].strip()[:80],
                arrangement=data["arrangement"],
            )
        except ValidationError as error:
            form.add_error(None, _error_text(error))
        else:
            messages.success(request, _("Saved."))
            return redirect("games:console", pk=pk)
    context = {"form": form, "heading": _("Change this game"), "session": session}
    return render(request, "games/session_form.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def session_cancel(request, pk: int):
    session = _staff_session(request, pk)
    try:
        services.session_cancel(session=session, by=request.user)
    except ValidationError as error:
        return _done(request, session, error=_error_text(error))
    messages.success(request, _("The game is cancelled."))
    return redirect("dashboard")


@login_required
@require_POST
def session_duplicate(request, pk: int):
    session = _staff_session(request, pk)
    copy = services.session_duplicate(session=session, by=request.user)
    messages.success(request, _("A copy is scheduled a week later. Change anything you like."))
    return redirect("games:edit", pk=copy.pk)


# --- the teacher console and its controls -------------------------------------------------------------


@login_required
def console(request, pk: int):
    session = _staff_session(request, pk)
    context = {
        "session": session,
        "spec": definition(session.game).spec,
        "log": selectors.control_log(session.pk),
        "settings_rows": selectors.settings_display(session),
        "participants": selectors.session_participants(session),
        "live_role": "teacher",
        # A student whose card is locked on a new device waits for the teacher here too.
        "locked_cards": locked_cards([session.classroom_id]),
    }
    return render(request, "games/console.html", context)


SESSION_CONTROLS = {
    "open": lambda s, u: services.session_open_lobby(session=s, by=u),
    "start": lambda s, u: services.session_start(session=s, by=u),
    "pause": lambda s, u: services.session_pause(session=s, by=u),
    "resume": lambda s, u: services.session_resume(session=s, by=u),
    "end": lambda s, u: services.session_end(session=s, by=u),
    "arrange": lambda s, u: services.session_arrange(session=s, by=u),
    "lock": lambda s, u: services.session_lock_lobby(session=s, by=u, locked=True),
    "unlock": lambda s, u: services.session_lock_lobby(session=s, by=u, locked=False),
}


@login_required
@require_POST
def session_control(request, pk: int, kind: str):
    session = _staff_session(request, pk)
    control = SESSION_CONTROLS.get(kind)
    if control is None:
        raise Http404
    try:
        control(session, request.user)
    except ValidationError as error:
        return _done(request, session, error=_error_text(error))
    if kind == "end":
        return redirect("games:results", pk=pk) if not _wants_json(request) else _done(request, session)
    return _done(request, session)


PARTICIPANT_CONTROLS = {
    "admit": services.participant_admit,
    "remove": services.participant_remove,
    "readmit": services.participant_readmit,
}


@login_required
@require_POST
def participant_control(request, pk: int, participant_pk: int, kind: str):
    session = _staff_session(request, pk)
    participant = get_object_or_404(Participant, pk=participant_pk, session=session)
    if kind == "plan":
        table = _int(request.POST.get("table"), 0) or None
        try:
            services.participant_plan(participant=participant, by=request.user, table=table)
        except ValidationError as error:
            return _done(request, session, error=_error_text(error))
        return _done(request, session)
    control = PARTICIPANT_CONTROLS.get(kind)
    if control is None:
        raise Http404
    control(participant=participant, by=request.user)
    return _done(request, session)


@login_required
@require_POST
def table_control(request, pk: int, table_pk: int, kind: str):
    session = _staff_session(request, pk)
    # The services lock and read the table themselves: its state is not decoded here too.
    table = get_object_or_404(
        GameTable.objects.only("id", "session_id", "number"), pk=table_pk, session=session
    )
    try:
        if kind == "extend":
            services.table_extend(table=table, by=request.user, seconds=_int(request.POST.get("seconds"), 30))
        elif kind == "advance":
            services.table_advance(table=table, by=request.user)
        elif kind == "end":
            services.table_end(table=table, by=request.user)
        else:
            raise Http404
    except ValidationError as error:
        return _done(request, session, error=_error_text(error))
    return _done(request, session)


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@login_required
def projector(request, pk: int):
    session = _staff_session(request, pk)
    return render(request, "games/projector.html", {"session": session, "live_role": "projector"})


# --- after the session -----------------------------------------------------------------------------


@login_required
def results(request, pk: int):
    session = _staff_session(request, pk)
    context = {
        "session": session,
        **selectors.session_results(session),
        # The other apps' panels (the reports: who needs help, the answers per option).
        "panels": results_panels.panels_for(session),
    }
    return render(request, "games/results.html", context)


@login_required
def replay(request, pk: int, number: int):
    session = _staff_session(request, pk)
    table = get_object_or_404(GameTable, session=session, number=number)
    steps = selectors.replay_steps(table)
    return render(request, "games/replay.html", {"session": session, "table": table, "steps": steps})


@login_required
def replay_step(request, pk: int, number: int, step: int):
    session = _staff_session(request, pk)
    table = get_object_or_404(GameTable, session=session, number=number)
    try:
        payload = selectors.replay_step(table, step)
    except IndexError:
        raise Http404 from None
    return JsonResponse(payload)


# --- the student's device ---------------------------------------------------------------------------


def play(request, pk: int):
    student = request.student
    if not student:
        return redirect(f"{reverse('join')}?next={request.path}")
    session = get_object_or_404(GameSession.objects.select_related("classroom"), pk=pk)
    if not selectors.student_may_see(student, session):
        raise Http404
    participant = selectors.participant_for_student(student, session.pk)
    context = {
        "session": session,
        "participant": participant,
        "live_role": "player",
    }
    return render(request, "games/play.html", context)


@require_POST
@ratelimit(
    key=lambda _group, request: f"speak:{request.session.get(STUDENT_SESSION_KEY)}",
    rate=speech.RATE,
    block=False,
)
def play_speak(request, pk: int):
    """The server's spoken audio of one piece of text on the student's own screen (read aloud)."""
    student = request.student
    if not student or not device_accommodations(student)["read_aloud"]:
        raise Http404
    if getattr(request, "limited", False):
        return HttpResponse(_("Too many requests: wait a moment."), status=429)
    text = speech.normalise(request.POST.get("text", ""))
    shown = selectors.strings_on_student_screen(student, pk)
    if shown is None:
        raise Http404
    if not speech.may_speak(text, shown["game"], shown["strings"]):
        return HttpResponse(_("Only what is on your screen can be read aloud."), status=403)
    try:
        audio = speech.speech_file(text, speech.voice_for(get_language()))
    except speech.SpeechUnavailable:
        return HttpResponse(_("Spoken audio is not available on this server."), status=503)
    response = FileResponse(audio.open("rb"), content_type="audio/wav")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_POST
def play_join(request, pk: int):
    student = request.student
    if not student:
        return redirect("join")
    session = get_object_or_404(GameSession, pk=pk)
    try:
        services.session_join(session=session, student=student)
    except PermissionDenied as error:
        messages.error(request, str(error))
        return redirect("student_home")  # the game's page is not theirs to open: say why at home
    except ValidationError as error:
        messages.error(request, _error_text(error))
    return redirect("games:play", pk=pk)


def open_sessions(request):
    """The student's device fetches this when told a game of their classes opened or ended."""
    student = request.student
    if not student:
        return JsonResponse({"sessions": []}, status=403)
    response = JsonResponse({"sessions": selectors.open_game_cards(student)})
    response["Cache-Control"] = "no-store"
    return response


# --- about each game ------------------------------------------------------------------------------


def game_page(request, game: str, page: str):
    if not is_game(game):
        raise Http404
    try:
        template = get_template(f"games/{game}/{page}.html")
    except TemplateDoesNotExist:
        raise Http404 from None
    context = {"game": game, "game_title": definition(game).title, "spec": definition(game).spec}
    return HttpResponse(template.render(context, request))
