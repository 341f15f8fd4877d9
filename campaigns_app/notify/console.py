"""The embedded default's e-mail backend (`make run`): each e-mail printed as its reader would read it.

Django's console backend prints the encoded message: a line over 78 characters makes the body quoted-printable, so
the one-click settings link is cut by a soft line break ("…:1xWz8m=" then ":vaf…/") and every "—" reads "=E2=80=94";
a player copying the link from the console gets a broken link (400). This one prints the headers a reader sees and the
text body decoded, each line whole."""
from __future__ import annotations

from django.core.mail.backends import console
from django.core.mail.message import EmailMessage

HEADERS = ("Subject", "From", "To", "Cc", "Reply-To", "Date")
RULE = "-" * 79


def readable(message: EmailMessage) -> str:
    """The e-mail as its reader reads it: the headers that matter to a reader, a blank line, the text body decoded."""
    built = message.message()
    lines = [f"{name}: {built[name]}" for name in HEADERS if built[name] is not None]
    text = built.get_body(preferencelist=("plain",))
    body = text.get_content() if text is not None else str(message.body)
    return "\n".join(lines) + "\n\n" + str(body).rstrip("\n") + "\n"


class EmailBackend(console.EmailBackend):
    """Django's console backend, writing ``readable(message)`` instead of the encoded message."""

    def write_message(self, message: EmailMessage) -> None:
        self.stream.write(readable(message))
        self.stream.write(RULE + "\n")
