"""Computer players for Basic Rummy: ``basic`` (rules of thumb) and ``strong`` (Going Rummy
and live-card counting), on the same interface as Rummoli's bots (:mod:`rummoli.bots`).

:mod:`.hand` holds what both share: the best way to lay a hand down, and which cards
would help it.
"""
