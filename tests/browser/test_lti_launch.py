"""LTI launches in a real browser, as an LMS makes them: a small local "platform" (its own web server and
keys) serves a page that auto-posts the OIDC login initiation form to Classplay; Classplay redirects the
browser to the platform's authorisation endpoint, which answers with a page that auto-posts the signed
id_token to Classplay's launch URL. The browser carries Classplay's state cookie between the two posts,
exactly as it would coming from Moodle or Canvas. Who arrives where: a teacher on the class's page, a
student on the open game behind a game's link (joined, no code typed), a student on the homework behind
a homework link (and Start opens the attempt)."""

from __future__ import annotations

import html
import json
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
import pytest
from django.urls import reverse
from django.utils import timezone

from classrooms.models import Student
from games import services as game_services
from games.models import GameSession
from integrations.lti import AGS_CLAIM, CLAIM, NRPS_CLAIM
from integrations.models import CourseLink, Platform
from tests.integrations.platform import INSTRUCTOR, LEARNER, PLATFORM_JWK, PLATFORM_PEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLIENT_ID = "classplay-browser-client"
DEPLOYMENT_ID = "deployment-browser"
CONTEXT = {"id": "course-b1", "title": "Year 7 English", "label": "ENG7"}


def _auto_post(action: str, fields: dict[str, str]) -> bytes:
    """The page an LMS sends: a form posted by a script as soon as it loads."""
    inputs = "".join(
        f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
        for name, value in fields.items()
    )
    form = f'<form method="post" action="{html.escape(action)}">'
    return (
        f'<!doctype html><html lang="en"><title>LMS</title>{form}'
        f"{inputs}<button>Continue</button></form><script>document.forms[0].submit()</script></html>"
    ).encode()


class LocalPlatform:
    """The LMS: ``start(hint)`` is the course link a person clicks; ``people[hint]`` is who they are
    (their id_token claims, besides the ones every launch carries)."""

    def __init__(self):
        self.people: dict[str, dict] = {}
        self.tool_url = ""
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _handler(self):
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlsplit(self.path)
                query = {key: values[0] for key, values in parse_qs(url.query).items()}
                if url.path == "/jwks":
                    self._send(json.dumps({"keys": [PLATFORM_JWK]}).encode(), "application/json")
                elif url.path == "/start":
                    self._send(platform.login_page(query["hint"]))
                elif url.path == "/auth":
                    self._send(platform.authorise(query))
                else:
                    self.send_error(404)

            def _send(self, body: bytes, content_type: str = "text/html; charset=utf-8"):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        return Handler

    def login_page(self, hint: str) -> bytes:
        """Third-party-initiated login: the LMS names itself, the user (a hint) and where to go."""
        return _auto_post(
            f"{self.tool_url}/lti/login/",
            {
                "iss": self.issuer,
                "login_hint": hint,
                "target_link_uri": f"{self.tool_url}/lti/launch/",
                "client_id": CLIENT_ID,
                "lti_message_hint": hint,
            },
        )

    def authorise(self, query: dict) -> bytes:
        """The authentication response: checks the tool's request, signs the id_token with the nonce
        the tool chose and posts it, with the tool's state, to the redirect URI."""
        assert query["client_id"] == CLIENT_ID and query["response_mode"] == "form_post"
        assert query["redirect_uri"] == f"{self.tool_url}/lti/launch/"
        token = self.id_token(query["nonce"], self.people[query["login_hint"]])
        return _auto_post(query["redirect_uri"], {"id_token": token, "state": query["state"]})

    def id_token(self, nonce: str, person: dict) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            CLAIM + "message_type": "LtiResourceLinkRequest",
            CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": DEPLOYMENT_ID,
            CLAIM + "target_link_uri": f"{self.tool_url}/lti/launch/",
            CLAIM + "context": CONTEXT,
            CLAIM + "resource_link": {"id": "course-home"},
            NRPS_CLAIM: {
                "context_memberships_url": f"{self.issuer}/memberships",
                "service_versions": ["2.0"],
            },
            AGS_CLAIM: {"scope": [], "lineitems": f"{self.issuer}/lineitems"},
        } | person
        return jwt.encode(claims, PLATFORM_PEM, algorithm="RS256", headers={"kid": PLATFORM_JWK["kid"]})

    def registration(self, school) -> Platform:
        return Platform.objects.create(
            school=school,
            name="Local LMS",
            issuer=self.issuer,
            client_id=CLIENT_ID,
            deployment_ids=[DEPLOYMENT_ID],
            key_set_url=f"{self.issuer}/jwks",
            auth_login_url=f"{self.issuer}/auth",
            access_token_url=f"{self.issuer}/token",
        )

    def start(self, hint: str) -> str:
        return f"{self.issuer}/start?{urlencode({'hint': hint})}"


