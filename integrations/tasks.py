"""Celery tasks of the LMS integration. They take ids, are queued after the commit that asks for them,
and are idempotent (a roster sync applies the LMS's list; a score marked sent is never posted again).

* ``integrations.post_scores`` records and posts one resource link's scores (a game's, or a homework's
  best attempts), retried with backoff until the platform accepts them (and re-queued nightly while any
  is unsent);
* ``integrations.sync_roster`` brings one class list in line with its LMS course;
* ``integrations.nightly`` syncs every linked course, re-queues unsent scores and drops expired
  launch values.
"""

from __future__ import annotations

from functools import partial

from celery import shared_task
from django.db import transaction
from pylti1p3.exception import LtiException, LtiServiceException
from requests import RequestException

from . import grades, roster
from .lti import purge_expired_launch_values
from .models import CourseLink, ScoreSent

#: The platform may be down or refuse for a while: retry with backoff up to an hour apart (the nightly
#: task picks up whatever is still unsent after that).
RETRY_UNTIL_ACCEPTED = {
    "autoretry_for": (LtiException, LtiServiceException, RequestException),
    "max_retries": 12,
    "retry_backoff": 30,
    "retry_backoff_max": 3600,
    "retry_jitter": True,
}


@shared_task(name="integrations.post_scores", soft_time_limit=110, time_limit=120, **RETRY_UNTIL_ACCEPTED)
def post_scores(link_id: int) -> int:
    grades.scores_record(link_id=link_id)
    return grades.scores_post(link_id=link_id)


@shared_task(name="integrations.sync_roster", soft_time_limit=110, time_limit=120, **RETRY_UNTIL_ACCEPTED)
def sync_roster(course_id: int) -> dict:
    result = roster.roster_sync(course_id=course_id)
    return {
        "added": result.added,
        "renamed": result.renamed,
        "removed": result.removed,
        "skipped": len(result.skipped),
    }


def queue_session_scores(session_id: int) -> None:
    """After the session's facts are stored: post its scores to every LMS link that launched it (for a
    homework attempt, every link to its homework)."""
    for link_id in grades.links_to_grade(session_id):
        transaction.on_commit(partial(post_scores.delay, link_id))


@shared_task(name="integrations.nightly", soft_time_limit=290, time_limit=300)
def nightly() -> int:
    courses = list(CourseLink.objects.exclude(memberships_url="").values_list("pk", flat=True))
    for course_id in courses:
        sync_roster.delay(course_id)
    unsent = ScoreSent.objects.filter(sent_at__isnull=True).values_list("resource_link_id", flat=True)
    for link_id in set(unsent):
        post_scores.delay(link_id)
    purge_expired_launch_values()
    return len(courses)
