"""``games.fields.FastJSONField``: msgspec in and out, and the same stored JSON as Django's JSONField."""

import json

import pytest
from django.db import connection

from games.models import GameTable
from tests.factories import started_session

pytestmark = pytest.mark.django_db

DOCUMENT = {
    "phase": "answer",
    "players": {"s1": {"name": "Zoë", "team": "blue", "orders": [[2, 1, 3, 4, 5]]}},
    "clock": {"deadline": 1796301534.1130052, "remaining": None, "paused": False},
    "scores": [0.1, 1e-07, -3, 12345678901234567890],
    "empty": {},
}


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return started_session(class_7b, ms_rivera, [ava, ben], "lineup").tables.get()


def test_a_document_comes_back_exactly_and_is_stored_as_plain_json(table):
    GameTable.objects.filter(pk=table.pk).update(state=DOCUMENT)
    assert GameTable.objects.get(pk=table.pk).state == DOCUMENT
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_gametable WHERE id = %s", [table.pk])
        (raw,) = cursor.fetchone()
    assert (json.loads(raw) if isinstance(raw, str) else raw) == DOCUMENT


def test_saving_a_model_and_json_lookups_work_as_with_django_s_field(table):
    table.state = DOCUMENT
    table.save(update_fields=["state"])
    assert GameTable.objects.filter(state__phase="answer", state__players__s1__team="blue").get() == table
    assert GameTable.objects.filter(pk=table.pk).values_list("state__clock__paused", flat=True).get() is False