@pytest.fixture(scope="module")
def lms():
    platform = LocalPlatform()
    platform.thread.start()
    yield platform
    platform.server.shutdown()
    platform.server.server_close()


@pytest.fixture
def platform(lms, live_site, riverside):
    lms.tool_url = live_site
    lms.people.clear()
    return lms.registration(riverside)


@pytest.fixture
def course(platform, class_7b):
    """Ms Rivera's class 7B is the course's class (she opened Classplay there before)."""
    return CourseLink.objects.create(
        platform=platform, context_id=CONTEXT["id"], title=CONTEXT["title"], classroom=class_7b
    )


def learner(sub: str, given: str, family: str, **custom) -> dict:
    claims = {
        "sub": sub,
        CLAIM + "roles": [LEARNER],
        "name": f"{given} {family}",
        "given_name": given,
        "family_name": family,
    }
    if custom:
        claims[CLAIM + "resource_link"] = {"id": f"link-{sub}"}
        claims[CLAIM + "custom"] = {key: str(value) for key, value in custom.items()}
    return claims


def test_a_teacher_lands_signed_in_on_the_courses_class(new_page, lms, platform):
    lms.people["rosa"] = {
        "sub": "lms-rosa",
        CLAIM + "roles": [INSTRUCTOR],
        "email": "rosa.rivera@riverside.example",
        "name": "Rosa Rivera",
    }
    page = new_page()
    page.goto(lms.start("rosa"))
    page.get_by_role("heading", name="Year 7 English", level=1).wait_for()
    course = CourseLink.objects.get(platform=platform)
    assert urlsplit(page.url).path == reverse("classroom_detail", args=[course.classroom_id])
    page.get_by_role("button", name="Update from Year 7 English").wait_for()
    assert course.classroom.teachers.get().email == "rosa.rivera@riverside.example"


def test_a_student_lands_in_the_open_game_with_no_code_typed(new_page, lms, course, ms_rivera):
    session = game_services.session_play_now(classroom=course.classroom, by=ms_rivera, game="lineup")
    lms.people["zoe"] = learner("lms-zoe", "Zoe", "Quinn", classplay_session=session.pk)
    page = new_page()
    page.goto(lms.start("zoe"))
    page.wait_for_url(f"**{reverse('games:play', args=[session.pk])}")
    page.locator(".play-bar-title").wait_for()  # the play screen of a player, not the join panel
    zoe = Student.objects.get(given_name="Zoe", family_name="Quinn")
    assert session.participants.filter(student=zoe).exists()
    assert zoe.enrolments.get().classroom == course.classroom


def test_a_student_lands_on_the_homework_and_starts_it(new_page, lms, course, ms_rivera):
    assignment = game_services.assignment_create(
        classroom=course.classroom,
        by=ms_rivera,
        game="lineup",
        title="Fractions at home",
        opens_at=timezone.now() - timedelta(hours=1),
        due_at=timezone.now() + timedelta(days=2),
    )
    lms.people["yan"] = learner("lms-yan", "Yan", "Li", classplay_assignment=assignment.pk)
    page = new_page()
    page.goto(lms.start("yan"))
    page.wait_for_url(f"**{reverse('student_home')}#homework-{assignment.pk}")
    card = page.locator(f"#homework-{assignment.pk}")
    card.get_by_text("Fractions at home").wait_for()
    card.get_by_role("button", name="Start").click()
    page.wait_for_url("**/play/*/")
    attempt = GameSession.objects.get(assignment=assignment)
    assert urlsplit(page.url).path == reverse("games:play", args=[attempt.pk])
    assert attempt.participants.get().student.given_name == "Yan"
