"""The only writers of game sessions, by what they do: scheduling, the lobby and the start, moves and
deadlines (``play``: ``action_submit`` locks the table row, checks the seat, the clock and the client's
idempotency key, applies the pure rule, appends to the log and, after the commit, tells every viewer that
the table changed), the teacher's controls, and the wrap-up. Callers use ``games.services.<name>``.
"""

from .base import (  # noqa: F401 - the runtime's write API
    BOT_PREFIX,
    BOT_THINK_SECONDS,
    LOBBY_OPENS_MINUTES,
    is_bot,
    now_ts,
    student_player_id,
)
from .controls import (  # noqa: F401 - the runtime's write API
    session_end,
    session_pause,
    session_resume,
    table_advance,
    table_end,
    table_extend,
)
from .homework import (  # noqa: F401 - the runtime's write API
    assignment_close,
    assignment_create,
    assignment_extend,
    assignment_update,
    attempt_device_arrived,
    attempt_device_left,
    attempt_start,
    homework_settings,
    seats_release_gone,
)
from .lobby import (  # noqa: F401 - the runtime's write API
    SeatChange,
    participant_admit,
    participant_plan,
    participant_readmit,
    participant_remove,
    planned_table_count,
    seat_claim,
    seat_latecomers,
    seat_release,
    seats_update,
    session_arrange,
    session_join,
    session_lock_lobby,
    session_open_lobby,
    session_start,
    sessions_open_due_lobbies,
)
from .play import (  # noqa: F401 - the runtime's write API
    ActionRefused,
    ActionResult,
    Submission,
    action_submit,
    actions_submit,
    bots_sweep,
    clock_sweep,
    deadline_sweep,
    illegal_message,
    table_bot_move,
    table_sweep,
    tables_actions_submit,
)
from .privacy import student_pseudonymise  # noqa: F401 - the runtime's write API
from .scheduling import (  # noqa: F401 - the runtime's write API
    PLAN_AHEAD,
    session_cancel,
    session_duplicate,
    session_play_now,
    session_schedule,
    session_update,
)
from .wrapup import (  # noqa: F401 - the runtime's write API
    WRAP_UP_GRACE,
    session_finish_if_done,
    session_wrap_up,
    sessions_wrap_up_missed,
    table_facts_record,
    tables_facts_record,
)
