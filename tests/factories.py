"""factory_boy factories with readable defaults."""

import factory
from allauth.account.models import EmailAddress

from classrooms.models import Classroom, Membership, School, Student, User

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"staff{n}@school.example")
    display_name = factory.Faker("name")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def verified(obj, create, extracted, **kwargs):
        if create:
            obj.save()
            EmailAddress.objects.create(user=obj, email=obj.email, verified=True, primary=True)


class SchoolFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = School

    name = factory.Sequence(lambda n: f"School {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    school = factory.SubFactory(SchoolFactory)
    role = Membership.Role.TEACHER


class ClassroomFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Classroom
        skip_postgeneration_save = True

    school = factory.SubFactory(SchoolFactory)
    name = factory.Sequence(lambda n: f"Class {n}")
    subject = "English"

    @factory.post_generation
    def teachers(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.teachers.add(*extracted)


class StudentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Student

    school = factory.SubFactory(SchoolFactory)
    given_name = factory.Faker("first_name")
    family_name = factory.Faker("last_name")
    display_name = factory.LazyAttribute(lambda o: f"{o.given_name} {o.family_name[:1]}.")
    signin_code = "1234"


def enrolled_student(classroom: Classroom, **fields) -> Student:
    """A student of ``classroom``'s school, enrolled in it."""
    student = StudentFactory(school=classroom.school, **fields)
    student.enrolments.create(classroom=classroom)
    return student


def started_session(classroom, teacher, students, game, now=None, **settings):
    """A session of ``game`` scheduled for the class, its lobby opened, ``students`` joined and the game
    started (at ``now``, server epoch seconds, when given): the set-up most runtime tests share."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services

    session = services.session_schedule(
        classroom=classroom,
        by=teacher,
        game=game,
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings=settings,
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    return services.session_start(session=session, by=teacher, now=now)


def imported_word_list(school, teacher, csv_text: bytes, name: str = "Week 12"):
    """A new word list of the school's, its concepts imported from ``csv_text`` (id,text,difficulty,theme)
    as a teacher imports them on the question bank's page."""
    from questions import services
    from questions.models import WordList

    preview = services.import_preview(
        kind="concepts", school=school, user=teacher, data=csv_text, filename="w.csv", new_list_name=name
    )
    services.import_apply(preview=preview, school=school, by=teacher)
    return WordList.objects.get(school=school, name=name)


def open_assignment(classroom, teacher, game="wordup", **fields):
    """A homework of ``game`` for the class, opened an hour ago and due tomorrow."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services

    fields.setdefault("opens_at", timezone.now() - timedelta(hours=1))
    fields.setdefault("due_at", timezone.now() + timedelta(days=1))
    return services.assignment_create(classroom=classroom, by=teacher, game=game, **fields)


def recorded_facts(table):
    """The table's learning facts once the worker has recorded them from its log (``games.table_facts``
    runs after each commit; here it runs now, for every entry)."""
    from games import services
    from reports.models import LearningFact

    services.table_facts_record(table_id=table.pk)
    return LearningFact.objects.filter(table=table)


def play_through_runtime(table, engine, rng, now: float, steps: int, until=lambda: False) -> float:
    """Up to ``steps`` steps of ``table``'s game through the runtime: the students' moves chosen by the
    engine's bot and submitted as actions, the computer players and deadlines left to the sweeps. Stops
    early when the table ends or ``until()`` holds; returns the time (server epoch seconds) reached."""
    from games import services
    from games.models import GameTable

    for _step in range(steps):
        if until():
            break
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            break
        now += 1
        humans = [p for p in engine.current_players(table.state) if not services.is_bot(p)]
        if humans:
            player = humans[rng.below(len(humans))]
            action = engine.bot_action(table.state, player, rng)
            services.action_submit(table_id=table.pk, player=player, action=action, key=f"k{now}", now=now)
        elif not services.bots_sweep(now=now + 2):
            services.deadline_sweep(now=max(now, table.deadline or now))
    return now
