#!/usr/bin/env python3
"""Writes the manual page starfish.1 (man(7) macros) from the program's own help.

Every command and option comes from the binary: `starfish help` lists the commands, `starfish
COMMAND --help` (and `starfish tb COMMAND --help`) gives each one's usage, paragraph and
options, and the `uci` command lists the engine's options; what no help says (the UCI
commands, the environment, the files, the signals) is written here.  So the page cannot
forget an option that the program has.

    tools/make_man.py BINARY > starfish.1

The date is SOURCE_DATE_EPOCH's (set by dpkg-buildpackage), else the last commit's.
"""
import datetime
import os
import re
import subprocess
import sys

DESCRIPTION = """\
starfish plays, judges and analyses Starchess (Polgar Superstar Chess, official and Ludii
rules), Move as square says (and its reversed-royal form), Megastar of David, Starvation and
orthodox chess.  Without a command it is a UCI engine on standard input and output; its
commands count moves (perft), prove mates, benchmark, play matches between engines, build and
probe Starchess endgame tablebases, tune the evaluation, serve the web app and its JSON
API (serve), and play an engine on a server through lichess's Bot API (bot)."""

UCI_COMMANDS = """\
uci, isready, setoption name NAME [value VALUE], ucinewgame,
position startpos|fen FEN [moves MOVE...], go (depth N, nodes N, movetime MS, mate N,
wtime, btime, winc, binc, movestogo, infinite, ponder; go perft N), ponderhit, stop, quit,
and the extensions d (the board, its position text and status) and pgn (the game so far).
The variant is chosen with setoption name UCI_Variant value NAME.  Moves may be written in
coordinate notation, SAN, or SAN with figurines; a bad command is answered with one line,
info string error: ..., and changes nothing."""

ENVIRONMENT = [
    ("STARFISH_PEXT", "0: look slider attacks up along each ray even where the CPU has BMI2 "
                      "(the default picks PEXT where it is fast; starfish version says which runs)."),
    ("STARFISH_EVAL", "default: play with the evaluation's default weights, not the fitted ones."),
]

FILES = [
    ("/etc/starfish/starfish.env", "the service's settings (read by the systemd unit starfish.service)."),
    ("/var/lib/starfish/starfish.db", "the service's games (SQLite), in its StateDirectory."),
    ("PREFIX/share/starfish/web", "the web client, served by serve without --web."),
    ("PREFIX/share/starfish/data/puzzles, PREFIX/share/starfish/data/openings",
     "the puzzles served and the opening books for match --openings."),
    ("PREFIX/share/doc/starfish", "the documentation: README.md, docs/deploy.md (service, metrics, backups, "
                                  "logs), docs/api.md and api-lichess.md, docs/bots.md (bot: the account, the "
                                  "config), CHANGELOG.md."),
]

SIGNALS = """\
serve stops cleanly on SIGTERM or SIGINT: the event streams are ended, the searches stopped,
the threads joined and the database closed.  SIGHUP makes serve open its --log file again
(after logrotate has moved it).  bot stops cleanly on SIGTERM or SIGINT: its streams are
closed, the games under way left to the server's clocks (or resigned or aborted, as its
config's on_stop says), its engines sent quit and its threads joined; exit status 0."""

EXIT_STATUS = """\
0 on success; 1 when a command fails (mate: no mate found; serve: cannot start); 2 on a bad
command line, with one line on standard error: starfish: COMMAND: what is wrong."""


def run(binary, args, stdin=None):
    proc = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise SystemExit("%s %s: exit status %d: %s" % (binary, " ".join(args), proc.returncode, proc.stderr))
    return proc.stdout


