"""Sessions take their questions from the database bank: the class's subject and levels, unseen first,
and a question shown in a game goes to the back of the class's rotation."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.definitions import get_engine
from games.definitions.lineup import class_questions as lineup_questions
from games.engine import core
from games.models import GameTable
from questions.models import QuestionUse

pytestmark = pytest.mark.django_db


@pytest.fixture
def banks():
    call_command("load_question_banks", verbosity=0)


def _session(class_7b, ms_rivera, **settings):
    return services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="lineup",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings={"min_level": 1, "max_level": 5, **settings},
    )


def test_a_session_takes_only_its_subject_from_the_database(banks, class_7b, ms_rivera):
    session = _session(class_7b, ms_rivera, subject="geography")
    questions = lineup_questions(session)
    assert questions and {q["subject"] for q in questions} == {"geography"}


def test_questions_shown_in_a_game_go_to_the_back_of_the_rotation(banks, class_7b, ms_rivera, ava, ben):
    session = _session(class_7b, ms_rivera)
    services.session_open_lobby(session=session, by=ms_rivera)
    for student in (ava, ben):
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=ms_rivera, now=1000.0)
    table = GameTable.objects.get(session=session)
    engine = get_engine("lineup")
    rng = core.Rng("x")
    now = 1000.0
    while not QuestionUse.objects.exists():
        now += 1
        players = engine.current_players(table.state)
        if players:
            player = players[0]
            services.action_submit(
                table_id=table.pk,
                player=player,
                action=engine.bot_action(table.state, player, rng),
                key=str(now),
                now=now,
            )
        else:
            services.deadline_sweep(now=table.deadline)
        table.refresh_from_db()
    shown = set(QuestionUse.objects.filter(classroom=class_7b).values_list("question__key", flat=True))
    later = _session(class_7b, ms_rivera)
    fresh = [q["id"] for q in lineup_questions(later)]
    assert not shown & set(fresh)
