"""A test LMS: it holds its own RSA keys, signs id_tokens, and answers the tool's HTTP calls (its key
set, service tokens, the course's members, line items and scores) through ``responses``, so the whole
LTI flow runs offline, exactly as the library would meet a real Moodle or Canvas."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import jwt
import requests
import responses
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

from integrations import keys
from integrations.lti import AGS_CLAIM, CLAIM, DEEP_LINKING_CLAIM, NRPS_CLAIM, ROLE_PREFIX

ISSUER = "https://lms.example.edu"
CLIENT_ID = "classplay-client-1"
DEPLOYMENT_ID = "deployment-1"
CONTEXT_ID = "course-101"
INSTRUCTOR = ROLE_PREFIX + "membership#Instructor"
LEARNER = ROLE_PREFIX + "membership#Learner"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"


def _key_pair(kid: str) -> tuple[str, dict]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = json.loads(JWK.from_pem(pem.encode()).export_public())
    public.update(kid=kid, alg="RS256", use="sig")
    return pem, public


PLATFORM_PEM, PLATFORM_JWK = _key_pair("lms-key-1")
#: Another key, not in the platform's key set: what a forger would sign with.
FORGER_PEM, _FORGER_JWK = _key_pair("lms-key-1")


@dataclass
class LmsPlatform:
    mock: responses.RequestsMock
    members: list[dict] = field(default_factory=list)
    scores: list[dict] = field(default_factory=list)
    #: How many score posts to refuse (503) before accepting: the tool must retry.
    refuse_scores: int = 0
    token_requests: int = 0
    #: The course's member list answers this status instead (a platform that is down or refuses).
    members_status: int = 200
    #: Seconds the platform takes to answer, by path: a caller that waits less gives up (requests'
    #: ReadTimeout), one that sets no timeout waits and gets the answer.
    delays: dict[str, float] = field(default_factory=dict)

    def __post_init__(self):
        self.mock.add_callback(responses.GET, f"{ISSUER}/jwks", callback=self._key_set)
        self.mock.add_callback(responses.POST, f"{ISSUER}/token", callback=self._token)
        self.mock.add_callback(responses.GET, self.memberships_url, callback=self._members)
        self.mock.add_callback(responses.POST, f"{self.lineitem_url}/scores", callback=self._score)

    # --- What the school admin registers ----------------------------------------------------------
    registration = {
        "name": "Riverside Moodle",
        "issuer": ISSUER,
        "client_id": CLIENT_ID,
        "deployment_ids": DEPLOYMENT_ID,
        "key_set_url": f"{ISSUER}/jwks",
        "auth_login_url": f"{ISSUER}/auth",
        "access_token_url": f"{ISSUER}/token",
    }
    memberships_url = f"{ISSUER}/courses/{CONTEXT_ID}/memberships"
    lineitems_url = f"{ISSUER}/courses/{CONTEXT_ID}/lineitems"
    lineitem_url = f"{ISSUER}/courses/{CONTEXT_ID}/lineitems/7"

    # --- The services' answers ---------------------------------------------------------------------
    def _answer_in_time(self, request) -> None:
        delay = self.delays.get(urlsplit(request.url).path, 0)
        timeout = request.req_kwargs.get("timeout")
        waits = timeout[1] if isinstance(timeout, tuple) else timeout
        if delay and waits is not None and waits < delay:
            raise requests.exceptions.ReadTimeout(f"Read timed out. (read timeout={waits})")

    def _key_set(self, request):
        self._answer_in_time(request)
        return 200, {}, json.dumps({"keys": [PLATFORM_JWK]})

    def _check_assertion(self, request) -> dict:
        form = parse_qs(request.body)
        assertion = form["client_assertion"][0]
        public_pem = keys.current_key().public_pem
        claims = jwt.decode(assertion, public_pem, algorithms=["RS256"], audience=f"{ISSUER}/token")
        assert claims["iss"] == CLIENT_ID
        return form

    def _token(self, request):
        self._answer_in_time(request)
        self._check_assertion(request)
        self.token_requests += 1
        return 200, {}, json.dumps({"access_token": f"token-{self.token_requests}", "expires_in": 3600})

    def _members(self, request):
        self._answer_in_time(request)
        assert request.headers["Authorization"].startswith("Bearer token-")
        if self.members_status != 200:
            return self.members_status, {}, "Service unavailable"
        body = {"id": self.memberships_url, "context": {"id": CONTEXT_ID}, "members": self.members}
        return 200, {}, json.dumps(body)

    def _score(self, request):
        self._answer_in_time(request)
        assert request.headers["Authorization"].startswith("Bearer token-")
        if self.refuse_scores:
            self.refuse_scores -= 1
            return 503, {}, "busy"
        self.scores.append(json.loads(request.body))
        return 200, {}, "{}"

    # --- Launches ----------------------------------------------------------------------------------
    def id_token(self, nonce: str, *, sign_with: str = PLATFORM_PEM, **claims) -> str:
        now = int(time.time())
        body = {
            "iss": ISSUER,
            "aud": CLIENT_ID,
            "sub": "lms-user-teacher",
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            CLAIM + "message_type": "LtiResourceLinkRequest",
            CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": DEPLOYMENT_ID,
            CLAIM + "target_link_uri": "https://testserver/lti/launch/",
            CLAIM + "roles": [INSTRUCTOR],
            CLAIM + "context": {"id": CONTEXT_ID, "title": "Year 7 English", "label": "ENG7"},
            CLAIM + "resource_link": {"id": "link-1"},
            NRPS_CLAIM: {"context_memberships_url": self.memberships_url, "service_versions": ["2.0"]},
            AGS_CLAIM: {
                "scope": [SCORE_SCOPE, LINEITEM_SCOPE],
                "lineitems": self.lineitems_url,
                "lineitem": self.lineitem_url,
            },
            "email": "teacher@riverside.example",
            "name": "Rosa Rivera",
            "given_name": "Rosa",
            "family_name": "Rivera",
        }
        body.update(claims)
        return jwt.encode(
            {k: v for k, v in body.items() if v is not None},
            sign_with,
            algorithm="RS256",
            headers={"kid": "lms-key-1"},
        )

    def login(self, client, **params):
        """The LMS's third-party-initiated login; returns the tool's redirect's state and nonce."""
        data = {
            "iss": ISSUER,
            "login_hint": "hint",
            "target_link_uri": "https://testserver/lti/launch/",
            "client_id": CLIENT_ID,
            "lti_message_hint": "msg",
        } | params
        response = client.post("/lti/login/", data, secure=True)
        assert response.status_code == 302, response.content
        location = urlsplit(response["Location"])
        assert f"{location.scheme}://{location.netloc}{location.path}" == f"{ISSUER}/auth"
        query = {key: values[0] for key, values in parse_qs(location.query).items()}
        assert query["client_id"] == CLIENT_ID and query["redirect_uri"].endswith("/lti/launch/")
        return query["state"], query["nonce"]

    def launch(self, client, *, state=None, nonce=None, id_token=None, **claims):
        """Login, then post the signed id_token to the tool's launch URL, as the user's browser would."""
        if state is None:
            state, nonce = self.login(client)
        token = id_token or self.id_token(nonce, **claims)
        return client.post("/lti/launch/", {"id_token": token, "state": state}, secure=True)

    def deep_link_claims(self) -> dict:
        return {
            CLAIM + "message_type": "LtiDeepLinkingRequest",
            CLAIM + "resource_link": None,
            DEEP_LINKING_CLAIM: {
                "deep_link_return_url": f"{ISSUER}/deep-link-return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["window"],
                "data": "opaque-" + uuid.uuid4().hex,
            },
        }


def learner(sub: str, given: str, family: str, status: str = "Active") -> dict:
    return {
        "user_id": sub,
        "roles": [LEARNER],
        "status": status,
        "given_name": given,
        "family_name": family,
        "name": f"{given} {family}",
    }
