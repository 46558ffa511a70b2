"""Each report build's time is measured for the operators (/metrics: classplay_report_build_seconds), by
scope and outcome, whether the build ends or fails."""

from unittest import mock

import pytest

from reports import tasks
from reports.metrics import REPORT_BUILD_SECONDS
from reports.models import ReportBuild

pytestmark = pytest.mark.django_db


def _count(scope: str, outcome: str) -> float:
    for family in REPORT_BUILD_SECONDS.collect():
        for sample in family.samples:
            if sample.name.endswith("_count") and sample.labels == {"scope": scope, "outcome": outcome}:
                return sample.value
    return 0.0


def test_a_finished_build_is_timed(word_up_week, class_7b, riverside, client):
    before = _count("classroom", "done")
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    tasks.build_reports.apply(args=[str(build.pk)])
    assert _count("classroom", "done") == before + 1
    scraped = client.get("/metrics").content.decode()
    assert 'classplay_report_build_seconds_count{outcome="done",scope="classroom"}' in scraped


def test_a_failed_build_is_timed_as_failed(class_7b, riverside):
    before = _count("classroom", "failed")
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    with mock.patch.object(tasks, "classrooms_build", side_effect=ZeroDivisionError):
        tasks.build_reports.apply(args=[str(build.pk)])
    assert _count("classroom", "failed") == before + 1
