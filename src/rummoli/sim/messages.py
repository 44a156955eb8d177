"""The simulator's English sentences for people, translated where they are shown.

The runner, the Ray backend and :class:`~rummoli.sim.spec.SimSpec` write English (they
run in workers and on Ray nodes, and ``where`` goes into the JSON file as it is, for
programs); ``rummoli simulate`` shows their sentences in the language in force, by shape
as :mod:`rummoli.i18n.sentences` does for the engine's: a known shape is a message id with
``{fields}`` (context ``error``, or ``simulation`` for where a run runs), an unknown
sentence stays English. Ray's own error text inside ours stays Ray's.
"""

from __future__ import annotations

import re

from rummoli.i18n import NP_, npgettext, pgettext
from rummoli.i18n import number as i18n_number
from rummoli.i18n.sentences import ERROR, Shape, translate

#: Errors of the simulator a person can meet: the bots for the table's seats (SimSpec),
#: a missing Ray, a Ray that cannot start or be reached (the longer shape first: the
#: shorter one would match it too, its ``{error}`` taking the rest).
SIM_ERRORS = (
    Shape(
        ERROR, NP_("error", "give {low} to {high} bots, one per seat (e.g. {example}), not {count}")
    ),
    Shape(ERROR, NP_("error", "the ray backend needs Ray: pip install 'rummoli[ray]'")),
    Shape(ERROR, NP_("error", "cannot start a local Ray: {error}")),
    Shape(
        ERROR,
        NP_(
            "error",
            "cannot reach the Ray cluster at {target}: {error}. If the cluster uses token "
            "authentication, copy its token from the head node (`ray get-auth-token` there) "
            "into RAY_AUTH_TOKEN or ~/.ray/auth_token",
        ),
    ),
    Shape(ERROR, NP_("error", "cannot reach the Ray cluster at {target}: {error}")),
)

_LOCAL = re.compile(r"(\d+) local processes")
_RAY = re.compile(r"Ray, (\d+) CPUs on (\d+) nodes?")


def error(text: str) -> str:
    """A simulator's error (``SimSpec``'s, the Ray backend's) in the language in force;
    the engine's errors are translated later, with the command's (``i18n/command.py``)."""
    return translate(text, SIM_ERRORS)


def where_text(where: str) -> str:
    """Where a run's chunks run (``this process``, ``2 local processes``, ``Ray, 8 CPUs on
    2 nodes``: the runner's English, kept in the JSON) for the progress bar."""
    if where == "this process":
        return pgettext("simulation", "this process")
    local = _LOCAL.fullmatch(where)
    if local:
        n = int(local.group(1))
        return npgettext("simulation", "{n} local process", "{n} local processes", n).format(
            n=i18n_number(n)
        )
    ray = _RAY.fullmatch(where)
    if ray:
        cpus, nodes = int(ray.group(1)), int(ray.group(2))
        return pgettext("simulation", "Ray, {cpus} on {nodes}").format(
            # English says "CPUs" for every n, as the runner always did.
            cpus=npgettext("simulation", "{n} CPUs", "{n} CPUs", cpus).format(n=i18n_number(cpus)),
            nodes=npgettext("simulation, after on", "{n} node", "{n} nodes", nodes).format(
                n=i18n_number(nodes)
            ),
        )
    return where