def roff(text):
    """Plain text made safe for roff: backslashes, hyphens of options, lines starting with a
    dot or an apostrophe, `code` in bold."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])--?(?=[\w])", lambda m: m.group(0).replace("-", "\\-"), text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n"))


def command_list(text):
    """(words after `starfish`, usage) of each command in a list of commands (`starfish help`)."""
    found = []
    for line in text.splitlines():
        m = re.match(r"^  starfish (\S+(?: \S+)*?)(?:  +|$)", line)
        if m:
            found.append(m.group(1))
    return found


def parse_help(text):
    """(usage, paragraph, [(option head, help)]) from a command's --help."""
    lines = text.rstrip("\n").split("\n")
    usage = lines[0][len("usage: "):]
    paragraph, options, i = [], [], 2
    while i < len(lines) and not lines[i].startswith("  --"):
        paragraph.append(lines[i])
        i += 1
    for line in lines[i:]:
        if line.startswith("  --"):
            words = line[2:].split(" ")
            head = [words.pop(0)]
            while words and words[0] and not re.search(r"[a-z]", words[0]):  # the value's name: N, FILE, ELO0 ELO1
                head.append(words.pop(0))
            options.append([" ".join(head), " ".join(w for w in words).strip()])
        elif line.strip() and options:
            options[-1][1] += " " + line.strip()
    return usage, "\n".join(paragraph).strip(), options


def command_section(binary, words):
    usage, paragraph, options = parse_help(run(binary, words.split() + ["--help"]))
    out = [".SS \"%s\"" % roff(usage), roff(paragraph).replace("\n\n", "\n.PP\n")]
    for head, help_text in options:
        option, _, value = head.partition(" ")
        if option == "--help":  # every command has it: said once, above
            continue
        out.append(".TP\n\\fB%s\\fR%s\n%s" % (roff(option), " \\fI%s\\fR" % roff(value) if value else "",
                                              roff(help_text)))
    return "\n".join(out)


def uci_options(binary):
    options = []
    for line in run(binary, [], stdin="uci\nquit\n").splitlines():
        m = re.match(r"^option name (.+?) type (\w+)(.*)$", line)
        if m:
            options.append(".TP\n\\fB%s\\fR (%s)\n%s" % (roff(m.group(1)), m.group(2), roff(m.group(3).strip())
                                                      or "a button"))
    return "\n".join(options)


def page_date():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        proc = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True)
        epoch = proc.stdout.strip() or "0"
    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%d")


def definitions(pairs):
    return "\n".join(".TP\n\\fB%s\\fR\n%s" % (roff(name), roff(text)) for name, text in pairs)


def main():
    binary = sys.argv[1]
    version = run(binary, ["version"]).split("\n")[0].split()[1]
    overview = run(binary, ["help"])
    variants = overview.strip().splitlines()[-1].split(":", 1)[1].split()
    commands = [c for c in command_list(overview) if c.split()[0] not in ("help", "tb")]
    tb_commands = ["tb " + c.split()[1] for c in command_list(run(binary, ["tb", "--help"]))]
    names = [c.split()[0] for c in commands]
    page = [
        '.TH STARFISH 1 "%s" "starfish %s" "User Commands"' % (page_date(), version),
        ".SH NAME\nstarfish \\- a multi-variant chess engine and web play platform",
        ".SH SYNOPSIS\n.B starfish\n.br\n.B starfish\n.I COMMAND\n.RI [ OPTIONS ]\n.br\n"
        ".B starfish\n.BR \\-\\-version \" | \" help",
        ".SH DESCRIPTION\n" + roff(DESCRIPTION),
        ".PP\nVariants: " + ", ".join("\\fB%s\\fR" % roff(v) for v in variants) + ".",
        ".SH COMMANDS\nEach command lists its options with \\fB\\-\\-help\\fR.",
    ]
    page += [command_section(binary, " ".join(c.split()[:1])) for c in commands]
    page += [command_section(binary, c) for c in tb_commands]
    page += [".SS \"starfish help\"\nThe commands and the variants.",
             ".SH UCI\nWithout a command starfish speaks UCI: " + roff(UCI_COMMANDS),
             ".PP\nIts options:", uci_options(binary),
             ".SH ENVIRONMENT", definitions(ENVIRONMENT),
             ".SH FILES", definitions(FILES),
             ".SH SIGNALS\n" + roff(SIGNALS),
             ".SH EXIT STATUS\n" + roff(EXIT_STATUS),
             ".SH SEE ALSO\n.BR starfish-mpi (1)\nruns match and tb generate over MPI ranks (mpirun);\n"
             ".BR systemd.service (5),\n.BR nginx (8)."]
    missing = [n for n in names if "starfish %s" % n not in "\n".join(page)]
    if missing:
        raise SystemExit("commands left out: %s" % missing)
    print("\n".join(page))


if __name__ == "__main__":
    main()
