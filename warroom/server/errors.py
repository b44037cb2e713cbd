"""The club server's own errors, each answered with its HTTP status (`app.ERROR_STATUS`)."""

from __future__ import annotations


class ForbiddenError(Exception):
    """The holder's role or side may not do this (HTTP 403)."""


class BadRequestError(Exception):
    """The request cannot be read: an unknown action word, area or counter, a bad parameter (HTTP 422)."""


class TooLargeError(Exception):
    """A request body over its limit (HTTP 413)."""


class KeyRequiredError(Exception):
    """Creating or importing campaigns needs the server key here (HTTP 401)."""


def readable(text: str, field: str) -> str:
    """`text` if it can be stored and shown: a string with a lone surrogate (JSON allows "\\ud800") cannot
    be written as UTF-8, and PostgreSQL stores no NUL character, so both are refused here, naming the field,
    rather than failing deep in the database.

    >>> readable("Bréville", "title")
    'Bréville'
    >>> readable("a\\x00b", "key")
    Traceback (most recent call last):
    ...
    warroom.server.errors.BadRequestError: key: not valid text (a NUL character)
    >>> readable("a\\ud800", "title")
    Traceback (most recent call last):
    ...
    warroom.server.errors.BadRequestError: title: not valid Unicode text (a lone surrogate code point)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadRequestError(f"{field}: not valid Unicode text (a lone surrogate code point)") from exc
    if "\x00" in text:
        raise BadRequestError(f"{field}: not valid text (a NUL character)")
    return text
