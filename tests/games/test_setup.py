"""Every game starts from a scheduled session: the config the runtime builds is one the engine accepts."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.definitions import DEFINITIONS, get_engine
from games.models import GameTable

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_each_game_starts_with_students_and_fills_small_tables(game, class_7b, ms_rivera, ava, ben):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game=game, scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_start(session=session, by=ms_rivera)
    table = GameTable.objects.get(session=session)
    engine = get_engine(game)
    assert engine.min_players <= len(table.config["players"]) <= engine.max_players
    assert f"s{ava.pk}" in {player["id"] for player in table.config["players"]}
    view = engine.view(table.state, {"role": "player", "player": f"s{ava.pk}"})
    assert table.seed not in str(view)


def test_word_up_fixed_time_variant_and_reveal_time_reach_the_engine(class_7b, ms_rivera, ava):
    session = services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="wordup",
        scheduled_for=timezone.now() + timedelta(minutes=1),
        settings={"time_limit": 12, "reveal_seconds": 10},
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_start(session=session, by=ms_rivera, now=5000.0)
    table = GameTable.objects.get(session=session)
    assert table.config["time_limit"] == 720 and table.config["reveal_seconds"] == 10
    assert table.state["game_clock"]["deadline"] == 5000.0 + 720
