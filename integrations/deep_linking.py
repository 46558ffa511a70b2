"""The signed deep-linking response: one LtiResourceLink that launches into the chosen game session or
homework assignment, with a line item so the LMS keeps a grade column for it."""

from __future__ import annotations

from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from games.models import Assignment, GameSession

from .grades import SCORE_MAXIMUM
from .lti import ASSIGNMENT_PARAMETER, SESSION_PARAMETER, registration_for
from .models import DeepLinkRequest


def activity_resource(*, activity: GameSession | Assignment, launch_url: str) -> DeepLinkResource:
    """The link for a game session or a homework; the custom parameter says which one it launches."""
    title = str(activity)
    if isinstance(activity, Assignment):
        parameter, resource_id = ASSIGNMENT_PARAMETER, f"classplay-assignment-{activity.pk}"
    else:
        parameter, resource_id = SESSION_PARAMETER, f"classplay-session-{activity.pk}"
    lineitem = (
        LineItem()
        .set_label(title[:100])
        .set_score_maximum(SCORE_MAXIMUM)
        .set_resource_id(resource_id)
        .set_tag("classplay")
    )
    return (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(title)
        .set_custom_params({parameter: str(activity.pk)})
        .set_lineitem(lineitem)
        .set_target("window")  # Classplay refuses to be framed: the LMS opens it in a new window
    )


def response_jwt(*, picking: DeepLinkRequest, activity: GameSession | Assignment, launch_url: str) -> str:
    registration = registration_for(picking.course.platform)
    deep_link = DeepLink(registration, picking.deployment_id, picking.settings)
    return deep_link.get_response_jwt([activity_resource(activity=activity, launch_url=launch_url)])
