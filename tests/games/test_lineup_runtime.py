"""Line Up! through the live runtime: the reveal's length is a session setting, and the teacher's hold
keeps the answer on show with no deadline in the database until the teacher continues."""

from __future__ import annotations

import json

import pytest

from games import services
from games.definitions import definition
from games.engine import core
from games.models import GameTable
from tests.factories import enrolled_student, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


@pytest.fixture
def four(class_7b):
    return [
        enrolled_student(class_7b, display_name=name) for name in ("Ava M.", "Ben K.", "Cai L.", "Dee R.")
    ]


def submit(table, player, action, at, *, teacher=False):
    return services.action_submit(
        table_id=table.pk,
        player=player,
        action=action,
        key=f"{player}-{at}-{action['type']}",
        now=at,
        teacher=teacher,
    )


def to_reveal(table, at):
    table.refresh_from_db()
    q = table.state["q"]
    answer = json.loads(table.state["questions"][q["index"]])["answer"]
    for team in ("blue", "yellow"):
        captain = q["captain"][team]
        submit(table, captain, {"type": "rack", "order": answer}, at)
        submit(table, captain, {"type": "confirm"}, at)
    table.refresh_from_db()
    assert table.state["phase"] == "reveal"


def test_the_reveal_lasts_the_sessions_setting_by_default_25_seconds(class_7b, ms_rivera, four):
    assert definition("lineup").spec.settings["reveal_seconds"].default == 25
    table = GameTable.objects.get(session=started_session(class_7b, ms_rivera, four, "lineup", now=T0))
    assert table.config["reveal_seconds"] == 25
    to_reveal(table, T0 + 10)
    assert table.deadline == T0 + 10 + 25

    other = GameTable.objects.get(
        session=started_session(class_7b, ms_rivera, four, "lineup", now=T0, reveal_seconds=50)
    )
    assert other.config["reveal_seconds"] == 50


def test_the_teacher_holds_the_reveal_and_continues(class_7b, ms_rivera, four):
    table = GameTable.objects.get(session=started_session(class_7b, ms_rivera, four, "lineup", now=T0))
    to_reveal(table, T0 + 10)
    student = table.state["q"]["captain"]["blue"]
    # Only the teacher's console may send it (the runtime's flag), and a student's hold is refused.
    with pytest.raises(services.ActionRefused):
        submit(table, core.TEACHER, {"type": "hold"}, T0 + 11)
    with pytest.raises(services.ActionRefused):
        submit(table, student, {"type": "hold"}, T0 + 11)
    submit(table, core.TEACHER, {"type": "hold"}, T0 + 12, teacher=True)
    table.refresh_from_db()
    assert table.deadline is None and table.state["reveal"]["held"] is True
    # Long after the reveal's seconds, the clock's sweep moves nothing.
    assert services.deadline_sweep(now=T0 + 600) == 0
    table.refresh_from_db()
    assert table.state["phase"] == "reveal" and table.state["round"] == 1
    # Pause and resume keep it held.
    services.session_pause(session=table.session, by=ms_rivera, now=T0 + 610)
    services.session_resume(session=table.session, by=ms_rivera, now=T0 + 620)
    table.refresh_from_db()
    assert table.deadline is None
    submit(table, core.TEACHER, {"type": "continue"}, T0 + 700, teacher=True)
    table.refresh_from_db()
    assert table.state["phase"] == "answer" and table.state["round"] == 2
    assert table.deadline == T0 + 700 + table.config["answer_seconds"]
