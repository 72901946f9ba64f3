#!/usr/bin/env python3
"""Does a binary keep to x86-64-v2 outside the code chosen at run time?

The default build assumes x86-64-v2 (SSE4.2, POPCNT) and picks faster code at start where the
CPU has it: today the rules' BMI2 instantiation (src/core/rules_w1_pext.c).  This tool reads
the binary's disassembly (objdump) and its link map (`-Wl,-Map`, written beside the binary by
the Makefile), takes the address ranges that the objects named by --allow put there, and
lists every instruction outside them that needs more than x86-64-v2: AVX, AVX2 and AVX-512
(VEX and EVEX forms: ymm, zmm and mask registers, `v`-named vector instructions), BMI1, BMI2,
LZCNT, MOVBE, FMA and F16C.  `tzcnt` is let through: gcc writes it for __builtin_ctz as
`rep bsf`, which an older CPU runs as `bsf`, the same for any input but zero (which ctz leaves
undefined).

    tools/check_isa.py BINARY [--map BINARY.map] [--allow OBJECT_SUFFIX]...

Exit status 0 when nothing is found, 1 (with each function and its first such instruction)
otherwise; `--count` prints how many instructions beyond v2 lie inside the allowed ranges too.
"""
import argparse
import re
import subprocess
import sys

# Mnemonics of x86-64-v3 and later that use no vector register (BMI1, BMI2, LZCNT, MOVBE).
SCALAR_BEYOND_V2 = {"andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx", "sarx",
                    "shlx", "shrx", "lzcnt", "movbe"}
VECTOR_REGISTER = re.compile(r"%(ymm|zmm)\d+|%k[0-7]\b|\{%k[0-7]\}")
# Every AVX (VEX or EVEX) instruction is named with a leading v: vmovdqu, vpxor, vzeroupper, ...
VEX_MNEMONIC = re.compile(r"^v[a-z0-9]+$")
# " .text    0x000000000007e1d0     0xc265 build/release/src/core/rules_w1_pext.o", or with a long
# section name, the address, size and file on the next line.
MAP_SECTION = re.compile(r"^ (\.text\S*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+\.o)\s*$")


def beyond_v2(mnemonic, operands):
    """Does this instruction need more than x86-64-v2?"""
    return mnemonic in SCALAR_BEYOND_V2 or bool(VEX_MNEMONIC.match(mnemonic)) or bool(VECTOR_REGISTER.search(operands))


def allowed_ranges(map_path, suffixes):
    """The [start, end) address ranges of the code (.text*) of the objects whose path ends in
    one of the suffixes, from a GNU ld map file."""
    ranges, section = [], None
    with open(map_path) as f:
        for line in f:
            if re.match(r"^ \.\S+\s*$", line):  # a long section name, alone on its line
                section = line.strip()
                continue
            m = MAP_SECTION.match(line)
            name = m and (m.group(1) or section)
            if m and name.startswith(".text") and any(m.group(4).endswith(s) for s in suffixes):
                start, size = int(m.group(2), 16), int(m.group(3), 16)
                if size:
                    ranges.append((start, start + size))
            section = None
    return ranges


def instructions(binary):
    """Yields (function, address, mnemonic, operands) for every instruction of the binary."""
    proc = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", "-M", "att", binary], stdout=subprocess.PIPE,
                            text=True)
    function = "?"
    for line in proc.stdout:
        head = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if head:
            function = head.group(1)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(?:(?:rep[nz]?|lock|notrack|bnd|data16|addr32|cs|ds)\s+)*(\S+)\s*(.*)$",
                     line)
        if m:
            yield function, int(m.group(1), 16), m.group(2), m.group(3)
    if proc.wait() != 0:
        raise SystemExit("objdump failed on %s" % binary)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--map", help="the link map (default BINARY.map)")
    parser.add_argument("--allow", action="append", default=[], help="an object whose code may go beyond v2")
    parser.add_argument("--count", action="store_true", help="also count the instructions beyond v2 allowed")
    args = parser.parse_args()
    ranges = allowed_ranges(args.map or args.binary + ".map", args.allow) if args.allow else []
    if args.allow and not ranges:
        print("no code of %s in the link map" % ", ".join(args.allow))
        return 1
    found, inside = {}, 0
    for function, address, mnemonic, operands in instructions(args.binary):
        if not beyond_v2(mnemonic, operands):
            continue
        if any(start <= address < end for start, end in ranges):
            inside += 1
        elif function not in found:
            found[function] = "%x: %s %s" % (address, mnemonic, operands)
    for function, first in sorted(found.items()):
        print("beyond x86-64-v2 in %s: %s" % (function, first))
    if args.count:
        print("%d instructions beyond x86-64-v2 in the code allowed" % inside)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
