"""The scripts in tools/: code_stats.py.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import subprocess
import sys
import tempfile

from harness import REPO_ROOT

CODE_STATS = os.path.join(REPO_ROOT, "tools", "code_stats.py")

# A small tree: core/a, core/b and engine/e include each other in a circle (and core -> engine
# -> core a folder cycle); the longest C function is long_one() in core/a.c, and a JavaScript
# method is longer still.
TREE = {
    "src/core/a.h": '#include "b.h"\n',
    "src/core/a.c": '#include "a.h"\n#include "../engine/e.h"\n\nint long_one(int x)\n{\n' + "    x++;\n" * 40 + "    return x;\n}\n",
    "src/core/b.h": "int b(void);\n",
    "src/core/b.c": '#include "a.h"\n#include "b.h"\n\nint b(void)\n{\n    return 1;\n}\n',
    "src/engine/e.h": '#include "../core/b.h"\n',
    "src/engine/e.c": '#include "e.h"\n\nstatic int\nsplit(void)\n{\n    return 0;\n}\n',
    "web/x.js": "export class View {\n    draw() {\n" + "        a();\n" * 50 + "    }\n}\n",
}


def test_code_stats_finds_sizes_functions_and_cycles():
    with tempfile.TemporaryDirectory() as root:
        for path, text in TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        out = subprocess.run([sys.executable, CODE_STATS, root], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.split("\n")
        assert lines[1].split() == ["54", "web/x.js"], out.stdout
        assert "in src/: 3 C functions" in out.stdout, out.stdout
        assert "    44  src/core/a.c:4-47 long_one\n" in out.stdout, out.stdout
        assert "    4  src/engine/e.c:4-7 split\n" in out.stdout, out.stdout
        assert "    52  web/x.js:2-53 draw\n" in out.stdout, out.stdout
        assert "include cycles among src/ modules: 1\n  core/a core/b engine/e (3 modules" in out.stdout, out.stdout
        assert "core/a -> core/b -> core/a" in out.stdout, out.stdout
        assert "include cycles among src/ folders: 1\n  core engine (2 folders" in out.stdout, out.stdout


def test_code_stats_runs_on_this_checkout():
    out = subprocess.run([sys.executable, CODE_STATS, "--top", "3"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("largest source files (lines):\n"), out.stdout
    assert "longest functions" in out.stdout and "include cycles among src/ folders:" in out.stdout, out.stdout
