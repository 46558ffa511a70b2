"""Helpers for the report tests: finished sessions and hand-written learning facts."""

import datetime as dt
import itertools

import pytest
from django.utils import timezone

from games.models import GameSession, Participant
from reports.build import classrooms_build
from reports.models import LearningFact

_keys = itertools.count(1)


def at(day: int, hour: int = 10) -> dt.datetime:
    """A moment on day ``day`` of a made-up term (1 March 2026 is day 1)."""
    return timezone.make_aware(dt.datetime(2026, 3, 1, hour) + dt.timedelta(days=day - 1))


def finished_session(classroom, game="wordup", *, day=1, by=None, students=()):
    session = GameSession.objects.create(
        classroom=classroom,
        created_by=by,
        game=game,
        scheduled_for=at(day, 9),
        status=GameSession.Status.FINISHED,
        started_at=at(day, 9),
        ended_at=at(day, 10),
    )
    for student in students:
        Participant.objects.create(session=session, student=student, status=Participant.Status.PRESENT)
    return session


def fact(student, session, *, category, correct, level=3, time=5.0, item="", response="", **extra):
    """A learning fact. ``response`` "" by default: an answer given (``None`` is a question left to run
    out of time in Word Up and a timed-out decoy hunt in Mind the Lines)."""
    game = extra.pop("game", session.game)
    skills = {"wordup": "english_vocabulary", "mindlines": "english_vocabulary", "lineit": "numeracy"}
    row = LearningFact.objects.create(
        key=f"test:{next(_keys)}",
        student=student,
        classroom=session.classroom,
        session=session,
        game=game,
        skill=extra.pop("skill", skills.get(game, "general_knowledge" if game == "lineup" else "reasoning")),
        category=category,
        level=level,
        correct=correct,
        time_taken=time,
        item_id=item,
        response=response,
        **extra,
    )
    # created_at is auto_now_add: put it on the session's day so ordering follows the sessions.
    LearningFact.objects.filter(pk=row.pk).update(created_at=session.ended_at - dt.timedelta(minutes=30))
    return row


@pytest.fixture
def word_up_week(class_7b, ms_rivera, ava, ben):
    """Two Word Up sessions of 7B, worked out by hand in test_build.py."""
    first = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    second = finished_session(class_7b, day=3, by=ms_rivera, students=[ava, ben])
    fact(ava, first, category="missing_word", correct=True, time=4, item="q1", response="house")
    fact(ava, first, category="missing_word", correct=False, time=6, item="q2", response="cat")
    fact(ava, first, category="spelling", correct=True, time=10, item="q3", response="friend")
    fact(ava, first, category="spelling", correct=False, time=12, item="q4", response="freind")
    fact(ava, second, category="crossword", correct=True, time=3, item="q5", response="river")
    fact(ava, second, category="crossword", correct=True, time=3, item="q6", response="lake")
    fact(ben, first, category="missing_word", correct=False, time=8, item="q1", response="home")
    fact(ben, first, category="missing_word", correct=False, time=8, item="q2", response="Cat")
    fact(ben, first, category="spelling", correct=False, time=9, item="q4", response="frend")
    # Ben joined the second session but answered nothing.
    return first, second


@pytest.fixture
def built(word_up_week, class_7b):
    """7B after its week of Word Up, its reports built."""
    classrooms_build([class_7b.pk])
    return class_7b
