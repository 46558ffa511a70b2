"""A fresh database migrated the way production migrates it (``migrate``, with no test runner making the
cache tables), then signed in to while Redis cannot be reached. Run in a process of its own by
tests/security/test_redis_down.py, with the database and ``REDIS_URL`` in its environment:
``python -m tests.security.migrated_site [--from-0004]``. Prints its report (JSON) on the last line."""

from __future__ import annotations

import json
import os
import sys

import django

CACHE_TABLES = {"classplay_cache", "fallback"}


def migrate(*, from_0004: bool) -> None:
    from django.core.management import call_command

    if from_0004:  # a site migrated with 0004 as it first was: a cache table named "fallback"
        call_command("migrate", "classrooms", "0004", verbosity=0)
        call_command("createcachetable", "fallback", verbosity=0)
    call_command("migrate", verbosity=0)


def sign_ins() -> dict[str, int]:
    """The status of each sign-in step: class code, student sign-in, staff login."""
    from django.test import Client
    from django.urls import reverse

    from classrooms.models import Membership
    from tests.factories import PASSWORD, ClassroomFactory, MembershipFactory, UserFactory, enrolled_student

    teacher = UserFactory(email="rivera@riverside.example")
    membership = MembershipFactory(user=teacher, role=Membership.Role.TEACHER)
    classroom = ClassroomFactory(school=membership.school, teachers=[teacher])
    ava = enrolled_student(classroom, signin_code="4821")
    client = Client()
    code = client.post(reverse("join"), {"code": classroom.join_code})
    student = client.post(reverse("join_signin", args=[classroom.join_code, ava.pk]), {"code": "4821"})
    staff = Client().post(reverse("account_login"), {"login": teacher.email, "password": PASSWORD})
    return {"class code": code.status_code, "student": student.status_code, "staff": staff.status_code}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connection

    migrate(from_0004="--from-0004" in sys.argv)
    tables = sorted(CACHE_TABLES & set(connection.introspection.table_names()))
    print(json.dumps({"cache tables": tables, "sign-ins": sign_ins()}))


if __name__ == "__main__":
    main()
