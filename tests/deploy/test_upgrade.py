"""docs/deploy.md's upgrade steps, checked against the code: what `manage.py running_games` waits for, why
(a running clock keeps counting while the site is down; a paused one does not), and that the commands
and units the steps name exist and stop together."""

import re
import shutil
import subprocess
from datetime import timedelta

import pytest
from django.core.management import call_command, get_commands
from django.utils import timezone

from games import services
from games.models import GameSession, GameTable, TableLogEntry
from tests.factories import started_session
from tests.kit import KIT, ROOT

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
UPGRADE = (ROOT / "docs" / "deploy.md").read_text().split("## 7. Upgrade", 1)[1]


def running_games(capsys) -> tuple[int, str]:
    try:
        call_command("running_games")
        code = 0
    except SystemExit as exited:
        code = exited.code
    output = capsys.readouterr()
    return code, output.out + output.err


def homework_attempt(classroom, teacher, student):
    now = timezone.now()
    assignment = services.assignment_create(
        classroom=classroom, by=teacher, game="lineup", opens_at=now - timedelta(hours=1),
        due_at=now + timedelta(days=7),
    )  # fmt: skip
    return services.attempt_start(assignment=assignment, student=student, now=T0)


def test_nothing_under_way_lets_the_upgrade_go_on(capsys):
    assert running_games(capsys) == (0, "No game is open or under way.\n")


def test_an_open_lobby_and_a_running_live_game_are_waited_for(class_7b, ms_rivera, ava, ben, capsys):
    lobby = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="wordup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=lobby, by=ms_rivera)
    started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0)
    code, output = running_games(capsys)
    assert code == 1
    assert "(live, Lobby open)" in output and "(live, Running)" in output
    assert "2 game(s) open or under way" in output


def test_paused_games_and_waiting_homework_are_counted_but_not_waited_for(
    class_7b, ms_rivera, ava, ben, capsys
):
    live = started_session(class_7b, ms_rivera, [ava], "lineup", now=T0)
    services.session_pause(session=live, by=ms_rivera, now=T0 + 5)
    attempt = homework_attempt(class_7b, ms_rivera, ben)
    assert attempt.status == GameSession.Status.PAUSED  # no device of Ben's is connected

    code, output = running_games(capsys)
    assert code == 0
    assert "2 paused game(s) (clocks stopped) carry on after the upgrade; not waited for." in output
    assert "No game is open or under way." in output


def test_a_homework_attempt_being_played_right_now_is_waited_for(class_7b, ms_rivera, ben, capsys):
    attempt = homework_attempt(class_7b, ms_rivera, ben)
    participant = attempt.participants.get()
    assert services.attempt_device_arrived(participant_id=participant.pk, now=T0 + 1)
    code, output = running_games(capsys)
    assert code == 1 and "(homework, Running)" in output

    # Ben closes the tab: the attempt pauses, and the upgrade need not wait for him to come back.
    assert services.attempt_device_left(participant_id=participant.pk, now=T0 + 2)
    assert running_games(capsys)[0] == 0


def test_a_running_clock_keeps_counting_while_the_site_is_down(class_7b, ms_rivera, ava, ben):
    """Why running games are waited for: a stop of ten minutes, and every move due meanwhile times out
    as soon as the clock is back."""
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0)
    table = session.tables.get()
    assert table.deadline is not None and table.deadline < T0 + 600
    back = T0 + 600
    fired = 0
    while services.deadline_sweep(now=back):  # the restarted clock, sweep after sweep
        fired += 1
    assert fired > 10  # docs/deploy.md quotes this figure
    assert TableLogEntry.objects.filter(table=table, kind=TableLogEntry.Kind.DEADLINE).count() == fired
    table.refresh_from_db()
    assert table.deadline is None or table.deadline > back


def test_a_paused_game_keeps_its_time_across_a_stop(class_7b, ms_rivera, ava, ben):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0)
    table = session.tables.get()
    left = table.deadline - (T0 + 5)
    services.session_pause(session=session, by=ms_rivera, now=T0 + 5)
    back = T0 + 3600  # an hour's upgrade
    assert services.deadline_sweep(now=back) == 0
    services.session_resume(session=GameSession.objects.get(pk=session.pk), by=ms_rivera, now=back)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    assert table.deadline == pytest.approx(back + left)
    assert not TableLogEntry.objects.filter(table=table, kind=TableLogEntry.Kind.DEADLINE).exists()


@pytest.mark.django_db(databases=[])
def test_the_steps_name_commands_and_units_that_exist():
    commands = set(re.findall(r"manage\.py (\w+)", UPGRADE))
    assert {"running_games", "migrate", "collectstatic"} <= commands
    assert commands <= set(get_commands())
    units = set(re.findall(r"systemctl \w+ ([\w.-]+)", UPGRADE))
    assert {"classplay-backup.service", "classplay.target"} <= units
    assert all((KIT / "systemd" / unit).exists() for unit in units)


@pytest.mark.django_db(databases=[])
def test_stopping_the_target_stops_every_process_but_not_the_backup():
    target = (KIT / "systemd" / "classplay.target").read_text()
    processes = sorted(path.name for path in (KIT / "systemd").glob("classplay-*.service"))
    assert processes == [
        "classplay-backup.service", "classplay-beat.service", "classplay-clock.service",
        "classplay-web@.service", "classplay-worker.service",
    ]  # fmt: skip
    for unit in processes:
        part_of = "PartOf=classplay.target" in (KIT / "systemd" / unit).read_text()
        assert part_of == (unit != "classplay-backup.service"), unit
        # The web template runs as one instance per port: classplay-web@8001.service and so on.
        started = re.findall(re.escape(unit).replace("@\\.", r"@\d+\."), target)
        assert bool(started) == part_of, unit
    assert len(re.findall(r"classplay-web@\d+\.service", target)) >= 2
    backup = (KIT / "systemd" / "classplay-backup.service").read_text()
    assert "Type=oneshot" in backup  # `systemctl start` waits for it, and fails if the backup did
    assert "OnCalendar=" in (KIT / "systemd" / "classplay-backup.timer").read_text()


@pytest.mark.django_db(databases=[])
def test_every_unit_file_passes_systemd_s_own_check(tmp_path):
    """`systemd-analyze verify` on the kit's units and timer: a misspelt key or section is an error. Only
    the install folder's programs are missing here."""
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not installed")
    units = sorted(str(path) for path in (KIT / "systemd").iterdir())
    checked = subprocess.run(
        ["systemd-analyze", "verify", *units], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    problems = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        if not re.search(r"Command /opt/classplay/\.venv/bin/\w+ is not executable", line)
    ]
    assert problems == []
