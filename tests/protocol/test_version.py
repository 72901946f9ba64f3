"""What the program says it is: `starfish --version` and `starfish version`, UCI's `id name`,
against the file VERSION and the commit checked out.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import re
import subprocess

from harness import REPO_ROOT, cli, uci


def version_file():
    with open(os.path.join(REPO_ROOT, "VERSION")) as f:
        return f.read().strip()


def version_lines(args):
    code, out, err = cli(args)
    assert code == 0 and err == "", "%r: exit status %d, stderr %r" % (args, code, err)
    return out.split("\n")[:-1]


def test_version_file_is_semantic():
    assert re.fullmatch(r"\d+\.\d+\.\d+", version_file()), "VERSION must be X.Y.Z, not %r" % version_file()


def test_version_option_and_command_agree():
    lines = version_lines(["--version"])
    assert lines == version_lines(["version"]), "`starfish --version` and `starfish version` differ"
    assert lines[0] == "starfish " + version_file(), "first line %r, VERSION says %r" % (lines[0], version_file())


def test_version_names_the_commit_and_the_flags():
    lines = version_lines(["--version"])
    fields = dict(line.split(" ", 1) for line in lines[1:])
    if os.path.isdir(os.path.join(REPO_ROOT, ".git")) or os.path.isfile(os.path.join(REPO_ROOT, ".git")):
        head = subprocess.run(["git", "-C", REPO_ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        assert head and head in fields.get("commit", ""), "commit line %r, HEAD is %s" % (fields.get("commit"), head)
    built = fields.get("built", "")
    assert built.startswith("with ") and ("-march=" in built or "-fsanitize" in built), \
        "the build line must name the compiler and its flags: %r" % built
    assert lines[-1].startswith("slider attacks: "), "the last line says how sliders are looked up: %r" % lines[-1]


def test_version_takes_no_arguments():
    code, out, err = cli(["version", "extra"])
    assert code == 2 and out == "" and "starfish: version:" in err, (code, out, err)


def test_uci_id_name_carries_the_version():
    out = uci(["uci"])
    assert "id name starfish " + version_file() in out, "expected 'id name starfish %s' in %r" % (version_file(),
                                                                                               out[:3])
