"""Every message the server sends during a whole game, as received by real websocket clients, is scanned:
no device ever receives the table's seed or random state, another team's rack or choice, or the answer
before the reveal."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable
from tests.games.test_consumer_runtime import _connect, _cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _start(classroom, teacher, students):
    session = services.session_schedule(
        classroom=classroom,
        by=teacher,
        game="lineup",
        scheduled_for=timezone.now() + timedelta(minutes=1),
        settings={"board": "short"},
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher, now=1000.0)
    return GameTable.objects.get(session=session)


def _step(table_id: int, rng: core.Rng, now: float) -> tuple[bool, dict]:
    """One move by whoever may act (as a bot would), or the deadline; returns (still playing, state)."""
    table = GameTable.objects.select_related("session").get(pk=table_id)
    engine = get_engine("lineup")
    if table.status != GameTable.Status.PLAYING:
        return False, table.state
    players = engine.current_players(table.state)
    if players:
        player = players[rng.below(len(players))]
        action = engine.bot_action(table.state, player, rng)
        services.action_submit(table_id=table_id, player=player, action=action, key=f"k{now}", now=now)
    else:
        services.deadline_sweep(now=table.deadline)
    table.refresh_from_db()
    return table.status == GameTable.Status.PLAYING, table.state


async def _drain(communicator, into: list) -> None:
    while not await communicator.receive_nothing(timeout=0.05):
        into.append(json.loads(await communicator.receive_from()))


async def test_no_message_of_a_whole_game_carries_a_secret(class_7b, ms_rivera, ava, ben):
    table = await sync_to_async(_start)(class_7b, ms_rivera, [ava, ben])
    seed = table.seed
    team_of = {pid: info["team"] for pid, info in table.state["players"].items()}
    devices = {
        f"s{ava.pk}": await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ava)),
        f"s{ben.pk}": await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ben)),
    }
    projector = await _connect(
        table.session_id, await sync_to_async(_cookie_for)(user=ms_rivera), "projector"
    )
    received = {name: [] for name in [*devices, "projector"]}
    rng, now, playing, steps = core.Rng("scan"), 1000.0, True, 0
    while playing and steps < 400:
        now += 1
        steps += 1
        playing, _state = await sync_to_async(_step)(table.pk, rng, now)
        for name, communicator in [*devices.items(), ("projector", projector)]:
            batch = []
            await _drain(communicator, batch)
            received[name] += batch
            for message in batch:
                _check(message, seed=seed, own_team=team_of.get(name))
    assert steps > 5 and all(received.values())
    for communicator in [*devices.values(), projector]:
        await communicator.disconnect()


def _check(message: dict, *, seed: str, own_team: str | None) -> None:
    text = json.dumps(message)
    assert seed not in text, "the seed reached a device"
    assert '"rng"' not in text, "the random state reached a device"
    if message["type"] != "table":
        return
    view = message["view"]
    if view.get("phase") in ("answer", "final", "predict", "bid", "star") and view.get("question"):
        # While a question is being answered, the data that decides its order stays on the server.
        assert all("value" not in card for card in view["question"]["cards"]), "the answer reached a device"
    if own_team is not None:
        other = "yellow" if own_team == "blue" else "blue"
        assert view.get("my_team", {}).get("team") in (None, own_team)
        assert other not in (view.get("team_details") or {}), "another team's details reached a device"
    else:
        assert "my_team" not in view and "team_details" not in view, "the projector saw a team's secrets"
