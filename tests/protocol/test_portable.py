"""The default build runs on any x86-64 from x86-64-v2 up: outside the code chosen at run time
(the rules' BMI2 instantiation, src/core/rules_w1_pext.c, and the nets' AVX2 row loops,
src/nnue/nnue_simd.c) it has no instruction beyond v2
(tools/check_isa.py reads its disassembly and link map), it runs under qemu-user as a
Nehalem (x86-64-v2, no AVX, no BMI) and searches the same tree there, and both ways of finding
a slider's attacks count the same moves.

These test the default build (build/release/starfish), whatever binary the other tests run,
and return at once in the sanitizer pass, which would only repeat them.
Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import re
import subprocess
import tempfile

from harness import REPO_ROOT, sanitized

BUILD = os.path.join(REPO_ROOT, "build", "release", "starfish")
# The code chosen at run time: the rules' BMI2 instantiation, the nets' AVX2 row loops.
DISPATCHED = ["src/core/rules_w1_pext.o", "src/nnue/nnue_simd.o"]
# qemu's CPU models: Nehalem has SSE4.2 and POPCNT (x86-64-v2) and nothing later; Haswell adds
# AVX2, BMI1 and BMI2 (x86-64-v3).
V2_CPU, V3_CPU = "Nehalem", "Haswell"
PERFT_CASES = [("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862),
               ("starvation", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, None),
               ("starchess", "1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w 0 1", 4, None),
               ("square-says", None, 4, None)]


def run(args, env=None, timeout=120):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=dict(os.environ, **(env or {})))
    return proc.returncode, proc.stdout, proc.stderr


def check_isa(*args):
    return run(["python3", os.path.join(REPO_ROOT, "tools", "check_isa.py"), BUILD] + list(args))


def bench_signature():
    with open(os.path.join(REPO_ROOT, "tests", "bench-signature")) as f:
        return int(f.read().split()[0])


def nodes_searched(out):
    return int([line for line in out.splitlines() if line.startswith("Nodes searched")][0].split(":")[1])


def cpu_has_fast_pext():
    """As src/core/rules_select.c decides: BMI2, and not AMD family 17h (Zen 1 and 2)."""
    with open("/proc/cpuinfo") as f:
        info = f.read().split("\n\n")[0]
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    flags = fields.get("flags", "").split()
    amd_17h = "AMD" in fields.get("vendor_id", "") and fields.get("cpu family", "").strip() == "23"
    return "bmi2" in flags and not amd_17h


def test_default_build_is_for_x86_64_v2():
    if sanitized():
        return
    code, out, err = run([BUILD, "version"])
    assert code == 0 and "-march=x86-64-v2" in out, "build/release/starfish is not the default build: %r" % out


def test_no_instruction_beyond_v2_outside_the_dispatched_code():
    if sanitized():
        return
    code, out, err = check_isa(*[a for path in DISPATCHED for a in ("--allow", path)], "--count")
    assert code == 0, "instructions beyond x86-64-v2 outside %s:\n%s%s" % (DISPATCHED, out[:3000], err)
    inside = int(re.search(r"(\d+) instructions beyond x86-64-v2 in the code allowed", out).group(1))
    assert inside > 0, "the dispatched code should use BMI2 (PEXT), the scan found none: %r" % out


def test_the_net_loops_have_an_avx2_clone():
    if sanitized():
        return
    code, out, err = run(["nm", BUILD])
    clones = set(re.findall(r" (nnue_(?:add_row|sub_row)\.(?:avx2|default))\b", out))
    assert len(clones) == 4, "expected an AVX2 and a default clone of each row loop: %r" % sorted(clones)
    layers = set(re.findall(r" (?:i nnue_layer|t layer_avx2|t layer_sse2)\b", out))
    assert len(layers) == 3, "expected the layer's AVX2 and SSE2 versions behind an ifunc: %r" % sorted(layers)


def test_the_scan_finds_what_it_looks_for():
    """Without the allowance, the BMI2 instantiation's PEXT must be reported: the scan sees."""
    if sanitized():
        return
    code, out, err = check_isa()
    assert code == 1 and "pext" in out, "the scan should report the PEXT of %s: %r %r" % (DISPATCHED[0], out[:500], err)


def test_runs_on_an_x86_64_v2_cpu():
    if sanitized():
        return
    code, out, err = run(["qemu-x86_64", "-cpu", V2_CPU, BUILD, "version"])
    assert code == 0, "the default build under qemu -cpu %s: exit %d: %s" % (V2_CPU, code, err[-2000:])
    assert "slider attacks: first blockers" in out, "without BMI2 the first-blocker rules must run: %r" % out
    code, out, err = run(["qemu-x86_64", "-cpu", V2_CPU, BUILD, "bench"], timeout=300)
    assert code == 0 and nodes_searched(out) == bench_signature(), \
        "bench under qemu -cpu %s: exit %d, %r" % (V2_CPU, code, (out + err)[-1000:])


def test_picks_pext_on_a_cpu_with_bmi2():
    if sanitized():
        return
    code, out, err = run(["qemu-x86_64", "-cpu", V3_CPU, BUILD, "bench"], timeout=300)
    assert code == 0 and nodes_searched(out) == bench_signature(), (code, (out + err)[-1000:])
    code, out, err = run(["qemu-x86_64", "-cpu", V3_CPU, BUILD, "version"])
    assert "slider attacks: PEXT" in out, "with BMI2 the PEXT rules must run: %r" % out


def test_qemu_refuses_instructions_the_cpu_lacks():
    """The check above means something only if qemu enforces the CPU model: a program using
    PEXT must die of SIGILL as a Nehalem."""
    if sanitized():
        return
    with tempfile.TemporaryDirectory() as tmp:
        source, program = os.path.join(tmp, "pext.c"), os.path.join(tmp, "pext")
        with open(source, "w") as f:
            f.write("#include <immintrin.h>\n#include <stdio.h>\nint main(int argc, char **argv)\n"
                    "{ (void)argv; printf(\"%llu\\n\", _pext_u64(0xff00u * (unsigned)argc, 0xf0f0)); return 0; }\n")
        code, out, err = run(["gcc", "-O2", "-mbmi2", source, "-o", program])
        assert code == 0, err
        assert run(["qemu-x86_64", "-cpu", V3_CPU, program])[1] == "240\n"
        code, out, err = run(["qemu-x86_64", "-cpu", V2_CPU, program])
        assert code != 0 and "Illegal instruction" in err, "qemu -cpu %s ran PEXT: exit %d %r" % (V2_CPU, code, err)


def test_both_slider_methods_count_alike():
    if sanitized():
        return
    methods = {"1": "PEXT", "0": "first blockers"} if cpu_has_fast_pext() else {"0": "first blockers"}
    totals = {}
    for flag, method in methods.items():
        env = {"STARFISH_PEXT": flag}
        code, out, err = run([BUILD, "version"], env)
        assert ("slider attacks: " + method) in out, "STARFISH_PEXT=%s: %r" % (flag, out)
        for variant, fen, depth, expected in PERFT_CASES:
            code, out, err = run([BUILD, "perft", variant, str(depth)] + ([fen] if fen else []), env)
            total = nodes_searched(out)
            assert expected is None or total == expected, (variant, depth, total, expected)
            totals.setdefault((variant, depth), set()).add(total)
    differ = {case: counts for case, counts in totals.items() if len(counts) > 1}
    assert not differ, "the two ways count differently: %r" % differ
