"""The embedded Celery broker: kombu's filesystem transport, each message written whole before it is seen.

Kombu's own transport creates a message's file under its final name and then writes into it, and its
consumer takes any file of that name: a worker that looked in between read an empty message, and the
JSON error it raised stopped the worker for good ("Unrecoverable error"; a known kombu bug, still open
upstream). With 1000 homework games (a message every few milliseconds) it happened within minutes, and
with no worker no learning facts were recorded and no report was built. Here a message is written under
a name the consumer does not look at and then renamed to its final one, which is atomic.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: Appended to a message's name while it is written: the consumer takes only names ending ``<queue>.msg``.
PARTIAL = ".part"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` on ``queue``, named as kombu names it (milliseconds first: the consumer takes
        the oldest first), visible only once whole."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            with open(path + PARTIAL, "wb") as partial:
                partial.write(str_to_bytes(dumps(payload)))
            os.replace(path + PARTIAL, path)
        except OSError as error:
            raise ChannelError(f"Cannot add file {path!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel
