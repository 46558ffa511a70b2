"""Backups of the PostgreSQL database (``manage.py backup_database``, ``manage.py restore_database``).

A backup is ``pg_dump``'s custom format, written to ``<name>.dump.part`` and renamed into place only once
``pg_restore --list`` has read it whole, so a file named ``*.dump`` is always a complete backup: a dump
cut short (a full disk, a killed job) never replaces or pushes out a good one. Retention removes only
this database's own backups (its name in the file name), never other files in the folder.

A restore goes into an empty database by default, connecting as the role the settings name, so every
restored table belongs to that role (``--no-owner``), whatever role owned the original.

Only PostgreSQL's tools and Django's connection are used, so this module sits in the lowest app.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

STAMP_FORMAT = "%Y%m%d-%H%M%S"
#: The tables a Classplay dump must hold: a list without them is not a backup of this site.
REQUIRED_TABLE = "django_migrations"
STDERR_LINES = 5


class BackupError(Exception):
    """A backup or restore that did not happen, with a reason an IT technician can act on."""


@dataclass(frozen=True)
class Target:
    """The PostgreSQL database to dump or restore into, and how PostgreSQL's tools reach it."""

    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""
    sslmode: str = ""

    def tool_env(self) -> dict[str, str]:
        """The environment for pg_dump and pg_restore: the password never appears on a command line."""
        env = dict(os.environ)
        for key, value in (
            ("PGDATABASE", self.name),
            ("PGUSER", self.user),
            ("PGPASSWORD", self.password),
            ("PGHOST", self.host),
            ("PGPORT", self.port),
            ("PGSSLMODE", self.sslmode),
        ):
            if value:
                env[key] = value
        return env

    @property
    def file_prefix(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.name)


def target_from(settings_dict: dict) -> Target:
    """The target for a Django database's settings; refuses anything but PostgreSQL."""
    if "postgresql" not in settings_dict["ENGINE"]:
        raise BackupError(
            "Backups need PostgreSQL: this site runs on SQLite (no DATABASE_URL is set). "
            "Stop the site and copy the database file instead: " + str(settings_dict["NAME"])
        )
    return Target(
        name=str(settings_dict["NAME"]),
        user=settings_dict.get("USER") or "",
        password=settings_dict.get("PASSWORD") or "",
        host=settings_dict.get("HOST") or "",
        port=str(settings_dict.get("PORT") or ""),
        sslmode=(settings_dict.get("OPTIONS") or {}).get("sslmode", ""),
    )


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed: apt-get install postgresql-client")
    return path


def _run(command: list[str], target: Target) -> subprocess.CompletedProcess:
    return subprocess.run(command, env=target.tool_env(), capture_output=True, text=True, check=False)


def _tail(text: str) -> str:
    return "\n".join(text.strip().splitlines()[-STDERR_LINES:]) or "(no message)"


# --- Backup -------------------------------------------------------------------------------------------


def backups_in(folder: Path, target: Target) -> list[Path]:
    """This database's complete backups in ``folder``, oldest first (the time stamp sorts by name)."""
    pattern = re.compile(re.escape(target.file_prefix) + r"-\d{8}-\d{6}\.dump")
    return sorted(
        path for path in folder.glob(f"{target.file_prefix}-*.dump") if pattern.fullmatch(path.name)
    )


@contextmanager
def _only_backup_running(folder: Path) -> Iterator[None]:
    """One backup at a time per folder: a second one would take the first one's unfinished file."""
    with open(folder / ".backup.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                f"Another backup is writing to {folder} now; try again when it has finished."
            ) from None
        yield


