"""Backups as docs/deploy.md tells a school's IT to make and restore them: the nightly unit's own command
dumps the database, and a restore into a new database owned by a new role gives back the same rows and
the same reports. A failed dump never leaves a file that looks like a backup, and retention keeps only
the newest of the database's own backups."""

import dataclasses
import fcntl
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Max

from classrooms import backups
from classrooms.models import School
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable
from reports.build import classrooms_build
from reports.models import StudentReport
from tests.factories import play_through_runtime, recorded_facts, started_session
from tests.kit import ROOT, unit_command

REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"
T0 = 2_000_000.0
#: What the restored site reads back, printed as JSON by `manage.py shell` run against it.
RESTORED_CHECK = """
import json
from django.db import connection
from classrooms import backups
from classrooms.models import School, Student
from reports.models import StudentReport
from reports.selectors import class_sessions
with connection.cursor() as cursor:
    counts = {}
    for table in backups.user_tables(cursor):
        cursor.execute(f"SELECT count(*) FROM {table}")
        counts[table] = cursor.fetchone()[0]
    cursor.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
    owners = [row[0] for row in cursor.fetchall()]
ava = Student.objects.get(display_name="Ava M.")
report = StudentReport.objects.get(student=ava)
sessions = [[s.session_id, s.participants, s.answered, s.correct] for s in class_sessions(report.classroom)]
new_school = School.objects.create(name="Written after the restore").pk
print(json.dumps({"counts": counts, "owners": owners, "report": report.data, "sessions": sessions,
                  "new_school": new_school}))
"""


@pytest.fixture
def postgresql():
    missing = [
        f"{tool} (apt-get install postgresql-client)"
        for tool in ("pg_dump", "pg_restore")
        if not shutil.which(tool)
    ]
    if connection.vendor != "postgresql":
        missing.append("a PostgreSQL DATABASE_URL")
    if missing and REQUIRED:
        pytest.fail(f"the backup test needs {', '.join(missing)} in CI")
    if missing:
        pytest.skip(f"the backup test needs {', '.join(missing)}")


def database_url(name: str, user: str, password: str = "") -> str:
    db = connection.settings_dict
    secret = f":{password}" if password else ""
    return f"postgres://{user}{secret}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def manage(*args: str, database: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def new_role_and_database():
    """An empty database owned by a role of its own, as docs/deploy.md has IT create for a restore."""
    source = connection.settings_dict["NAME"]
    role, name, password = f"{source}_restorer"[:63], f"{source}_restored"[:63], "restore-test-password"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'DROP ROLE IF EXISTS "{role}"')
        cursor.execute(f"CREATE ROLE \"{role}\" LOGIN PASSWORD '{password}'")
        cursor.execute(f'CREATE DATABASE "{name}" OWNER "{role}"')
    yield database_url(name, role, password), role
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'DROP ROLE IF EXISTS "{role}"')


def row_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in backups.user_tables(cursor):
            cursor.execute(f"SELECT count(*) FROM {table}")
            counts[table] = cursor.fetchone()[0]
    return counts


