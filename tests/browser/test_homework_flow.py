"""Homework in real browsers, through the real pages, websocket and clock: the teacher sets each game
that can be homework through the form; the student finds it on their page, starts it with one tap and
plays it to the end against the computer on the play screen; the teacher's view shows it finished; the
report counts it as homework. One game is left half-way on a laptop and carried on on a tablet."""

import time

import pytest

from games.definitions import DEFINITIONS, get_engine
from games.engine import core
from games.models import Assignment, GameSession, GameTable, TableLogEntry
from reports.build import classrooms_build
from reports.models import StudentSessionStat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Settings that keep each game short: a short board, one token of each colour, the shortest reveals.
QUICK = {
    "lineup": {"board": "short", "reveal_seconds": "10"},
    "wordup": {"target": "1", "reveal_seconds": "4"},
    "faces": {},
    "lineit": {},
}
HOMEWORK_GAMES = [name for name, game in DEFINITIONS.items() if not game.homework.unavailable]
ACT = "([table, action]) => Classplay.page.connection.act(table, action).then(() => 'ok', (e) => e.code)"


@pytest.fixture(autouse=True)
def quick_computer(monkeypatch):
    """The computer players think for a tenth of a second instead of 1.5 s (a whole game in minutes)."""
    monkeypatch.setattr("games.services.log.BOT_THINK_SECONDS", 0.1)