def backup(target: Target, folder: Path, *, keep: int, now: datetime | None = None) -> Path:
    """Dump ``target`` into ``folder``, check the dump reads back, then keep the newest ``keep``."""
    if keep < 1:
        raise BackupError(f"BACKUP_KEEP must be 1 or more, not {keep}.")
    pg_dump, pg_restore = _tool("pg_dump"), _tool("pg_restore")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise BackupError(f"Cannot create the backup folder {folder}: {error.strerror}.") from None
    if not os.access(folder, os.W_OK):
        raise BackupError(f"The backup folder {folder} is not writable by this user.")
    stamp = (now or datetime.now(UTC)).strftime(STAMP_FORMAT)
    final = folder / f"{target.file_prefix}-{stamp}.dump"
    part = final.with_name(final.name + ".part")
    with _only_backup_running(folder):
        for stale in folder.glob(f"{target.file_prefix}-*.dump.part"):
            stale.unlink()  # left by a backup that was killed: never complete
        try:
            # Created up front so the dump is private from its first byte (it holds students' data).
            os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
            _dump(pg_dump, target, part)
            _verify(pg_restore, target, part)
            _sync(part)
            os.replace(part, final)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        _sync(folder)
        prune(folder, target, keep=keep)
    return final


def _dump(pg_dump: str, target: Target, part: Path) -> None:
    done = _run([pg_dump, "--format=custom", "--no-password", f"--file={part}", target.name], target)
    if done.returncode != 0:
        raise BackupError(f"pg_dump could not back up the database {target.name}:\n{_tail(done.stderr)}")


def _verify(pg_restore: str, target: Target, part: Path) -> None:
    listed = _run([pg_restore, "--list", str(part)], target)
    if listed.returncode != 0:
        raise BackupError(f"The new backup does not read back (pg_restore --list):\n{_tail(listed.stderr)}")
    if f"TABLE DATA public {REQUIRED_TABLE} " not in listed.stdout:
        raise BackupError(f"The new backup has no {REQUIRED_TABLE} table: it is not a Classplay database.")


def _sync(path: Path) -> None:
    """Flush a file or a folder to disk, so a power cut right after never leaves a named, empty backup."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def prune(folder: Path, target: Target, *, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backups of ``target``; returns what it removed."""
    old = backups_in(folder, target)[:-keep]
    for path in old:
        path.unlink()
    return old


# --- Restore ------------------------------------------------------------------------------------------


def user_tables(cursor) -> list[str]:
    """The tables outside PostgreSQL's own schemas (an empty database has none)."""
    cursor.execute(
        "SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables "
        "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE' "
        "ORDER BY 1"
    )
    return [row[0] for row in cursor.fetchall()]


def restore(target: Target, dump: Path, *, connection, overwrite: bool = False) -> None:
    """Restore ``dump`` into ``target`` (the database ``connection`` is open on), all or nothing.

    A database that has tables is refused unless ``overwrite``: then its tables are dropped first."""
    pg_restore = _tool("pg_restore")
    if not dump.is_file():
        raise BackupError(f"No backup file at {dump}.")
    listed = _run([pg_restore, "--list", str(dump)], target)
    if listed.returncode != 0:
        raise BackupError(f"{dump} is not a readable backup (pg_restore --list):\n{_tail(listed.stderr)}")
    with connection.cursor() as cursor:
        tables = user_tables(cursor)
        if tables and not overwrite:
            raise BackupError(
                f"The database {target.name} is not empty ({len(tables)} tables). Restore into a new, empty "
                "database (docs/deploy.md), or pass --overwrite to drop its tables first."
            )
        if tables:
            cursor.execute(f"DROP TABLE {', '.join(tables)} CASCADE")
    connection.close()  # nothing of this connection may hold a lock pg_restore waits for
    done = _run(
        [pg_restore, "--no-password", "--no-owner", "--no-privileges", "--exit-on-error",
         "--single-transaction", f"--dbname={target.name}", str(dump)],
        target,
    )  # fmt: skip
    if done.returncode != 0:
        raise BackupError(
            f"pg_restore could not restore {dump} into {target.name} (nothing was restored):\n"
            f"{_tail(done.stderr)}"
        )
