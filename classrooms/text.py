"""Sentences that put a student's name in: "Bruno G." ends with its own full stop."""

import re

_DOUBLED_STOP = re.compile(r"(?<=\b[A-Z])\.\.(?!\.)")


def tidy_sentence(text: str) -> str:
    """A name that ends with an initial ("Bruno G.") at the end of a sentence takes one full stop, not two
    ("Rivera removed Bruno G."); an ellipsis stays as it is."""
    return _DOUBLED_STOP.sub(".", text)
