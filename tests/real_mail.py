"""The mail servers clubs really run, for tests: a private Dovecot (IMAP with STARTTLS and with TLS
from the start, LMTP delivery into maildirs, SASL for Postfix) and a private Postfix (submission
with STARTTLS and SASL, delivering @example.org by LMTP to Dovecot, nothing anywhere else), both on
127.0.0.1 for one pytest session, configured only from files written under a fresh temporary
folder: no settings are read from /etc/dovecot or /etc/postfix, whatever state they are in (Postfix
still reads its package's own files there: postfix-files, dynamicmaps.cf, post-install).

    def test_something(real_mail):
        real_mail.send("ussr@example.org", message)      # as a player's mail client does
        real_mail.wait_delivered()                        # Postfix's queue is empty
        inbox = real_mail.mailbox("mo@example.org")       # read over IMAP
        config = MailConfig(real_mail.imap_starttls("mo@example.org"), real_mail.smtp("mo@example.org"))

Every address in USERS exists from the start with password `password(address)`; add_user() makes
more in example.org. The servers live for the whole session, so a test that counts mails calls
real_mail.clear() first (or uses addresses of its own).

Needs root (Postfix's master and Dovecot's privilege separation) and Debian's dovecot-imapd,
dovecot-lmtpd and postfix (tools/test installs them): without them the fixture skips, and fails
when CI=true. PBEM_REAL_MAIL_KEEP=1 keeps the folder with both servers' logs after the session.
"""

from __future__ import annotations

import fcntl
import grp
import imaplib
import os
import pwd
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.mail.config import Server

DOMAIN = "example.org"
MODERATOR = f"mo@{DOMAIN}"
ROLES = {
    "aa-revised": ("ussr", "germany", "uk", "japan", "usa"),
    "aa-europe": ("germany", "ussr", "uk", "usa"),
    "qmg": ("germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states"),
    "undaunted-stalingrad": ("german", "soviet"),
}
USERS = (MODERATOR, *dict.fromkeys(f"{role}@{DOMAIN}" for roles in ROLES.values() for role in roles))
"""Every mailbox there from the start: the moderator and one per role of every game."""
PREFIX = "pbem-real-mail-"
HOST = "127.0.0.1"
MAIL_USER = "mail"
"""The system user that owns the maildirs (Dovecot refuses root; Debian always has `mail`)."""
LMTP = "/usr/lib/dovecot/lmtp"


def password(address: str) -> str:
    """A user's mail password unless add_user was given another."""
    return address.split("@")[0] + "-mail-pw"


def missing_requirements() -> str | None:
    """Why the servers cannot run here, or None."""
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    lacking = [name for name in ("dovecot", "postfix") if shutil.which(name, path=path) is None]
    if not os.path.exists(LMTP):
        lacking.append(LMTP)
    if lacking:
        return (f"no {', '.join(lacking)}: install Debian's dovecot-imapd dovecot-lmtpd postfix "
                "(tools/test does)")
    if os.geteuid() != 0:
        return "Dovecot and Postfix need root to start (Postfix's master runs only as root)"
    for user in ("dovecot", "dovenull", "postfix", MAIL_USER):
        try:
            pwd.getpwnam(user)
        except KeyError:
            return f"no system user {user} (the dovecot-core and postfix packages make them)"
    return None


