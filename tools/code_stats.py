#!/usr/bin/env python3
"""Code shape figures: the largest source files, the longest functions, the include cycles.

    python3 tools/code_stats.py [--top N] [ROOT]

ROOT is a checkout (default: this one); the files are those git tracks there, or every file
below it when it is not a git checkout.  Printed:

- the largest source files (C, headers, Python, JavaScript), in lines;
- the longest functions: in C, from a signature at column 0 to the next `}` at column 0; in
  JavaScript, from a `function` or a class method's first line to the `}` at its indentation;
- the include cycles among the files of src/.  A module is a .c file with its .h (games.c and
  games.h are one module "server/games"); module A depends on B when A's .c or .h includes
  B's .h.  Every strongly connected group of modules is a cycle, printed with one closed path
  through it.  The same is done for folders (core -> variants -> core is a folder cycle).

No third-party modules: it runs on any Python 3.
"""
import argparse
import os
import re
import subprocess
import sys

SOURCE_EXTENSIONS = (".c", ".h", ".py", ".js", ".mjs")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A C function starts at column 0 with a name followed by '(' and is not a declaration.
C_SIGNATURE = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?\b)?([A-Za-z_]\w*)\s*\(")
C_NOT_FUNCTIONS = ("typedef", "struct", "enum", "union", "extern", "return", "if", "while", "for", "switch")
JS_FUNCTION = re.compile(r"^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(")
JS_METHOD = re.compile(r"^(\s+)(?:static\s+)?(?:async\s+)?(?:get\s+|set\s+)?\*?([\w$]+)\s*\([^;]*\)\s*\{\s*$")
JS_KEYWORDS = ("if", "for", "while", "switch", "catch", "function", "return")


def tracked_files(root):
    """Paths relative to root: git's tracked files, else every file below root."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
        return [p for p in out.splitlines() if os.path.isfile(os.path.join(root, p))]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "build")]
            found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
        return found


def read_lines(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def c_functions(lines):
    """(name, first line, last line) of each function defined in C text, 1-based."""
    found = []
    i = 0
    while i < len(lines):
        m = C_SIGNATURE.match(lines[i])
        if m and lines[i].split()[0] not in C_NOT_FUNCTIONS and not lines[i].startswith("#"):
            # The signature may run over several lines; a body follows before any ';'.
            j = i
            while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and "{" in lines[j]:
                end = next((k for k in range(j, len(lines)) if lines[k].startswith("}")), None)
                if end is not None and "=" not in lines[i].split("(")[0]:
                    found.append((m.group(1), i + 1, end + 1))
                    i = end
        i += 1
    return found


def js_functions(lines):
    """(name, first line, last line) of each function or class method in JavaScript text."""
    found = []
    for i, line in enumerate(lines):
        m = JS_FUNCTION.match(line) or JS_METHOD.match(line)
        if not m or m.group(2) in JS_KEYWORDS:
            continue
        close = m.group(1) + "}"
        end = next((k for k in range(i + 1, len(lines))
                    if lines[k].rstrip() in (close, close + ",", close + ";") or lines[k].startswith(close + ")")), None)
        if end is not None:
            found.append((m.group(2), i + 1, end + 1))
    return found


def module_of(path):
    """'src/server/games.c' -> 'server/games'."""
    return os.path.splitext(path[len("src/"):])[0]


def include_graph(root, paths):
    """Module -> the modules it includes, for the C files under src/."""
    graph = {}
    for path in paths:
        if not path.startswith("src/") or not path.endswith((".c", ".h")):
            continue
        here = module_of(path)
        graph.setdefault(here, set())
        text = "\n".join(read_lines(root, path))
        for name in INCLUDE.findall(text):
            target = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if target.startswith("src/") and target in paths:
                there = module_of(target)
                if there != here:
                    graph[here].add(there)
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm (iterative): the groups of nodes that reach each other."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return sorted(groups)


def closed_path(graph, group):
    """One path from the group's first member back to itself, inside the group (breadth first)."""
    members = set(group)
    start = group[0]
    previous = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, ())):
                if child not in members or child in previous:
                    continue
                previous[child] = node
                if child == start:
                    path = [start]
                    at = node
                    while at != start:
                        path.append(at)
                        at = previous[at]
                    return [start] + path[:0:-1] + [start] if len(path) > 1 else [start, node, start]
                following.append(child)
        frontier = following
    return group


def folder_graph(graph):
    folders = {}
    for module, targets in graph.items():
        here = module.split("/")[0] if "/" in module else "."
        folders.setdefault(here, set())
        for target in targets:
            there = target.split("/")[0] if "/" in target else "."
            if there != here:
                folders[here].add(there)
    return folders


def print_cycles(title, graph, kind):
    groups = strongly_connected(graph)
    print("%s: %d" % (title, len(groups)))
    for group in groups:
        edges = sum(1 for a in group for b in graph.get(a, ()) if b in group)
        print("  %s (%d %s, %d arrows among them)" % (" ".join(group), len(group), kind, edges))
        print("    for example %s" % " -> ".join(closed_path(graph, group)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--top", type=int, default=5, help="how many files and functions to list (default 5)")
    args = parser.parse_args()
    paths = set(tracked_files(args.root))
    sources = sorted(p for p in paths if p.endswith(SOURCE_EXTENSIONS) and "node_modules" not in p)

    sizes = sorted(((len(read_lines(args.root, p)) - 1, p) for p in sources), reverse=True)
    print("largest source files (lines):")
    for n, path in sizes[:args.top]:
        print("  %6d  %s" % (n, path))

    functions = []
    for path in sources:
        finder = c_functions if path.endswith((".c", ".h")) else js_functions if path.endswith((".js", ".mjs")) else None
        if finder:
            functions += [(last - first + 1, path, first, last, name)
                          for name, first, last in finder(read_lines(args.root, path))]
    functions.sort(key=lambda f: (-f[0], f[1], f[2]))
    c_count = [f[0] for f in functions if f[1].startswith("src/") and f[1].endswith((".c", ".h"))]
    print("longest functions (lines; in src/: %d C functions, mean %.1f lines, %d over 60):" %
          (len(c_count), sum(c_count) / max(1, len(c_count)), sum(1 for n in c_count if n > 60)))
    for n, path, first, last, name in functions[:args.top]:
        print("  %6d  %s:%d-%d %s" % (n, path, first, last, name))
    js = [f for f in functions if f[1].endswith((".js", ".mjs"))]
    if js:
        n, path, first, last, name = js[0]
        print("longest JavaScript function: %d  %s:%d-%d %s" % (n, path, first, last, name))

    graph = include_graph(args.root, paths)
    print_cycles("include cycles among src/ modules", graph, "modules")
    print_cycles("include cycles among src/ folders", folder_graph(graph), "folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
