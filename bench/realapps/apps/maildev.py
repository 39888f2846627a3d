"""MailDev: a mail catcher (an SMTP server that keeps every message it is sent, and a web
inbox to read them: a list of messages with a search box, a header of tool icons named by
their tooltips ("Refresh emails", "Mark all emails as read", "Delete all emails", the theme
toggle, "Additional configuration"), and a message's view with its subject, sender and
recipients, a display menu ("HTML", "Text", "Attachments", "Headers", "Source"), a preview
width menu ("100%", "1440px" ... "320px"), "Download", "Relay" and "Delete").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.2.1 shows, and committed before any engine run on it. Both versions are npm's
``maildev`` package, installed into the cache folder with ``npm install``. The drift between
them is the app's own: 3.0.0 is a rewrite of the web inbox (AngularJS 1 with Font Awesome
icons → React with Tailwind): the header's icons are buttons named by ``aria-label``
("Mark all as read", "Settings", "Switch to dark mode"), the search box reads "Search
emails...", each message in the list is a button showing the sender first, the display menu
becomes tabs ("HTML", "Plain Text", "Headers", "Source") and the attachments are listed
above the message, "Delete" and "Download" become icons ("Delete email", "Download
email"), the count "4 (+4)" becomes "4 emails • 4 unread". (1.1.1, the last 1.x, does not
run on Node 20: its smtp-server sets a getter-only property and exits on the first
message.)

Every start makes a fresh mail folder in the work folder and seeds it through the app's own
door: four messages sent to its SMTP port with Python's ``smtplib`` (an HTML order
confirmation, a plain-text password reset, an HTML newsletter, a plain-text invoice with a
text attachment), from a small bakery's addresses to ``*@example.invalid``. Outgoing relay is
off (no ``--outgoing-host``); both the SMTP server and the web inbox bind to 127.0.0.1.
Checked with ``strace -f -e trace=connect`` and a Playwright request log: docs/real-apps.md,
"New held-out app: MailDev".
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_npm, free_port, serve

VERSIONS = ("2.2.1", "3.0.0")

# (sender, recipient, subject, plain text, HTML or None, (file name, bytes) or None), sent in
# this order (the inbox lists the newest first)
Mail = tuple[str, str, str, str, str | None, tuple[str, bytes] | None]
MAILS: tuple[Mail, ...] = (
    ("orders@bakery.invalid", "anna@example.invalid", "Your order ANNA1 is confirmed",
     "Hello Anna,\n\nThank you for your order of two sourdough loaves.\n"
     "Pickup: Saturday 9:00.\n",
     "<h1>Order confirmed</h1><p>Hello Anna,</p><p>Thank you for your order of "
     "<b>two sourdough loaves</b>.</p><p>Pickup: Saturday 9:00.</p>", None),
    ("noreply@bakery.invalid", "ben@example.invalid", "Reset your password",
     "Hello Ben,\n\nUse the code 482913 to reset your password.\n", None, None),
    ("newsletter@bakery.invalid", "clara@example.invalid", "Weekly bread news",
     "This week: rye, spelt and a new baguette.\n",
     "<h2>Weekly bread news</h2><p>This week: rye, spelt and a new baguette.</p>", None),
    ("invoices@bakery.invalid", "anna@example.invalid", "Invoice 2024-017",
     "Hello Anna,\n\nYour invoice is attached.\n", None,
     ("invoice-2024-017.txt", b"Invoice 2024-017\nTwo sourdough loaves: 9.00 EUR\n")),
)  # fmt: skip


def _install(version: str) -> Path:
    """``<cache>/maildev-<version>`` with npm's ``maildev@<version>`` (made once; a lock
    serialises concurrent runs, the stamp is written last)."""
    return ensure_npm(
        f"maildev-{version}", f"maildev@{version}", "node_modules/.bin/maildev", timeout=900
    )


def seed(smtp_port: int) -> None:
    """The four messages, sent to MailDev's own SMTP server on 127.0.0.1."""
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
        for sender, to, subject, text, html, attachment in MAILS:
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = sender, to, subject
            message.set_content(text)
            if html is not None:
                message.add_alternative(html, subtype="html")
            if attachment is not None:
                name, data = attachment
                message.add_attachment(data, maintype="text", subtype="plain", filename=name)
            smtp.send_message(message)


def _start(version: str, workdir: Path) -> Served:
    binary = _install(version) / "node_modules" / ".bin" / "maildev"
    port, smtp_port = free_port(), free_port()
    mail = workdir / "mail"
    mail.mkdir(parents=True)
    argv = [
        str(binary),
        "--web", str(port), "--web-ip", "127.0.0.1",
        "--smtp", str(smtp_port), "--ip", "127.0.0.1",
        "--mail-directory", str(mail),
    ]  # fmt: skip
    return serve(
        argv,
        port=port,
        cwd=workdir,
        workdir=workdir,
        timeout_s=120,
        then=lambda _base: seed(smtp_port),
    )


APP = AppSpec(
    name="maildev",
    kind="mail catcher (MailDev: an SMTP server and a web inbox: list, search, a message's "
    "views, headers, source, attachments)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
