/* The built-in nets (data/nets/*.nnue, concatenated by the Makefile into build/nets.bin; the
 * format in docs/nnue.md), compiled in. */
    .section .rodata
    .balign 64
    .global nnue_builtin_blob
    .global nnue_builtin_blob_end
nnue_builtin_blob:
    .incbin "build/nets.bin"
nnue_builtin_blob_end:
    .section .note.GNU-stack, "", @progbits
