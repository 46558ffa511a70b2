"""Line-Up's own pages (mounted at /games/faces/): checking that a finished match was fair.

* ``verify/``: public. Paste or upload a match record (the JSON ``manage.py verify_faces`` reads) and the
  server replays it from its seed: the commitment, every answer, naming and round result, and the faces.
* ``verify/<table id>/``: the same check for a match played here, straight from the database, once the match
  is over (before that the seed is secret). Only the two players and the class's staff may open it: a match
  record names students.
* ``verify/<table id>/record.json``: that match's record, to check anywhere else.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from games.engine import core
from games.engine.faces import Faces, verify
from games.engine.faces.art import face_svg
from games.engine.faces.features import ANY_FEATURE_BY_KEY, describe
from games.engine.faces.verify import RECORD_FORMAT, record_problems
from games.models import GameTable, Participant
from games.selectors import session_for_staff

app_name = "faces"

MAX_RECORD_BYTES = 2 * 1024 * 1024


class RecordForm(forms.Form):
    record = forms.CharField(
        label=_("Match record (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"}),
        help_text=_("Paste the whole record, as downloaded at the end of the match."),
    )
    file = forms.FileField(label=_("…or upload the record file"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get("record") or ""
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(gettext("That file is too large to be a match record."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(gettext("That file is not a text (UTF-8) file.")) from None
        if not text.strip():
            raise forms.ValidationError(gettext("Paste a match record or choose its file."))
        if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
            raise forms.ValidationError(gettext("That is too long to be a match record."))
        try:
            record = json.loads(text)
        except ValueError as error:
            reason = {"error": getattr(error, "msg", str(error))}
            raise forms.ValidationError(gettext("That is not JSON (%(error)s).") % reason) from None
        problems = record_problems(record)
        if problems:
            raise forms.ValidationError(gettext(problems[0]["message"]) % problems[0]["params"])
        cleaned["parsed"] = record
        return cleaned


# ------------------------------------------------------------------------------------------------------
# The check, shaped for the page
# ------------------------------------------------------------------------------------------------------


def check_record(record: dict[str, Any]) -> dict[str, Any]:
    """Verify ``record`` and gather what the page shows: the verdict, the problems (translated), the
    commitment, each round's two faces as the seed gives them, and the recomputed answers."""
    report = verify(record["config"], record["seed"], record["salt"], record["commitment"], record["log"])
    problems = [gettext(detail["message"]) % detail["params"] for detail in report["problem_details"]]
    names: dict[str, str] = {}
    boards: list[list[dict[str, Any]]] = []
    try:
        state = Faces().setup(record["config"], record["seed"])
    except (ValueError, TypeError, KeyError):
        state = None
    if state is not None:
        names = dict(state["names"])
        boards = [round_["board"] for round_ in state["rounds"]]
    played = list(report["rounds"])
    if report["ok"] and state is not None:
        # A match ended by a resignation or a timeout mid-round: that round's two faces are shown too.
        log = [{k: v for k, v in entry.items() if k != "events"} for entry in record["log"]]
        final = core.replay(Faces(), record["config"], record["seed"], log)
        unfinished = (final.get("result") or {}).get("unfinished_round_faces")
        if unfinished:
            played.append({"round": final["round"] + 1, "faces": unfinished, "unfinished": True})
    rounds = []
    for round_ in played:
        board = {face["id"]: face for face in boards[round_["round"] - 1]} if boards else {}
        faces = []
        for player, face_id in round_["faces"].items():
            face = board.get(face_id)
            if face is None:
                continue
            description = describe(face, gettext)
            faces.append(
                {
                    "player": names.get(player, player),
                    "name": face["name"],
                    "description": description,
                    # safe: drawn from palette colours and numbers; the title is escaped by face_svg
                    "svg": mark_safe(face_svg(face, title=description)),
                }
            )
        unfinished_round = round_.get("unfinished", False)
        rounds.append({"number": round_["round"], "faces": faces, "unfinished": unfinished_round})
    answers = [
        {
            "round": answer["round"],
            "player": names.get(answer["player"], answer["player"]),
            "question": gettext(ANY_FEATURE_BY_KEY[answer["question"]].question),
            "answer": answer["answer"],
        }
        for answer in report["answers"]
    ]
    with_events = sum(1 for entry in record["log"] if isinstance(entry, dict) and "events" in entry)
    finished = report["winner"] is not None
    return {
        "ok": report["ok"] and finished,
        "replays": report["ok"],
        "finished": finished,
        "problems": problems,
        "commitment": record["commitment"],
        "expected_commitment": report["expected_commitment"],
        "commitment_ok": report["commitment_ok"],
        "seed": record["seed"],
        "salt": record["salt"],
        "winner": names.get(report["winner"], report["winner"]) if finished else None,
        "rounds": rounds,
        "answers": answers,
        "compared": with_events,
        "entries": len(record["log"]),
        "state_hash": report.get("final_state_hash"),
    }


def table_record(table: GameTable) -> dict[str, Any]:
    """A finished table as a match record (the format ``manage.py verify_faces`` reads): its config, seed,
    salt and commitment, and its log with the events the server produced for each entry."""
    log = []
    for entry in table.log.order_by("seq"):
        item = entry.as_log_entry()
        if entry.kind != entry.Kind.SETUP:
            item["events"] = entry.events
        log.append(item)
    return {
        "format": RECORD_FORMAT,
        "game": "faces",
        "table": table.number,
        "config": table.config,
        "seed": table.seed,
        "salt": table.state["salt"],
        "commitment": table.state["commitment"],
        "log": log,
    }


def _finished_table(request: HttpRequest, table_id: int) -> GameTable:
    """The table, if it is a Line-Up table this visitor took part in or teaches, and its match is over."""
    table = get_object_or_404(GameTable.objects.select_related("session"), pk=table_id, session__game="faces")
    allowed = False
    if request.user.is_authenticated and session_for_staff(request.user, table.session_id) is not None:
        allowed = True
    student = getattr(request, "student", None)
    if not allowed and student:
        allowed = Participant.objects.filter(table=table, student=student).exists()
    if not allowed:
        raise Http404  # do not confirm that someone else's match exists
    if table.status == GameTable.Status.PLAYING:
        raise PermissionDenied(
            gettext("This match is still being played: its seed is published when it ends.")
        )
    return table


# ------------------------------------------------------------------------------------------------------
# Views
# ------------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def verify_page(request: HttpRequest) -> HttpResponse:
    form = RecordForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        result = check_record(form.cleaned_data["parsed"])
    return render(
        request,
        "games/faces/verify.html",
        {"form": form, "result": result},
    )


def verify_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _finished_table(request, table_id)
    result = check_record(table_record(table))
    return render(
        request,
        "games/faces/verify.html",
        {
            "form": None,
            "result": result,
            "table": table,
            "ended_early": table.status == GameTable.Status.ENDED,
        },
    )


def record_download(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _finished_table(request, table_id)
    response = JsonResponse(table_record(table), json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = (
        f'attachment; filename="line-up-session{table.session_id}-table{table.number}.json"'
    )
    return response


urlpatterns = [
    path("verify/", verify_page, name="verify"),
    path("verify/<int:table_id>/", verify_table, name="verify_table"),
    path("verify/<int:table_id>/record.json", record_download, name="record"),
]
