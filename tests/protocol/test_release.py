"""`make release` (tools/release.sh) in a scratch clone of the repository: it refuses an
undated CHANGELOG section, changes not committed, a debian/changelog of another version and a
tag that exists, and tags vX.Y.Z from VERSION otherwise.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import re
import shutil
import subprocess
import tempfile

from harness import REPO_ROOT, sanitized


def git(folder, *args):
    return subprocess.run(["git", "-C", folder] + list(args), capture_output=True, text=True, check=True).stdout


def commit(folder, message):
    git(folder, "add", "-A")
    git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", message)


def release(folder):
    proc = subprocess.run([os.path.join(folder, "tools", "release.sh")], capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def test_release_tags_only_a_dated_committed_version():
    if sanitized():
        return
    if not os.path.exists(os.path.join(REPO_ROOT, ".git")):
        return  # a source package: no history to tag
    folder = tempfile.mkdtemp(prefix="starfish-release-")
    try:
        clone = os.path.join(folder, "clone")
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", REPO_ROOT, clone], check=True, capture_output=True)
        for src in ("VERSION", "CHANGELOG.md", os.path.join("tools", "release.sh"),
                    os.path.join("debian", "changelog")):  # as in the work tree
            shutil.copy(os.path.join(REPO_ROOT, src), os.path.join(clone, src))
        commit(clone, "the work tree's files")
        with open(os.path.join(clone, "VERSION")) as f:
            version = f.read().strip()
        changelog = os.path.join(clone, "CHANGELOG.md")
        with open(changelog) as f:
            text = f.read()
        undated = re.sub(r"^## \[%s\] - .*$" % re.escape(version), "## [%s] - unreleased" % version, text, flags=re.M)
        with open(changelog, "w") as f:
            f.write(undated)
        commit(clone, "undated")
        code, out = release(clone)
        assert code == 1 and "no section" in out, (code, out)
        with open(changelog, "w") as f:
            f.write(undated.replace("## [%s] - unreleased" % version, "## [%s] - 2027-01-02" % version))
        code, out = release(clone)
        assert code == 1 and "not committed" in out, (code, out)
        commit(clone, "dated")
        debian = os.path.join(clone, "debian", "changelog")
        with open(debian) as f:
            entries = f.read()
        with open(debian, "w") as f:
            f.write(entries.replace("starfish (%s)" % version, "starfish (9.9.9)", 1))
        commit(clone, "the package's version differs")
        code, out = release(clone)
        assert code == 1 and "debian/changelog" in out, (code, out)
        with open(debian, "w") as f:
            f.write(entries)
        commit(clone, "the package's version agrees")
        code, out = release(clone)
        assert code == 0 and git(clone, "tag", "-l", "v" + version).strip() == "v" + version, (code, out)
        assert git(clone, "describe", "--abbrev=12").strip() == "v" + version
        code, out = release(clone)
        assert code == 1 and "tagged already" in out, (code, out)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
