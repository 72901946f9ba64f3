/* The derived tablebase rules (derived_data.bin, format in tb_derived.h), compiled in. */
    .section .rodata
    .balign 16
    .global tb_derived_blob
    .global tb_derived_blob_end
tb_derived_blob:
    .incbin "src/tablebase/derived_data.bin"
tb_derived_blob_end:
    .section .note.GNU-stack, "", @progbits
