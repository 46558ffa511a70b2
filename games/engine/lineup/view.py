"""What each Line Up! viewer sees. Deny by default: every view is built fresh from named fields, and a
team's rack, proposals and members' orderings reach only that team (and the teacher).

``build_view`` takes a ``shared`` dict so that the views of one state for a whole class build the part
every student shares, and each team's part, once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import core
from games.engine.core import State

from .rules import (
    ANSWER,
    CHOICE_PHASES,
    FACE_UP_MINIS,
    LOG_SHOWN,
    OVER,
    PROPOSALS_LISTED,
    RACK_PHASES,
    REVEAL,
    TEAMS,
    TITLE,
    acting_teams,
    current_players,
    legal_moves,
    public_question,
    question_of,
    teacher_actions,
    zone_of,
)

#: Viewers that see rosters and who may act now: one screen each, so their views may grow with the class.
STAFF_ROLES = ("teacher", "projector")


def build_view(state: State, viewer: dict[str, Any], shared: dict[Any, Any]) -> dict[str, Any]:
    _key, common, own = build_parts(state, viewer, shared)
    return {**common, **own}


#: The key of the part of a view every student shares (see ``build_parts``).
PLAYERS_COMMON = "player"


def build_parts(
    state: State, viewer: dict[str, Any], shared: dict[Any, Any]
) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """The view as (key, common, own): every student's view is the board, the question and the log that
    every student sees (``common``, the same object for all of them) and their own part (who they are,
    their team's rack with their own ordering, the names it mentions); a staff screen's is all its own."""
    role = viewer.get("role") if isinstance(viewer, dict) else None
    player: Any = viewer.get("player") if role == "player" else None
    if role == "player" and not (isinstance(player, str) and player in state["players"]):
        role = "spectator"
    if role not in ("player", "teacher", "projector"):
        role = "spectator"
    if role == "player":
        if "common" not in shared:
            shared["common"] = {**_public(state, shared), "viewer": role}
        return PLAYERS_COMMON, shared["common"], _own_part(state, player, shared)
    if role in STAFF_ROLES:
        # Rosters and who may act now list a whole class: only for the staff screens that show them.
        if "staff" not in shared:
            shared["staff"] = _public_view(state, current_players(state), staff=True)
        out = dict(shared["staff"])
    else:
        out = dict(_public(state, shared))
    out["viewer"] = role
    if role == "teacher":
        out["teacher_can"] = [action["type"] for action in teacher_actions(state)]
        out["team_details"] = {team: _private_team(state, team, staff=True) for team in TEAMS}
    out["names"] = _names(state, out)
    return None, {}, out


def _public(state: State, shared: dict[Any, Any]) -> dict[str, Any]:
    if "public" not in shared:
        shared["public"] = _public_view(state, [], staff=False)
    return shared["public"]


def _own_part(state: State, player: str, shared: dict[Any, Any]) -> dict[str, Any]:
    team = state["players"][player]["team"]
    q = state["q"]
    captain = bool(q) and q["captain"].get(team) == player
    if ("can", team, captain) not in shared:  # what a member may do depends on team and captaincy
        shared["can", team, captain] = sorted({a["type"] for a in legal_moves(state, player)})
    you = {
        "id": player,
        "name": state["players"][player]["name"],
        "team": team,
        "captain": captain,
        "can": shared["can", team, captain],
    }
    if ("team", team) not in shared:
        shared["team", team] = _private_team(state, team, staff=False)
    my_team = dict(shared["team", team])
    if q is not None and team in q["playing"]:
        mine = q["own"].get(player)
        my_team["my_order"] = list(mine["order"]) if mine else None
    # Everything a member's view mentions is their team's, but for their own name.
    if ("names", team) not in shared:
        shared["names", team] = _names(state, {**shared["common"], "my_team": my_team, "you": None})
    return {"you": you, "my_team": my_team, "names": {**shared["names", team], player: you["name"]}}


def _team_done(state: State, team: str) -> bool:
    q, phase = state["q"], state["phase"]
    if phase in CHOICE_PHASES:
        return team in q["locked"]
    if phase in RACK_PHASES:
        return team in q["answers"]
    return False


def _public_team(state: State, team: str, staff: bool) -> dict[str, Any]:
    info = state["teams"][team]
    out: dict[str, Any] = {
        "size": len(info["members"]),
        "position": info["pos"],
        "zone": zone_of(state, info["pos"]),
        "on_star": info["pos"] in state["board"]["stars"],
    }
    q = state["q"]
    if q is None:
        return out
    out["playing"] = team in q["playing"]
    out["captain"] = q["captain"].get(team)
    out["locked"] = _team_done(state, team)
    if q["predictions"]:
        out["prediction"] = q["predictions"][team]  # shown to the other team once both are in
    if q["bidder"] == team:
        out["bid"] = q["bid"]
    if q["mini"] in FACE_UP_MINIS and q["bidder"] == team and state["phase"] == ANSWER:
        out["rack"] = list(q["rack"][team])  # the bidder answers with its cards face up
    return out


def _roster(state: State, team: str) -> list[dict[str, Any]]:
    return [
        {"id": p, "name": state["players"][p]["name"], "bot": state["players"][p]["bot"]}
        for p in state["teams"][team]["members"]
    ]


def _names(state: State, view: dict[str, Any]) -> dict[str, str]:
    """The names of the players this view mentions (captains, whoever moved or suggested something, the
    log's people), so a student's view stays the same small size whether the class has 20 or 2000."""
    players = state["players"]
    mentioned: list[Any] = [info.get("captain") for info in view["teams"].values()]
    mentioned += [entry.get(key) for entry in view["log"] for key in ("by", "player")]
    for section in [view.get("my_team") or {}, *(view.get("team_details") or {}).values()]:
        mentioned += [section.get("captain"), section.get("rack_by")]
        mentioned += [*section.get("proposals", {}), *section.get("orders", {})]
        mentioned += [
            proposal.get("by")
            for proposal in (section.get("proposal"), section.get("star_proposal"))
            if proposal
        ]
    if view.get("you"):
        mentioned.append(view["you"]["id"])
    return {p: players[p]["name"] for p in mentioned if isinstance(p, str) and p in players}


def _public_view(state: State, players_now: list[str], staff: bool) -> dict[str, Any]:
    """What every viewer may see. Rosters and who may act now are for the staff screens only: a student's
    view must not grow with the class (one update goes to every device of a 2000-student session)."""
    q, phase = state["q"], state["phase"]
    out: dict[str, Any] = {
        "game": "lineup",
        "title": TITLE,
        "phase": phase,
        "mini": q["mini"] if q else None,
        "round": state["round"],
        "max_rounds": state["settings"]["max_rounds"],
        "time_up": state["time_up"],
        "board": {
            "name": state["board"]["name"],
            "zones": [dict(z) for z in state["board"]["zones"]],
            "stars": list(state["board"]["stars"]),
            "final": state["board"]["final"],
        },
        "teams": {team: _public_team(state, team, staff) for team in TEAMS},
        "turn": {"teams": acting_teams(state)},
        "question": public_question(question_of(state)) if q else None,
        # Counts the questions asked so far: a stable key for a client's work in progress on this one.
        "question_serial": q["serial"] if q else None,
        "stars_pending": [dict(entry) for entry in state["stars_pending"]],
        "winner": state["winner"],
        "over": phase == OVER,
        "log": [dict(entry) for entry in state["log"][-LOG_SHOWN:]],
        "last_events": [dict(entry) for entry in state["log"] if entry["step"] == state["step"]],
        "clock": core.clock_view(state),
    }
    if q and q["mini"] in FACE_UP_MINIS:
        out["bids"] = {
            "rounds": [dict(b) for b in q["bid_history"]],
            "bidder": q["bidder"],
            "bid": q.get("bid"),
        }
    if q and q["mini"] == "star":
        star = q["star"]
        out["star"] = {
            "team": star["team"],
            "space": star["space"],
            "laid": [{k: c[k] for k in ("card", "position", "right")} for c in star["laid"]],
            "can_stop": bool(star["laid"]) and star["ended"] is None,
        }
    if q and q["mini"] == "final":
        out["final"] = {
            "team": q["answering"][0],
            "attempt": min(len(q["attempts"]) + 1, 2),
            "wrong": q["attempts"][0]["wrong"] if q["attempts"] else None,
        }
    if phase in (REVEAL, OVER) and state["reveal"]:
        out["reveal"] = core.clone(state["reveal"])
    if staff:
        out["turn"]["players"] = list(players_now)
        for team in TEAMS:
            out["teams"][team]["members"] = _roster(state, team)
    return out


def _private_team(state: State, team: str, staff: bool) -> dict[str, Any]:
    """What the team's own members (and the teacher) see: its rack, who proposed what, its locked choices;
    the same for every member (each device adds its own ``my_order``)."""
    q, phase = state["q"], state["phase"]
    out: dict[str, Any] = {"team": team}
    if q is None or team not in q["playing"]:
        return out
    out["captain"] = q["captain"].get(team)
    if team in q["answering"] and phase in RACK_PHASES:
        out["rack"] = list(q["rack"][team])
        out["rack_by"] = q["rack_by"][team]
    if staff:
        members = state["teams"][team]["members"]
        out["orders"] = {p: list(q["own"][p]["order"]) for p in members if p in q["own"]}
    if team in q["answers"]:
        out["locked_answer"] = list(q["answers"][team]["order"])
    if phase in CHOICE_PHASES:
        proposal = q["proposal"].get(team)
        out["proposal"] = dict(proposal) if proposal else None
        proposed = q["proposed"].get(team, {})
        # A student's screen lists who suggested what in a small team; in a big one it shows the tally
        # (nobody reads 40 names, and the view must not grow with the class).
        listed = staff or len(proposed) <= PROPOSALS_LISTED
        out["proposals"] = dict(proposed) if listed else {}
        out["proposal_counts"] = {str(v): n for v, n in sorted(Counter(proposed.values()).items())}
        out["locked_value"] = q["locked"].get(team)
    if q["mini"] == "star":
        star = q["star"]
        out["star_proposal"] = dict(star["proposal"]) if star["proposal"] else None
        if staff:
            out["star_proposed"] = {p: [dict(x) for x in v] for p, v in star["proposed"].items()}
    if q["mini"] == "final":
        out["attempts"] = [{"order": list(a["order"]), "wrong": a["wrong"]} for a in q["attempts"]]
    return out
