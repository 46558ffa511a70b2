"""A report build whose worker was killed (or whose message was lost) does not stay at "Building 0%"
forever: the page says it failed and why, Rebuild starts a new build, and beat records the failure."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from reports import services
from reports.models import ReportBuild

pytestmark = pytest.mark.django_db


def _build(classroom, **fields):
    return ReportBuild.objects.create(
        scope=ReportBuild.Scope.CLASSROOM, school=classroom.school, classroom=classroom, **fields
    )


def _age(build, **fields):
    ReportBuild.objects.filter(pk=build.pk).update(**fields)
    build.refresh_from_db()
    return build


def test_a_build_whose_worker_died_shows_as_failed_and_rebuild_starts_a_new_one(
    client_of, ms_rivera, class_7b, django_capture_on_commit_callbacks
):
    long_ago = timezone.now() - timedelta(minutes=19)
    stuck = _age(
        _build(class_7b, status=ReportBuild.Status.RUNNING),
        started_at=long_ago,
        heartbeat_at=long_ago,
        created_at=long_ago,
    )
    client = client_of(ms_rivera)
    status = client.get(reverse("reports:build_status", args=[stuck.pk])).json()
    assert status["status"] == "failed" and "worker running it was lost" in status["error"]
    page = client.get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert f"/reports/builds/{stuck.pk}.json" not in page  # no progress bar for a build that will not move

    with django_capture_on_commit_callbacks(execute=False) as queued:
        client.post(reverse("reports:class_build", args=[class_7b.pk]))
    assert len(queued) == 1
    fresh = ReportBuild.objects.exclude(pk=stuck.pk).get()
    assert fresh.status == ReportBuild.Status.QUEUED
    stuck.refresh_from_db()
    assert stuck.status == ReportBuild.Status.FAILED and "Rebuild now" in stuck.error


def test_beat_marks_lost_builds_failed_and_leaves_live_ones(class_7b):
    now = timezone.now()
    lost_message = _age(_build(class_7b), created_at=now - timedelta(hours=2))
    killed = _age(
        _build(class_7b, status=ReportBuild.Status.RUNNING),
        started_at=now - timedelta(minutes=10),
        heartbeat_at=now - timedelta(minutes=10),
    )
    busy = _age(
        _build(class_7b, status=ReportBuild.Status.RUNNING),
        started_at=now - timedelta(minutes=10),
        heartbeat_at=now - timedelta(seconds=20),
    )
    waiting = _build(class_7b)
    assert services.builds_fail_stale() == 2
    for build in (lost_message, killed, busy, waiting):
        build.refresh_from_db()
    assert lost_message.status == killed.status == ReportBuild.Status.FAILED
    assert "never started" in lost_message.error and "was lost" in killed.error
    assert busy.status == ReportBuild.Status.RUNNING and waiting.status == ReportBuild.Status.QUEUED
    assert services.builds_fail_stale() == 0  # idempotent


def test_a_running_build_writes_its_heartbeat(class_7b):
    from reports.tasks import build_reports

    build = _build(class_7b)
    build_reports.apply(args=[str(build.pk)], task_id=str(build.pk))
    build.refresh_from_db()
    assert build.status == ReportBuild.Status.DONE and build.heartbeat_at is not None
