"""A student's data export holds everything the server holds about them: the games they joined with
every move they made (their typed answers too), their learning facts, their level history and the
devices signed in as them."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from classrooms import services as classroom_services
from games import services as game_services
from games.models import GameTable
from tests.classrooms.test_student_signin import signin
from tests.factories import recorded_facts, started_session
from tests.security.test_erasure_games import T0, play_wordup_typing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seeds")]


def test_the_export_holds_the_games_moves_facts_levels_and_devices(
    client_of, dr_patel, ms_rivera, class_7b, ava, ben
):
    assert signin(Client(), class_7b, ava, "4821").status_code == 302
    classroom_services.student_level_set(
        student=ava, skill="english_vocabulary", level=3, by=ms_rivera, reason="Reads fluently"
    )
    session = started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)
    table = GameTable.objects.get(session=session)
    player = game_services.student_player_id(ava.pk)
    assert play_wordup_typing(table, player, "Xylophonix") >= 1
    recorded_facts(table)

    response = client_of(dr_patel).get(reverse("reports:student_data_export", args=[ava.pk]))
    document = json.loads(response.content)
    [game] = document["games"]
    assert (game["session"], game["game"], game["class"], game["table"]) == (
        session.pk,
        "wordup",
        "7B English",
        1,
    )
    assert {"type": "answer", "answer": "Xylophonix"} in [move["action"] for move in game["moves"]]
    assert [move["seq"] for move in game["moves"]] == list(
        table.log.filter(player=player).order_by("seq").values_list("seq", flat=True)
    )  # hers, and only hers
    assert any(answer["response"] == "Xylophonix" for answer in document["answers"])
    assert document["level_history"][-1]["reason"] == "Reads fluently"
    assert len(document["sign_in"]["devices_signed_in"]) == 1
    assert document["sign_in"]["devices_signed_in"][0]["current"] is True
    assert "Ben" not in json.dumps(document)  # a classmate's name is theirs