def set_homework(page, base, game: str, title: str) -> Assignment:
    page.goto(f"{base}/dashboard/")
    page.get_by_role("link", name="Set homework").click()
    page.get_by_label("Game", exact=True).select_option(game)
    page.locator("#id_title").fill(title)
    page.get_by_label("Timers").select_option("off")
    for key, value in QUICK[game].items():
        field = page.locator(f"#id_{game}__{key}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.get_by_role("button", name="Set homework").click()
    page.get_by_role("heading", name=title).wait_for()
    return Assignment.objects.get(title=title)


def start_from_home(page, base, title: str, button: str = "Start") -> GameTable:
    page.goto(f"{base}/me/")
    page.locator("[data-homework]", has_text=title).get_by_role("button", name=button).click()
    page.locator("[data-tables] [data-table-id]").first.wait_for()
    session = GameSession.objects.get(assignment__title=title)
    return GameTable.objects.get(session=session)


def play(page, table: GameTable, player: str, *, moves: int | None = None, limit: float = 420) -> int:
    """The student's moves, as the engine's own computer player would choose them, sent from the play
    screen's live connection (the same path as a tap); the computer players are the clock's. Stops after
    ``moves`` moves or at the end of the game. Returns how many of the student's moves the log holds (a
    move whose acknowledgement the page missed still counts: the server is the record)."""
    engine = get_engine(table.session.game)
    rng = core.Rng("homework browser")
    made, acted_at, refusals = 0, -1, []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING or (moves is not None and made >= moves):
            logged = table.log.filter(player=player, kind=TableLogEntry.Kind.ACTION).count()
            print(f"{player}: {made} moves acknowledged, {logged} logged, refused: {refusals}")
            return logged
        if player in engine.current_players(table.state) and table.seq != acted_at:
            action = engine.bot_action(table.state, player, rng)
            acted_at = table.seq
            outcome = page.evaluate(ACT, [table.pk, action])
            if outcome == "ok":
                made += 1
            else:  # the screen's connection was not open yet, or the state moved on: ask again
                refusals.append(outcome)
                acted_at = -1
                time.sleep(0.2)
        else:
            time.sleep(0.05)
    raise AssertionError(f"{table.session.game} did not end in {limit} s (refused: {refusals})")


def wait_for_status(session: GameSession, status: str, limit: float = 10) -> None:
    """The session reaches ``status``: a session ends in its own transaction just after its last table's
    (on commit), so a test that saw the table end may look a moment too soon."""
    deadline = time.monotonic() + limit
    session.refresh_from_db()
    while session.status != status:
        assert time.monotonic() < deadline, f"the attempt is {session.status}, not {status}"
        time.sleep(0.1)
        session.refresh_from_db()


@pytest.mark.parametrize("game", HOMEWORK_GAMES)
def test_homework_from_assignment_to_report(live_site, signed_in, class_7b, ms_rivera, game):
    from tests.factories import enrolled_student

    ava = enrolled_student(class_7b, display_name="Ava M.")
    enrolled_student(class_7b, display_name="Ben K.")
    teacher = signed_in(live_site, user=ms_rivera)
    title = f"{DEFINITIONS[game].title} at home"
    assignment = set_homework(teacher, live_site, game, title)
    assert assignment.timers == Assignment.Timers.OFF

    device = signed_in(live_site, student=ava, width=1024, height=690)
    table = start_from_home(device, live_site, title)
    assert play(device, table, f"s{ava.pk}") > 0
    device.locator("[data-next-game]").wait_for(state="visible")
    session = table.session
    wait_for_status(session, GameSession.Status.FINISHED)

    # The teacher's view: Ava finished (on time), Ben has not started; he is on the reminder list.
    teacher.goto(f"{live_site}/homework/{assignment.pk}/")
    teacher.get_by_text("1 of 2 started · 1 finished").wait_for()
    row = teacher.locator("tr", has_text="Ava M.")
    assert "Finished" in row.inner_text() and "late" not in row.inner_text()
    teacher.get_by_role("link", name="Reminder list").click()
    teacher.get_by_text("Ben K.").wait_for()
    teacher.get_by_role("button", name="Print").wait_for()
    assert "Ava M." not in teacher.locator("main").inner_text()

    # Her page shows it done, with her result.
    device.goto(f"{live_site}/me/")
    device.locator("[data-homework-done]", has_text=title).wait_for()

    # The report counts it, as homework.
    classrooms_build([class_7b.pk])
    stat = StudentSessionStat.objects.get(student=ava, session=session)
    assert stat.session.assignment_id == assignment.pk
    # The class report of homework shows her attempt, marked as homework.
    teacher.goto(f"{live_site}/reports/classes/{class_7b.pk}/?mode=homework")
    teacher.get_by_text("Shows: Homework").wait_for()
    teacher.locator("#trend-heading ~ .table-wrap .badge.homework").first.wait_for()
    for page in (teacher, device):
        assert page.errors == []


def test_a_game_left_half_way_carries_on_on_another_device(live_site, signed_in, class_7b, ms_rivera):
    from tests.factories import enrolled_student

    ava = enrolled_student(class_7b, display_name="Ava M.")
    set_homework(signed_in(live_site, user=ms_rivera), live_site, "lineit", "Number lines")
    laptop = signed_in(live_site, student=ava)
    table = start_from_home(laptop, live_site, "Number lines")
    play(laptop, table, f"s{ava.pk}", moves=2)
    laptop.close()  # the laptop is shut: the attempt waits, its clock stopped
    session = table.session
    wait_for_status(session, GameSession.Status.PAUSED)  # the laptop left: the attempt's clock stopped
    table.refresh_from_db()
    seq = table.seq

    tablet = signed_in(live_site, student=ava, width=768, height=950)
    resumed = start_from_home(tablet, live_site, "Number lines", button="Carry on")
    assert resumed.pk == table.pk and GameTable.objects.get(pk=table.pk).seq >= seq
    assert play(tablet, resumed, f"s{ava.pk}") > 0
    wait_for_status(session, GameSession.Status.FINISHED)
    assert GameSession.objects.filter(assignment__title="Number lines").count() == 1
    assert tablet.errors == []


def test_the_homework_pages_are_accessible_and_fit(live_site, signed_in, class_7b, ms_rivera):
    from django.utils import timezone

    from games import services
    from tests.browser.fit import CONSOLES, STUDENT_DEVICES, assert_accessible, assert_fits
    from tests.factories import enrolled_student

    ava = enrolled_student(class_7b, display_name="Ava M.")
    ben = enrolled_student(class_7b, display_name="Ben K.")
    now = timezone.now()
    soon = services.assignment_create(
        classroom=class_7b,
        by=ms_rivera,
        game="wordup",
        title="Words this week",
        opens_at=now,
        due_at=now + timezone.timedelta(hours=12),
    )
    services.assignment_create(
        classroom=class_7b,
        by=ms_rivera,
        game="faces",
        title="Guess Who",
        opens_at=now,
        due_at=now + timezone.timedelta(days=5),
        attempts_allowed=2,
    )
    services.attempt_start(assignment=soon, student=ben)
    teacher = signed_in(live_site, user=ms_rivera)
    for label, path in [
        ("set homework", "/homework/new/"),
        ("homework", f"/homework/{soon.pk}/"),
        ("change homework", f"/homework/{soon.pk}/edit/"),
        ("reminder list", f"/homework/{soon.pk}/reminders/"),
        ("dashboard with homework", "/dashboard/"),
    ]:
        teacher.goto(live_site + path)
        assert_accessible(teacher, label=label)
    teacher.goto(f"{live_site}/homework/{soon.pk}/")
    assert_fits(
        teacher,
        "[data-homework-actions] .button, [data-homework-actions] button",
        label="homework",
        viewports=CONSOLES,
    )
    student = signed_in(live_site, student=ava, width=1024, height=690)
    student.goto(f"{live_site}/me/")
    assert_accessible(student, label="student home with homework")
    assert_fits(student, "[data-homework] button", label="student homework", viewports=STUDENT_DEVICES)
    cards = student.locator("[data-homework]").all_inner_texts()
    assert "Words this week" in cards[0] and "Guess Who" in cards[1]  # due soon first
