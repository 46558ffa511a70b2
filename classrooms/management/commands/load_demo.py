"""Demo data for `make run`: one school, its admin, two teachers, three classes of 25 students.

Safe to run again: existing demo data is kept and the logins are printed again.
"""

from __future__ import annotations

import os
import random
import socket

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from classrooms import services
from classrooms.models import Classroom, Membership, School, Skill, User

SCHOOL_NAME = "Riverside Academy"
DEMO_PASSWORD = "classplay-demo"
STAFF = [
    ("admin@riverside.example", "Dr Priya Patel", Membership.Role.ADMIN),
    ("rivera@riverside.example", "Ms Elena Rivera", Membership.Role.TEACHER),
    ("okafor@riverside.example", "Mr Daniel Okafor", Membership.Role.TEACHER),
]
CLASSES = [
    ("7B English", "English", "Year 7", "rivera@riverside.example"),
    ("8A English", "English", "Year 8", "rivera@riverside.example"),
    ("7C Maths", "Maths", "Year 7", "okafor@riverside.example"),
]
GIVEN = [
    "Ava",
    "Ben",
    "Chloe",
    "Dev",
    "Emma",
    "Felix",
    "Grace",
    "Hamza",
    "Isla",
    "Jonah",
    "Kira",
    "Leo",
    "Maya",
    "Noah",
    "Olivia",
    "Pedro",
    "Quinn",
    "Rosa",
    "Sami",
    "Tara",
    "Umar",
    "Vera",
    "Wen",
    "Yusuf",
    "Zara",
    "Aisha",
    "Bruno",
    "Carmen",
    "Dmitri",
    "Elif",
    "Finn",
    "Gita",
    "Hugo",
    "Imani",
    "Jakub",
    "Lena",
    "Mateo",
    "Nia",
    "Oskar",
    "Priya",
]
FAMILY = [
    "Adams",
    "Baker",
    "Chen",
    "Diallo",
    "Evans",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ito",
    "Jensen",
    "Kowalski",
    "Lopez",
    "Mensah",
    "Novak",
    "Okoro",
    "Petrov",
    "Quispe",
    "Rossi",
    "Singh",
    "Tanaka",
    "Usman",
    "Varga",
    "Wong",
    "Yilmaz",
]


class Command(BaseCommand):
    help = "Create the demo school (idempotent) and print every demo login."

    def handle(self, *args, **options):
        if not settings.DEMO_ALLOWED:
            # Its staff accounts share one published password: never on a production site.
            raise CommandError("load_demo runs only with DEBUG on: its logins are published in the README.")
        with transaction.atomic():
            school = School.objects.filter(name=SCHOOL_NAME).first() or self.create_demo()
        self.print_logins(school)

    def create_demo(self) -> School:
        rng = random.Random(2026)  # the same demo roster every time
        users = {}
        for email, name, _role in STAFF:
            user = User.objects.create_user(email=email, password=DEMO_PASSWORD, display_name=name)
            EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
            users[email] = user
        admin_email = STAFF[0][0]
        school = services.school_create(name=SCHOOL_NAME, creator=users[admin_email])
        for email, _name, role in STAFF[1:]:
            Membership.objects.create(user=users[email], school=school, role=role)
        names = [(g, f) for g in GIVEN for f in FAMILY]
        rng.shuffle(names)
        for index, (class_name, subject, grade, teacher_email) in enumerate(CLASSES):
            classroom = services.classroom_create(
                school=school, teacher=users[teacher_email], name=class_name, subject=subject, grade=grade
            )
            for number, (given, family) in enumerate(names[index * 25 : (index + 1) * 25], start=1):
                levels = {skill: rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 5]) for skill in Skill.values}
                services.student_create(
                    classroom=classroom,
                    given_name=given,
                    family_name=family,
                    external_id=f"demo-{index + 1}-{number:02d}",
                    grade=grade,
                    levels=levels,
                    by=users[teacher_email],
                )
        return school

    def print_logins(self, school: School) -> None:
        out = self.stdout
        here, network = site_addresses()
        out.write(self.style.SUCCESS(f"\nClassplay demo is ready at {here}\n"))
        if network != here:
            out.write(f"Devices on this network open {network}\n")
        out.write(f"Staff sign in at {here}accounts/login/ (password for all: {DEMO_PASSWORD})")
        for email, name, role in STAFF:
            out.write(f"  {role.label:<13} {name:<18} {email}")
        out.write(f"\nStudents join at {network}join/ with the class code, then their name and code:")
        for classroom in Classroom.objects.filter(school=school).prefetch_related("enrolments__student"):
            students = sorted((e.student for e in classroom.enrolments.all()), key=lambda s: s.display_name)
            out.write(f"  {classroom.name}: class code {classroom.join_code}")
            for start in range(0, len(students), 5):
                row = students[start : start + 5]
                out.write("    " + "   ".join(f"{s.display_name:<12} {s.signin_code}" for s in row))
        out.write("")


def site_addresses() -> tuple[str, str]:
    """The site's address on this computer, and the one other devices use: the host and port `make run`
    serves on (``CLASSPLAY_HOST``, ``CLASSPLAY_PORT``); with every interface (0.0.0.0), the computer's
    own address on its network."""
    host = os.environ.get("CLASSPLAY_HOST") or "127.0.0.1"
    port = os.environ.get("CLASSPLAY_PORT") or "8000"
    if host in ("0.0.0.0", "::"):
        return f"http://127.0.0.1:{port}/", f"http://{network_address()}:{port}/"
    here = f"http://{host}:{port}/"
    return here, here


def network_address() -> str:
    """This computer's address on its network: the source address of a route to a private address (a UDP
    socket's connect sends nothing). 127.0.0.1 when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