def a_finished_lesson(classroom, teacher, students) -> None:
    session = started_session(classroom, teacher, students, "lineup", now=T0)
    table = session.tables.get()
    play_through_runtime(table, get_engine("lineup"), core.Rng("backup"), T0, 4000)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    assert recorded_facts(table).exists()
    classrooms_build([classroom.pk])


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_nightly_backup_restores_into_a_new_database_of_a_new_role(
    postgresql, new_role_and_database, tmp_path, class_7b, ms_rivera, ava, ben
):
    a_finished_lesson(class_7b, ms_rivera, [ava, ben])
    before = row_counts()
    assert before["public.reports_learningfact"] > 0
    source = database_url(connection.settings_dict["NAME"], connection.settings_dict["USER"] or "postgres",
                          connection.settings_dict["PASSWORD"] or "")  # fmt: skip

    # The nightly unit's own command, as the timer starts it.
    nightly = subprocess.run(
        unit_command("classplay-backup.service"),
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": source, "BACKUP_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert nightly.returncode == 0, nightly.stderr
    [dump] = tmp_path.glob("*.dump")
    assert dump.stat().st_mode & 0o777 == 0o600  # students' data: readable by the site's user only
    assert not list(tmp_path.glob("*.part"))

    restored, role = new_role_and_database
    done = manage("restore_database", str(dump), database=restored)
    assert done.returncode == 0, done.stderr
    checked = manage("shell", "-c", RESTORED_CHECK, database=restored)
    assert checked.returncode == 0, checked.stderr
    after = json.loads(checked.stdout.strip().splitlines()[-1])

    assert after["counts"] == before
    assert after["owners"] == [role]  # the new role owns every table: the site runs as it
    assert after["report"] == StudentReport.objects.get(student=ava, classroom=class_7b).data
    assert after["sessions"] and all(answered > 0 for _id, _n, answered, _c in after["sessions"])
    # Its sequences came back too: a row written after the restore takes a new id.
    assert after["new_school"] > School.objects.aggregate(Max("id"))["id__max"]

    # The restored database is no longer empty: a second restore must be asked for in so many words.
    again = manage("restore_database", str(dump), database=restored)
    assert again.returncode == 1 and "is not empty" in again.stderr and "--overwrite" in again.stderr
    overwritten = manage("restore_database", "--overwrite", str(dump), database=restored)
    assert overwritten.returncode == 0, overwritten.stderr


@pytest.mark.services
@pytest.mark.django_db
def test_retention_keeps_the_newest_of_this_database_and_clears_a_killed_backup(
    postgresql, tmp_path, settings
):
    target = backups.target_from(connection.settings_dict)
    old = [tmp_path / f"{target.file_prefix}-2026010{day}-020000.dump" for day in (1, 2, 3)]
    killed = tmp_path / f"{target.file_prefix}-20260104-020000.dump.part"
    others = [tmp_path / "classplay_other-20260101-020000.dump", tmp_path / "notes.txt"]
    for path in [*old, killed, *others]:
        path.write_text("an older file")
    settings.BACKUP_DIR, settings.BACKUP_KEEP = tmp_path, 2

    call_command("backup_database")

    [new] = set(backups.backups_in(tmp_path, target)) - set(old)
    assert backups.backups_in(tmp_path, target) == [old[-1], new]
    assert not killed.exists()
    assert all(path.exists() for path in others)  # never another database's backups or other files


@pytest.mark.services
@pytest.mark.django_db
def test_a_database_pg_dump_cannot_reach_fails_with_its_reason(postgresql, tmp_path):
    reachable = backups.target_from(connection.settings_dict)
    missing = dataclasses.replace(reachable, name="classplay_no_such_database")
    with pytest.raises(
        backups.BackupError, match=r'(?s)pg_dump could not back up.*"classplay_no_such_database"'
    ):
        backups.backup(missing, tmp_path, keep=1)
    assert not list(tmp_path.glob("*.dump*"))


def fake_tools(folder: Path, *, dump: str, listing: str) -> None:
    """pg_dump and pg_restore stand-ins: shell bodies run with the real tools' arguments."""
    for name, body in (("pg_dump", dump), ("pg_restore", listing)):
        tool = folder / name
        tool.write_text(f"#!/bin/sh\n{body}\n")
        tool.chmod(0o755)


FAILURES = {
    "the dump stops": (
        'for a; do case $a in --file=*) printf half > "${a#--file=}";; esac; done; '
        'echo "pg_dump: error: could not write to output file: No space left on device" >&2; exit 1',
        "exit 0",
        "No space left on device",
    ),
    "the dump does not read back": (
        'for a; do case $a in --file=*) printf junk > "${a#--file=}";; esac; done; exit 0',
        'echo "pg_restore: error: input file does not appear to be a valid archive" >&2; exit 1',
        "does not read back",
    ),
    "the dump is of another database": (
        'for a; do case $a in --file=*) printf other > "${a#--file=}";; esac; done; exit 0',
        'echo "1; 0 0 TABLE DATA public other_table postgres"; exit 0',
        "not a Classplay database",
    ),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_a_failed_backup_leaves_no_part_file_and_keeps_every_older_backup(failure, tmp_path, monkeypatch):
    dump, listing, reason = FAILURES[failure]
    tools, folder = tmp_path / "bin", tmp_path / "backups"
    tools.mkdir()
    fake_tools(tools, dump=dump, listing=listing)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    target = backups.Target(name="classplay")
    folder.mkdir()
    older = folder / "classplay-20260101-020000.dump"
    older.write_text("last night's backup")

    with pytest.raises(backups.BackupError, match=reason):
        backups.backup(target, folder, keep=1, now=datetime(2026, 1, 2, 2, tzinfo=UTC))

    assert sorted(path.name for path in folder.iterdir()) == [".backup.lock", older.name]


def test_a_backup_that_succeeds_renames_its_part_file_and_prunes(tmp_path, monkeypatch):
    tools, folder = tmp_path / "bin", tmp_path / "backups"
    tools.mkdir()
    fake_tools(
        tools,
        dump='for a; do case $a in --file=*) printf dump > "${a#--file=}";; esac; done; exit 0',
        listing='echo "2; 0 0 TABLE DATA public django_migrations postgres"',
    )
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    target = backups.Target(name="classplay")
    for day in (1, 2):
        backups.backup(target, folder, keep=1, now=datetime(2026, 1, day, 2, tzinfo=UTC))
    assert [path.name for path in backups.backups_in(folder, target)] == ["classplay-20260102-020000.dump"]
    assert not list(folder.glob("*.part"))


def test_backups_refuse_sqlite_with_what_to_do_instead():
    with pytest.raises(backups.BackupError, match=r"Backups need PostgreSQL.*copy the database file"):
        backups.target_from({"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/classplay.sqlite3"})
    with (
        mock.patch.dict(connection.settings_dict, {"ENGINE": "django.db.backends.sqlite3"}),
        pytest.raises(CommandError, match="Backups need PostgreSQL"),
    ):
        call_command("backup_database")


def test_clear_errors_for_a_missing_tool_and_a_bad_setting(tmp_path, monkeypatch):
    target = backups.Target(name="classplay")
    with pytest.raises(backups.BackupError, match="BACKUP_KEEP must be 1 or more"):
        backups.backup(target, tmp_path, keep=0)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(
        backups.BackupError, match="pg_dump is not installed: apt-get install postgresql-client"
    ):
        backups.backup(target, tmp_path, keep=1)


def test_a_second_backup_into_the_same_folder_waits_its_turn(tmp_path, monkeypatch):
    """Two at once (the timer and a technician) would share one .part file: the second one is refused."""
    tools, folder = tmp_path / "bin", tmp_path / "backups"
    tools.mkdir()
    folder.mkdir()
    fake_tools(tools, dump="exit 0", listing="exit 0")
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    with open(folder / ".backup.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(backups.BackupError, match="Another backup is writing"):
            backups.backup(backups.Target(name="classplay"), folder, keep=1)
