"""How an error is marked, for checker play and cube decisions alike (gnubg's limits).

>>> mark(0.05), mark(0.2), mark(0.01)
('doubtful', 'very bad', '')
"""

from __future__ import annotations

MARKS = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))
#: the least loss that is an error at all (gnubg's "doubtful"): below it a decision is
#: not called wrong, though its loss still counts in the error rate
ERROR_LIMIT = MARKS[-1][0]


def mark(loss: float) -> str:
    """The mark of an equity ``loss``: ``very bad``, ``bad``, ``doubtful`` or none."""
    for limit, name in MARKS:
        if loss >= limit:
            return name
    return ""