def _free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind((HOST, 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _pid_of(pidfile: Path, marker: str) -> int | None:
    """The pid in the pid file when that process is alive and is ours: its command line or
    environment names `marker` (our folder), so a reused pid is never signalled."""
    try:
        pid = int(pidfile.read_text().split()[0])
        proc = Path("/proc") / str(pid)
        seen = (proc / "cmdline").read_bytes() + (proc / "environ").read_bytes()
    except (OSError, ValueError, IndexError):
        return None
    return pid if marker.encode() in seen else None


def _stop(pid: int | None, timeout: float = 10.0) -> None:
    if pid is None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not _alive(pid):
                return
            time.sleep(0.05)


def _alive(pid: int) -> bool:
    """Whether the process runs: a zombie has ended (a daemon's parent is init, which may be slow
    to reap it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return not any(line.startswith("State:") and "Z" in line.split()[1] for line in status.splitlines())


class RealMail:
    """A private Dovecot and Postfix under `folder`. Start with start(), end with stop()."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ca_file = str(folder / "tls" / "ca.pem")
        self.imap_port, self.imaps_port, self.submission_port = _free_ports(3)
        self.users: dict[str, str] = {}
        self.dovecot_dir, self.postfix_dir = folder / "dovecot", folder / "postfix"
        self.dovecot_conf = self.dovecot_dir / "dovecot.conf"
        self.postfix_conf = self.postfix_dir / "conf"
        self.queue = self.postfix_dir / "queue"
        self.mail_root = folder / "mail"
        self.dovecot_log, self.postfix_log = self.dovecot_dir / "log", self.postfix_dir / "log"
        self.startup_seconds = 0.0
        self._lock = None

    # -- the servers' connection settings, as pbem's mail settings hold them -------------------------

    def imap_starttls(self, address: str = MODERATOR) -> Server:
        return Server(HOST, self.imap_port, address, self.users[address], "starttls", self.ca_file)

    def imap_ssl(self, address: str = MODERATOR) -> Server:
        return Server(HOST, self.imaps_port, address, self.users[address], "ssl", self.ca_file)

    def smtp(self, address: str = MODERATOR) -> Server:
        """Postfix's submission service: STARTTLS, then SASL as `address`."""
        return Server(HOST, self.submission_port, address, self.users[address], "starttls", self.ca_file)

    def tls_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.ca_file)

    # -- users ---------------------------------------------------------------------------------------

    def add_user(self, address: str, secret: str | None = None) -> str:
        """A mailbox for `address` (in example.org), there at once; returns its password."""
        local, _, domain = address.partition("@")
        if domain != DOMAIN or not local or any(c in address for c in ":/\n "):
            raise ValueError(f"{address!r}: the test servers have mailboxes only in {DOMAIN}")
        secret = secret or password(address)
        if ":" in secret or "\n" in secret:
            raise ValueError("a password may hold neither ':' nor a line break (passwd-file fields)")
        self.users[address] = secret
        # Dovecot reads the file again when it changes; written whole, so it never sees half of it
        lines = "".join(f"{user}:{{PLAIN}}{pw}::::::\n" for user, pw in self.users.items())
        users = self.dovecot_dir / "users"
        staging = users.with_name("users.new")
        staging.write_text(lines)
        os.chown(staging, 0, grp.getgrnam("dovecot").gr_gid)
        staging.chmod(0o640)
        os.replace(staging, users)
        return secret

    # -- mail ----------------------------------------------------------------------------------------

    def send(self, address: str, message: EmailMessage, to: list[str] | None = None) -> None:
        """Send `message` through Postfix's submission service logged in as `address`, as a
        player's mail client does: STARTTLS, SASL, the envelope sender is `address`."""
        with smtplib.SMTP(HOST, self.submission_port, timeout=30) as smtp:
            smtp.starttls(context=self.tls_context())
            smtp.login(address, self.users[address])
            smtp.send_message(message, from_addr=address, to_addrs=to)

    def _imap(self, address: str) -> imaplib.IMAP4:
        imap = imaplib.IMAP4(HOST, self.imap_port, timeout=30)
        imap.starttls(ssl_context=self.tls_context())
        imap.login(address, self.users[address])
        return imap

    def mailbox(self, address: str, folder: str = "INBOX") -> list[EmailMessage]:
        """Every mail in `address`'s folder, oldest first, read over IMAP (nothing marked seen)."""
        imap = self._imap(address)
        try:
            imap.select(folder, readonly=True)
            _, found = imap.uid("SEARCH", None, "ALL")
            mails = []
            for uid in found[0].split():
                _, data = imap.uid("FETCH", uid, "(BODY.PEEK[])")
                mails.append(BytesParser(policy=policy.default).parsebytes(data[0][1]))
            return mails
        finally:
            imap.logout()

    def clear(self, *addresses: str) -> None:
        """Empty these mailboxes (every user's when none is named), over IMAP."""
        for address in addresses or tuple(self.users):
            maildir = self.mail_root / address.lower() / "Maildir"
            if not any(any((maildir / part).glob("*")) for part in ("new", "cur") if (maildir / part).is_dir()):
                continue  # empty already: no need to log in
            imap = self._imap(address)
            try:
                imap.select("INBOX")
                if self._count(imap):
                    imap.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                    imap.expunge()
            finally:
                imap.logout()

    @staticmethod
    def _count(imap: imaplib.IMAP4) -> int:
        _, found = imap.search(None, "ALL")
        return len(found[0].split())

    def queued(self) -> list[Path]:
        """The mails in Postfix's queue (not yet delivered or bounced)."""
        return [Path(root) / name for part in ("maildrop", "incoming", "active", "deferred", "hold")
                for root, _, names in os.walk(self.queue / part) for name in names]

    def wait_delivered(self, timeout: float = 30.0) -> None:
        """Wait until Postfix has delivered (or bounced) every mail it took."""
        end = time.monotonic() + timeout
        while self.queued():
            if time.monotonic() > end:
                raise AssertionError(f"Postfix still holds {len(self.queued())} mails after {timeout} s; "
                                     f"its log ends:\n{_tail(self.postfix_log)}\nDovecot's:\n{_tail(self.dovecot_log)}")
            time.sleep(0.05)

    def wait_for(self, address: str, count: int = 1, timeout: float = 30.0) -> list[EmailMessage]:
        """Wait until `address`'s inbox holds at least `count` mails; returns them all."""
        end = time.monotonic() + timeout
        while True:
            self.wait_delivered(max(0.1, end - time.monotonic()))
            mails = self.mailbox(address)
            if len(mails) >= count:
                return mails
            if time.monotonic() > end:
                raise AssertionError(f"{address} has {len(mails)} mails, not {count}, after {timeout} s; "
                                     f"Postfix's log ends:\n{_tail(self.postfix_log)}")
            time.sleep(0.1)

    def logs(self) -> str:
        return f"Dovecot:\n{_tail(self.dovecot_log)}\nPostfix:\n{_tail(self.postfix_log)}"

    # -- bringing up and down ------------------------------------------------------------------------

    def start(self) -> None:
        began = time.monotonic()
        self._lock = open(self.folder / "lock", "w")
        fcntl.flock(self._lock, fcntl.LOCK_EX)  # held while the servers run: see stop_leftovers
        self._certificates()
        self._write_dovecot()
        for address in USERS:
            self.add_user(address)
        self._write_postfix()
        self._start_dovecot()
        self._start_postfix()
        self.startup_seconds = time.monotonic() - began

    def _certificates(self) -> None:
        import trustme

        tls = self.folder / "tls"
        tls.mkdir()
        ca = trustme.CA()
        cert = ca.issue_cert(HOST, "localhost")
        ca.cert_pem.write_to_path(str(tls / "ca.pem"))
        cert.cert_chain_pems[0].write_to_path(str(tls / "cert.pem"))
        cert.private_key_pem.write_to_path(str(tls / "key.pem"))
        (tls / "key.pem").chmod(0o600)  # both servers read it as root before dropping privileges

    def _write_dovecot(self) -> None:
        mail = pwd.getpwnam(MAIL_USER)
        self.dovecot_dir.mkdir()
        self.mail_root.mkdir()
        os.chown(self.mail_root, mail.pw_uid, mail.pw_gid)
        run, users, tls = self.dovecot_dir / "run", self.dovecot_dir / "users", self.folder / "tls"
        self.dovecot_conf.write_text(f"""\
# A Dovecot for one test session (tests/real_mail.py); nothing here reads /etc/dovecot.
instance_name = {self.folder.name}
base_dir = {run}
state_dir = {self.dovecot_dir / "state"}
log_path = {self.dovecot_log}
protocols = imap lmtp
listen = {HOST}
ssl = required
ssl_cert = <{tls / "cert.pem"}
ssl_key = <{tls / "key.pem"}
auth_mechanisms = plain login
first_valid_uid = {mail.pw_uid}
last_valid_uid = {mail.pw_uid}
mail_location = maildir:~/Maildir

passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu {users}
}}
userdb {{
  driver = passwd-file
  args = username_format=%Lu {users}
  default_fields = uid={mail.pw_uid} gid={mail.pw_gid} home={self.mail_root}/%Lu
}}

service imap-login {{
  inet_listener imap {{
    address = {HOST}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = {HOST}
    port = {self.imaps_port}
    ssl = yes
  }}
}}
# Postfix's lmtp client and smtpd run as the postfix user
service lmtp {{
  unix_listener lmtp-postfix {{
    user = postfix
    group = postfix
    mode = 0600
  }}
}}
service auth {{
  unix_listener auth-postfix {{
    user = postfix
    group = postfix
    mode = 0600
  }}
}}
""")

    def _write_postfix(self) -> None:
        self.postfix_conf.mkdir(parents=True)
        self.queue.mkdir()  # Postfix makes what goes inside (owned by postfix), not the folder itself
        data = self.postfix_dir / "data"
        data.mkdir(mode=0o700)
        os.chown(data, pwd.getpwnam("postfix").pw_uid, grp.getgrnam("postfix").gr_gid)
        run = self.dovecot_dir / "run"
        (self.postfix_conf / "main.cf").write_text(f"""\
# A Postfix for one test session (tests/real_mail.py); nothing here reads /etc/postfix's settings.
compatibility_level = 3.6
queue_directory = {self.queue}
data_directory = {self.postfix_dir / "data"}
mail_owner = postfix
setgid_group = postdrop
maillog_file = {self.postfix_log}
maillog_file_prefixes = {self.folder}
myhostname = mail.{DOMAIN}
mydomain = {DOMAIN}
myorigin = $myhostname
inet_interfaces = {HOST}
inet_protocols = ipv4
mynetworks = {HOST}/32
# nothing leaves this machine: {DOMAIN} goes to Dovecot, every other address bounces
mydestination =
relay_domains =
relayhost =
alias_maps =
alias_database =
local_recipient_maps =
local_transport = error:no local delivery on the test server
default_transport = error:the test server delivers only to {DOMAIN}
virtual_mailbox_domains = {DOMAIN}
virtual_transport = lmtp:unix:{run / "lmtp-postfix"}
smtpd_tls_cert_file = {self.folder / "tls" / "cert.pem"}
smtpd_tls_key_file = {self.folder / "tls" / "key.pem"}
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = {run / "auth-postfix"}
smtpd_relay_restrictions = permit_sasl_authenticated, reject
# a logged-in user sends only as itself, as a club's server insists
smtpd_sender_login_maps = regexp:{self.postfix_conf / "senders"}
biff = no
# a delivery Dovecot refused for a moment is tried again soon
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
""")
        # the owner of a sender address is the login of the same name
        (self.postfix_conf / "senders").write_text("/^(.+)$/ ${1}\n")
        # the services: type, private, unprivileged, chroot (never: the sockets are in our folder),
        # wakeup, process limit, command; only submission listens on the network
        services = [
            (f"{HOST}:{self.submission_port}", "inet", "n", "-", "n", "-", "-", "smtpd"),
            ("pickup", "unix", "n", "-", "n", "60", "1", "pickup"),
            ("cleanup", "unix", "n", "-", "n", "-", "0", "cleanup"),
            ("qmgr", "unix", "n", "-", "n", "300", "1", "qmgr"),
            ("tlsmgr", "unix", "-", "-", "n", "1000?", "1", "tlsmgr"),
            ("rewrite", "unix", "-", "-", "n", "-", "-", "trivial-rewrite"),
            ("bounce", "unix", "-", "-", "n", "-", "0", "bounce"),
            ("defer", "unix", "-", "-", "n", "-", "0", "bounce"),
            ("trace", "unix", "-", "-", "n", "-", "0", "bounce"),
            ("verify", "unix", "-", "-", "n", "-", "1", "verify"),
            ("flush", "unix", "n", "-", "n", "1000?", "0", "flush"),
            ("proxymap", "unix", "-", "-", "n", "-", "-", "proxymap"),
            ("proxywrite", "unix", "-", "-", "n", "-", "1", "proxymap"),
            ("showq", "unix", "n", "-", "n", "-", "-", "showq"),
            ("error", "unix", "-", "-", "n", "-", "-", "error"),
            ("retry", "unix", "-", "-", "n", "-", "-", "error"),
            ("discard", "unix", "-", "-", "n", "-", "-", "discard"),
            ("lmtp", "unix", "-", "-", "n", "-", "-", "lmtp"),
            ("anvil", "unix", "-", "-", "n", "-", "1", "anvil"),
            ("scache", "unix", "-", "-", "n", "-", "1", "scache"),
            ("postlog", "unix-dgram", "n", "-", "n", "-", "1", "postlogd"),
        ]
        submission = ["syslog_name=postfix/submission", "smtpd_tls_security_level=encrypt",
                      "smtpd_sasl_auth_enable=yes", "smtpd_tls_auth_only=yes",
                      "smtpd_client_restrictions=permit_sasl_authenticated,reject",
                      "smtpd_sender_restrictions=reject_sender_login_mismatch"]
        lines = [" ".join(service) for service in services]
        lines[0] += "".join(f"\n  -o {option}" for option in submission)
        (self.postfix_conf / "master.cf").write_text("\n".join(lines) + "\n")

    def _run(self, *command: str) -> None:
        # into a file, not a pipe: the daemon keeps what it inherits open, and a pipe would never end
        output = self.folder / "commands.out"
        with open(output, "a") as out:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=60)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{_tail(output)}\n{self.logs()}")

    def _wait_port(self, port: int, what: str, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > end:
                    raise RuntimeError(f"{what} does not answer on {HOST}:{port} after {timeout} s\n{self.logs()}")
                time.sleep(0.05)

    def _start_dovecot(self) -> None:
        self._run("dovecot", "-c", str(self.dovecot_conf))
        self._wait_port(self.imap_port, "Dovecot")
        self._wait_port(self.imaps_port, "Dovecot")

    def _start_postfix(self) -> None:
        self._run("postfix", "-c", str(self.postfix_conf), "start")
        self._wait_port(self.submission_port, "Postfix")

    def stop(self) -> None:
        stop_folder(self.folder)
        if self._lock is not None:
            self._lock.close()


def stop_folder(folder: Path) -> None:
    """Stop the servers a RealMail ran from `folder`, if they still run."""
    conf = folder / "postfix" / "conf"
    if (conf / "main.cf").exists():
        subprocess.run(["postfix", "-c", str(conf), "stop"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
    _stop(_pid_of(folder / "postfix" / "queue" / "pid" / "master.pid", str(conf)))
    _stop(_pid_of(folder / "dovecot" / "run" / "master.pid", str(folder / "dovecot" / "dovecot.conf")))


def stop_leftovers(parent: Path) -> None:
    """Stop the servers and remove the folders that earlier sessions left behind (killed before
    they could clean up). A session holds its folder's lock while it runs, so a folder whose lock
    is free is a leftover; a session running beside this one is left alone."""
    for folder in parent.glob(f"{PREFIX}*"):
        if not (folder / "lock").exists() and time.time() - folder.stat().st_mtime < 60:
            continue  # a session setting up right now
        try:
            with open(folder / "lock", "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                stop_folder(folder)
        except BlockingIOError:
            continue
        except OSError:
            pass
        shutil.rmtree(folder, ignore_errors=True)


def _parent() -> Path:
    # a short path: Unix socket paths must stay under 108 bytes
    return Path("/tmp") if Path("/tmp").is_dir() else Path(tempfile.gettempdir())


@pytest.fixture(scope="session")
def real_mail():
    """A running RealMail for the whole session (see the module's docstring)."""
    reason = missing_requirements()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"real mail servers: {reason}", pytrace=False)
        pytest.skip(reason)
    parent = _parent()
    stop_leftovers(parent)
    for attempt in range(3):
        folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        folder.chmod(0o755)  # Dovecot's and Postfix's unprivileged processes pass through it
        servers = RealMail(folder)
        try:
            servers.start()
            break
        except RuntimeError as exc:
            _end(servers)
            # a free port another program took between our choosing it and the server binding it
            if "in use" not in str(exc) or attempt == 2:
                raise
    try:
        yield servers
    finally:
        _end(servers)


def _end(servers: RealMail) -> None:
    servers.stop()
    if os.environ.get("PBEM_REAL_MAIL_KEEP") != "1":
        shutil.rmtree(servers.folder, ignore_errors=True)
