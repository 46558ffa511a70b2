"""Named people, so permission tests read like sentences.

Riverside school: Dr Patel (school admin), Ms Rivera (teacher of 7B), her students Ava and Ben,
Cleo (a student of 7C, another class at Riverside, taught by Mr Moss).
Hillside school: Mr Okafor (teacher), Mrs Lindqvist (school admin), Dan (a student of Hillside 9A).
"""

import atexit
import hashlib
import itertools
import os
import shutil
import tempfile
import types
from pathlib import Path

import pytest

from classrooms.models import Membership
from config import msgfmt

from .factories import ClassroomFactory, MembershipFactory, SchoolFactory, UserFactory, enrolled_student


def _private_embedded_broker() -> None:
    """Tasks the tests queue (a move's facts, a finished session's report build) go to a folder of this
    test run, never to the developer's var/celery, where `make run`'s worker would pick them up. A
    worker a test starts inherits the folder through ``CLASSPLAY_VAR_DIR``."""
    if os.environ.get("REDIS_URL"):
        return
    from config.celery import app

    var = Path(tempfile.mkdtemp(prefix="classplay-test-var-"))
    atexit.register(shutil.rmtree, var, ignore_errors=True)
    os.environ["CLASSPLAY_VAR_DIR"] = str(var)
    folders = {name: var / "celery" / name for name in ("queue", "processed", "results", "control")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    app.conf.broker_transport_options = {
        **app.conf.broker_transport_options,
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
    }
    app.conf.result_backend = f"file://{folders['results']}"


_private_embedded_broker()
# The translation catalogs as the pages will read them, however pytest was started (make test does it too).
msgfmt.compile_all()


@pytest.fixture(autouse=True)
def _isolated(tmp_path):
    """Each test starts with empty media and an empty cache (rate-limit counters live there).

    Takes no ``settings`` fixture on purpose: some engine tests use ``settings`` as a parameter name."""
    from channels.layers import channel_layers
    from django.conf import settings as django_settings
    from django.core.cache import cache
    from django.test import override_settings
    from django.utils import translation

    from games import fields, outbox
    from games.definitions import wordup

    cache.clear()
    wordup.forget_kept_banks()
    outbox.reset()  # a broker or channel layer a test broke is not "down" for the next test
    with override_settings(MEDIA_ROOT=tmp_path / "media"):
        yield
    cache.clear()
    # The shared state parts this process believes stored: a test that runs its on-commit callbacks
    # (``django_capture_on_commit_callbacks(execute=True)``) inside the transaction rolled back at its end
    # left a part believed stored that the next test's database no longer had.
    fields.forget_stored_parts()
    # A fresh channel layer per test: each async test runs its own event loop, and a Redis layer keeps
    # locks and connections bound to the loop that made them.
    channel_layers.backends = {}
    _channels_closes_connections_again()
    # A request in another language leaves it active in this thread (LocaleMiddleware does not put it
    # back): a page the next test renders outside a request would come out in Arabic.
    translation.activate(django_settings.LANGUAGE_CODE)


def _channels_closes_connections_again() -> None:
    """Channels' test communicator swaps ``channels.db.close_old_connections`` for a no-op around each
    send and receive with ``mock.patch``: two devices' sends overlapping (``asyncio.gather``) restore in
    the wrong order and leave the no-op for good, so every later test's database thread kept its
    connections whatever happened on them (a test of exactly that failed in the whole suite only)."""
    import channels.db
    import django.db

    channels.db.close_old_connections = django.db.close_old_connections


@pytest.fixture
def eager_celery():
    """Run queued tasks in the process (the real worker is tested in tests/reports/test_worker.py)."""
    from config.celery import app

    old = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield app
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


@pytest.fixture
def fixed_seeds(monkeypatch, request):
    """New tables' seeds (secret and random in the product) made from the test's name instead: a test
    whose assertions depend on how its game falls out plays the same game every run."""
    from games.services import lobby

    count = itertools.count()

    def token_hex(nbytes: int = 32) -> str:
        return hashlib.sha256(f"{request.node.nodeid}:{next(count)}".encode()).hexdigest()[: 2 * nbytes]

    monkeypatch.setattr(lobby, "secrets", types.SimpleNamespace(token_hex=token_hex))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """With PostgreSQL, connections come from psycopg's pool: empty it before the test database is
    dropped (a pooled connection left open would keep the database in use)."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all(initialized_only=True):
            if getattr(connection, "pool", None) is not None:
                connection.close_pool()


@pytest.fixture
def riverside(db):
    return SchoolFactory(name="Riverside Academy")


@pytest.fixture
def hillside(db):
    return SchoolFactory(name="Hillside School")


def _staff(school, email, name, role):
    user = UserFactory(email=email, display_name=name)
    MembershipFactory(user=user, school=school, role=role)
    return user


@pytest.fixture
def ms_rivera(riverside):
    return _staff(riverside, "rivera@riverside.example", "Ms Rivera", Membership.Role.TEACHER)


@pytest.fixture
def mr_moss(riverside):
    return _staff(riverside, "moss@riverside.example", "Mr Moss", Membership.Role.TEACHER)


@pytest.fixture
def dr_patel(riverside):
    return _staff(riverside, "patel@riverside.example", "Dr Patel", Membership.Role.ADMIN)


@pytest.fixture
def mr_okafor(hillside):
    return _staff(hillside, "okafor@hillside.example", "Mr Okafor", Membership.Role.TEACHER)


@pytest.fixture
def mrs_lindqvist(hillside):
    return _staff(hillside, "lindqvist@hillside.example", "Mrs Lindqvist", Membership.Role.ADMIN)


@pytest.fixture
def class_7b(riverside, ms_rivera):
    return ClassroomFactory(school=riverside, name="7B English", teachers=[ms_rivera])


@pytest.fixture
def class_7c(riverside, mr_moss):
    return ClassroomFactory(school=riverside, name="7C Maths", subject="Maths", teachers=[mr_moss])


@pytest.fixture
def class_9a(hillside, mr_okafor):
    return ClassroomFactory(school=hillside, name="9A English", teachers=[mr_okafor])


@pytest.fixture
def ava(class_7b):
    return enrolled_student(
        class_7b, given_name="Ava", family_name="Moreno", display_name="Ava M.", signin_code="4821"
    )


@pytest.fixture
def ben(class_7b):
    return enrolled_student(
        class_7b, given_name="Ben", family_name="Kim", display_name="Ben K.", signin_code="1357"
    )


@pytest.fixture
def cleo(class_7c):
    return enrolled_student(
        class_7c, given_name="Cleo", family_name="Ngata", display_name="Cleo N.", signin_code="2468"
    )


@pytest.fixture
def dan(class_9a):
    return enrolled_student(
        class_9a, given_name="Dan", family_name="Berg", display_name="Dan B.", signin_code="9753"
    )


@pytest.fixture
def client_of(client):
    """``client_of(user)``: the test client signed in as that member of staff."""

    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in


@pytest.fixture
def student_client(client):
    """``student_client(student)``: the test client on a device where that student signed in."""
    from classrooms.middleware import STUDENT_SESSION_KEY

    def sign_in(student):
        session = client.session
        session[STUDENT_SESSION_KEY] = student.pk
        session.save()
        return client

    return sign_in


@pytest.fixture(scope="session")
def node() -> str:
    """Node.js, for the tests that run the game screens' own JavaScript (npm brings it; the browser tests
    still cover those screens where it is missing)."""
    path = shutil.which("node") or shutil.which("nodejs")
    if path is None:
        pytest.skip("Node.js is not installed")
    return path


@pytest.fixture
def rate_limit_minute_held(monkeypatch):
    """Rate limits count in windows of a minute: a test's many tries straddling a window's end were
    counted in two (the limit never reached). Holds django_ratelimit's clock still for the test."""
    import time

    from django_ratelimit import core as ratelimit_core

    held = time.time()
    monkeypatch.setattr(ratelimit_core, "time", types.SimpleNamespace(time=lambda: held))
