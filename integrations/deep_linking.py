"""The signed deep-linking response: one LtiResourceLink that launches into the chosen game session,
with a line item so the LMS keeps a grade column for it."""

from __future__ import annotations

from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from games.models import GameSession

from .grades import SCORE_MAXIMUM
from .lti import SESSION_PARAMETER, registration_for
from .models import DeepLinkRequest


def session_resource(*, session: GameSession, launch_url: str) -> DeepLinkResource:
    title = str(session)
    lineitem = (
        LineItem()
        .set_label(title[:100])
        .set_score_maximum(SCORE_MAXIMUM)
        .set_resource_id(f"classplay-session-{session.pk}")
        .set_tag("classplay")
    )
    return (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(title)
        .set_custom_params({SESSION_PARAMETER: str(session.pk)})
        .set_lineitem(lineitem)
        .set_target("window")  # Classplay refuses to be framed: the LMS opens it in a new window
    )


def response_jwt(*, picking: DeepLinkRequest, session: GameSession, launch_url: str) -> str:
    registration = registration_for(picking.course.platform)
    deep_link = DeepLink(registration, picking.deployment_id, picking.settings)
    return deep_link.get_response_jwt([session_resource(session=session, launch_url=launch_url)])
