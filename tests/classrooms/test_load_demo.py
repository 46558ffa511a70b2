"""`manage.py load_demo` (run by `make run`): the demo school, and logins printed with the address the
site is really served on."""

from io import StringIO

import pytest
from django.core.management import call_command

from classrooms.management.commands import load_demo
from classrooms.models import Classroom, Membership, School, Student

pytestmark = pytest.mark.django_db


def _run() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_the_demo_school_is_made_once_and_its_logins_printed_every_time(client, monkeypatch):
    monkeypatch.delenv("CLASSPLAY_HOST", raising=False)
    monkeypatch.delenv("CLASSPLAY_PORT", raising=False)
    first = _run()
    school = School.objects.get(name=load_demo.SCHOOL_NAME)
    assert Classroom.objects.filter(school=school).count() == 3
    assert Student.objects.filter(school=school).count() == 75
    assert Membership.objects.filter(school=school).count() == 3
    assert "Classplay demo is ready at http://127.0.0.1:8000/" in first
    assert "Students join at http://127.0.0.1:8000/join/" in first
    for classroom in Classroom.objects.all():
        assert f"class code {classroom.join_code}" in first
        for enrolment in classroom.enrolments.select_related("student"):
            assert enrolment.student.signin_code in first
    assert _run() == first  # nothing made twice, the same logins
    assert Student.objects.count() == 75
    assert client.login(email="rivera@riverside.example", password=load_demo.DEMO_PASSWORD)


def test_the_logins_name_the_port_and_host_the_site_is_served_on(monkeypatch):
    monkeypatch.setenv("CLASSPLAY_HOST", "127.0.0.1")
    monkeypatch.setenv("CLASSPLAY_PORT", "8123")
    printed = _run()
    # The default port nowhere in an address (a student's 4-digit code may be 8000: CI once met one).
    assert "ready at http://127.0.0.1:8123/" in printed and ":8000" not in printed
    assert "Staff sign in at http://127.0.0.1:8123/accounts/login/" in printed

    monkeypatch.setenv("CLASSPLAY_HOST", "0.0.0.0")
    monkeypatch.setattr(load_demo, "network_address", lambda: "192.168.1.20")
    printed = _run()
    assert "ready at http://127.0.0.1:8123/" in printed
    assert "Devices on this network open http://192.168.1.20:8123/" in printed
    assert "Students join at http://192.168.1.20:8123/join/" in printed


def test_the_network_address_is_an_ipv4_address_of_this_computer():
    address = load_demo.network_address()
    assert address.count(".") == 3 and all(part.isdigit() for part in address.split("."))
