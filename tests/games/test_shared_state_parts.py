"""A state's parts that never change after set-up (Word Up's question bank) are stored once, by digest,
for every table that has them; ``table.state`` is always the whole state."""

import pytest
from django.db import connection, transaction

from games import fields
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable, SharedStatePart
from tests.factories import play_through_runtime, started_session

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0


def _stored_state(table) -> dict:
    """The state as the database row holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_gametable WHERE id = %s", [table.pk])
        (raw,) = cursor.fetchone()
    return fields._decode(raw) if isinstance(raw, (str, bytes)) else raw


@pytest.fixture
def two_wordup_tables(class_7b, ms_rivera, ava, ben):
    first = started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)
    second = started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)
    return GameTable.objects.get(session=first), GameTable.objects.get(session=second)


def test_the_bank_is_stored_once_and_read_back_whole(two_wordup_tables):
    first, second = two_wordup_tables
    rows = [_stored_state(first), _stored_state(second)]
    digests = {row["bank"][fields.PART] for row in rows}
    assert len(digests) == 1  # the same bank: one part for both tables
    assert SharedStatePart.objects.filter(digest__in=digests).count() == 1
    assert all("log" in row and "players" in row for row in rows)  # the rest stays in the row
    engine = get_engine("wordup")
    expected = engine.setup(first.config, first.seed, T0)
    fresh = GameTable.objects.get(pk=first.pk)
    assert fresh.state["bank"] == expected["bank"]
    assert fresh.state["bank"] is GameTable.objects.get(pk=second.pk).state["bank"]  # one copy in memory


def test_a_game_played_through_replays_from_the_log_with_its_bank_stored_apart(class_7b, ms_rivera, ava, ben):
    session = started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)
    table = GameTable.objects.get(session=session)
    engine = get_engine("wordup")
    play_through_runtime(table, engine, core.Rng("parts"), T0, 60)
    table.refresh_from_db()
    assert table.seq > 20
    assert fields.PART in _stored_state(table)["bank"]
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.state_hash(core.replay(engine, table.config, table.seed, log)) == core.state_hash(table.state)


def test_a_state_stored_whole_before_still_reads_and_is_stored_apart_when_saved_again(two_wordup_tables):
    table, _other = two_wordup_tables
    whole = GameTable.objects.get(pk=table.pk).state
    with connection.cursor() as cursor:  # as a row written before parts existed
        cursor.execute(
            "UPDATE games_gametable SET state = %s WHERE id = %s", [fields._dumps(whole), table.pk]
        )
    assert "bank" in _stored_state(table) and fields.PART not in _stored_state(table)["bank"]
    old = GameTable.objects.get(pk=table.pk)
    assert old.state == whole
    old.save(update_fields=["state"])
    assert fields.PART in _stored_state(table)["bank"]


@pytest.mark.django_db(transaction=True)
def test_a_part_written_in_a_transaction_rolled_back_is_written_again(two_wordup_tables):
    table, _other = two_wordup_tables
    state = GameTable.objects.get(pk=table.pk).state
    new_bank = {**state["bank"], "extra": {}}  # a bank no table had before
    with pytest.raises(RuntimeError), transaction.atomic():
        GameTable.objects.filter(pk=table.pk).update(state={**state, "bank": new_bank})
        raise RuntimeError("rolled back")
    GameTable.objects.filter(pk=table.pk).update(state={**state, "bank": new_bank})
    digest = _stored_state(table)["bank"][fields.PART]
    assert SharedStatePart.objects.filter(digest=digest).exists()
    fields.forget_kept_parts()  # another process, which never saw it
    assert GameTable.objects.get(pk=table.pk).state["bank"] == new_bank


def test_a_missing_part_is_a_clear_error(two_wordup_tables):
    table, _other = two_wordup_tables
    digest = _stored_state(table)["bank"][fields.PART]
    SharedStatePart.objects.filter(digest=digest).delete()
    fields.forget_kept_parts()
    with pytest.raises(LookupError, match="shared part that is not stored"):
        GameTable.objects.get(pk=table.pk).state  # noqa: B018


def test_games_without_shared_parts_store_their_state_whole(class_7b, ms_rivera, ava, ben):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineit", now=T0)
    table = GameTable.objects.get(session=session)
    assert _stored_state(table) == table.state


@pytest.mark.parametrize(
    ("game", "key", "steps", "min_seq", "row_under"),
    [
        # A Line Up! state is mostly its session's questions (some 380 KB).
        ("lineup", "questions", 40, 10, 20_000),
        # A Line-Up state is mostly its three rounds' boards and the faces given (27 of 30 KB), each
        # match's its own (drawn from its seed).
        ("faces", "rounds", 30, 5, 8_000),
    ],
)
def test_a_part_set_up_once_is_not_written_with_every_move_and_a_game_played_through_replays(
    class_7b, ms_rivera, ava, ben, game, key, steps, min_seq, row_under
):
    session = started_session(class_7b, ms_rivera, [ava, ben], game, now=T0)
    table = GameTable.objects.get(session=session)
    engine = get_engine(game)
    part = engine.setup(table.config, table.seed, T0)[key]
    play_through_runtime(table, engine, core.Rng(f"{game} parts"), T0, steps)
    table.refresh_from_db()
    assert table.seq > min_seq
    row = _stored_state(table)
    assert set(row[key]) == {fields.PART}
    assert len(fields._encode(row)) < row_under < len(fields._encode(part))
    assert table.state[key] == part
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.state_hash(core.replay(engine, table.config, table.seed, log)) == core.state_hash(table.state)


def _stored_config(table) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT config FROM games_gametable WHERE id = %s", [table.pk])
        (raw,) = cursor.fetchone()
    return fields._decode(raw) if isinstance(raw, (str, bytes)) else raw


def test_a_tables_question_pool_is_stored_once_for_every_table_that_has_it(two_wordup_tables):
    """Each homework attempt is a table set up with the same pool (200 KB for Word Up): the rows hold
    its digest, the rest of the configuration (the players) stays in the row."""
    first, second = two_wordup_tables
    rows = [_stored_config(first), _stored_config(second)]
    digests = {row["questions"][fields.PART] for row in rows}
    assert len(digests) == 1
    assert SharedStatePart.objects.filter(digest__in=digests).count() == 1
    assert all(row["players"] for row in rows)
    fresh = GameTable.objects.get(pk=first.pk)
    assert fresh.config["questions"] == first.config["questions"] and fresh.config["questions"]
    engine = get_engine("wordup")
    assert core.state_hash(engine.setup(fresh.config, fresh.seed, T0)) == core.state_hash(
        engine.setup(first.config, first.seed, T0)
    )


def test_a_new_table_with_the_same_parts_does_not_make_the_process_keep_a_second_copy(
    two_wordup_tables, class_7b, ms_rivera, ava, ben
):
    """Each attempt's set-up builds its bank and pool afresh: keeping that new (equal) object in place of
    the one kept before made tables read before and after it hold two copies (with 1000 homework games,
    the server's caches of tables came to hold hundreds, its memory rising all evening)."""
    first, _second = two_wordup_tables
    before = GameTable.objects.get(pk=first.pk)
    third = GameTable.objects.get(session=started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0))
    after = GameTable.objects.get(pk=first.pk)
    assert after.state["bank"] is before.state["bank"]
    assert after.config["questions"] is before.config["questions"]
    assert GameTable.objects.get(pk=third.pk).config["questions"] is before.config["questions"]


