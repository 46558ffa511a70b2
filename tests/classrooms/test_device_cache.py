"""The game sockets' cache of who a student's device is (classrooms.device_cache): it answers as the
database does, and every change that could make it wrong forgets what it held."""

from datetime import timedelta
from importlib import import_module
from unittest.mock import patch

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from classrooms import device_cache, languages, services
from classrooms.middleware import STUDENT_SESSION_KEY, STUDENT_VERSION_KEY

pytestmark = pytest.mark.django_db


def _device_of(student, **extra) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[STUDENT_SESSION_KEY] = student.pk
    store[STUDENT_VERSION_KEY] = student.signin_version
    for key, value in extra.items():
        store[key] = value
    store.save()
    return store.session_key


def _one(key):
    return device_cache.devices([key])[0]


def test_a_signed_in_device_is_its_student_with_the_language_it_picked(ava):
    key = _device_of(ava, **{languages.LANGUAGE_CHOICE_KEY: "es"})
    device = _one(key)
    assert device.student.pk == ava.pk
    assert device.chosen_language == "es"
    assert device.student.school.default_language == ava.school.default_language


def test_unknown_missing_or_studentless_sessions_are_nobody(ava):
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["something"] = 1
    store.save()
    assert device_cache.devices([None, "no-such-session", store.session_key]) == [None, None, None]


def test_a_second_look_up_reads_nothing_from_the_database(ava, django_assert_num_queries):
    key = _device_of(ava)
    _one(key)
    with django_assert_num_queries(0):
        assert _one(key).student.pk == ava.pk


def test_many_devices_are_looked_up_with_one_query_each_for_sessions_and_students(
    ava, ben, django_assert_num_queries
):
    keys = [_device_of(ava), _device_of(ben), _device_of(ava)]
    with django_assert_num_queries(2):
        found = device_cache.devices(keys)
    assert [d.student.pk for d in found] == [ava.pk, ben.pk, ava.pk]


def test_signing_out_forgets_the_device(client, ava):
    key = _device_of(ava)
    assert _one(key) is not None
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    client.post(reverse("student_signout"))
    assert _one(key) is None


def test_picking_a_language_on_the_device_is_seen_at_once(client, ava):
    key = _device_of(ava)
    assert _one(key).chosen_language == ""
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    assert _one(key).chosen_language == "ar"


def test_a_new_code_for_the_student_signs_the_device_out(ava):
    key = _device_of(ava)
    assert _one(key) is not None
    services.student_new_signin_code(student=ava)
    assert _one(key) is None


def test_a_new_class_code_signs_the_class_devices_out(class_7b, ava, django_capture_on_commit_callbacks):
    key = _device_of(ava)
    assert _one(key) is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.classroom_new_join_code(classroom=class_7b)
    assert _one(key) is None


def test_the_teacher_setting_the_students_language_is_seen_at_once(ava):
    key = _device_of(ava)
    assert _one(key).student.language == ""
    services.student_language_set(student=ava, language="pt-br")
    assert _one(key).student.language == "pt-br"


def test_a_new_school_default_language_is_seen_at_once(riverside, ava):
    key = _device_of(ava)
    _one(key)
    services.school_update(school=riverside, name=riverside.name, time_zone="", default_language="es")
    assert _one(key).student.school.default_language == "es"


def test_a_student_removed_from_their_last_class_is_nobody(class_7b, ava):
    key = _device_of(ava)
    assert _one(key) is not None
    services.student_remove(student=ava, classroom=class_7b)
    assert _one(key) is None


def test_an_expired_session_is_nobody_even_while_cached(ava):
    key = _device_of(ava)
    assert _one(key) is not None
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    with patch("classrooms.device_cache.time.time", return_value=timezone.now().timestamp() + 13 * 3600):
        assert _one(key) is None


def test_a_student_taken_off_the_games_class_has_no_seat_though_still_cached(
    class_7b, class_7c, ms_rivera, ava, ben
):
    """Whether the student is still in the class is not cached: the seat's query checks it each time."""
    from classrooms.models import Enrolment
    from games import selectors
    from tests.factories import started_session

    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    Enrolment.objects.create(student=ava, classroom=class_7c)  # still in another class: not deleted
    key = _device_of(ava)
    assert selectors.players_for_devices([(key, session.pk)])[0] is not None
    services.student_remove(student=ava, classroom=class_7b)
    assert _one(key) is not None  # the device is still Ava's
    assert selectors.players_for_devices([(key, session.pk)]) == [None]
