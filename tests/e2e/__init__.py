"""End-to-end tests: the real server on loopback, driven through Debian's Chromium.

A package (unlike ``tests/web``) so that its ``conftest`` is imported as
``e2e.conftest`` and never shadows ``tests/conftest.py``, which the other test modules
import as ``conftest``.
"""