def test_a_new_tables_parts_are_the_kept_copies_before_it_is_stored(two_wordup_tables, monkeypatch):
    """A homework attempt makes its game before its transaction: its parts are hashed and swapped for the
    kept copies then, so storing the table inside the transaction hashes nothing."""
    first, _second = two_wordup_tables
    kept = GameTable.objects.get(pk=first.pk)
    state = {**kept.state, "bank": core.clone(kept.state["bank"])}
    assert state["bank"] == kept.state["bank"] and state["bank"] is not kept.state["bank"]
    GameTable._meta.get_field("state").share_parts(state)
    assert state["bank"] is kept.state["bank"]
    monkeypatch.setattr(fields.hashlib, "sha256", lambda data: pytest.fail("hashed again when stored"))
    GameTable.objects.filter(pk=first.pk).update(state=state)
    assert _stored_state(first)["bank"] == {fields.PART: fields._digests[id(kept.state["bank"])]}


def test_an_equal_copy_given_again_is_hashed_once(two_wordup_tables, monkeypatch):
    """The server keeps each school's Word Up bank; when the part it is kept as was read back from a
    table first, that bank is an equal copy of it: every attempt's set-up hashed 200 KB again."""
    first, _second = two_wordup_tables
    kept = GameTable.objects.get(pk=first.pk)
    own = core.clone(kept.config["questions"])
    field = GameTable._meta.get_field("config")
    config = {"questions": own}
    field.share_parts(config)
    assert config["questions"] is kept.config["questions"]
    monkeypatch.setattr(fields.hashlib, "sha256", lambda data: pytest.fail("the same copy hashed again"))
    again = {"questions": own}
    field.share_parts(again)
    assert again["questions"] is kept.config["questions"]


def test_a_trip_reads_the_parts_its_tables_need_and_this_process_lacks_in_one_query(
    class_7b, ms_rivera, ava, ben
):
    """A hundred homework matches in one trip, each with its own boards: not a query per table."""
    from django.test.utils import CaptureQueriesContext

    from games.services import rows

    tables = [
        GameTable.objects.get(session=started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0))
        for _ in range(3)
    ]
    whole = {table.pk: GameTable.objects.get(pk=table.pk).state for table in tables}
    fields.forget_kept_parts()  # another process, which never saw them
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = rows.locked_tables([table.pk for table in tables])
    parts_read = [q for q in queries.captured_queries if "games_sharedstatepart" in q["sql"]]
    assert len(parts_read) == 1
    assert {table.pk: table.state for table in read} == whole


@pytest.fixture
def no_parts_kept():
    fields.forget_kept_parts()
    yield
    fields.forget_kept_parts()


def _part(number: int, size: int) -> list:
    return [number, "x" * (size - 10)]


def test_parts_are_kept_up_to_a_budget_of_their_json_least_recently_used_dropped(no_parts_kept, monkeypatch):
    """Kept by size, not number: a school's Line-Up tables each have a part of their own, and every one
    of them is read again unless they all fit."""
    monkeypatch.setattr(fields, "PARTS_KEPT_BYTES", 1000)
    digests = [fields._kept_digest(_part(number, 300)) for number in range(3)]
    assert list(fields._parts) == digests and 800 < fields._kept_bytes <= 1000
    fields._load_part(digests[0], "default")  # used again: now the most recent
    fourth = fields._kept_digest(_part(3, 300))
    assert list(fields._parts) == [digests[2], digests[0], fourth]  # the least recently used went
    assert fields._kept_bytes == sum(fields._part_sizes.values()) <= 1000


def test_a_part_larger_than_the_budget_is_still_kept_while_it_is_the_latest(no_parts_kept, monkeypatch):
    monkeypatch.setattr(fields, "PARTS_KEPT_BYTES", 100)
    small = fields._kept_digest(_part(1, 50))
    large_value = _part(2, 500)
    large = fields._kept_digest(large_value)
    assert (
        list(fields._parts) == [large] and fields._parts[large] is large_value and small not in fields._parts
    )
