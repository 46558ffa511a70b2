"""Assignment and Grade Services: each student's score for a game or a homework launched through an LMS
link.

The score of a game session is the share of the student's answers that were right, as a percentage
(0–100, one decimal): right answers / answers, from the learning facts the session recorded. A student
who joined but answered nothing gets no score (the LMS shows the column empty, not a zero). A homework's
score is the student's best finished attempt's, scored the same way.

Each score is first written to ``ScoreSent``, then posted; a row marked sent is never posted again, so a
retried or redelivered task sends each score once. A homework's row takes a new score only when a later
attempt beats it, and is then posted (once) again.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem

from games.models import GameSession
from reports.models import LearningFact

from .lti import service_connector
from .models import PersonLink, ResourceLink, ScoreSent

SCORE_MAXIMUM = 100
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


def _percent(right: int, answered: int) -> float:
    return round(SCORE_MAXIMUM * right / answered, 1)


def _answers(by: tuple[str, ...] = ("student_id",), **filters):
    return (
        LearningFact.objects.filter(student__isnull=False, correct__isnull=False, **filters)
        .values(*by)
        .annotate(answered=Count("id"), right=Count("id", filter=Q(correct=True)))
    )


def session_scores(session_id: int) -> dict[int, float]:
    """Each student's share of right answers in the session, as a percentage (students who answered)."""
    return {
        row["student_id"]: _percent(row["right"], row["answered"]) for row in _answers(session_id=session_id)
    }


def assignment_scores(assignment_id: int) -> dict[int, float]:
    """Each student's best finished attempt at the homework, scored as a session is."""
    rows = _answers(
        ("student_id", "session_id"),
        session__assignment_id=assignment_id,
        session__status=GameSession.Status.FINISHED,
    )
    best: dict[int, float] = {}
    for row in rows:
        score = _percent(row["right"], row["answered"])
        best[row["student_id"]] = max(score, best.get(row["student_id"], score))
    return best


def scores_for_link(link: ResourceLink) -> dict[int, float]:
    if link.assignment_id is not None:
        return assignment_scores(link.assignment_id)
    if link.session_id is not None:
        return session_scores(link.session_id)
    return {}


def links_to_grade(session_id: int) -> list[int]:
    """The resource links whose scores this session may change, that may post scores (the LMS granted
    the score scope): the session's own links, or a homework attempt's assignment's links."""
    assignment_id = GameSession.objects.filter(pk=session_id).values_list("assignment_id", flat=True).first()
    if assignment_id is not None:
        links = ResourceLink.objects.filter(assignment_id=assignment_id)
    else:
        links = ResourceLink.objects.filter(session_id=session_id)
    return [link.pk for link in links if SCORE_SCOPE in link.ags_scopes]


@transaction.atomic
def scores_record(*, link_id: int) -> int:
    """Write the link's scores to ``ScoreSent``: new students' scores, and a homework student's better
    one (marked unsent, so it is posted). A game's recorded score never changes. Returns how many rows
    were written."""
    link = ResourceLink.objects.select_related("course").get(pk=link_id)
    scores = scores_for_link(link)
    people = dict(
        PersonLink.objects.filter(platform_id=link.course.platform_id, student_id__in=scores).values_list(
            "student_id", "lti_user_id"
        )
    )
    made = 0
    for student_id, score in scores.items():
        if student_id not in people:
            continue  # a student who never came from this LMS has no one to send the score to
        row, created = ScoreSent.objects.get_or_create(
            resource_link=link,
            student_id=student_id,
            defaults={
                "lti_user_id": people[student_id],
                "score_given": score,
                "score_maximum": SCORE_MAXIMUM,
            },
        )
        made += created or (link.assignment_id is not None and _raise_score(row.pk, score))
    return made


def _raise_score(score_id: int, score: float) -> bool:
    """A homework's better attempt: the row takes the new score and is posted again. Locked, so a post
    under way finishes first (it sent the old score; the new one goes next)."""
    row = ScoreSent.objects.select_for_update().get(pk=score_id)
    if score <= row.score_given:
        return False
    row.score_given, row.sent_at, row.last_error = score, None, ""
    row.save(update_fields=["score_given", "sent_at", "last_error"])
    return True


def _service(link: ResourceLink) -> AssignmentsGradesService:
    connector = service_connector(link.course.platform)
    data = {"scope": link.ags_scopes, "lineitems": link.lineitems_url, "lineitem": link.lineitem_url}
    return AssignmentsGradesService(connector, data)  # type: ignore[arg-type]


def _lineitem(link: ResourceLink, service: AssignmentsGradesService) -> LineItem | None:
    """The link's own line item (made by the LMS from the deep link), else one found or made by tag."""
    if link.lineitem_url:
        return None  # put_grade posts to the launch's line item
    found = service.find_or_create_lineitem(
        LineItem()
        .set_label(str(link.assignment or link.session or link.resource_link_id)[:100])
        .set_score_maximum(SCORE_MAXIMUM)
        .set_resource_link_id(link.resource_link_id)
        .set_tag(f"classplay-{link.pk}"),
        find_by="tag",
    )
    link.lineitem_url = found.get_id() or ""
    link.save(update_fields=["lineitem_url"])
    return found


def scores_post(*, link_id: int) -> int:
    """Post every unsent score of the link; each accepted one is marked at once. Raises on the first
    refusal, so the task retries the rest later."""
    link = ResourceLink.objects.select_related("course__platform", "session", "assignment").get(pk=link_id)
    pending = list(
        ScoreSent.objects.filter(resource_link=link, sent_at__isnull=True).values_list("pk", flat=True)
    )
    if not pending:
        return 0
    service = _service(link)
    lineitem = _lineitem(link, service)
    sent = 0
    for score_id in pending:
        sent += _post_one(service, lineitem, score_id)
    return sent


def _post_one(service: AssignmentsGradesService, lineitem: LineItem | None, score_id: int) -> int:
    with transaction.atomic():
        # Locked while posting: a second worker on the same score waits, then sees it sent.
        score = ScoreSent.objects.select_for_update().get(pk=score_id)
        if score.sent_at is not None:
            return 0
        grade = (
            Grade()
            .set_score_given(score.score_given)
            .set_score_maximum(score.score_maximum)
            .set_timestamp(timezone.now().isoformat())
            .set_activity_progress("Completed")
            .set_grading_progress("FullyGraded")
            .set_user_id(score.lti_user_id)
        )
        score.attempts += 1
        refused = None
        try:
            service.put_grade(grade, lineitem)
        except Exception as error:  # the platform's refusal or the network's: kept, then retried
            refused = error
            score.last_error = str(error)[:300]
        else:
            score.sent_at = timezone.now()
            score.last_error = ""
        score.save(update_fields=["attempts", "sent_at", "last_error"])
    if refused is not None:
        raise refused
    return 1
